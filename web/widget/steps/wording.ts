/* The widget's values in the visitor's words: amounts, days, the chosen time in the visitor's zone, field errors. */
import type { WidgetContext } from '../context.ts';
import type { Strings } from '../i18n.ts';
import type { ErrorText, FlowState } from '../machine.ts';
import { dayAsDate, zonedInstant } from '../time.ts';

export const errorText = (error: ErrorText, strings: Strings) => ('text' in error ? error.text : strings[error.id]);

export function money(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
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
  // browsers name some zones by their legacy ids (Asia/Calcutta): a visitor reads "India Standard Time" more easily
  const name = new Intl.DateTimeFormat(locale, { timeZone: visitorZone, timeZoneName: 'longGeneric' })
    .formatToParts(epochMs)
    .find((part) => part.type === 'timeZoneName')?.value;
  return strings.yourTime(when, name && !name.startsWith('GMT') ? name : visitorZone);
}
