import { describe, expect, test } from 'bun:test';
import {
  WEEKDAYS,
  daySlots,
  daysWithSlots,
  mergeSlots,
  whyUnavailable,
  type BusyBooking,
  type DateException,
  type ProviderDay,
  type Slot,
  type SlotRules,
  type Unavailability,
  type WorkingInterval,
} from '../../src/core/slot-engine.ts';

// Europe/Berlin is on CEST (UTC+02:00) through all of June 2026: 09:00 local = 07:00Z.
const BERLIN = 'Europe/Berlin';
/** Monday 2026-06-01 08:00 Berlin. */
const NOW = Date.parse('2026-06-01T06:00:00.000Z');
const MONDAY = '2026-06-01';
const WEDNESDAY = '2026-06-03';
const SATURDAY = '2026-06-06';

const at = (iso: string): number => Date.parse(iso);
const labels = (slots: Slot[]): string[] => slots.map((slot) => slot.label);
const isoStarts = (slots: Slot[]): string[] => slots.map((slot) => new Date(slot.start).toISOString());

function weekdays(...intervals: WorkingInterval[]): ProviderDay['hours']['weekly'] {
  return { mon: intervals, tue: intervals, wed: intervals, thu: intervals, fri: intervals, sat: [], sun: [] };
}

function provider(weekly: WorkingInterval[], options: { bookings?: BusyBooking[]; exceptions?: DateException[]; timezone?: string } = {}): ProviderDay {
  return {
    timezone: options.timezone ?? BERLIN,
    hours: { weekly: weekdays(...weekly), exceptions: options.exceptions ?? [] },
    bookings: options.bookings ?? [],
  };
}

function rules(overrides: Partial<SlotRules> = {}): SlotRules {
  return {
    serviceId: 'srv_a',
    duration: 60,
    bufferTime: 0,
    minNotice: 0,
    maxAdvance: null,
    capacity: 1,
    ...overrides,
  };
}

/** A booking given by its UTC start and its length in minutes. */
function booking(serviceId: string, startIso: string, minutes: number, bufferTime = 0): BusyBooking {
  const start = at(startIso);
  return { serviceId, start, end: start + minutes * 60_000, bufferTime };
}

const nineToFive: WorkingInterval[] = [{ start: '09:00', end: '17:00' }];

describe('WEEKDAYS', () => {
  test('lists the week from Monday to Sunday', () => {
    expect(WEEKDAYS).toEqual(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
  });
});

describe('working intervals', () => {
  test('several intervals with a break yield slots in each interval and none in the break', () => {
    const day = provider([
      { start: '09:00', end: '12:00' },
      { start: '13:00', end: '17:00' },
    ]);
    const slots = daySlots(day, rules(), WEDNESDAY, NOW);
    expect(labels(slots)).toEqual(['09:00', '10:00', '11:00', '13:00', '14:00', '15:00', '16:00']);
    expect(slots[0]).toEqual({
      start: at('2026-06-03T07:00:00.000Z'),
      end: at('2026-06-03T08:00:00.000Z'),
      label: '09:00',
    });
  });

  test('intervals given out of order still yield ascending slots', () => {
    const day = provider([
      { start: '13:00', end: '15:00' },
      { start: '09:00', end: '11:00' },
    ]);
    expect(labels(daySlots(day, rules(), WEDNESDAY, NOW))).toEqual(['09:00', '10:00', '13:00', '14:00']);
  });

  test('overlapping intervals yield each label once', () => {
    const day = provider([
      { start: '09:00', end: '11:00' },
      { start: '10:00', end: '12:00' },
    ]);
    expect(labels(daySlots(day, rules(), WEDNESDAY, NOW))).toEqual(['09:00', '10:00', '11:00']);
  });

  test('a slot must end no later than its interval end', () => {
    const day = provider([{ start: '09:00', end: '10:30' }]);
    expect(labels(daySlots(day, rules({ slotInterval: 30 }), WEDNESDAY, NOW))).toEqual(['09:00', '09:30']);
  });

  test('a weekday without intervals is closed', () => {
    expect(daySlots(provider(nineToFive), rules(), SATURDAY, NOW)).toEqual([]);
  });

  test('an exception with no intervals closes the day', () => {
    const day = provider(nineToFive, { exceptions: [{ date: WEDNESDAY, intervals: [] }] });
    expect(daySlots(day, rules(), WEDNESDAY, NOW)).toEqual([]);
    expect(labels(daySlots(day, rules(), '2026-06-04', NOW))).toHaveLength(8);
  });

  test('an exception with special hours replaces the weekly hours of that date', () => {
    const day = provider(nineToFive, {
      exceptions: [
        { date: WEDNESDAY, intervals: [{ start: '14:00', end: '16:00' }] },
        { date: SATURDAY, intervals: [{ start: '10:00', end: '12:00' }] },
      ],
    });
    expect(labels(daySlots(day, rules(), WEDNESDAY, NOW))).toEqual(['14:00', '15:00']);
    expect(labels(daySlots(day, rules(), SATURDAY, NOW))).toEqual(['10:00', '11:00']);
  });

  test('an interval ending at 24:00 runs to the start of the next day', () => {
    const day = provider([{ start: '22:00', end: '24:00' }]);
    const slots = daySlots(day, rules(), WEDNESDAY, NOW);
    expect(labels(slots)).toEqual(['22:00', '23:00']);
    expect(new Date(slots[1]!.end).toISOString()).toBe('2026-06-03T22:00:00.000Z');
  });

  test('UTC working hours map to the same UTC instants', () => {
    const day = provider(nineToFive, { timezone: 'UTC' });
    expect(isoStarts(daySlots(day, rules({ duration: 240 }), WEDNESDAY, NOW))).toEqual(['2026-06-03T09:00:00.000Z', '2026-06-03T13:00:00.000Z']);
  });
});

describe('duration and slotInterval', () => {
  const morning = provider([{ start: '09:00', end: '12:00' }]);
  const cases: Array<{ name: string; rules: Partial<SlotRules>; expected: string[] }> = [
    { name: 'slots step by the duration when slotInterval is absent', rules: { duration: 45 }, expected: ['09:00', '09:45', '10:30', '11:15'] },
    {
      name: 'slots step by the duration when slotInterval is null',
      rules: { duration: 45, slotInterval: null },
      expected: ['09:00', '09:45', '10:30', '11:15'],
    },
    {
      name: 'slots step by slotInterval when it is shorter than the duration',
      rules: { duration: 60, slotInterval: 15 },
      expected: ['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30', '10:45', '11:00'],
    },
    { name: 'slots step by slotInterval when it is longer than the duration', rules: { duration: 30, slotInterval: 90 }, expected: ['09:00', '10:30'] },
    { name: 'a custom 90-minute duration fits twice into three hours', rules: { duration: 90 }, expected: ['09:00', '10:30'] },
    {
      name: 'a custom 5-minute duration fits 36 times into three hours',
      rules: { duration: 5 },
      expected: Array.from({ length: 36 }, (_, index) => `${String(9 + Math.floor(index / 12)).padStart(2, '0')}:${String((index % 12) * 5).padStart(2, '0')}`),
    },
    { name: 'a duration longer than the interval yields no slot', rules: { duration: 240 }, expected: [] },
  ];
  for (const { name, rules: overrides, expected } of cases) {
    test(name, () => {
      expect(labels(daySlots(morning, rules(overrides), WEDNESDAY, NOW))).toEqual(expected);
    });
  }

  test('a slot ends duration minutes after it starts', () => {
    for (const slot of daySlots(morning, rules({ duration: 50, slotInterval: 20 }), WEDNESDAY, NOW)) {
      expect(slot.end - slot.start).toBe(50 * 60_000);
    }
  });
});

describe('bufferTime', () => {
  const morning: WorkingInterval[] = [{ start: '09:00', end: '13:00' }];
  // 10:00-11:00 Berlin.
  const tenToEleven = (bufferTime: number, serviceId = 'srv_a') => booking(serviceId, '2026-06-03T08:00:00.000Z', 60, bufferTime);
  const cases: Array<{ name: string; own: number; theirs: number; expected: string[] }> = [
    { name: 'without buffers slots may touch a booking on both sides', own: 0, theirs: 0, expected: ['09:00', '09:30', '11:00', '11:30', '12:00', '12:30'] },
    { name: 'the service buffer keeps time free before and after a booking', own: 15, theirs: 15, expected: ['09:00', '11:30', '12:00', '12:30'] },
    { name: 'the booking buffer applies when it is the larger one', own: 0, theirs: 30, expected: ['09:00', '11:30', '12:00', '12:30'] },
    { name: 'the candidate buffer applies when it is the larger one', own: 30, theirs: 0, expected: ['09:00', '11:30', '12:00', '12:30'] },
    { name: 'a 60-minute buffer frees only slots an hour away', own: 60, theirs: 0, expected: ['12:00', '12:30'] },
  ];
  for (const { name, own, theirs, expected } of cases) {
    test(name, () => {
      const day = provider(morning, { bookings: [tenToEleven(theirs)] });
      expect(labels(daySlots(day, rules({ duration: 30, bufferTime: own }), WEDNESDAY, NOW))).toEqual(expected);
    });
  }

  test('a buffer of another service counts the same way', () => {
    const day = provider(morning, { bookings: [tenToEleven(30, 'srv_b')] });
    expect(labels(daySlots(day, rules({ duration: 30 }), WEDNESDAY, NOW))).toEqual(['09:00', '11:30', '12:00', '12:30']);
  });
});

describe('minNotice', () => {
  const day = provider(nineToFive);
  /** Wednesday 09:10 Berlin. */
  const now = at('2026-06-03T07:10:00.000Z');

  test('slots start no earlier than now plus minNotice', () => {
    const slots = daySlots(day, rules({ duration: 30, minNotice: 120 }), WEDNESDAY, now);
    expect(slots[0]?.label).toBe('11:30');
  });

  test('a slot starting exactly at now plus minNotice is bookable', () => {
    const slots = daySlots(day, rules({ duration: 30, minNotice: 110 }), WEDNESDAY, now);
    expect(slots[0]?.label).toBe('11:00');
  });

  test('a slot inside minNotice is too_soon', () => {
    expect(whyUnavailable(day, rules({ duration: 30, minNotice: 120 }), at('2026-06-03T09:00:00.000Z'), now)).toBe('too_soon');
  });

  test('minNotice 0 still drops slots that started before now', () => {
    expect(daySlots(day, rules({ duration: 30 }), WEDNESDAY, now)[0]?.label).toBe('09:30');
  });
});

describe('maxAdvance', () => {
  const early = provider([{ start: '07:00', end: '10:00' }]);

  test('slots start no later than now plus maxAdvance days', () => {
    // now + 2 days = Wednesday 08:00 Berlin: 08:00 is still bookable, 08:30 is not.
    expect(labels(daySlots(early, rules({ duration: 30, maxAdvance: 2 }), WEDNESDAY, NOW))).toEqual(['07:00', '07:30', '08:00']);
  });

  test('a slot beyond maxAdvance is too_far_ahead', () => {
    expect(whyUnavailable(early, rules({ duration: 30, maxAdvance: 2 }), at('2026-06-03T06:30:00.000Z'), NOW)).toBe('too_far_ahead');
  });

  test('maxAdvance null allows slots years ahead', () => {
    expect(labels(daySlots(early, rules({ maxAdvance: null }), '2029-06-06', NOW))).toEqual(['07:00', '08:00', '09:00']);
  });

  test('maxAdvance 0 leaves only slots up to now', () => {
    expect(daySlots(early, rules({ maxAdvance: 0 }), MONDAY, NOW).map((slot) => slot.label)).toEqual(['08:00']);
  });
});

describe('capacity', () => {
  const morning: WorkingInterval[] = [{ start: '09:00', end: '12:00' }];
  /** Wednesday 10:00-11:00 Berlin. */
  const atTen = (serviceId = 'srv_a', bufferTime = 0) => booking(serviceId, '2026-06-03T08:00:00.000Z', 60, bufferTime);
  const ten = at('2026-06-03T08:00:00.000Z');

  const cases: Array<{ name: string; capacity: number; bookings: BusyBooking[]; tenFree: boolean; expected: string[] }> = [
    { name: 'capacity 1: one booking takes the slot', capacity: 1, bookings: [atTen()], tenFree: false, expected: ['09:00', '11:00'] },
    { name: 'capacity 3: a second booking is allowed', capacity: 3, bookings: [atTen()], tenFree: true, expected: ['09:00', '10:00', '11:00'] },
    { name: 'capacity 3: a third booking is allowed', capacity: 3, bookings: [atTen(), atTen()], tenFree: true, expected: ['09:00', '10:00', '11:00'] },
    { name: 'capacity 3: a fourth booking is not', capacity: 3, bookings: [atTen(), atTen(), atTen()], tenFree: false, expected: ['09:00', '11:00'] },
    { name: 'capacity 3: a booking of another service blocks the slot', capacity: 3, bookings: [atTen('srv_b')], tenFree: false, expected: ['09:00', '11:00'] },
    {
      name: 'capacity 3: another service blocks a slot that also has room for this one',
      capacity: 3,
      bookings: [atTen(), atTen('srv_b')],
      tenFree: false,
      expected: ['09:00', '11:00'],
    },
    {
      name: 'capacity 3: the buffer of another service blocks the neighbouring slots',
      capacity: 3,
      bookings: [atTen('srv_b', 15)],
      tenFree: false,
      expected: [],
    },
    {
      name: 'capacity 3: a same-service booking within the buffer but not overlapping blocks the slot',
      capacity: 3,
      bookings: [atTen('srv_a', 15)],
      tenFree: true,
      expected: ['10:00'],
    },
  ];
  for (const { name, capacity, bookings, tenFree, expected } of cases) {
    test(name, () => {
      const day = provider(morning, { bookings });
      expect(labels(daySlots(day, rules({ capacity }), WEDNESDAY, NOW))).toEqual(expected);
      expect(whyUnavailable(day, rules({ capacity }), ten, NOW)).toBe(tenFree ? null : 'taken');
    });
  }

  test('capacity 3: partly overlapping bookings of the same service all count', () => {
    const day = provider(morning, {
      bookings: [
        booking('srv_a', '2026-06-03T07:30:00.000Z', 60), // 09:30-10:30
        booking('srv_a', '2026-06-03T08:00:00.000Z', 60), // 10:00-11:00
        booking('srv_a', '2026-06-03T08:30:00.000Z', 60), // 10:30-11:30
      ],
    });
    const slots = daySlots(day, rules({ capacity: 3, slotInterval: 30 }), WEDNESDAY, NOW);
    // 10:00-11:00 overlaps all three; every other start overlaps at most two.
    expect(labels(slots)).toEqual(['09:00', '09:30', '10:30', '11:00']);
  });

  test('cancelled bookings are the caller’s to leave out: an empty list frees every slot', () => {
    expect(labels(daySlots(provider(morning), rules(), WEDNESDAY, NOW))).toEqual(['09:00', '10:00', '11:00']);
  });
});

describe('whyUnavailable', () => {
  const day = provider(
    [
      { start: '09:00', end: '12:00' },
      { start: '13:00', end: '17:00' },
    ],
    { bookings: [booking('srv_b', '2026-06-03T12:00:00.000Z', 60)], exceptions: [{ date: '2026-06-04', intervals: [] }] },
  );
  const slotRules = rules({ duration: 30, minNotice: 60, maxAdvance: 30 });
  const cases: Array<{ name: string; start: string; expected: Unavailability | null }> = [
    { name: 'a start before now is in_the_past', start: '2026-06-01T05:00:00.000Z', expected: 'in_the_past' },
    { name: 'a start before now is in_the_past even outside hours', start: '2026-05-30T05:17:00.000Z', expected: 'in_the_past' },
    { name: 'a start inside minNotice is too_soon', start: '2026-06-01T06:30:00.000Z', expected: 'too_soon' },
    { name: 'a start beyond maxAdvance is too_far_ahead', start: '2026-07-08T07:00:00.000Z', expected: 'too_far_ahead' },
    { name: 'a start off the slot grid is outside_hours', start: '2026-06-03T07:10:00.000Z', expected: 'outside_hours' },
    { name: 'a start in the break is outside_hours', start: '2026-06-03T10:00:00.000Z', expected: 'outside_hours' },
    { name: 'a start on a closed exception day is outside_hours', start: '2026-06-04T07:00:00.000Z', expected: 'outside_hours' },
    { name: 'a start on a day without weekly hours is outside_hours', start: '2026-06-06T07:00:00.000Z', expected: 'outside_hours' },
    { name: 'a start overlapping a booking is taken', start: '2026-06-03T12:30:00.000Z', expected: 'taken' },
    { name: 'a free slot on the grid is bookable (null)', start: '2026-06-03T13:00:00.000Z', expected: null },
    { name: 'the first slot after minNotice is bookable (null)', start: '2026-06-01T07:00:00.000Z', expected: null },
    { name: 'a start exactly at now plus maxAdvance passes on to the hours check', start: '2026-07-01T06:00:00.000Z', expected: 'outside_hours' },
    { name: 'the last slot before maxAdvance is bookable (null)', start: '2026-06-30T14:30:00.000Z', expected: null },
  ];
  for (const { name, start, expected } of cases) {
    test(name, () => {
      expect(whyUnavailable(day, slotRules, at(start), NOW)).toBe(expected);
    });
  }

  test('every slot daySlots returns is bookable and every other grid start has a reason', () => {
    const slots = daySlots(day, slotRules, WEDNESDAY, NOW);
    const bookable = new Set(slots.map((slot) => slot.start));
    for (let minutes = 0; minutes < 24 * 60; minutes += 30) {
      const start = at('2026-06-02T22:00:00.000Z') + minutes * 60_000;
      expect(whyUnavailable(day, slotRules, start, NOW) === null).toBe(bookable.has(start));
    }
  });
});

describe('daysWithSlots', () => {
  // Monday evening: Monday has no slot left.
  const now = at('2026-06-01T17:00:00.000Z');
  const day = provider(nineToFive, {
    exceptions: [{ date: WEDNESDAY, intervals: [] }],
    // Thursday is booked from 09:00 to 17:00 by another service.
    bookings: [booking('srv_b', '2026-06-04T07:00:00.000Z', 8 * 60)],
  });

  test('lists the days with at least one slot, skipping past, closed, full and weekend days', () => {
    expect(daysWithSlots(day, rules(), '2026-05-30', '2026-06-09', now)).toEqual(['2026-06-02', '2026-06-05', '2026-06-08', '2026-06-09']);
  });

  test('includes both ends of the range', () => {
    expect(daysWithSlots(day, rules(), '2026-06-02', '2026-06-02', now)).toEqual(['2026-06-02']);
  });

  test('a range that ends before it starts is empty', () => {
    expect(daysWithSlots(day, rules(), '2026-06-09', '2026-06-02', now)).toEqual([]);
  });

  test('stops at maxAdvance', () => {
    expect(daysWithSlots(day, rules({ maxAdvance: 4 }), '2026-06-01', '2026-06-30', now)).toEqual(['2026-06-02', '2026-06-05']);
  });

  test('agrees with daySlots on every day of a month', () => {
    const slotRules = rules({ duration: 45, bufferTime: 10, capacity: 2 });
    const expected: string[] = [];
    for (let date = Temporal.PlainDate.from('2026-06-01'); date.month === 6; date = date.add({ days: 1 })) {
      if (daySlots(day, slotRules, date.toString(), now).length > 0) expected.push(date.toString());
    }
    expect(daysWithSlots(day, slotRules, '2026-06-01', '2026-06-30', now)).toEqual(expected);
  });
});

describe('mergeSlots', () => {
  const slot = (label: string, iso: string): Slot => ({ start: at(iso), end: at(iso) + 3_600_000, label });

  test('merges several providers into one ascending list, one entry per label', () => {
    const alice = [slot('09:00', '2026-06-03T07:00:00.000Z'), slot('11:00', '2026-06-03T09:00:00.000Z')];
    const bob = [slot('09:00', '2026-06-03T07:00:00.000Z'), slot('10:00', '2026-06-03T08:00:00.000Z')];
    expect(labels(mergeSlots([alice, bob]))).toEqual(['09:00', '10:00', '11:00']);
  });

  test('the earliest start wins for a repeated label', () => {
    const earlier = slot('02:00', '2026-10-25T00:00:00.000Z');
    const later = slot('02:00', '2026-10-25T01:00:00.000Z');
    expect(mergeSlots([[later], [earlier]])).toEqual([earlier]);
  });

  test('no lists or empty lists merge to nothing', () => {
    expect(mergeSlots([])).toEqual([]);
    expect(mergeSlots([[], []])).toEqual([]);
  });

  test('merging real day slots keeps every free time of any provider', () => {
    const rulesA = rules({ duration: 30 });
    const busyMorning = provider(nineToFive, { bookings: [booking('srv_a', '2026-06-03T07:00:00.000Z', 120)] });
    const busyAfternoon = provider(nineToFive, { bookings: [booking('srv_a', '2026-06-03T12:00:00.000Z', 180)] });
    const merged = mergeSlots([daySlots(busyMorning, rulesA, WEDNESDAY, NOW), daySlots(busyAfternoon, rulesA, WEDNESDAY, NOW)]);
    expect(merged).toHaveLength(16);
    expect(labels(merged)).toEqual(labels(daySlots(provider(nineToFive), rulesA, WEDNESDAY, NOW)));
  });
});

describe('invalid input', () => {
  const day = provider(nineToFive);
  test('a date that is not YYYY-MM-DD throws a RangeError naming the field', () => {
    expect(() => daySlots(day, rules(), '2026-6-3', NOW)).toThrow('date must be a date YYYY-MM-DD');
    expect(() => daySlots(day, rules(), '2026-02-30', NOW)).toThrow(RangeError);
    expect(() => daysWithSlots(day, rules(), 'tomorrow', '2026-06-09', NOW)).toThrow('from must be');
  });
  test('a capacity below 1 throws a RangeError', () => {
    expect(() => daySlots(day, rules({ capacity: 0 }), WEDNESDAY, NOW)).toThrow('capacity must be an integer of 1 or more');
  });
  test('a slotInterval of 0 throws instead of looping forever', () => {
    expect(() => daySlots(day, rules({ slotInterval: 0 }), WEDNESDAY, NOW)).toThrow('slotInterval');
  });
  test('a working hour that is not HH:mm throws a RangeError', () => {
    expect(() => daySlots(provider([{ start: '9:00', end: '17:00' }]), rules(), WEDNESDAY, NOW)).toThrow('"HH:mm"');
    expect(() => daySlots(provider([{ start: '24:00', end: '24:00' }]), rules(), WEDNESDAY, NOW)).toThrow(RangeError);
  });
});
