import type { BookingRecord, PaymentRecord, WorkspaceRecord } from '../../ports/storage/index.ts';
import { displayAmount, displayPayment, displayStart } from '../bookings/index.ts';
import type { BookingMoney } from '../../core/booking-payment.ts';
import { translator } from '../../core/i18n/catalogue.ts';
import { html } from '../../platform/pages/html.ts';
import { layout } from '../../platform/pages/layout.ts';
import { pageResponse } from '../../platform/pages/response.ts';

/*
 * The checkout pages svc serves itself: the test provider's hosted checkout (Pay and Cancel) and the pages
 * Stripe sends a customer back to. They are built with the page kit (svc's stylesheet, the workspace's colour
 * from its brand stylesheet, no script) in the workspace's language.
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
  workspace: Pick<WorkspaceRecord, 'name' | 'primaryColor' | 'timezone' | 'language' | 'timeFormat'> & { locale?: string | null };
  booking: Pick<BookingRecord, 'startTime' | 'holdExpiresAt'> & BookingMoney;
  serviceName: string | null;
  payment: Pick<PaymentRecord, 'amountMinor' | 'currency'>;
  /** the checkout's id as its address carries it (the Pay and Cancel forms post to it) */
  checkoutId: string;
  /** the test provider's page: shows the Pay and Cancel forms when open, and says that no money moves */
  test: boolean;
  /** the customer's manage page, offered once the booking stands (without mail this is the customer's only way to it) */
  manageUrl?: string | null;
  /** the workspace's booking page: every checkout page leads back to the business */
  businessUrl?: string | null;
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

/** The page of a checkout in any state: the workspace, the service, the time in the workspace's zone and the amount. */
export function renderCheckoutPage(page: CheckoutPage): string {
  const { workspace, booking, payment, state } = page;
  const t = translator(workspace.language, 'pages.checkout');
  const start = displayStart(workspace, booking.startTime);
  const amount = displayAmount(workspace, payment.amountMinor, payment.currency);
  const title = t(`${state}.title`);
  const id = encodeURIComponent(page.checkoutId);
  // What is paid now and what is left for the appointment ("Deposit €20.00 now, €69.00 at the appointment").
  const terms = displayPayment(workspace, booking);
  const rows: [string, string][] = [
    [t('service'), page.serviceName ?? t('serviceFallback')],
    [t('date'), start.date],
    [t('time'), `${start.time} (${start.timezone})`],
    [t('amount'), amount],
    ...(terms ? [[t('payment'), terms] as [string, string]] : []),
  ];
  const open = state === 'open';
  const held = open && booking.holdExpiresAt !== null && html`\n<p>${t('heldUntil', { time: displayStart(workspace, booking.holdExpiresAt).time })}</p>`;
  const actions =
    open
    && page.test
    && html`\n<form method="post" action="/checkout/${id}/pay"><button type="submit" class="pay">${t('pay', { amount })}</button></form>
<form method="post" action="/checkout/${id}/cancel"><button type="submit" class="cancel">${t('cancel')}</button></form>`;
  const note = page.test && html`\n<p class="note">${t('testNote')}</p>`;
  const manage =
    page.manageUrl
    && state === 'paid'
    && html`\n<p class="actions"><a class="button" href="${page.manageUrl}">${t('manage')}</a><a class="button secondary" href="${page.manageUrl}/booking.ics" download>${t('addToCalendar')}</a></p>`;
  const back =
    page.businessUrl
    && state !== 'open'
    && state !== 'processing'
    && html`\n<p class="back"><a href="${page.businessUrl}">${t('backTo', { workspace: workspace.name })}</a></p>`;
  return layout({
    title: `${title} · ${workspace.name}`,
    lang: workspace.language,
    brandColor: workspace.primaryColor,
    bodyClass: 'checkout',
    noindex: true,
    refreshSeconds: state === 'processing' ? 5 : undefined,
    body: html`<main>
<header><p>${workspace.name}</p></header>
<section>
<h1>${title}</h1>
<p>${t(`${state}.message`)}</p>${held}
<dl>
${rows.map(([label, value], i) => html`${i > 0 ? '\n' : ''}<dt>${label}</dt><dd>${value}</dd>`)}
</dl>${manage}${actions}${note}${back}
</section>
</main>`,
  });
}

/** Where Checkout's back link leads (Stripe): the checkout stays open until its hold ends, so nothing changes here. */
export function renderLeftCheckoutPage(): string {
  const t = translator('en', 'pages.checkout.left');
  return layout({
    title: t('title'),
    bodyClass: 'checkout',
    noindex: true,
    body: html`<main>
<section>
<h1>${t('title')}</h1>
<p>${t('message')}</p>
</section>
</main>`,
  });
}

/** Headers of every checkout page: no caching, no framing (a Pay button must not be clickjacked), no referrer. */
export const checkoutResponse = (document: string, status = 200) => pageResponse(document, { status, cache: 'no-store', referrer: 'no-referrer' });
