/* The widget's values in the visitor's words: amounts, days, the chosen time in the visitor's zone, field errors. */
import type { WidgetContext } from '../context.ts';
import type { Strings } from '../i18n.ts';
import type { ErrorText, FlowState } from '../machine.ts';
import type { WidgetService } from '../../../src/core/widget-protocol.ts';
import { dayAsDate, zonedInstant, zoneOffsetMinutes } from '../time.ts';

export const errorText = (error: ErrorText, strings: Strings) => ('text' in error ? error.text : strings[error.id]);

export function money(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * How the price is paid, in the words the checkout page and the mails use: "Deposit €20.00 now, €69.00 at the
 * appointment" when a deposit is collected online; nothing is said to be due online when payments are off.
 */
export function paymentTerms(service: WidgetService, onlinePayment: boolean, strings: Strings, locale: string): string | null {
  if (service.price <= 0) return null;
  if (!onlinePayment) return strings.allLater(money(service.price, service.currency, locale));
  const deposit = service.depositAmount;
  if (deposit !== null && deposit > 0 && deposit < service.price) {
    // Decimal major units: the rest is computed in cents so that 89 - 20.1 does not print 68.9000001.
    const later = Math.round(service.price * 10_000 - deposit * 10_000) / 10_000;
    return strings.depositNow(money(deposit, service.currency, locale), money(later, service.currency, locale));
  }
  return strings.allNow;
}

export const longDay = (day: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(dayAsDate(day));

/** The chosen time in the visitor's own zone, when it is not the workspace's. */
export function visitorTime(state: FlowState, { locale, visitorZone, strings }: Pick<WidgetContext, 'locale' | 'visitorZone' | 'strings'>): string | null {
  const zone = state.config!.workspace.timezone;
  if (!state.day || !state.time || visitorZone === zone) return null;
  const { epochMs } = zonedInstant(state.day, state.time, zone);
  const when = new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
    hourCycle: state.config!.workspace.timeFormat === '12h' ? 'h12' : 'h23',
    timeZone: visitorZone,
  }).format(epochMs);
  return strings.yourTime(when, zoneName(visitorZone, locale, epochMs));
}

/** The visitor's zone by name: browsers give some zones legacy ids (Asia/Calcutta); "India Standard Time" reads better. */
function zoneName(zone: string, locale: string, at: number): string {
  const name = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'longGeneric' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  return name && !name.startsWith('GMT') ? name : zone;
}

/**
 * Beside the times, when the visitor's clock differs from the workspace's on `day`: how far ahead or behind it is,
 * so the visitor can read every time offered, not only the one chosen.
 */
export function visitorZoneNote(
  state: FlowState,
  day: string,
  { locale, visitorZone, strings }: Pick<WidgetContext, 'locale' | 'visitorZone' | 'strings'>,
): string | null {
  const zone = state.config!.workspace.timezone;
  if (visitorZone === zone) return null;
  const at = zonedInstant(day, '12:00', zone).epochMs;
  const difference = zoneOffsetMinutes(visitorZone, at) - zoneOffsetMinutes(zone, at);
  if (difference === 0) return null;
  const minutes = Math.abs(difference);
  const span = strings.hoursMinutes(Math.floor(minutes / 60), minutes % 60);
  return (difference > 0 ? strings.zoneAhead : strings.zoneBehind)(zoneName(visitorZone, locale, at), span);
}
