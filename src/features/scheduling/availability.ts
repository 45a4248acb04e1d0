import type { AppDeps } from '../../platform/app-deps.ts';
import { memoIn } from '../../core/loading-cache.ts';
import { busyInBlocks, type BlockDay, type BusyCache, type EngineTimes } from './busy-blocks.ts';
import { AppError, validation } from '../../core/errors.ts';
import { rankByFairness } from '../../core/provider-ranking.ts';
import type { BookingStore, BusyInterval, CalendarStore, CatalogueStore, ProviderRecord, ServiceRecord, WorkspaceRecord } from '../../ports/storage/index.ts';
import {
  explainDay,
  type ExplainReason,
  unionDaySlots,
  unionDaysWithSlots,
  unionSeats,
  whyUnavailable,
  type BusyBooking,
  type ProviderDay,
  type ProviderHours,
  type SlotRules,
  type Unavailability,
} from '../../core/slot-engine.ts';

/*
 * Glue between storage and the pure slot engine: which providers offer a service, whose hours they work, which
 * bookings keep them busy, and what the engine makes of that. The check that guards a booking runs inside
 * storage.reserveBooking (see `slotCheck`): nothing here reads and then writes.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Longest range of availability/days, in days (both ends included). */
export const MAX_DAYS_RANGE = 62;

/** A service that can be booked and the active providers offering it (all of them, or the one asked for). */
export interface Offering {
  service: ServiceRecord;
  providers: ProviderRecord[];
  /**
   * How far around a time other bookings can matter, ms: a day plus the longest buffer of any service of the
   * workspace (a booking keeps the buffer its service had when it was made).
   */
  margin: number;
}

const serviceNotFound = (message: string) => new AppError('SERVICE_NOT_FOUND', message);

/**
 * The active service `serviceId` of the workspace and the active providers offering it, narrowed to
 * `providerId` when given. An unknown or inactive service, or a provider that does not offer it, is a
 * 400 SERVICE_NOT_FOUND naming the field.
 */
export async function resolveOffering(
  deps: { storage: CatalogueStore },
  workspace: WorkspaceRecord,
  serviceId: string,
  providerId?: string,
): Promise<Offering> {
  const services = await deps.storage.listServices(workspace.id, { activeOnly: false });
  const allProviders = await deps.storage.listProviders(workspace.id);
  // The read cache (platform/storage-effects/read-cache.ts) hands out the same arrays until the catalogue changes:
  // while it does, an offering once resolved is the answer again (offerings are shared and never mutated).
  let resolved = resolvedOfferings.get(services);
  if (resolved?.providers !== allProviders) resolvedOfferings.set(services, (resolved = { providers: allProviders, offerings: new Map() }));
  const key = `${serviceId} ${providerId ?? ''}`;
  const known = resolved.offerings.get(key);
  if (known) return known;
  const service = services.find((candidate) => candidate.id === serviceId);
  if (!service?.active) throw serviceNotFound(`serviceId ${serviceId} is not an active service of workspace ${workspace.slug}`);
  const linked = new Set(service.providerIds);
  const providers = allProviders.filter((provider) => provider.active && linked.has(provider.id)).sort((a, b) => compareText(a.id, b.id));
  const chosen = providerId === undefined ? providers : providers.filter((provider) => provider.id === providerId);
  if (providerId !== undefined && chosen.length === 0) {
    throw serviceNotFound(`providerId ${providerId} is not an active provider offering serviceId ${serviceId}`);
  }
  const offering: Offering = { service, providers: chosen, margin: busyMargin(services) };
  resolved.offerings.set(key, offering);
  return offering;
}

/** Offerings resolved from one catalogue read, by `serviceId providerId` (only ones that resolved). */
const resolvedOfferings = new WeakMap<readonly ServiceRecord[], { providers: readonly ProviderRecord[]; offerings: Map<string, Offering> }>();

/** A day plus the longest buffer of any service, ms (see Offering.margin). */
export function busyMargin(services: readonly ServiceRecord[]): number {
  return DAY_MS + Math.max(0, ...services.map((service) => service.bufferTime)) * MINUTE_MS;
}

/**
 * The engine's rules for a service. `duration` (minutes) is the booking's own length when given; slot starts
 * stay on the service's grid (`slotInterval`, else the service's duration) whatever the length asked for.
 */
export function slotRules(service: ServiceRecord, duration?: number): SlotRules {
  return {
    serviceId: service.id,
    duration: duration ?? service.duration,
    bufferTime: service.bufferTime,
    minNotice: service.minNotice,
    maxAdvance: service.maxAdvance,
    capacity: service.capacity,
    slotInterval: service.slotInterval ?? service.duration,
  };
}

/** A provider's day for the engine: its own hours or the workspace's, and its busy intervals. */
export function providerDay(workspace: WorkspaceRecord, provider: ProviderRecord, busy: readonly BusyInterval[]): ProviderDay {
  return {
    timezone: workspace.timezone,
    hours: provider.hours ?? workspace.hours,
    bookings: busy.filter((interval) => interval.providerId === provider.id).map(busyBooking),
  };
}

const busyBooking = (interval: BusyInterval): BusyBooking => ({
  serviceId: interval.serviceId,
  start: interval.startTime,
  end: interval.endTime,
  bufferTime: interval.bufferTime,
  source: interval.calendar
    ? { kind: 'calendar', connectionId: interval.calendar.connectionId, calendarId: interval.calendar.calendarId }
    : { kind: 'booking', bookingId: interval.bookingId ?? '' },
});

/**
 * A busy interval as availability's engine calls take it: without its source, which only explain reads. One kept
 * in a busy block is in that shape already (busy-blocks.ts).
 */
const busyTime = (interval: BusyInterval | (BusyInterval & EngineTimes)): BusyBooking =>
  'start' in interval
    ? interval
    : {
        serviceId: interval.serviceId,
        start: interval.startTime,
        end: interval.endTime,
        bufferTime: interval.bufferTime,
      };

/** Every provider of the offering with its hours and its own busy intervals, the list split once. */
function providerHours(workspace: WorkspaceRecord, offering: Offering, busy: readonly BusyInterval[]): ProviderHours[] {
  const byProvider = new Map<string, BusyBooking[]>(offering.providers.map((provider) => [provider.id, []]));
  for (const interval of busy) byProvider.get(interval.providerId)?.push(busyTime(interval));
  return offering.providers.map((provider) => ({ hours: provider.hours ?? workspace.hours, bookings: byProvider.get(provider.id)! }));
}

/** `value` as a calendar date, or a 400 naming `field`. */
export function parseCalendarDate(field: string, value: string): Temporal.PlainDate {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    try {
      return Temporal.PlainDate.from(value, { overflow: 'reject' });
    } catch {
      // not a day of the calendar, such as 2026-02-30
    }
  }
  throw validation(`${field} must be a calendar date as YYYY-MM-DD, got ${value}`);
}

/** [start of `first`, start of the day after `last`) in the time zone, epoch ms. */
function daysSpan(timezone: string, first: Temporal.PlainDate, last: Temporal.PlainDate): { from: number; to: number } {
  return { from: dayStart(timezone, first), to: dayStart(timezone, last.add({ days: 1 })) };
}

/** Where days of a zone begin, kept between requests (Temporal's zone arithmetic is not free); the oldest go first. */
const dayStarts = new Map<string, number>();
const KEPT_DAY_STARTS = 8192;

const dayStart = (timezone: string, date: Temporal.PlainDate, iso = date.toString()): number =>
  memoIn(dayStarts, `${timezone} ${iso}`, KEPT_DAY_STARTS, () => date.toZonedDateTime(timezone).epochMilliseconds);

/** The days of [first, last] in the time zone, each with its bounds. */
function blockDays(timezone: string, first: Temporal.PlainDate, last: Temporal.PlainDate): BlockDay[] {
  const days: BlockDay[] = [];
  let iso = first.toString();
  let from = dayStart(timezone, first, iso);
  for (let date = first; Temporal.PlainDate.compare(date, last) <= 0; ) {
    const next = date.add({ days: 1 });
    const nextIso = next.toString();
    const to = dayStart(timezone, next, nextIso);
    days.push({ date: iso, from, to });
    date = next;
    iso = nextIso;
    from = to;
  }
  return days;
}

/** What availability reads: the providers' bookings and the busy times of their blocking calendars. */
type BusyReads = BookingStore & Pick<CalendarStore, 'listCalendarBusy'>;

/**
 * The PENDING and CONFIRMED bookings of the offering's providers, and the busy times of their blocking calendars,
 * that can keep a start of the days [first, last] in the workspace's zone from being bookable (every slot of a
 * day starts and ends inside it). The busy times come from the read cache in the app
 * (platform/storage-effects/calendar-busy-cache.ts); with a `busyCache`, the bookings come from it (busy-blocks.ts).
 * The booking's own check reads both afresh inside reserveBooking.
 */
async function busyAround(
  deps: { storage: BusyReads; busyCache?: BusyCache },
  workspace: WorkspaceRecord,
  offering: Offering,
  first: Temporal.PlainDate,
  last: Temporal.PlainDate,
): Promise<BusyInterval[]> {
  if (offering.providers.length === 0) return [];
  const ids = offering.providers.map((provider) => provider.id);
  const buffer = offering.service.bufferTime * MINUTE_MS;
  const span = daysSpan(workspace.timezone, first, last);
  const [bookings, calendars] = await Promise.all([
    deps.busyCache
      ? busyInBlocks(deps.busyCache, deps.storage, workspace.id, ids, blockDays(workspace.timezone, first, last), buffer)
      : deps.storage.listBusy(ids, span.from, span.to, buffer),
    deps.storage.listCalendarBusy(ids, span.from, span.to, buffer),
  ]);
  return calendars.length === 0 ? bookings : [...bookings, ...calendars];
}

const offeringKeys = new WeakMap<Offering, string>();

/** The cache key of an offering's answers (kept per offering object, which resolveOffering shares). */
function offeringKey(offering: Offering): string {
  let key = offeringKeys.get(offering);
  if (key === undefined) offeringKeys.set(offering, (key = `${offering.service.id}:${offering.providers.map((provider) => provider.id).join(',')}`));
  return key;
}

/** The cached answer (see availability-cache.ts) when there is one, else `compute` it and keep it. */
async function remembered<T>(deps: Pick<AppDeps, 'availabilityCache'>, workspace: WorkspaceRecord, key: string, compute: () => Promise<T>): Promise<T> {
  return deps.availabilityCache ? deps.availabilityCache.load(workspace.id, key, compute) : compute();
}

/**
 * Whether availability counts the seats of a service's times (docs/contract/classes.md §1): a class (capacity
 * above 1), or a service with a waiting list, whose full times are listed with 0 seats so the widget shows them.
 */
export const countsSeats = (service: Pick<ServiceRecord, 'capacity' | 'waitlist'>) => service.capacity > 1 || service.waitlist;

/** Seats left per start time (`HH:mm`); full times (0) only for a service with a waiting list. */
export type SeatsLeft = Record<string, number>;

export interface DaySlots {
  slots: string[];
  /** only for services that count seats (countsSeats) */
  seatsLeft?: SeatsLeft;
}

/** What the computations read: the clock, and the bookings (with busy times) of the storage, through the busy cache. */
type ReadDeps = Pick<AppDeps, 'clock' | 'busyCache'> & { storage: BusyReads };
/** What the answers read: those, through the availability cache. */
type CachedDeps = ReadDeps & Pick<AppDeps, 'availabilityCache'>;

/** Bookable start times (`HH:mm` in the workspace zone) of `date`: the union over the offering's providers. */
export async function availableSlots(deps: CachedDeps, workspace: WorkspaceRecord, offering: Offering, date: string, duration?: number): Promise<string[]> {
  return (await availableDay(deps, workspace, offering, date, duration)).slots;
}

/** availableSlots with the seats left of each time, for services that count seats. */
export async function availableDay(deps: CachedDeps, workspace: WorkspaceRecord, offering: Offering, date: string, duration?: number): Promise<DaySlots> {
  const day = parseCalendarDate('date', date);
  return remembered(deps, workspace, `slots:${offeringKey(offering)}:${day}:${duration ?? ''}`, () => computeSlots(deps, workspace, offering, day, duration));
}

async function computeSlots(deps: ReadDeps, workspace: WorkspaceRecord, offering: Offering, day: Temporal.PlainDate, duration?: number): Promise<DaySlots> {
  const busy = await busyAround(deps, workspace, offering, day, day);
  const rules = slotRules(offering.service, duration);
  const now = deps.clock.now();
  const providers = providerHours(workspace, offering, busy);
  if (countsSeats(offering.service)) {
    // The same read gives the seats: a class's day costs what any day costs.
    const seatsLeft = unionSeats(workspace.timezone, providers, rules, day.toString(), day.toString(), now, offering.service.waitlist)[day.toString()] ?? {};
    return { slots: Object.keys(seatsLeft).filter((label) => seatsLeft[label]! > 0), seatsLeft };
  }
  return { slots: unionDaySlots(workspace.timezone, providers, rules, day.toString(), now).map((slot) => slot.label) };
}

export interface RangeDays {
  days: string[];
  /** per day, only for services that count seats (countsSeats) */
  seatsLeft?: Record<string, SeatsLeft>;
}

/** Days of [from, to] (both included, at most MAX_DAYS_RANGE) with at least one bookable time, ascending. */
export async function availableDays(
  deps: CachedDeps,
  workspace: WorkspaceRecord,
  offering: Offering,
  from: string,
  to: string,
  duration?: number,
): Promise<RangeDays> {
  const first = parseCalendarDate('from', from);
  const last = parseCalendarDate('to', to);
  if (Temporal.PlainDate.compare(first, last) > 0) throw validation(`from must not be after to (got from ${from}, to ${to})`);
  const length = first.until(last, { largestUnit: 'days' }).days + 1;
  if (length > MAX_DAYS_RANGE) throw validation(`from and to must span at most ${MAX_DAYS_RANGE} days (got ${length})`);
  return remembered(deps, workspace, `days:${offeringKey(offering)}:${first}:${last}:${duration ?? ''}`, async () =>
    countsSeats(offering.service)
      ? computeSeatDays(deps, workspace, offering, first, last, duration)
      : { days: await computeDays(deps, workspace, offering, first, last, duration) },
  );
}

/** A computation of the days of [first, last] for `offering` (availableDays takes one of two, by countsSeats). */
type RangeComputation<T> = (
  deps: ReadDeps,
  workspace: WorkspaceRecord,
  offering: Offering,
  first: Temporal.PlainDate,
  last: Temporal.PlainDate,
  duration?: number,
) => Promise<T>;

/**
 * The days and their seats of a service that counts seats: every provider's seats count, so there are no rounds;
 * one read of every provider's bookings over the range, as a full calendar's last round would make.
 */
const computeSeatDays: RangeComputation<RangeDays> = async (deps, workspace, offering, first, last, duration) => {
  const busy = await busyAround(deps, workspace, offering, first, last);
  const rules = slotRules(offering.service, duration);
  const seatsLeft = unionSeats(
    workspace.timezone,
    providerHours(workspace, offering, busy),
    rules,
    first.toString(),
    last.toString(),
    deps.clock.now(),
    offering.service.waitlist,
  );
  const days = Object.keys(seatsLeft)
    .filter((day) => Object.values(seatsLeft[day]!).some((seats) => seats > 0))
    .sort();
  return { days, seatsLeft };
};

/**
 * A day is open when any provider has a slot on it, so the providers are asked in rounds of growing size (1, 2,
 * 4, …), each round reading the bookings of its providers only over the days still closed. A calendar with room
 * is answered by its first provider's bookings; only a full one reads every provider's.
 */
const computeDays: RangeComputation<string[]> = async (deps, workspace, offering, first, last, duration) => {
  const rules = slotRules(offering.service, duration);
  const now = deps.clock.now();
  const closed: Temporal.PlainDate[] = [];
  for (let date = first; Temporal.PlainDate.compare(date, last) <= 0; date = date.add({ days: 1 })) closed.push(date);
  const open = new Set<string>();
  let next = 0;
  for (let size = 1; next < offering.providers.length && closed.length > 0; size *= 2) {
    const round: Offering = { ...offering, providers: offering.providers.slice(next, next + size) };
    next += size;
    const from = closed[0]!;
    const to = closed[closed.length - 1]!;
    const busy = await busyAround(deps, workspace, round, from, to);
    for (const day of unionDaysWithSlots(workspace.timezone, providerHours(workspace, round, busy), rules, from.toString(), to.toString(), now)) open.add(day);
    const still = closed.filter((date) => !open.has(date.toString()));
    closed.splice(0, closed.length, ...still);
  }
  return [...open].sort();
};

/** One start time of the grid for one provider, as GET …/availability/explain answers it. */
export interface ExplainedStart {
  time: string;
  providerId: string;
  free: boolean;
  reasons: { code: ExplainReason['code']; bookingId?: string; connectionId?: string; calendarName?: string }[];
}

/**
 * Why each start time of `date` is or is not free, per provider of the offering (docs/contract/calendars.md §11):
 * computed fresh (never cached) from the same reads as availability. A calendar is named by its name, never by
 * an event's title, which svc does not keep.
 */
export async function explainAvailability(
  deps: Pick<AppDeps, 'clock'> & { storage: BusyReads & Pick<CalendarStore, 'listCalendarConnections'> },
  workspace: WorkspaceRecord,
  offering: Offering,
  date: string,
): Promise<ExplainedStart[]> {
  const day = parseCalendarDate('date', date);
  // fresh: never through the busy cache
  const busy = await busyAround({ storage: deps.storage }, workspace, offering, day, day);
  const names = new Map<string, string>();
  for (const provider of offering.providers) {
    if (!busy.some((interval) => interval.calendar && interval.providerId === provider.id)) continue;
    for (const connection of await deps.storage.listCalendarConnections(workspace.id, provider.id)) {
      for (const calendar of connection.calendars) names.set(`${connection.id} ${calendar.id}`, calendar.name);
    }
  }
  const rules = slotRules(offering.service);
  const now = deps.clock.now();
  const rows: (ExplainedStart & { start: number })[] = [];
  for (const provider of offering.providers) {
    for (const time of explainDay(providerDay(workspace, provider, busy), rules, day.toString(), now)) {
      rows.push({
        time: time.label,
        start: time.start,
        providerId: provider.id,
        free: time.reasons.length === 0,
        reasons: time.reasons.map((reason) =>
          reason.code === 'CALENDAR_BUSY'
            ? { code: reason.code, connectionId: reason.connectionId, calendarName: names.get(`${reason.connectionId} ${reason.calendarId}`) ?? '' }
            : reason,
        ),
      });
    }
  }
  rows.sort((a, b) => a.start - b.start || compareText(a.providerId, b.providerId));
  return rows.map(({ start: _start, ...row }) => row);
}

/**
 * The candidates of a booking at `start` in the order of fair assignment (core/provider-ranking.ts): fewest
 * PENDING + CONFIRMED bookings starting on the day of `start` (workspace zone), then the one whose last booking
 * was made longest ago, then by id. Only a preference: the reservation itself decides who is free, trying them in
 * this order.
 */
export async function rankProviders(
  deps: { storage: BookingStore },
  workspace: WorkspaceRecord,
  providers: readonly ProviderRecord[],
  start: number,
): Promise<string[]> {
  const ids = providers.map((provider) => provider.id).sort(compareText);
  if (ids.length <= 1) return ids;
  const day = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(workspace.timezone).toPlainDate();
  const span = daysSpan(workspace.timezone, day, day);
  const [busy, last] = await Promise.all([deps.storage.listBusy(ids, span.from, span.to), deps.storage.lastBookedAt(ids)]);
  const load = new Map<string, number>(ids.map((id) => [id, 0]));
  for (const interval of busy) {
    if (interval.startTime >= span.from) load.set(interval.providerId, (load.get(interval.providerId) ?? 0) + 1);
  }
  return rankByFairness(ids.map((id) => ({ id, dayLoad: load.get(id)!, lastBookedAt: last[id] ?? null })));
}

export interface SlotCheck {
  /** ReserveRequest.fits: the engine's verdict for one provider, with the busy intervals read under the lock */
  fits(providerId: string, busy: BusyInterval[]): string | null;
  /** After a refused reservation: why the time is not bookable, over every provider tried. */
  refusal(): AppError;
}

/**
 * The check storage.reserveBooking runs under its lock for a booking of `offering.service` at
 * [start, start + duration). Time rules (past, minNotice, maxAdvance) come first; across several providers
 * "taken" wins over "outside working hours", since the time is a slot for at least one of them.
 */
export function slotCheck(workspace: WorkspaceRecord, offering: Offering, start: number, duration: number, now: number): SlotCheck {
  const rules = slotRules(offering.service, duration);
  const providers = new Map(offering.providers.map((provider) => [provider.id, provider]));
  const seen: Unavailability[] = [];
  return {
    fits(providerId, busy) {
      const provider = providers.get(providerId);
      const why = provider ? whyUnavailable(providerDay(workspace, provider, busy), rules, start, now) : 'outside_hours';
      if (why === null) return null;
      seen.push(why);
      return unavailableMessage(why, workspace, offering.service, start);
    },
    refusal() {
      const why = PRECEDENCE.find((reason) => seen.includes(reason)) ?? 'taken';
      return new AppError('SLOT_UNAVAILABLE', unavailableMessage(why, workspace, offering.service, start));
    },
  };
}

const PRECEDENCE: Unavailability[] = ['in_the_past', 'too_soon', 'too_far_ahead', 'taken', 'outside_hours'];

/** What the engine's reason means for the customer, naming the time asked for in UTC and in the workspace zone. */
export function unavailableMessage(why: Unavailability, workspace: WorkspaceRecord, service: ServiceRecord, start: number): string {
  const local = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(workspace.timezone);
  const when = `${new Date(start).toISOString()} (${local.toPlainDate()} ${local.toPlainTime().toString({ smallestUnit: 'minute' })} ${workspace.timezone})`;
  switch (why) {
    case 'in_the_past':
      return `date ${when} is in the past`;
    case 'too_soon':
      return `date ${when} is too soon: ${service.name} must be booked at least ${service.minNotice} minutes in advance`;
    case 'too_far_ahead':
      return `date ${when} is too far ahead: ${service.name} can be booked at most ${service.maxAdvance} days in advance`;
    case 'outside_hours':
      return `date ${when} is outside working hours or not a start time of ${service.name}; the availability route lists the bookable times`;
    case 'taken':
      return `date ${when} is already taken: ${service.name} has no free capacity at that time`;
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
