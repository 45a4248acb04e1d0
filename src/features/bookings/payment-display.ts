import type { WorkspaceRecord } from '../../ports/storage/index.ts';
import { formatMoney } from '../../core/money.ts';
import { bookingPayment, paymentLine, type BookingMoney, type PaymentWords } from '../../core/booking-payment.ts';
import { messagesFor } from '../../core/i18n/catalogue.ts';

/*
 * How a booking's time and price read to a customer: on the checkout pages and as the line item a payment
 * provider shows. Times are in the workspace's zone, in its language and clock (24h or 12h).
 */

/** `locale` (BCP 47, such as en-GB) writes the dates when set; else the language does. */
type DisplayWorkspace = Pick<WorkspaceRecord, 'timezone' | 'language' | 'timeFormat'> & { locale?: string | null };

/** The workspace's language when the runtime knows it, else English (a page must render whatever is stored). */
function localeOf(language: string): string {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([language])[0] ?? 'en';
  } catch {
    return 'en';
  }
}

export interface StartDisplay {
  /** the calendar day in full, e.g. `Tuesday, November 24, 2026` */
  date: string;
  /** `10:00` (24h) or `10:00 AM` (12h) */
  time: string;
  /** the IANA zone, e.g. `Europe/Berlin` */
  timezone: string;
}

/** An instant (epoch ms) as a day and a time in the workspace's zone, language and clock. */
export function displayStart(workspace: DisplayWorkspace, at: number): StartDisplay {
  const locale = localeOf(workspace.locale ?? workspace.language);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: workspace.timezone }).format(at);
  const time = new Intl.DateTimeFormat(
    locale,
    workspace.timeFormat === '12h'
      ? { hour: 'numeric', minute: '2-digit', hourCycle: 'h12', timeZone: workspace.timezone }
      : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: workspace.timezone },
  ).format(at);
  return { date, time, timezone: workspace.timezone };
}

/** The line item of a checkout: `Haircut – Tuesday, November 24, 2026, 10:00 (Europe/Berlin)`. */
export function lineItemName(serviceName: string, workspace: DisplayWorkspace, start: number): string {
  const { date, time, timezone } = displayStart(workspace, start);
  return `${serviceName} – ${date}, ${time} (${timezone})`;
}

/** A sum in minor units for people, in the workspace's locale (else its language): `€35.50`, `¥5,000`, `KWD 12.345`. */
export function displayAmount(workspace: Pick<WorkspaceRecord, 'language'> & { locale?: string | null }, amountMinor: number, currency: string): string {
  return formatMoney(amountMinor, currency, localeOf(workspace.locale ?? workspace.language));
}

/**
 * A booking's payment in one sentence, in the workspace's language with amounts in its locale:
 * `Deposit €20.00 now, €69.00 at the appointment`; null when there is no money in the booking.
 */
export function displayPayment(workspace: Pick<WorkspaceRecord, 'language'> & { locale?: string | null }, booking: BookingMoney): string | null {
  const view = bookingPayment(booking);
  if (!view) return null;
  const words: PaymentWords = messagesFor(workspace.language).pages.payment;
  return paymentLine(view, words, (minor) => displayAmount(workspace, minor, view.currency));
}
