import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { type CalendarEvent, expandBusyTimes } from '../../src/core/busy-times.ts';

/*
 * Properties of the busy-time expansion across DST, in zones with northern, southern, half-hour and
 * midnight changes. Each property is checked against Temporal directly, never against the code under test.
 */

const SEED = 20260329;
const RUNS = 150;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Australia/Lord_Howe', 'America/Santiago', 'Pacific/Chatham', 'Asia/Kolkata'];
/** Start dates a few days before DST changes of the zones above, so series cross them. */
const STARTS = ['2026-03-05', '2026-03-26', '2026-04-02', '2026-09-03', '2026-09-24', '2026-10-22', '2026-10-29', '2026-01-10'];

const pad = (value: number) => String(value).padStart(2, '0');
const base = (partial: Partial<CalendarEvent> & Pick<CalendarEvent, 'start'>): CalendarEvent => ({
  uid: 'series',
  end: null,
  duration: null,
  rrule: null,
  rdates: [],
  exdates: [],
  recurrenceId: null,
  transparent: false,
  cancelled: false,
  ...partial,
});

const wallClock = (instant: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone);
const instantOf = (local: string, zone: string) => Temporal.PlainDateTime.from(local).toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds;

const series = fc.record({
  zone: fc.constantFrom(...ZONES),
  date: fc.constantFrom(...STARTS),
  // on the quarter hour, gap and overlap hours included
  minutes: fc.integer({ min: 0, max: 95 }).map((quarter) => quarter * 15),
  length: fc.integer({ min: 1, max: 16 }).map((quarters) => quarters * 15),
  freq: fc.constantFrom('DAILY', 'WEEKLY'),
  count: fc.integer({ min: 1, max: 20 }),
});

type Series = typeof series extends fc.Arbitrary<infer T> ? T : never;

function build({ zone, date, minutes, length, freq, count }: Series) {
  const local = `${date}T${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}:00`;
  const event = base({ start: { local, zone }, duration: `PT${length}M`, rrule: `FREQ=${freq};COUNT=${count}` });
  const step = freq === 'DAILY' ? 1 : 7;
  const dates = Array.from({ length: count }, (_, index) => Temporal.PlainDate.from(date).add({ days: index * step }));
  const expected = dates.map((day) => instantOf(`${day.toString()}T${local.slice(11)}`, zone));
  return { event, local, expected };
}

const everything = { from: Date.parse('2025-12-01T00:00:00Z'), to: Date.parse('2027-06-01T00:00:00Z') };

describe('busy-time expansion across DST (property)', () => {
  test('every occurrence starts at the series wall-clock time in its zone (shifted forward only inside a gap) and lasts its duration exactly', () => {
    fc.assert(
      fc.property(series, (input) => {
        const { event, local, expected } = build(input);
        const busy = expandBusyTimes([event], everything, 'UTC');
        expect(busy.map((interval) => interval.start)).toEqual(expected);
        for (const interval of busy) {
          expect(interval.end - interval.start).toBe(input.length * MINUTE);
          const shown = wallClock(interval.start, input.zone);
          const wanted = Temporal.PlainTime.from(local.slice(11));
          // Equal, or later by the gap (at most an hour) when the wall-clock time does not exist that day.
          const later = Temporal.PlainTime.compare(shown.toPlainTime(), wanted) >= 0 ? shown.toPlainTime().since(wanted).total('minutes') : null;
          expect(later !== null && later <= 60).toBe(true);
          if (later !== 0) expect(shown.offsetNanoseconds).not.toBe(shown.subtract({ hours: 3 }).offsetNanoseconds);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('an EXDATE removes exactly its occurrence, and an override moves exactly its occurrence', () => {
    fc.assert(
      fc.property(series, fc.nat(), fc.integer({ min: 1, max: 48 }), (input, pick, hoursLater) => {
        const { event, expected } = build({ ...input, count: Math.max(2, input.count) });
        const index = pick % expected.length;
        const removed = wallClock(expected[index]!, 'UTC').toPlainDateTime().toString({ smallestUnit: 'second' });
        const withExdate = expandBusyTimes([{ ...event, exdates: [{ local: removed, zone: 'UTC' }] }], everything, 'UTC');
        expect(withExdate.map((interval) => interval.start)).toEqual(expected.filter((_, i) => i !== index));

        const movedTo = expected[index]! + hoursLater * HOUR;
        const override = base({
          recurrenceId: { local: removed, zone: 'UTC' },
          start: { local: wallClock(movedTo, 'UTC').toPlainDateTime().toString({ smallestUnit: 'second' }), zone: 'UTC' },
          duration: 'PT30M',
        });
        const withOverride = expandBusyTimes([event, override], everything, 'UTC');
        const starts = withOverride.map((interval) => interval.start);
        expect(starts.length).toBe(expected.length);
        expect(starts).toContain(movedTo);
        expect([...starts].sort((a, b) => a - b)).toEqual([...expected.filter((_, i) => i !== index), movedTo].sort((a, b) => a - b));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('an all-day series blocks each of its dates from 00:00 to the next 00:00 in the workspace zone (23, 24 or 25 hours)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.constantFrom(...STARTS), fc.integer({ min: 1, max: 40 }), (zone, date, count) => {
        const event = base({ start: { date }, rrule: `FREQ=DAILY;COUNT=${count}` });
        const busy = expandBusyTimes([event], everything, zone);
        expect(busy.length).toBe(count);
        busy.forEach((interval, index) => {
          const day = Temporal.PlainDate.from(date).add({ days: index });
          expect(interval.start).toBe(day.toZonedDateTime({ timeZone: zone }).epochMilliseconds);
          expect(interval.end).toBe(day.add({ days: 1 }).toZonedDateTime({ timeZone: zone }).epochMilliseconds);
          expect([23, 23.5, 24, 24.5, 25]).toContain((interval.end - interval.start) / HOUR);
        });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('a window cuts the expansion: exactly the occurrences that overlap it come back', () => {
    fc.assert(
      fc.property(series, fc.integer({ min: -3 * 24, max: 30 * 24 }), fc.integer({ min: 1, max: 20 * 24 }), (input, offsetHours, lengthHours) => {
        const { event, expected } = build(input);
        const from = expected[0]! + offsetHours * HOUR;
        const window = { from, to: from + lengthHours * HOUR };
        const busy = expandBusyTimes([event], window, 'UTC');
        const wanted = expected.filter((start) => start + input.length * MINUTE > window.from && start < window.to);
        expect(busy.map((interval) => interval.start)).toEqual(wanted);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
