/*
 * Dates and times as the panel shows them: always in the workspace's zone (which the panel names next to them),
 * in the workspace's time format and language. The arithmetic is the widget's (web/widget/time.ts).
 */
import { addDays, dayIn, zonedDateTime } from '../widget/time.ts';
import type { Workspace } from './api/client.ts';

export { addDays, dayIn, zonedDateTime };

type Shown = Pick<Workspace, 'timezone' | 'timeFormat' | 'language'>;

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(workspace: Shown, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${workspace.language}|${workspace.timezone}|${workspace.timeFormat}|${JSON.stringify(options)}`;
  let made = cache.get(key);
  if (!made) {
    const time = 'hour' in options ? { hourCycle: workspace.timeFormat === '12h' ? ('h12' as const) : ('h23' as const) } : {};
    made = new Intl.DateTimeFormat(workspace.language, { timeZone: workspace.timezone, ...time, ...options });
    cache.set(key, made);
  }
  return made;
}

/** `09:30` (or `9:30 AM`) of an instant, in the workspace's zone. */
export const timeOf = (workspace: Shown, iso: string) =>
  formatter(workspace, { hour: workspace.timeFormat === '12h' ? 'numeric' : '2-digit', minute: '2-digit' }).format(new Date(iso));

/** `Mon, 23 Nov` of an instant, in the workspace's zone. */
export const dayLabelOf = (workspace: Shown, iso: string) => formatter(workspace, { weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(iso));

/** `Mon, 23 Nov, 09:30` of an instant, in the workspace's zone. */
export const whenOf = (workspace: Shown, iso: string) => `${dayLabelOf(workspace, iso)}, ${timeOf(workspace, iso)}`;

/** A calendar day `YYYY-MM-DD` as `Monday, 23 November`. */
export const longDayOf = (workspace: Shown, day: string) =>
  new Intl.DateTimeFormat(workspace.language, { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(`${day}T12:00:00Z`));

/** A calendar day `YYYY-MM-DD` as `Mon, 23 Nov`. */
export const shortDayOf = (workspace: Shown, day: string) =>
  new Intl.DateTimeFormat(workspace.language, { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(`${day}T12:00:00Z`));

/** A `HH:mm` wall time in the workspace's format. */
export function wallTimeOf(workspace: Shown, time: string): string {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return new Intl.DateTimeFormat(workspace.language, {
    timeZone: 'UTC',
    hour: workspace.timeFormat === '12h' ? 'numeric' : '2-digit',
    minute: '2-digit',
    hourCycle: workspace.timeFormat === '12h' ? 'h12' : 'h23',
  }).format(Date.UTC(2000, 0, 3, hour, minute));
}

/** Minutes since the workspace's midnight of an instant (for placing it on a day's column). */
export function minutesInDay(workspace: Shown, iso: string): number {
  const [hour, minute] = formatter(workspace, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .format(new Date(iso))
    .split(':')
    .map((part) => Number.parseInt(part, 10)) as [number, number];
  return (hour % 24) * 60 + minute;
}

/** `35,50 €` in the workspace's locale (else its language). */
export const moneyOf = (workspace: Shown & { locale?: string | null }, amount: number, currency: string) =>
  new Intl.NumberFormat(workspace.locale ?? workspace.language, { style: 'currency', currency }).format(amount);

/** Today in the workspace's zone. */
export const todayIn = (workspace: Shown, now = Date.now()) => dayIn(workspace.timezone, now);

/** The instant a workspace day starts, with its offset (what the API's `from` / `to` take). */
export const startOfDay = (workspace: Shown, day: string) => zonedDateTime(day, '00:00', workspace.timezone);
