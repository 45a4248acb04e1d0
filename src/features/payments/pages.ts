import type { BookingRecord, PaymentRecord, WorkspaceRecord } from '../../ports/storage/index.ts';
import { displayAmount, displayStart } from '../bookings/index.ts';

/*
 * The checkout pages svc serves itself: the test provider's hosted checkout (Pay and Cancel) and the pages
 * Stripe sends a customer back to. Each is one self-contained HTML document: inline CSS, no script, no
 * external asset; every piece of text is HTML-escaped.
 */

/** Where a checkout stands, as a customer sees it. */
export type CheckoutState =
  /** payable: Pay and Cancel (test provider) */
  | 'open'
  /** Stripe sent the customer back but its payment event has not arrived yet */
  | 'processing'
  | 'paid'
  /** paid for a booking that was cancelled first */
  | 'refund_due'
  | 'failed'
  /** the hold ran out unpaid */
  | 'expired'
  | 'cancelled';

export interface CheckoutPage {
  state: CheckoutState;
  workspace: Pick<WorkspaceRecord, 'name' | 'primaryColor' | 'timezone' | 'language' | 'timeFormat'>;
  booking: Pick<BookingRecord, 'startTime' | 'holdExpiresAt'>;
  serviceName: string | null;
  payment: Pick<PaymentRecord, 'amountMinor' | 'currency' | 'reference'>;
  /** the test provider's page: shows the Pay and Cancel forms when open, and says that no money moves */
  test: boolean;
}

/**
 * The state of a checkout at `now` (epoch ms). A pending payment whose booking is gone or whose hold ran out is
 * no longer payable, whether or not the scheduler has cancelled the booking yet.
 */
export function checkoutState(
  payment: Pick<PaymentRecord, 'status' | 'refundDue'>,
  booking: Pick<BookingRecord, 'status' | 'holdExpiresAt'>,
  now: number,
  provider: 'test' | 'stripe',
): CheckoutState {
  if (payment.status === 'paid') return payment.refundDue ? 'refund_due' : 'paid';
  if (payment.status === 'failed') return 'failed';
  if (payment.status === 'expired') return 'cancelled';
  if (booking.status === 'CANCELLED' || booking.status === 'COMPLETED') return 'cancelled';
  if (holdOver(booking, now)) return 'expired';
  return provider === 'test' ? 'open' : 'processing';
}

/** Whether the booking's payment hold has run out at `now`. */
export function holdOver(booking: Pick<BookingRecord, 'holdExpiresAt'>, now: number): boolean {
  return booking.holdExpiresAt !== null && now >= booking.holdExpiresAt;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

const DEFAULT_COLOR = '#2563eb';
/** Only a plain #rrggbb goes into the style sheet (the API allows nothing else; a stored oddity falls back). */
const brandColor = (color: string | null) => (color && /^#[0-9a-fA-F]{6}$/.test(color) ? color : DEFAULT_COLOR);

const HEADLINES: Record<CheckoutState, { title: string; message: string }> = {
  open: { title: 'Complete your booking', message: 'Pay now to confirm this booking.' },
  processing: {
    title: 'Payment processing',
    message: 'Your payment is being confirmed. This page refreshes by itself; you can also close it: the booking is confirmed as soon as the payment arrives.',
  },
  paid: { title: 'Booking confirmed', message: 'Thank you: your payment was received and your booking is confirmed.' },
  refund_due: {
    title: 'Payment received for a cancelled booking',
    message: 'This booking had already been cancelled when the payment arrived. The payment will be refunded.',
  },
  failed: { title: 'Payment failed', message: 'The payment did not go through, so the booking was cancelled and its time released.' },
  expired: { title: 'Checkout expired', message: 'The time held for this booking ran out before it was paid. Nothing was charged; please book again.' },
  cancelled: { title: 'Booking cancelled', message: 'This booking was cancelled and its time released. Nothing was charged.' },
};

const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f4f5;color:#18181b}
main{max-width:28rem;margin:3rem auto;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12);overflow:hidden}
header{background:var(--brand);color:#fff;padding:1rem 1.5rem}header p{margin:0;font-weight:600}
section{padding:1.5rem}h1{font-size:1.35rem;margin:0 0 .5rem}p{margin:0 0 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem;margin:0 0 1.5rem}dt{color:#71717a}dd{margin:0;font-weight:500}
form{margin:0 0 .75rem}button{width:100%;padding:.8rem;border-radius:8px;font:inherit;font-weight:600;cursor:pointer}
.pay{background:var(--brand);color:#fff;border:0}.cancel{background:#fff;color:#3f3f46;border:1px solid #d4d4d8}
.note{color:#71717a;font-size:.85rem;margin:1rem 0 0}`;

function documentOf(options: { title: string; color: string; language: string; refresh?: boolean; body: string }): string {
  return `<!doctype html>
<html lang="${escapeHtml(options.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">${options.refresh ? '\n<meta http-equiv="refresh" content="5">' : ''}
<title>${escapeHtml(options.title)}</title>
<style>:root{--brand:${options.color}}
${STYLE}</style>
</head>
<body>
<main>
${options.body}
</main>
</body>
</html>
`;
}

/** The page of a checkout in any state: the workspace, the service, the time in the workspace's zone and the amount. */
export function renderCheckoutPage(page: CheckoutPage): string {
  const { workspace, booking, payment, state } = page;
  const start = displayStart(workspace, booking.startTime);
  const amount = displayAmount(workspace, payment.amountMinor, payment.currency);
  const { title, message } = HEADLINES[state];
  const id = encodeURIComponent(payment.reference);
  const rows: [string, string][] = [
    ['Service', page.serviceName ?? 'Booking'],
    ['Date', start.date],
    ['Time', `${start.time} (${start.timezone})`],
    ['Amount', amount],
  ];
  const held =
    state === 'open' && booking.holdExpiresAt !== null
      ? `\n<p>Your time is held until ${escapeHtml(displayStart(workspace, booking.holdExpiresAt).time)}.</p>`
      : '';
  const actions =
    state === 'open' && page.test
      ? `\n<form method="post" action="/checkout/${id}/pay"><button type="submit" class="pay">Pay ${escapeHtml(amount)}</button></form>
<form method="post" action="/checkout/${id}/cancel"><button type="submit" class="cancel">Cancel booking</button></form>`
      : '';
  const note = page.test ? '\n<p class="note">Test checkout: no real payment is taken.</p>' : '';
  return documentOf({
    title: `${title} · ${workspace.name}`,
    color: brandColor(workspace.primaryColor),
    language: workspace.language,
    refresh: state === 'processing',
    body: `<header><p>${escapeHtml(workspace.name)}</p></header>
<section>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>${held}
<dl>
${rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('\n')}
</dl>${actions}${note}
</section>`,
  });
}

/** Where Checkout's back link leads (Stripe): the checkout stays open until its hold ends, so nothing changes here. */
export function renderLeftCheckoutPage(): string {
  return documentOf({
    title: 'Payment not completed',
    color: DEFAULT_COLOR,
    language: 'en',
    body: `<section>
<h1>Payment not completed</h1>
<p>You left the payment page before paying. The booking is not confirmed: unpaid, it is released when its payment window closes. To keep it, go back to the payment page from your browser history before then.</p>
</section>`,
  });
}

/** Headers of every checkout page: no caching, no framing (a Pay button must not be clickjacked), no referrer. */
export const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};
