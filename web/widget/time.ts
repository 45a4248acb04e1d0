/*
 * Calendar and time-zone arithmetic for the widget, on Intl alone (browsers without Temporal). Days are
 * `YYYY-MM-DD` strings and times `HH:mm` strings, as the API gives them, always in the workspace's zone.
 */

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = partsFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormatters.set(zone, formatter);
  }
  return formatter;
}

function wallClock(zone: string, epochMs: number): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const values: Record<string, number> = {};
  for (const part of partsFormatter(zone).formatToParts(epochMs)) if (part.type !== 'literal') values[part.type] = Number(part.value);
  return { year: values.year!, month: values.month!, day: values.day!, hour: values.hour! % 24, minute: values.minute!, second: values.second! };
}

/** The UTC offset of `zone` at an instant, minutes east of UTC (Berlin in summer: 120). */
export function zoneOffsetMinutes(zone: string, epochMs: number): number {
  const wall = wallClock(zone, epochMs);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

function wallMs(date: string, time: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return Date.UTC(year, month - 1, day, hour, minute);
}

/**
 * The instant of the wall time `date` `time` in `zone`, and the offset it has there. As Temporal's
 * 'compatible': a repeated time (autumn) is the earlier one, a skipped time (spring) moves forward by the gap.
 */
export function zonedInstant(date: string, time: string, zone: string): { epochMs: number; offsetMinutes: number } {
  const wall = wallMs(date, time);
  const before = zoneOffsetMinutes(zone, wall - 86_400_000);
  const after = zoneOffsetMinutes(zone, wall + 86_400_000);
  const valid = [before, after]
    .map((offset) => ({ epochMs: wall - offset * 60_000, offsetMinutes: offset }))
    .filter((candidate) => zoneOffsetMinutes(zone, candidate.epochMs) === candidate.offsetMinutes)
    .sort((a, b) => a.epochMs - b.epochMs);
  if (valid[0]) return valid[0];
  const epochMs = wall - before * 60_000;
  return { epochMs, offsetMinutes: zoneOffsetMinutes(zone, epochMs) };
}

/** `2026-03-30T09:00:00+02:00`: the wall time with the zone's offset at that moment (what createBooking takes). */
export function zonedDateTime(date: string, time: string, zone: string): string {
  const { offsetMinutes } = zonedInstant(date, time, zone);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  return `${date}T${time}:00${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/** The calendar day in `zone` at an instant. */
export function dayIn(zone: string, epochMs: number): string {
  const wall = wallClock(zone, epochMs);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** `YYYY-MM` of a day. */
export const monthOf = (date: string) => date.slice(0, 7);

export function addMonths(month: string, months: number): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index - 1 + months, 1)).toISOString().slice(0, 7);
}

export function lastDayOfMonth(month: string): string {
  return addDays(`${addMonths(month, 1)}-01`, -1);
}

/** 1 = Monday … 7 = Sunday. */
export function weekday(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return ((new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7) + 1;
}

/** The weeks (Monday first) of a month; days of other months are null. */
export function monthWeeks(month: string): (string | null)[][] {
  const first = `${month}-01`;
  const last = lastDayOfMonth(month);
  const weeks: (string | null)[][] = [];
  let week: (string | null)[] = Array.from({ length: weekday(first) - 1 }, () => null);
  for (let day = first; day <= last; day = addDays(day, 1)) {
    week.push(day);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length > 0) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return weeks;
}

/** A day as a UTC instant at noon, for formatting it with `timeZone: 'UTC'` whatever the visitor's zone. */
export function dayAsDate(date: string): Date {
  return new Date(`${date}T12:00:00Z`);
}

/** A wall time `HH:mm` in the workspace's format: 24h keeps it, 12h gives `9:00 AM` in the locale's words. */
export function formatWallTime(time: string, timeFormat: '24h' | '12h', locale: string): string {
  if (timeFormat === '24h') return time;
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', hour12: true, timeZone: 'UTC' }).format(Date.UTC(2000, 0, 3, hour, minute));
}

/** The visitor's zone as the browser reports it. */
export function visitorZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
