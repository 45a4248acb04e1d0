/**
 * The slot engine: which start times of a provider are bookable.
 *
 * Pure: plain values in, plain values out. No HTTP, no SQL, no clock (`now` is an argument, epoch ms). The
 * candidate starts of a day, a function of its arguments alone, are kept between calls (CandidateCache).
 * Wall-clock times are resolved to instants only through `Temporal`:
 * - a wall-clock start that does not exist (spring-forward gap) yields no slot;
 * - a wall-clock start that exists twice (fall-back overlap) yields one slot, at the earlier instant;
 * - an interval ends at the first instant the clock shows its end time or later: the earlier instant when
 *   that time exists twice, the transition instant when it falls in a gap, and the start of the next day
 *   for "24:00". So no instant of a slot shows a wall-clock time at or after its interval's end;
 * - slot starts are walked in wall-clock time, the duration is added in absolute time.
 */

import { memoIn } from './loading-cache.ts';

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/** Monday first, the order of ISO `dayOfWeek` (1 = Monday). */
export const WEEKDAYS: readonly Weekday[] = Object.freeze(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const);

/** Wall-clock interval in the workspace time zone, "HH:mm" 24h; end > start; end may be "24:00". */
export interface WorkingInterval {
  start: string;
  end: string;
}

/** Working intervals of one calendar day that replace the weekly ones. */
export interface DateException {
  /** YYYY-MM-DD */
  date: string;
  /** [] = closed */
  intervals: WorkingInterval[];
}

export interface WorkingHours {
  weekly: Record<Weekday, WorkingInterval[]>;
  exceptions: DateException[];
}

export interface SlotRules {
  serviceId: string;
  /** minutes, length of a booking (the booking's own duration when given, min 5) */
  duration: number;
  /** minutes kept free before and after every booking of this service */
  bufferTime: number;
  /** minutes: a slot must start at least this long after now */
  minNotice: number;
  /** days: a slot must start no later than now + maxAdvance days (24 h each); null = unlimited */
  maxAdvance: number | null;
  /** bookings of this service that may share one slot */
  capacity: number;
  /** minutes between slot starts; default (null or absent) = duration */
  slotInterval?: number | null;
}

/**
 * A PENDING or CONFIRMED booking already on the provider (any service), or another commitment of theirs (a busy
 * time of a blocking calendar: `serviceId` null, `bufferTime` 0). Instants are epoch milliseconds (UTC).
 */
export interface BusyBooking {
  /** null: not a booking, so it never shares a slot of a class */
  serviceId: string | null;
  start: number;
  end: number;
  /** minutes, the buffer of that booking's service */
  bufferTime: number;
  /** what holds the time, for explainDay (the other functions ignore it) */
  source?: BusySource;
}

/** Which booking or which calendar holds a busy time (never an event's title). */
export type BusySource = { kind: 'booking'; bookingId: string } | { kind: 'calendar'; connectionId: string; calendarId: string };

/** Why a start time is not bookable, as explainDay reports it (docs/contract/calendars.md §11). */
export type ExplainReason =
  | { code: 'PAST' | 'MIN_NOTICE' | 'MAX_ADVANCE' | 'OUTSIDE_HOURS' | 'EXCEPTION' | 'BUFFER' | 'FULL' }
  | { code: 'BOOKED'; bookingId: string }
  | { code: 'CALENDAR_BUSY'; connectionId: string; calendarId: string };

/** A start time of the service's grid on one day, with every reason it is not bookable (none: it is). */
export interface ExplainedTime {
  /** "HH:mm" in the time zone */
  label: string;
  /** epoch ms */
  start: number;
  reasons: ExplainReason[];
}

export interface ProviderDay {
  /** IANA time zone name */
  timezone: string;
  /** the provider's own hours, or the workspace's (the caller resolves the fallback) */
  hours: WorkingHours;
  /** may be unsorted and may reach far outside the day */
  bookings: BusyBooking[];
}

export interface Slot {
  /** epoch ms */
  start: number;
  /** epoch ms, start + duration */
  end: number;
  /** "HH:mm" in the time zone */
  label: string;
}

export type Unavailability = 'in_the_past' | 'too_soon' | 'too_far_ahead' | 'outside_hours' | 'taken';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const MINUTES_PER_DAY = 1440;
const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Slots of one calendar day (date = YYYY-MM-DD in `timezone`) for one provider, ascending, unique labels. */
export function daySlots(day: ProviderDay, rules: SlotRules, date: string, now: number): Slot[] {
  return unionDaySlots(day.timezone, [day], rules, date, now);
}

/** A provider as the union functions take it: its hours (own or the workspace's) and its busy bookings. */
export type ProviderHours = Omit<ProviderDay, 'timezone'>;

/**
 * The slots of `date` over several providers of one time zone: `mergeSlots` of each one's `daySlots`. The
 * candidate starts of the day are worked out once per distinct set of working intervals and shared between the
 * providers working them.
 */
export function unionDaySlots(timezone: string, providers: readonly ProviderHours[], rules: SlotRules, date: string, now: number): Slot[] {
  const rule = checkRules(rules);
  const plainDate = parseDate(date, 'date');
  const candidates = new CandidateCache(timezone, rule);
  const lists: Slot[][] = [];
  for (const provider of providers) {
    const slots = candidates.of(provider.hours, plainDate);
    if (slots.length === 0) continue;
    const busy = BookingIndex.build(provider.bookings, rule, slots[0]!.start, slots[slots.length - 1]!.end);
    lists.push(slots.filter((slot) => timeRule(rule, slot.start, now) === null && !busy.takes(slot, rule)));
  }
  return lists.length === 1 ? lists[0]! : mergeSlots(lists);
}

/** Why `start` (epoch ms) is not bookable for this provider, or null when it is a slot. */
export function whyUnavailable(day: ProviderDay, rules: SlotRules, start: number, now: number): Unavailability | null {
  const rule = checkRules(rules);
  const reason = timeRule(rule, start, now);
  if (reason !== null) return reason;
  if (!Number.isFinite(start)) return 'outside_hours';
  const localDate = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(day.timezone).toPlainDate();
  const slot = dayCandidates(intervalsOf(day.hours, localDate), day.timezone, rule, localDate).find((candidate) => candidate.start === start);
  if (slot === undefined) return 'outside_hours';
  return BookingIndex.build(day.bookings, rule, slot.start, slot.end).takes(slot, rule) ? 'taken' : null;
}

/**
 * The seats one provider has left at `start` (epoch ms): 0 when the time fails the clock's rules, is not a start
 * of its day, or is blocked; else the capacity less the same-service bookings sharing it.
 */
export function seatsAt(day: ProviderDay, rules: SlotRules, start: number, now: number): number {
  const rule = checkRules(rules);
  if (timeRule(rule, start, now) !== null || !Number.isFinite(start)) return 0;
  const localDate = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(day.timezone).toPlainDate();
  const slot = dayCandidates(intervalsOf(day.hours, localDate), day.timezone, rule, localDate).find((candidate) => candidate.start === start);
  if (slot === undefined) return 0;
  return BookingIndex.build(day.bookings, rule, slot.start, slot.end).room(slot, rule);
}

/**
 * Every start time of the service's grid on `date` for one provider (the wall-clock times from 00:00 in steps of
 * `slotInterval`, and the starts of its working intervals when they lie off that grid), each with all the reasons
 * it is not bookable. A time without reasons is exactly one `daySlots` answers: the same rules, spelled out.
 */
export function explainDay(day: ProviderDay, rules: SlotRules, date: string, now: number): ExplainedTime[] {
  const rule = checkRules(rules);
  const plainDate = parseDate(date, 'date');
  const candidates = dayCandidates(intervalsOf(day.hours, plainDate), day.timezone, rule, plainDate);
  const offered = new Set(candidates.map((slot) => slot.start));
  const excepted = day.hours.exceptions.some((exception) => exception.date === plainDate.toString());
  const times = new Map<number, string>();
  for (let minutes = 0; minutes < MINUTES_PER_DAY; minutes += rule.stepMinutes) {
    const start = startInstant(plainDate, minutes, day.timezone);
    if (start !== null) times.set(start, label(minutes));
  }
  for (const slot of candidates) times.set(slot.start, slot.label);
  const explained: ExplainedTime[] = [];
  for (const [start, text] of [...times.entries()].sort((a, b) => a[0] - b[0])) {
    const end = start + rule.durationMs;
    const reasons: ExplainReason[] = [];
    const time = timeRule(rule, start, now);
    if (time) reasons.push({ code: time === 'in_the_past' ? 'PAST' : time === 'too_soon' ? 'MIN_NOTICE' : 'MAX_ADVANCE' });
    if (!offered.has(start)) reasons.push({ code: excepted ? 'EXCEPTION' : 'OUTSIDE_HOURS' });
    let sharing = 0;
    let buffer = false;
    const seen = new Set<string>();
    for (const other of day.bookings) {
      const gap = Math.max(rule.bufferMs, other.bufferTime * MINUTE_MS);
      if (!(start < other.end + gap && other.start < end + gap)) continue;
      if (!(other.start < end && start < other.end)) {
        buffer = true;
        continue;
      }
      const source = other.source;
      if (source?.kind === 'calendar') {
        const key = `${source.connectionId} ${source.calendarId}`;
        if (!seen.has(key)) reasons.push({ code: 'CALENDAR_BUSY', connectionId: source.connectionId, calendarId: source.calendarId });
        seen.add(key);
      } else if (rule.capacity === 1 || other.serviceId !== rule.serviceId) {
        reasons.push({ code: 'BOOKED', bookingId: source?.bookingId ?? '' });
      } else {
        sharing += 1;
      }
    }
    if (sharing >= rule.capacity) reasons.push({ code: 'FULL' });
    if (buffer) reasons.push({ code: 'BUFFER' });
    explained.push({ label: text, start, reasons });
  }
  return explained;
}

/** Days in [from, to] (inclusive, YYYY-MM-DD) with at least one slot. */
export function daysWithSlots(day: ProviderDay, rules: SlotRules, from: string, to: string, now: number): string[] {
  return unionDaysWithSlots(day.timezone, [day], rules, from, to, now);
}

/**
 * Days in [from, to] (inclusive, YYYY-MM-DD) on which at least one of the providers (one time zone) has a slot:
 * the union of each one's `daysWithSlots`. Each provider's bookings are indexed once for the whole range, the
 * candidate starts of a day are worked out once per distinct set of working intervals, and a day stops being
 * examined at its first provider with a slot.
 */
export function unionDaysWithSlots(timezone: string, providers: readonly ProviderHours[], rules: SlotRules, from: string, to: string, now: number): string[] {
  const rule = checkRules(rules);
  const first = parseDate(from, 'from');
  const last = parseDate(to, 'to');
  if (Temporal.PlainDate.compare(first, last) > 0) return [];

  // One pass over each provider's bookings for the whole range; each day then binary-searches its own window.
  const rangeStart = first.toZonedDateTime(timezone).epochMilliseconds;
  const rangeEnd = last.add({ days: 2 }).toZonedDateTime(timezone).epochMilliseconds;
  const indexed = providers.map((provider) => ({ hours: provider.hours, busy: BookingIndex.build(provider.bookings, rule, rangeStart, rangeEnd) }));
  const candidates = new CandidateCache(timezone, rule);

  const days: string[] = [];
  for (let date = first; Temporal.PlainDate.compare(date, last) <= 0; date = date.add({ days: 1 })) {
    const iso = date.toString();
    if (indexed.some(({ hours, busy }) => busy.anyFree(candidates.of(hours, date, iso), rule, now))) days.push(iso);
  }
  return days;
}

/**
 * Seats left per start time (`HH:mm`) on each day of [from, to] (inclusive, YYYY-MM-DD) over several providers of
 * one time zone: the sum of each provider's free seats. A time every provider has full counts 0 and is listed
 * only with `withFull` (and only when it passes the clock's rules and is on a provider's grid); days with nothing
 * listed are left out.
 */
export function unionSeats(
  timezone: string,
  providers: readonly ProviderHours[],
  rules: SlotRules,
  from: string,
  to: string,
  now: number,
  withFull: boolean,
): Record<string, Record<string, number>> {
  const rule = checkRules(rules);
  const first = parseDate(from, 'from');
  const last = parseDate(to, 'to');
  const result: Record<string, Record<string, number>> = {};
  if (Temporal.PlainDate.compare(first, last) > 0) return result;
  const rangeStart = first.toZonedDateTime(timezone).epochMilliseconds;
  const rangeEnd = last.add({ days: 2 }).toZonedDateTime(timezone).epochMilliseconds;
  const indexed = providers.map((provider) => ({ hours: provider.hours, busy: BookingIndex.build(provider.bookings, rule, rangeStart, rangeEnd) }));
  const candidates = new CandidateCache(timezone, rule);
  for (let date = first; Temporal.PlainDate.compare(date, last) <= 0; date = date.add({ days: 1 })) {
    const iso = date.toString();
    const seats = new Map<string, { start: number; seats: number }>();
    for (const { hours, busy } of indexed) {
      for (const slot of candidates.of(hours, date, iso)) {
        if (timeRule(rule, slot.start, now) !== null) continue;
        const room = busy.room(slot, rule);
        const kept = seats.get(slot.label);
        seats.set(slot.label, { start: Math.min(kept?.start ?? slot.start, slot.start), seats: (kept?.seats ?? 0) + room });
      }
    }
    const listed = [...seats.entries()].filter(([, value]) => withFull || value.seats > 0).sort((a, b) => a[1].start - b[1].start || compareText(a[0], b[0]));
    if (listed.length > 0) result[iso] = Object.fromEntries(listed.map(([label, value]) => [label, value.seats]));
  }
  return result;
}

/** Union of several providers' slot lists: ascending by start, one entry per label (earliest start wins). */
export function mergeSlots(lists: Slot[][]): Slot[] {
  const byLabel = new Map<string, Slot>();
  for (const list of lists) {
    for (const slot of list) {
      const kept = byLabel.get(slot.label);
      if (kept === undefined || slot.start < kept.start) byLabel.set(slot.label, slot);
    }
  }
  return [...byLabel.values()].sort((a, b) => a.start - b.start || compareText(a.label, b.label));
}

// ---------------------------------------------------------------------------------------------------------------

/** Rules with the defaults applied and the minutes turned into milliseconds. */
interface Rule {
  serviceId: string;
  durationMs: number;
  bufferMs: number;
  minNoticeMs: number;
  maxAdvanceMs: number | null;
  capacity: number;
  stepMinutes: number;
}

function checkRules(rules: SlotRules): Rule {
  const step = rules.slotInterval ?? rules.duration;
  if (!(Number.isFinite(rules.duration) && rules.duration > 0)) {
    throw new RangeError(`duration must be a positive number of minutes, got ${rules.duration}`);
  }
  if (!(Number.isInteger(step) && step > 0)) {
    throw new RangeError(`slotInterval (default: duration) must be a whole number of minutes above 0, got ${step}`);
  }
  if (!(Number.isFinite(rules.bufferTime) && rules.bufferTime >= 0)) {
    throw new RangeError(`bufferTime must be 0 or more minutes, got ${rules.bufferTime}`);
  }
  if (!(Number.isFinite(rules.minNotice) && rules.minNotice >= 0)) {
    throw new RangeError(`minNotice must be 0 or more minutes, got ${rules.minNotice}`);
  }
  if (rules.maxAdvance !== null && !(Number.isFinite(rules.maxAdvance) && rules.maxAdvance >= 0)) {
    throw new RangeError(`maxAdvance must be null or 0 or more days, got ${rules.maxAdvance}`);
  }
  if (!(Number.isInteger(rules.capacity) && rules.capacity >= 1)) {
    throw new RangeError(`capacity must be an integer of 1 or more, got ${rules.capacity}`);
  }
  return {
    serviceId: rules.serviceId,
    durationMs: rules.duration * MINUTE_MS,
    bufferMs: rules.bufferTime * MINUTE_MS,
    minNoticeMs: rules.minNotice * MINUTE_MS,
    maxAdvanceMs: rules.maxAdvance === null ? null : rules.maxAdvance * DAY_MS,
    capacity: rules.capacity,
    stepMinutes: step,
  };
}

/** The checks that need only the clock, in the order the contract gives them. */
function timeRule(rule: Rule, start: number, now: number): Unavailability | null {
  if (start < now) return 'in_the_past';
  if (start < now + rule.minNoticeMs) return 'too_soon';
  if (rule.maxAdvanceMs !== null && start > now + rule.maxAdvanceMs) return 'too_far_ahead';
  return null;
}

function parseDate(value: string, name: string): Temporal.PlainDate {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new RangeError(`${name} must be a date YYYY-MM-DD, got "${value}"`);
  try {
    return Temporal.PlainDate.from(value, { overflow: 'reject' });
  } catch {
    throw new RangeError(`${name} must be a date YYYY-MM-DD, got "${value}"`);
  }
}

/** "HH:mm" → minutes after midnight; "24:00" (1440) only where an interval ends. */
function parseClock(value: string, isEnd: boolean): number {
  if (isEnd && value === '24:00') return MINUTES_PER_DAY;
  const match = CLOCK.exec(value);
  if (match === null) {
    throw new RangeError(`working hours must be "HH:mm" (00:00 to ${isEnd ? '24:00' : '23:59'}), got "${value}"`);
  }
  return Number(match[1]) * 60 + Number(match[2]);
}

function intervalsOf(hours: WorkingHours, date: Temporal.PlainDate, iso = date.toString()): WorkingInterval[] {
  const exception = hours.exceptions.find((candidate) => candidate.date === iso);
  if (exception !== undefined) return exception.intervals;
  const weekday = WEEKDAYS[date.dayOfWeek - 1];
  return weekday === undefined ? [] : (hours.weekly[weekday] ?? []);
}

function wallClock(date: Temporal.PlainDate, minutes: number): Temporal.PlainDateTime {
  return date.toPlainDateTime({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
}

/** The instant a start label denotes, or null when the wall-clock time does not exist that day. */
function startInstant(date: Temporal.PlainDate, minutes: number, timezone: string): number | null {
  const wall = wallClock(date, minutes);
  const zoned = wall.toZonedDateTime(timezone, { disambiguation: 'earlier' });
  return zoned.toPlainDateTime().equals(wall) ? zoned.epochMilliseconds : null;
}

/** The first instant whose wall-clock time is at or after `minutes` on `date`: where a working interval ends. */
function endInstant(date: Temporal.PlainDate, minutes: number, timezone: string): number {
  if (minutes === MINUTES_PER_DAY) return date.add({ days: 1 }).toZonedDateTime(timezone).epochMilliseconds;
  const wall = wallClock(date, minutes);
  const zoned = wall.toZonedDateTime(timezone, { disambiguation: 'earlier' });
  if (zoned.toPlainDateTime().equals(wall)) return zoned.epochMilliseconds;
  // In a gap, 'earlier' lands before the transition; the transition is the first instant past the gap.
  return (zoned.getTimeZoneTransition('next') ?? zoned).epochMilliseconds;
}

function label(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `${hours < 10 ? '0' : ''}${hours}:${rest < 10 ? '0' : ''}${rest}`;
}

/**
 * Epoch ms of `date`'s wall-clock 00:00 when the zone's offset stays the same from then until the next day
 * begins, else null (a transition that day, or a day that does not begin at 00:00). On such a steady day every
 * wall-clock time exists once, at midnight plus its minutes, so its starts need no Temporal conversion each.
 */
function steadyMidnight(date: Temporal.PlainDate, timezone: string): number | null {
  const start = date.toZonedDateTime(timezone);
  if (start.hour !== 0 || start.minute !== 0 || start.second !== 0 || start.millisecond !== 0) return null;
  const next = start.getTimeZoneTransition('next');
  if (next === null) return start.epochMilliseconds;
  const nextDay = date.add({ days: 1 }).toZonedDateTime(timezone).epochMilliseconds;
  return next.epochMilliseconds < nextDay ? null : start.epochMilliseconds;
}

/**
 * Most days of candidates (and midnights) kept between calls: a month of a few services, durations and zones
 * many times over; the oldest go first.
 */
const KEPT_DAYS = 2048;
const keptCandidates = new Map<string, Slot[]>();
const keptMidnights = new Map<string, number | null>();

/**
 * The candidate starts of days per zone, date, set of working intervals, step and duration: a pure function of
 * those, so they are worked out once and kept between calls (Temporal's zone arithmetic is most of their cost).
 * The slots are shared: callers filter them, never change them.
 */
class CandidateCache {
  private readonly prefix: string;

  constructor(
    private readonly timezone: string,
    private readonly rule: Rule,
  ) {
    this.prefix = `${timezone} ${rule.stepMinutes} ${rule.durationMs}`;
  }

  private lastHours: WorkingHours | undefined;
  private lastDate = '';
  private lastSlots: Slot[] = [];

  /**
   * `iso`: the date as YYYY-MM-DD, when the caller has it (Temporal's toString is not free). Providers without
   * hours of their own share the workspace's hours object: a day's next provider gets the last one's slots.
   */
  of(hours: WorkingHours, date: Temporal.PlainDate, iso = date.toString()): Slot[] {
    if (hours === this.lastHours && iso === this.lastDate) return this.lastSlots;
    this.lastSlots = this.compute(hours, date, iso);
    this.lastHours = hours;
    this.lastDate = iso;
    return this.lastSlots;
  }

  private compute(hours: WorkingHours, date: Temporal.PlainDate, iso: string): Slot[] {
    const intervals = intervalsOf(hours, date, iso);
    if (intervals.length === 0) return [];
    let key = `${this.prefix} ${iso}`;
    for (const interval of intervals) key += ` ${interval.start}-${interval.end}`;
    return memoIn(keptCandidates, key, KEPT_DAYS, () => {
      const midnight = memoIn(keptMidnights, `${this.timezone} ${iso}`, KEPT_DAYS, () => steadyMidnight(date, this.timezone));
      return dayCandidates(intervals, this.timezone, this.rule, date, midnight);
    });
  }
}

/**
 * Every start of the day that fits its working interval, before the clock and bookings are consulted.
 * `midnight`: the day's steadyMidnight when known to be steady (starts are then plain arithmetic), else null.
 */
function dayCandidates(intervals: readonly WorkingInterval[], timezone: string, rule: Rule, date: Temporal.PlainDate, midnight: number | null = null): Slot[] {
  if (intervals.length === 0) return [];
  const slots: Slot[] = [];
  for (const interval of intervals) {
    const from = parseClock(interval.start, false);
    const to = parseClock(interval.end, true);
    if (to <= from) continue;
    const intervalEnd = midnight !== null && to < MINUTES_PER_DAY ? midnight + to * MINUTE_MS : endInstant(date, to, timezone);
    for (let minutes = from; minutes < to; minutes += rule.stepMinutes) {
      const start = midnight !== null ? midnight + minutes * MINUTE_MS : startInstant(date, minutes, timezone);
      if (start === null) continue;
      const end = start + rule.durationMs;
      if (end > intervalEnd) break;
      slots.push({ start, end, label: label(minutes) });
    }
  }
  if (intervals.length === 1) return slots;
  // Several intervals may come unordered or overlap: keep one slot per label, ascending.
  slots.sort((a, b) => a.start - b.start);
  return slots.filter((slot, index) => index === 0 || slots[index - 1]!.label !== slot.label);
}

/** A busy booking reduced to what the conflict test needs. */
interface Busy {
  start: number;
  end: number;
  /** max(candidate buffer, booking buffer), ms */
  gap: number;
  sameService: boolean;
}

function ascendingByStart(busy: readonly Busy[]): boolean {
  for (let index = 1; index < busy.length; index++) if (busy[index]!.start < busy[index - 1]!.start) return false;
  return true;
}

/** The bookings that can touch a time window, sorted by start, for binary search. */
class BookingIndex {
  private constructor(
    private readonly busy: Busy[],
    /** the largest `end + gap - start` of any entry: how far before a slot a search must begin */
    private readonly reach: number,
    /** the largest `gap` of any entry: how far after a slot a search must go */
    private readonly maxGap: number,
  ) {}

  /** One linear pass keeps only bookings that can conflict with a slot inside [from, to). */
  static build(bookings: readonly BusyBooking[], rule: Rule, from: number, to: number): BookingIndex {
    const busy: Busy[] = [];
    let reach = 0;
    let maxGap = 0;
    for (const booking of bookings) {
      const gap = Math.max(rule.bufferMs, booking.bufferTime * MINUTE_MS);
      if (booking.start < to + gap && booking.end + gap > from) {
        busy.push({ start: booking.start, end: booking.end, gap, sameService: booking.serviceId === rule.serviceId });
        reach = Math.max(reach, booking.end + gap - booking.start);
        maxGap = Math.max(maxGap, gap);
      }
    }
    // Availability hands most lists over in order already (busy blocks are sorted once, when read): a check of
    // one pass spares those the sort.
    if (!ascendingByStart(busy)) busy.sort((a, b) => a.start - b.start);
    return new BookingIndex(busy, reach, maxGap);
  }

  /** Whether the bookings leave no room for `slot` (capacity and buffers applied). */
  takes(slot: Slot, rule: Rule): boolean {
    return this.room(slot, rule, 1) === 0;
  }

  /**
   * The seats the bookings leave for `slot`: 0 when anything blocks it, else capacity minus the overlapping
   * bookings of the same service. `enough`: stop counting once fewer than this are left (`takes` asks for 1;
   * the default 0 counts every booking).
   */
  room(slot: Slot, rule: Rule, enough = 0): number {
    return this.roomFrom(this.firstFrom(slot.start - this.reach), slot, rule, enough);
  }

  /**
   * Whether any of `slots` (ascending by start) passes the clock's rules and has room: one binary search, then
   * the entries are walked forward with the slots, as a closed day asks every one of its starts.
   */
  anyFree(slots: readonly Slot[], rule: Rule, now: number): boolean {
    if (slots.length === 0) return false;
    let from = this.firstFrom(slots[0]!.start - this.reach);
    for (const slot of slots) {
      if (timeRule(rule, slot.start, now) !== null) continue;
      while (from < this.busy.length && this.busy[from]!.start < slot.start - this.reach) from++;
      if (this.roomFrom(from, slot, rule, 1) > 0) return true;
    }
    return false;
  }

  /** room, with the entries searched from `first` (the first that can reach the slot) on. */
  private roomFrom(first: number, slot: Slot, rule: Rule, enough: number): number {
    const { start, end } = slot;
    let sharing = 0;
    for (let index = first; index < this.busy.length; index++) {
      const other = this.busy[index]!;
      if (other.start >= end + this.maxGap) break;
      if (!(start < other.end + other.gap && other.start < end + other.gap)) continue;
      // Conflicting: only an overlapping booking of the same service may share a slot of capacity > 1.
      if (rule.capacity === 1 || !other.sameService) return 0;
      if (!(other.start < end && start < other.end)) return 0;
      sharing += 1;
      if (rule.capacity - sharing < enough) return rule.capacity - sharing;
    }
    return rule.capacity - sharing;
  }

  /** Index of the first entry whose start is >= `at`. */
  private firstFrom(at: number): number {
    let low = 0;
    let high = this.busy.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.busy[middle]!.start < at) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
