import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import {
  WEEKDAYS,
  daySlots,
  daysWithSlots,
  mergeSlots,
  unionDaySlots,
  unionDaysWithSlots,
  whyUnavailable,
  type BusyBooking,
  type ProviderDay,
  type Slot,
  type SlotRules,
  type WorkingHours,
  type WorkingInterval,
} from '../../src/core/slot-engine.ts';

const SEED = 20260329;
const RUNS = 300;
const MINUTE = 60_000;

const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Australia/Lord_Howe',
  'UTC',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/Santiago',
  'America/St_Johns',
  'Europe/London',
  'Pacific/Apia',
  'America/Sao_Paulo',
];

/** DST days of the zones above (and a few plain days), so transitions come up often. */
const DATES = [
  '2026-03-08',
  '2026-03-29',
  '2026-04-05',
  '2026-04-06',
  '2026-09-06',
  '2026-09-27',
  '2026-10-04',
  '2026-10-25',
  '2026-10-26',
  '2026-11-01',
  '2026-01-15',
  '2026-06-10',
  '2026-12-31',
  '2027-02-28',
];

const clock = (minutes: number): string =>
  minutes === 1440 ? '24:00' : `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const minutesOf = (value: string): number => (value === '24:00' ? 1440 : Number(value.slice(0, 2)) * 60 + Number(value.slice(3)));

/** 0 to 3 disjoint intervals on a 5-minute grid, possibly ending at 24:00; mostly open days. */
const dayIntervals = fc
  .oneof({ arbitrary: fc.uniqueArray(fc.integer({ min: 0, max: 288 }), { minLength: 2, maxLength: 6 }), weight: 5 }, { arbitrary: fc.constant([]), weight: 1 })
  .map((points) => {
    const sorted = [...points].sort((a, b) => a - b);
    const intervals: WorkingInterval[] = [];
    for (let index = 0; index + 1 < sorted.length; index += 2) {
      intervals.push({ start: clock(sorted[index]! * 5), end: clock(sorted[index + 1]! * 5) });
    }
    return intervals;
  });

const hoursFor = (date: string) =>
  fc
    .record({
      weekly: fc.record({
        mon: dayIntervals,
        tue: dayIntervals,
        wed: dayIntervals,
        thu: dayIntervals,
        fri: dayIntervals,
        sat: dayIntervals,
        sun: dayIntervals,
      }),
      exception: fc.option(dayIntervals, { nil: undefined, freq: 2 }),
    })
    .map(
      ({ weekly, exception }): WorkingHours => ({
        weekly,
        exceptions: exception === undefined ? [] : [{ date, intervals: exception }],
      }),
    );

const rulesArb: fc.Arbitrary<SlotRules> = fc.record({
  serviceId: fc.constantFrom('srv_a', 'srv_b'),
  duration: fc.oneof(fc.constantFrom(5, 15, 30, 45, 60, 90, 120), fc.integer({ min: 5, max: 240 })),
  bufferTime: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 })),
  minNotice: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 240 }), fc.integer({ min: 0, max: 3 * 1440 })),
  maxAdvance: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null, freq: 2 }),
  capacity: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 4 })),
  slotInterval: fc.option(fc.constantFrom(5, 10, 15, 20, 30, 60, 90), { nil: null }),
});

interface Scenario {
  day: ProviderDay;
  rules: SlotRules;
  date: string;
  now: number;
}

const scenario: fc.Arbitrary<Scenario> = fc.record({ zone: fc.constantFrom(...ZONES), date: fc.constantFrom(...DATES) }).chain(({ zone, date }) => {
  const dayStart = Temporal.PlainDate.from(date).toZonedDateTime(zone).epochMilliseconds;
  const bookingArb: fc.Arbitrary<BusyBooking> = fc
    .record({
      serviceId: fc.constantFrom('srv_a', 'srv_b', 'srv_c'),
      offset: fc.integer({ min: -24 * 12, max: 48 * 12 }),
      length: fc.integer({ min: 1, max: 48 }),
      bufferTime: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 })),
    })
    .map(({ serviceId, offset, length, bufferTime }) => ({
      serviceId,
      start: dayStart + offset * 5 * MINUTE,
      end: dayStart + (offset + length) * 5 * MINUTE,
      bufferTime,
    }));
  return fc.record({
    day: fc.record({ timezone: fc.constant(zone), hours: hoursFor(date), bookings: fc.array(bookingArb, { maxLength: 25 }) }),
    rules: rulesArb,
    date: fc.constant(date),
    // Mostly before the day, sometimes during it; not always on a minute.
    now: fc.oneof(
      { arbitrary: fc.integer({ min: dayStart - 7 * 1440 * MINUTE, max: dayStart }), weight: 3 },
      { arbitrary: fc.integer({ min: dayStart, max: dayStart + 1440 * MINUTE }), weight: 1 },
    ),
  });
});

function intervalsOf(hours: WorkingHours, date: string): WorkingInterval[] {
  const exception = hours.exceptions.find((candidate) => candidate.date === date);
  return exception?.intervals ?? hours.weekly[WEEKDAYS[Temporal.PlainDate.from(date).dayOfWeek - 1]!];
}

/** The local date and the minutes after local midnight an instant shows in a zone. */
function wall(instant: number, zone: string): { date: string; minutes: number; exact: boolean } {
  const zoned = Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone);
  return {
    date: zoned.toPlainDate().toString(),
    minutes: zoned.hour * 60 + zoned.minute,
    exact: zoned.second === 0 && zoned.millisecond === 0,
  };
}

/** Every instant of [start, end) shows `date` and a time in [interval.start, interval.end). */
function insideInterval(slot: Slot, interval: WorkingInterval, date: string, zone: string): boolean {
  const from = minutesOf(interval.start);
  const to = minutesOf(interval.end);
  const first = wall(slot.start, zone);
  if (first.date !== date || first.minutes < from || first.minutes >= to) return false;
  // Wall time only rises between transitions: check the last instant before each transition and before the end.
  const checkpoints = [slot.end - 1];
  let cursor = Temporal.Instant.fromEpochMilliseconds(slot.start).toZonedDateTimeISO(zone);
  for (;;) {
    const next = cursor.getTimeZoneTransition('next');
    if (next === null || next.epochMilliseconds >= slot.end) break;
    checkpoints.push(next.epochMilliseconds - 1);
    cursor = next;
  }
  return checkpoints.every((instant) => {
    const shown = wall(instant, zone);
    return shown.date === date && shown.minutes < to;
  });
}

const conflicts = (slot: Slot, rules: SlotRules, booking: BusyBooking): boolean => {
  const gap = Math.max(rules.bufferTime, booking.bufferTime) * MINUTE;
  return slot.start < booking.end + gap && booking.start < slot.end + gap;
};

const options = { numRuns: RUNS, seed: SEED };

describe('slot engine properties (fast-check, fixed seed)', () => {
  test('every slot lies within one working interval of its day', () => {
    fc.assert(
      fc.property(scenario, ({ day, rules, date, now }) => {
        const intervals = intervalsOf(day.hours, date);
        for (const slot of daySlots(day, rules, date, now)) {
          expect(intervals.some((interval) => insideInterval(slot, interval, date, day.timezone))).toBe(true);
          expect(slot.end - slot.start).toBe(rules.duration * MINUTE);
        }
      }),
      options,
    );
  });

  test('with capacity 1 no slot comes within the buffers of a busy booking', () => {
    fc.assert(
      fc.property(scenario, ({ day, rules, date, now }) => {
        const capacityOne = { ...rules, capacity: 1 };
        for (const slot of daySlots(day, capacityOne, date, now)) {
          for (const booking of day.bookings) expect(conflicts(slot, capacityOne, booking)).toBe(false);
        }
      }),
      options,
    );
  });

  test('with capacity N a slot has no other-service conflict and fewer than N overlapping same-service bookings', () => {
    fc.assert(
      fc.property(scenario, ({ day, rules, date, now }) => {
        for (const slot of daySlots(day, rules, date, now)) {
          let sharing = 0;
          for (const booking of day.bookings) {
            if (!conflicts(slot, rules, booking)) continue;
            const overlaps = booking.start < slot.end && slot.start < booking.end;
            expect(booking.serviceId === rules.serviceId && overlaps && rules.capacity > 1).toBe(true);
            sharing += 1;
          }
          expect(sharing).toBeLessThan(rules.capacity);
        }
      }),
      options,
    );
  });

  test('slots ascend strictly and labels are unique', () => {
    fc.assert(
      fc.property(scenario, ({ day, rules, date, now }) => {
        const slots = daySlots(day, rules, date, now);
        for (let index = 1; index < slots.length; index++) {
          expect(slots[index]!.start).toBeGreaterThan(slots[index - 1]!.start);
        }
        expect(new Set(slots.map((slot) => slot.label)).size).toBe(slots.length);
      }),
      options,
    );
  });

  test('whyUnavailable is null for every returned slot, and the time rules hold', () => {
    fc.assert(
      fc.property(scenario, ({ day, rules, date, now }) => {
        for (const slot of daySlots(day, rules, date, now)) {
          expect(whyUnavailable(day, rules, slot.start, now)).toBeNull();
          expect(slot.start).toBeGreaterThanOrEqual(now + rules.minNotice * MINUTE);
          if (rules.maxAdvance !== null) expect(slot.start).toBeLessThanOrEqual(now + rules.maxAdvance * 1440 * MINUTE);
        }
      }),
      options,
    );
  });

  test('every slot label round-trips to its start instant in the zone', () => {
    fc.assert(
      fc.property(scenario, ({ day, rules, date, now }) => {
        for (const slot of daySlots(day, rules, date, now)) {
          const shown = wall(slot.start, day.timezone);
          expect({ date: shown.date, label: clock(shown.minutes), exact: shown.exact }).toEqual({ date, label: slot.label, exact: true });
          const back = Temporal.PlainDateTime.from(`${date}T${slot.label}`).toZonedDateTime(day.timezone, { disambiguation: 'earlier' });
          expect(back.epochMilliseconds).toBe(slot.start);
        }
      }),
      options,
    );
  });

  test('a grid start is a slot exactly when whyUnavailable finds no reason', () => {
    fc.assert(
      fc.property(scenario, ({ day, rules, date, now }) => {
        const slots = new Set(daySlots(day, rules, date, now).map((slot) => slot.start));
        const midnight = Temporal.PlainDate.from(date).toZonedDateTime(day.timezone).epochMilliseconds;
        // Every 5 minutes of real time across the local day and one hour either side.
        for (let instant = midnight - 60 * MINUTE; instant < midnight + 26 * 60 * MINUTE; instant += 5 * MINUTE) {
          if (wall(instant, day.timezone).date !== date) continue;
          expect(whyUnavailable(day, rules, instant, now) === null).toBe(slots.has(instant));
        }
      }),
      { ...options, numRuns: 100 },
    );
  });

  test('daysWithSlots lists exactly the days daySlots finds slots on', () => {
    fc.assert(
      fc.property(scenario, ({ day, rules, date, now }) => {
        const from = Temporal.PlainDate.from(date).subtract({ days: 2 });
        const expected: string[] = [];
        for (let offset = 0; offset < 5; offset++) {
          const current = from.add({ days: offset }).toString();
          if (daySlots(day, rules, current, now).length > 0) expected.push(current);
        }
        expect(daysWithSlots(day, rules, from.toString(), from.add({ days: 4 }).toString(), now)).toEqual(expected);
      }),
      { ...options, numRuns: 100 },
    );
  });
});

describe('several providers at once (unionDaySlots, unionDaysWithSlots)', () => {
  /** A scenario with 1 to 8 providers: 1 to 3 distinct sets of hours (some shared), each with its own bookings. */
  const many = scenario.chain((base) =>
    fc.record({
      base: fc.constant(base),
      hours: fc.array(hoursFor(base.date), { minLength: 0, maxLength: 2 }),
      providers: fc.array(fc.record({ which: fc.nat(2), bookings: fc.shuffledSubarray(base.day.bookings) }), { minLength: 1, maxLength: 8 }),
    }),
  );
  const providersOf = ({ base, hours, providers }: { base: Scenario; hours: WorkingHours[]; providers: { which: number; bookings: BusyBooking[] }[] }) => {
    const sets = [base.day.hours, ...hours];
    return providers.map(({ which, bookings }) => ({ timezone: base.day.timezone, hours: sets[which % sets.length]!, bookings }));
  };

  test("unionDaySlots is mergeSlots of each provider's daySlots, on DST days and plain ones", () => {
    fc.assert(
      fc.property(many, (input) => {
        const { rules, date, now, day } = input.base;
        const providers = providersOf(input);
        const expected = mergeSlots(providers.map((provider) => daySlots(provider, rules, date, now)));
        expect(unionDaySlots(day.timezone, providers, rules, date, now)).toEqual(expected);
      }),
      { ...options, numRuns: 150 },
    );
  });

  test('unionDaysWithSlots over a window across the DST day lists the days any provider has a slot on', () => {
    fc.assert(
      fc.property(many, (input) => {
        const { rules, date, now, day } = input.base;
        const providers = providersOf(input);
        const from = Temporal.PlainDate.from(date).subtract({ days: 2 });
        const expected: string[] = [];
        for (let offset = 0; offset < 5; offset++) {
          const current = from.add({ days: offset }).toString();
          if (providers.some((provider) => daySlots(provider, rules, current, now).length > 0)) expected.push(current);
        }
        expect(unionDaysWithSlots(day.timezone, providers, rules, from.toString(), from.add({ days: 4 }).toString(), now)).toEqual(expected);
      }),
      { ...options, numRuns: 100 },
    );
  });
});
