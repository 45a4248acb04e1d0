import ICAL from 'ical.js';

/*
 * A provider's other calendars as busy time (docs/contract/calendars.md §5): the events of a calendar, as its
 * iCalendar data states them, become the intervals in which the provider is busy.
 *
 * The rules, all of them here and nowhere else:
 * - A recurring event repeats in its own zone's wall-clock time: a 09:00 weekly meeting in New York stays at
 *   09:00 New York time across both DST changes, so its UTC instant moves. The recurrence rule itself (RRULE with
 *   its BY* parts, COUNT and UNTIL) is expanded by ical.js over wall-clock times; this file only turns each
 *   wall-clock occurrence into an instant.
 * - A wall-clock time that does not exist (inside a spring-forward gap) moves forward by the gap's length; one that
 *   exists twice (fall-back) is the earlier of the two (RFC 5545 §3.3.5; Temporal's `compatible`).
 * - RDATE adds occurrences, EXDATE removes them (matched by instant, or by date for all-day series), and an event
 *   with a RECURRENCE-ID replaces the occurrence that starts at that instant.
 * - An all-day event (DTSTART;VALUE=DATE) blocks its dates from 00:00 to 24:00 in the workspace zone, whatever
 *   zone the calendar was written in; a floating time (no zone, no Z) is read in the workspace zone.
 * - With DTEND, every occurrence lasts the exact span DTEND − DTSTART; with DURATION, the duration is added in the
 *   event's zone (days nominal, hours exact, as RFC 5545 §3.3.6 says).
 * - Transparent (free) and cancelled events block nothing; a cancelled override removes its occurrence.
 */

/** A time as an event states it. `local` is a wall-clock `YYYY-MM-DDTHH:mm:ss`. */
export type EventTime =
  /** an all-day value (VALUE=DATE): `YYYY-MM-DD` */
  | { date: string }
  /** a UTC time (…Z): `local` is the UTC wall clock */
  | { local: string; zone: 'UTC' }
  /** a time in an IANA zone (the adapter has already turned TZIDs, Windows names included, into IANA names) */
  | { local: string; zone: string }
  /** a floating time: read in the workspace zone */
  | { local: string; zone: null };

/** One VEVENT of a calendar, as the calendar adapters hand it over. */
export interface CalendarEvent {
  uid: string;
  start: EventTime;
  /** DTEND as stated; null when the event has a DURATION or neither */
  end: EventTime | null;
  /** DURATION (ISO 8601, `PT1H`, `P1D`) when there is no DTEND; neither: a timed event lasts 0, an all-day one 1 day */
  duration: string | null;
  /** the RRULE value (`FREQ=WEEKLY;BYDAY=MO`), null for a single event */
  rrule: string | null;
  rdates: EventTime[];
  exdates: EventTime[];
  /** RECURRENCE-ID: this event replaces that occurrence of the series with the same UID */
  recurrenceId: EventTime | null;
  /** TRANSP:TRANSPARENT (shown as free) */
  transparent: boolean;
  /** STATUS:CANCELLED */
  cancelled: boolean;
}

/** A span in which the provider is busy, epoch ms, end exclusive; `uid` is the event's. */
export interface BusyInterval {
  uid: string;
  start: number;
  end: number;
}

/** The span busy times are wanted for, epoch ms, end exclusive. */
export interface BusyWindow {
  from: number;
  to: number;
}

/** Occurrences one series may produce before expansion stops (a daily event over 270 years). */
export const MAX_OCCURRENCES = 100_000;
const DAY_MS = 86_400_000;

type Occurrence = { kind: 'date'; date: string } | { kind: 'time'; local: string; zone: string };

const plainDateTime = (local: string) => Temporal.PlainDateTime.from(local);

/** The instant of a wall-clock time in `zone`: a gap moves forward by its length, an overlap takes the earlier. */
function instantOf(local: string, zone: string): number {
  return plainDateTime(local).toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds;
}

/** The wall-clock time of an instant in `zone`. */
function wallClockOf(instant: number, zone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone).toPlainDateTime().toString({ smallestUnit: 'second' });
}

/** The zone a timed value is read in. */
const zoneOf = (time: Exclude<EventTime, { date: string }>, workspaceZone: string) => time.zone ?? workspaceZone;

/** 00:00 of `date` in `zone` (the start of the day, which a DST change at midnight moves to 01:00). */
const startOfDay = (date: string, zone: string) => Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: zone }).epochMilliseconds;

const addDays = (date: string, days: number) => Temporal.PlainDate.from(date).add({ days }).toString();

/** The instant an event time stands for (a date: 00:00 in the workspace zone). */
function instantOfTime(time: EventTime, workspaceZone: string): number {
  if ('date' in time) return startOfDay(time.date, workspaceZone);
  return instantOf(time.local, zoneOf(time, workspaceZone));
}

/** The key an occurrence is matched by (EXDATE, RECURRENCE-ID): its date for all-day series, else its instant. */
function occurrenceKey(occurrence: Occurrence): string {
  return occurrence.kind === 'date' ? occurrence.date : String(instantOf(occurrence.local, occurrence.zone));
}

/** The key of an EXDATE or RECURRENCE-ID value against a series that starts with `series`. */
function keyAgainst(time: EventTime, series: Occurrence, workspaceZone: string): string {
  if (series.kind === 'date') {
    if ('date' in time) return time.date;
    // A timed value against an all-day series: the date it falls on in the series' (the workspace's) zone.
    return wallClockOf(instantOf(time.local, zoneOf(time, workspaceZone)), workspaceZone).slice(0, 10);
  }
  if ('date' in time) return String(instantOf(`${time.date}T${series.local.slice(11)}`, series.zone));
  return String(instantOf(time.local, zoneOf(time, workspaceZone)));
}

function firstOccurrence(event: CalendarEvent, workspaceZone: string): Occurrence {
  const start = event.start;
  if ('date' in start) return { kind: 'date', date: start.date };
  return { kind: 'time', local: start.local, zone: zoneOf(start, workspaceZone) };
}

/** How each occurrence's end follows from its start. */
type Span = { days: number } | { exactMs: number } | { duration: Temporal.Duration };

function spanOf(event: CalendarEvent, workspaceZone: string): Span {
  const start = event.start;
  if ('date' in start) {
    if (event.end && 'date' in event.end) return { days: Math.max(1, Temporal.PlainDate.from(start.date).until(event.end.date).days) };
    if (event.duration) return { days: Math.max(1, Math.ceil(Temporal.Duration.from(event.duration).total({ unit: 'days', relativeTo: start.date }))) };
    return { days: 1 };
  }
  if (event.end) return { exactMs: instantOfTime(event.end, workspaceZone) - instantOfTime(start, workspaceZone) };
  if (event.duration) return { duration: Temporal.Duration.from(event.duration) };
  return { exactMs: 0 };
}

/** At most how long an occurrence with this span lasts, ms. */
function reachOf(span: Span): number {
  if ('days' in span) return (span.days + 1) * DAY_MS;
  if ('exactMs' in span) return Math.max(0, span.exactMs);
  // Months and years vary by a few days; measured from any fixed date, three days of slack cover them.
  return span.duration.total({ unit: 'milliseconds', relativeTo: '2000-01-01' }) + 3 * DAY_MS;
}

function intervalOf(occurrence: Occurrence, span: Span, workspaceZone: string): { start: number; end: number } {
  if (occurrence.kind === 'date') {
    const days = 'days' in span ? span.days : 1;
    return { start: startOfDay(occurrence.date, workspaceZone), end: startOfDay(addDays(occurrence.date, days), workspaceZone) };
  }
  const zoned = plainDateTime(occurrence.local).toZonedDateTime(occurrence.zone, { disambiguation: 'compatible' });
  const start = zoned.epochMilliseconds;
  if ('exactMs' in span) return { start, end: start + span.exactMs };
  if ('duration' in span) return { start, end: zoned.add(span.duration).epochMilliseconds };
  return { start, end: start };
}

/** The wall-clock value ical.js iterates: floating, so no zone data of ical.js is involved. */
function toIcalTime(occurrence: Occurrence): ICAL.Time {
  return occurrence.kind === 'date' ? ICAL.Time.fromDateString(occurrence.date) : ICAL.Time.fromDateTimeString(occurrence.local);
}

function fromIcalTime(time: ICAL.Time, series: Occurrence): Occurrence {
  const text = time.toString();
  if (series.kind === 'date') return { kind: 'date', date: text.slice(0, 10) };
  return { kind: 'time', local: time.isDate ? `${text}T${series.local.slice(11)}` : text.slice(0, 19), zone: series.zone };
}

/** An RDATE as an occurrence of `series` (a date against a timed series keeps the series' time of day). */
function rdateOccurrence(time: EventTime, series: Occurrence, workspaceZone: string): Occurrence {
  if (series.kind === 'date') return { kind: 'date', date: 'date' in time ? time.date : time.local.slice(0, 10) };
  if ('date' in time) return { kind: 'time', local: `${time.date}T${series.local.slice(11)}`, zone: series.zone };
  return { kind: 'time', local: wallClockOf(instantOf(time.local, zoneOf(time, workspaceZone)), series.zone), zone: series.zone };
}

/**
 * The occurrences of a series that may touch the window: the RRULE occurrences from the last that could still reach
 * into the window to the window's end (as wall-clock times in the series' zone, with a day of slack for zone
 * offsets), then the RDATEs.
 */
function seriesOccurrences(event: CalendarEvent, first: Occurrence, span: Span, window: BusyWindow, workspaceZone: string): Occurrence[] {
  const occurrences: Occurrence[] = [];
  if (event.rrule) {
    const zone = first.kind === 'date' ? workspaceZone : first.zone;
    const lastLocal = wallClockOf(window.to + DAY_MS, zone);
    const last = first.kind === 'date' ? lastLocal.slice(0, 10) : lastLocal;
    // Occurrences that start this long before the window end before it (the span plus a day of slack for offsets).
    const firstLocal = wallClockOf(window.from - reachOf(span) - DAY_MS, zone);
    const earliest = first.kind === 'date' ? firstLocal.slice(0, 10) : firstLocal;
    const iterator = ICAL.Recur.fromString(event.rrule).iterator(toIcalTime(first));
    for (let next = iterator.next(), count = 0; next && count < MAX_OCCURRENCES; next = iterator.next(), count++) {
      const occurrence = fromIcalTime(next, first);
      const local = occurrence.kind === 'date' ? occurrence.date : occurrence.local;
      if (local > last) break;
      if (local >= earliest) occurrences.push(occurrence);
    }
  } else {
    occurrences.push(first);
  }
  for (const rdate of event.rdates) occurrences.push(rdateOccurrence(rdate, first, workspaceZone));
  return occurrences;
}

/**
 * The busy intervals of `events` that overlap `window`, in start order. `workspaceZone` (IANA) places all-day and
 * floating events. Events svc wrote itself are the caller's to leave out (by UID) before calling.
 */
export function expandBusyTimes(events: CalendarEvent[], window: BusyWindow, workspaceZone: string): BusyInterval[] {
  const overridesOf = new Map<string, CalendarEvent[]>();
  const masters: CalendarEvent[] = [];
  for (const event of events) {
    if (event.recurrenceId) overridesOf.set(event.uid, [...(overridesOf.get(event.uid) ?? []), event]);
    else masters.push(event);
  }
  const busy: BusyInterval[] = [];
  const add = (uid: string, interval: { start: number; end: number }) => {
    if (interval.end > interval.start && interval.end > window.from && interval.start < window.to) busy.push({ uid, ...interval });
  };
  const singles = (event: CalendarEvent) => {
    if (event.transparent || event.cancelled) return;
    add(event.uid, intervalOf(firstOccurrence(event, workspaceZone), spanOf(event, workspaceZone), workspaceZone));
  };

  const seriesUids = new Set<string>();
  for (const master of masters) {
    seriesUids.add(master.uid);
    if (master.cancelled) continue;
    const overrides = overridesOf.get(master.uid) ?? [];
    const first = firstOccurrence(master, workspaceZone);
    const removed = new Set<string>([
      ...master.exdates.map((time) => keyAgainst(time, first, workspaceZone)),
      ...overrides.map((override) => keyAgainst(override.recurrenceId!, first, workspaceZone)),
    ]);
    if (!master.transparent) {
      const span = spanOf(master, workspaceZone);
      const seen = new Set<string>();
      for (const occurrence of seriesOccurrences(master, first, span, window, workspaceZone)) {
        const key = occurrenceKey(occurrence);
        if (removed.has(key) || seen.has(key)) continue;
        seen.add(key);
        add(master.uid, intervalOf(occurrence, span, workspaceZone));
      }
    }
    for (const override of overrides) singles(override);
  }
  // Overrides whose series is not in the data (a server may send only the changed occurrence) stand alone.
  for (const [uid, overrides] of overridesOf) if (!seriesUids.has(uid)) for (const override of overrides) singles(override);

  return busy.sort((a, b) => a.start - b.start || a.end - b.end || a.uid.localeCompare(b.uid));
}
