import { describe, expect, test } from 'bun:test';
import { daySlots, daysWithSlots, whyUnavailable, type ProviderDay, type Slot, type SlotRules, type WorkingInterval } from '../../src/core/slot-engine.ts';

/** A clock well before every date below, so no slot is in the past. */
const NOW = Date.parse('2026-01-01T00:00:00.000Z');

function everyDay(timezone: string, intervals: WorkingInterval[]): ProviderDay {
  return {
    timezone,
    hours: {
      weekly: { mon: intervals, tue: intervals, wed: intervals, thu: intervals, fri: intervals, sat: intervals, sun: intervals },
      exceptions: [],
    },
    bookings: [],
  };
}

function rules(duration: number, overrides: Partial<SlotRules> = {}): SlotRules {
  return { serviceId: 'srv_a', duration, bufferTime: 0, minNotice: 0, maxAdvance: null, capacity: 1, ...overrides };
}

/** Each slot as "label start-ISO". */
const show = (slots: Slot[]): string[] => slots.map((slot) => `${slot.label} ${new Date(slot.start).toISOString()}`);

const night: WorkingInterval[] = [{ start: '00:00', end: '06:00' }];

interface DstCase {
  zone: string;
  date: string;
  transition: string;
  /** duration in minutes → expected "label start-ISO" of every slot */
  expected: Record<30 | 60, string[]>;
  /** labels that must not appear (the gap) */
  gap: string[];
  /** instants that show a label a second time (the overlap): not slots */
  repeated: string[];
}

const cases: DstCase[] = [
  {
    zone: 'Europe/Berlin',
    date: '2026-03-29',
    transition: 'spring forward 02:00 CET -> 03:00 CEST',
    expected: {
      30: [
        '00:00 2026-03-28T23:00:00.000Z',
        '00:30 2026-03-28T23:30:00.000Z',
        '01:00 2026-03-29T00:00:00.000Z',
        '01:30 2026-03-29T00:30:00.000Z',
        '03:00 2026-03-29T01:00:00.000Z',
        '03:30 2026-03-29T01:30:00.000Z',
        '04:00 2026-03-29T02:00:00.000Z',
        '04:30 2026-03-29T02:30:00.000Z',
        '05:00 2026-03-29T03:00:00.000Z',
        '05:30 2026-03-29T03:30:00.000Z',
      ],
      60: [
        '00:00 2026-03-28T23:00:00.000Z',
        '01:00 2026-03-29T00:00:00.000Z',
        '03:00 2026-03-29T01:00:00.000Z',
        '04:00 2026-03-29T02:00:00.000Z',
        '05:00 2026-03-29T03:00:00.000Z',
      ],
    },
    gap: ['02:00', '02:30'],
    repeated: [],
  },
  {
    zone: 'Europe/Berlin',
    date: '2026-10-25',
    transition: 'fall back 03:00 CEST -> 02:00 CET',
    expected: {
      30: [
        '00:00 2026-10-24T22:00:00.000Z',
        '00:30 2026-10-24T22:30:00.000Z',
        '01:00 2026-10-24T23:00:00.000Z',
        '01:30 2026-10-24T23:30:00.000Z',
        '02:00 2026-10-25T00:00:00.000Z',
        '02:30 2026-10-25T00:30:00.000Z',
        '03:00 2026-10-25T02:00:00.000Z',
        '03:30 2026-10-25T02:30:00.000Z',
        '04:00 2026-10-25T03:00:00.000Z',
        '04:30 2026-10-25T03:30:00.000Z',
        '05:00 2026-10-25T04:00:00.000Z',
        '05:30 2026-10-25T04:30:00.000Z',
      ],
      60: [
        '00:00 2026-10-24T22:00:00.000Z',
        '01:00 2026-10-24T23:00:00.000Z',
        '02:00 2026-10-25T00:00:00.000Z',
        '03:00 2026-10-25T02:00:00.000Z',
        '04:00 2026-10-25T03:00:00.000Z',
        '05:00 2026-10-25T04:00:00.000Z',
      ],
    },
    gap: [],
    repeated: ['2026-10-25T01:00:00.000Z', '2026-10-25T01:30:00.000Z'],
  },
  {
    zone: 'America/New_York',
    date: '2026-03-08',
    transition: 'spring forward 02:00 EST -> 03:00 EDT',
    expected: {
      30: [
        '00:00 2026-03-08T05:00:00.000Z',
        '00:30 2026-03-08T05:30:00.000Z',
        '01:00 2026-03-08T06:00:00.000Z',
        '01:30 2026-03-08T06:30:00.000Z',
        '03:00 2026-03-08T07:00:00.000Z',
        '03:30 2026-03-08T07:30:00.000Z',
        '04:00 2026-03-08T08:00:00.000Z',
        '04:30 2026-03-08T08:30:00.000Z',
        '05:00 2026-03-08T09:00:00.000Z',
        '05:30 2026-03-08T09:30:00.000Z',
      ],
      60: [
        '00:00 2026-03-08T05:00:00.000Z',
        '01:00 2026-03-08T06:00:00.000Z',
        '03:00 2026-03-08T07:00:00.000Z',
        '04:00 2026-03-08T08:00:00.000Z',
        '05:00 2026-03-08T09:00:00.000Z',
      ],
    },
    gap: ['02:00', '02:30'],
    repeated: [],
  },
  {
    zone: 'America/New_York',
    date: '2026-11-01',
    transition: 'fall back 02:00 EDT -> 01:00 EST',
    expected: {
      30: [
        '00:00 2026-11-01T04:00:00.000Z',
        '00:30 2026-11-01T04:30:00.000Z',
        '01:00 2026-11-01T05:00:00.000Z',
        '01:30 2026-11-01T05:30:00.000Z',
        '02:00 2026-11-01T07:00:00.000Z',
        '02:30 2026-11-01T07:30:00.000Z',
        '03:00 2026-11-01T08:00:00.000Z',
        '03:30 2026-11-01T08:30:00.000Z',
        '04:00 2026-11-01T09:00:00.000Z',
        '04:30 2026-11-01T09:30:00.000Z',
        '05:00 2026-11-01T10:00:00.000Z',
        '05:30 2026-11-01T10:30:00.000Z',
      ],
      60: [
        '00:00 2026-11-01T04:00:00.000Z',
        '01:00 2026-11-01T05:00:00.000Z',
        '02:00 2026-11-01T07:00:00.000Z',
        '03:00 2026-11-01T08:00:00.000Z',
        '04:00 2026-11-01T09:00:00.000Z',
        '05:00 2026-11-01T10:00:00.000Z',
      ],
    },
    gap: [],
    repeated: ['2026-11-01T06:00:00.000Z', '2026-11-01T06:30:00.000Z'],
  },
  {
    zone: 'Australia/Lord_Howe',
    date: '2026-04-05',
    transition: 'fall back 30 minutes 02:00 (+11:00) -> 01:30 (+10:30)',
    expected: {
      30: [
        '00:00 2026-04-04T13:00:00.000Z',
        '00:30 2026-04-04T13:30:00.000Z',
        '01:00 2026-04-04T14:00:00.000Z',
        '01:30 2026-04-04T14:30:00.000Z',
        '02:00 2026-04-04T15:30:00.000Z',
        '02:30 2026-04-04T16:00:00.000Z',
        '03:00 2026-04-04T16:30:00.000Z',
        '03:30 2026-04-04T17:00:00.000Z',
        '04:00 2026-04-04T17:30:00.000Z',
        '04:30 2026-04-04T18:00:00.000Z',
        '05:00 2026-04-04T18:30:00.000Z',
        '05:30 2026-04-04T19:00:00.000Z',
      ],
      60: [
        '00:00 2026-04-04T13:00:00.000Z',
        '01:00 2026-04-04T14:00:00.000Z',
        '02:00 2026-04-04T15:30:00.000Z',
        '03:00 2026-04-04T16:30:00.000Z',
        '04:00 2026-04-04T17:30:00.000Z',
        '05:00 2026-04-04T18:30:00.000Z',
      ],
    },
    gap: [],
    repeated: ['2026-04-04T15:00:00.000Z'],
  },
  {
    zone: 'Australia/Lord_Howe',
    date: '2026-10-04',
    transition: 'spring forward 30 minutes 02:00 (+10:30) -> 02:30 (+11:00)',
    expected: {
      30: [
        '00:00 2026-10-03T13:30:00.000Z',
        '00:30 2026-10-03T14:00:00.000Z',
        '01:00 2026-10-03T14:30:00.000Z',
        '01:30 2026-10-03T15:00:00.000Z',
        '02:30 2026-10-03T15:30:00.000Z',
        '03:00 2026-10-03T16:00:00.000Z',
        '03:30 2026-10-03T16:30:00.000Z',
        '04:00 2026-10-03T17:00:00.000Z',
        '04:30 2026-10-03T17:30:00.000Z',
        '05:00 2026-10-03T18:00:00.000Z',
        '05:30 2026-10-03T18:30:00.000Z',
      ],
      60: [
        '00:00 2026-10-03T13:30:00.000Z',
        '01:00 2026-10-03T14:30:00.000Z',
        '03:00 2026-10-03T16:00:00.000Z',
        '04:00 2026-10-03T17:00:00.000Z',
        '05:00 2026-10-03T18:00:00.000Z',
      ],
    },
    gap: ['02:00'],
    repeated: [],
  },
];

for (const { zone, date, transition, expected, gap, repeated } of cases) {
  describe(`${zone} ${date} (${transition})`, () => {
    const day = everyDay(zone, night);

    for (const duration of [30, 60] as const) {
      test(`${duration}-minute slots from 00:00 to 06:00 have the exact labels and UTC instants`, () => {
        expect(show(daySlots(day, rules(duration), date, NOW))).toEqual(expected[duration]);
      });

      test(`${duration}-minute slots: no label in the gap, no label twice`, () => {
        const labels = daySlots(day, rules(duration), date, NOW).map((slot) => slot.label);
        for (const missing of gap) expect(labels).not.toContain(missing);
        expect(new Set(labels).size).toBe(labels.length);
      });

      test(`${duration}-minute slots: each lasts ${duration} real minutes and every one is bookable`, () => {
        for (const slot of daySlots(day, rules(duration), date, NOW)) {
          expect(slot.end - slot.start).toBe(duration * 60_000);
          expect(whyUnavailable(day, rules(duration), slot.start, NOW)).toBeNull();
        }
      });
    }

    test('the second occurrence of a repeated wall-clock time is outside_hours', () => {
      for (const iso of repeated) {
        expect(whyUnavailable(day, rules(30), Date.parse(iso), NOW)).toBe('outside_hours');
      }
    });

    test('the day is listed by daysWithSlots', () => {
      expect(daysWithSlots(day, rules(60), date, date, NOW)).toEqual([date]);
    });
  });
}

describe('interval ends on DST days', () => {
  test('an interval end inside the spring-forward gap ends at the transition', () => {
    // Berlin 2026-03-29: 00:00-02:30 lasts until 03:00 CEST (01:00Z), the first instant past 02:30.
    const day = everyDay('Europe/Berlin', [{ start: '00:00', end: '02:30' }]);
    expect(show(daySlots(day, rules(30), '2026-03-29', NOW))).toEqual([
      '00:00 2026-03-28T23:00:00.000Z',
      '00:30 2026-03-28T23:30:00.000Z',
      '01:00 2026-03-29T00:00:00.000Z',
      '01:30 2026-03-29T00:30:00.000Z',
    ]);
  });

  test('an interval end inside the repeated hour ends at its first occurrence', () => {
    // Berlin 2026-10-25: 00:00-02:30 ends at 02:30 CEST (00:30Z), so a 60-minute slot at 02:00 does not fit.
    const day = everyDay('Europe/Berlin', [{ start: '00:00', end: '02:30' }]);
    expect(show(daySlots(day, rules(60), '2026-10-25', NOW))).toEqual(['00:00 2026-10-24T22:00:00.000Z', '01:00 2026-10-24T23:00:00.000Z']);
    expect(show(daySlots(day, rules(30), '2026-10-25', NOW)).at(-1)).toBe('02:00 2026-10-25T00:00:00.000Z');
  });

  test('an interval starting inside the gap begins at its first existing step', () => {
    const day = everyDay('America/New_York', [{ start: '02:00', end: '05:00' }]);
    expect(show(daySlots(day, rules(60), '2026-03-08', NOW))).toEqual(['03:00 2026-03-08T07:00:00.000Z', '04:00 2026-03-08T08:00:00.000Z']);
  });

  test('a slot crossing the transition lasts its duration in real time', () => {
    // Berlin 2026-03-29: 01:30 CET + 90 minutes = 04:00 CEST.
    const day = everyDay('Europe/Berlin', [{ start: '01:30', end: '04:00' }]);
    const slots = daySlots(day, rules(90), '2026-03-29', NOW);
    expect(slots.map((slot) => [slot.label, new Date(slot.start).toISOString(), new Date(slot.end).toISOString()])).toEqual([
      ['01:30', '2026-03-29T00:30:00.000Z', '2026-03-29T02:00:00.000Z'],
    ]);
  });

  test('an interval ending at 24:00 on the eve of a transition ends at the next local midnight', () => {
    const day = everyDay('America/New_York', [{ start: '22:00', end: '24:00' }]);
    expect(show(daySlots(day, rules(60), '2026-10-31', NOW))).toEqual(['22:00 2026-11-01T02:00:00.000Z', '23:00 2026-11-01T03:00:00.000Z']);
  });

  test('a zone whose midnight does not exist yields no 00:00 slot that day', () => {
    // America/Santiago springs forward at 24:00 -> 01:00 on 2026-09-06.
    const day = everyDay('America/Santiago', [{ start: '00:00', end: '03:00' }]);
    expect(show(daySlots(day, rules(60), '2026-09-06', NOW))).toEqual(['01:00 2026-09-06T04:00:00.000Z', '02:00 2026-09-06T05:00:00.000Z']);
  });
});
