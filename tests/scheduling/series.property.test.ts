import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { SERIES_MAX, seriesStarts } from '../../src/core/series.ts';

const SEED = 20261126;
const RUNS = 300;
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney'];

const local = (epochMs: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone);

/** A first start in 2026–2027 on a quarter hour between 06:00 and 21:45 local time. */
const firsts = fc.record({
  zone: fc.constantFrom(...ZONES),
  day: fc.integer({ min: 0, max: 700 }),
  minutes: fc.integer({ min: 24, max: 87 }).map((quarter) => quarter * 15),
  interval: fc.integer({ min: 1, max: 4 }),
  count: fc.integer({ min: 2, max: SERIES_MAX }),
});

function firstStart({ zone, day, minutes }: { zone: string; day: number; minutes: number }): number {
  return Temporal.PlainDate.from('2026-01-01')
    .add({ days: day })
    .toPlainDateTime(Temporal.PlainTime.from({ hour: Math.floor(minutes / 60), minute: minutes % 60 }))
    .toZonedDateTime(zone)
    .toInstant().epochMilliseconds;
}

describe('series dates across DST (core/series.ts)', () => {
  test('every occurrence keeps the first one’s local time and weekday, `interval` weeks apart, in three zones', () => {
    fc.assert(
      fc.property(firsts, (input) => {
        const first = firstStart(input);
        const result = seriesStarts(first, input.zone, { frequency: 'weekly', interval: input.interval, count: input.count });
        if (!result.ok) throw new Error(result.message);
        expect(result.starts).toHaveLength(input.count);
        expect(result.starts[0]).toBe(first);
        const base = local(first, input.zone);
        result.starts.forEach((start, index) => {
          const at = local(start, input.zone);
          // The chosen times are never in a DST gap (06:00–21:45), so the wall clock is kept exactly.
          expect(at.toPlainTime().toString()).toBe(base.toPlainTime().toString());
          expect(at.dayOfWeek).toBe(base.dayOfWeek);
          expect(base.toPlainDate().until(at.toPlainDate(), { largestUnit: 'days' }).days).toBe(index * 7 * input.interval);
        });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('until gives the occurrences up to that day (included), the same as the matching count', () => {
    fc.assert(
      fc.property(firsts, (input) => {
        const first = firstStart(input);
        const byCount = seriesStarts(first, input.zone, { frequency: 'weekly', interval: input.interval, count: input.count });
        if (!byCount.ok) throw new Error(byCount.message);
        const lastDay = local(byCount.starts.at(-1)!, input.zone).toPlainDate();
        const untilLast = seriesStarts(first, input.zone, { frequency: 'weekly', interval: input.interval, until: lastDay.toString() });
        const untilLater = seriesStarts(first, input.zone, {
          frequency: 'weekly',
          interval: input.interval,
          until: lastDay.add({ days: 7 * input.interval - 1 }).toString(),
        });
        expect(untilLast).toEqual(byCount);
        expect(untilLater).toEqual(byCount);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('examples across the 2027 changes: the UTC offset moves, the local time does not', () => {
    const berlin = seriesStarts(Date.parse('2027-03-22T09:00:00Z'), 'Europe/Berlin', { frequency: 'weekly', interval: 1, count: 2 });
    expect(berlin).toEqual({ ok: true, starts: [Date.parse('2027-03-22T09:00:00Z'), Date.parse('2027-03-29T08:00:00Z')] });
    const newYork = seriesStarts(Date.parse('2027-10-31T13:30:00Z'), 'America/New_York', { frequency: 'weekly', interval: 1, count: 2 });
    expect(newYork).toEqual({ ok: true, starts: [Date.parse('2027-10-31T13:30:00Z'), Date.parse('2027-11-07T14:30:00Z')] });
    const sydney = seriesStarts(Date.parse('2027-03-29T23:00:00Z'), 'Australia/Sydney', { frequency: 'weekly', interval: 1, count: 2 });
    expect(sydney).toEqual({ ok: true, starts: [Date.parse('2027-03-29T23:00:00Z'), Date.parse('2027-04-06T00:00:00Z')] });
  });

  test('a local time the DST change skips moves forward by the gap, as a clock shows it', () => {
    // 02:30 on 2027-03-28 does not exist in Berlin; the week before it does
    const result = seriesStarts(Date.parse('2027-03-21T01:30:00Z'), 'Europe/Berlin', { frequency: 'weekly', interval: 1, count: 2 });
    expect(result.ok && local(result.starts[1]!, 'Europe/Berlin').toPlainTime().toString()).toBe('03:30:00');
  });

  test('bad repeats are refused naming the field', () => {
    const first = Date.parse('2027-01-04T09:00:00Z');
    const z = 'Europe/Berlin';
    expect(seriesStarts(first, z, { frequency: 'weekly', interval: 5, count: 2 })).toMatchObject({ ok: false, path: '/repeat/interval' });
    expect(seriesStarts(first, z, { frequency: 'weekly', interval: 1, count: 53 })).toMatchObject({ ok: false, path: '/repeat/count' });
    expect(seriesStarts(first, z, { frequency: 'weekly', interval: 1, count: 1 })).toMatchObject({ ok: false, path: '/repeat/count' });
    expect(seriesStarts(first, z, { frequency: 'weekly', interval: 1 })).toMatchObject({ ok: false, path: '/repeat' });
    expect(seriesStarts(first, z, { frequency: 'weekly', interval: 1, count: 3, until: '2027-02-01' })).toMatchObject({ ok: false, path: '/repeat' });
    expect(seriesStarts(first, z, { frequency: 'weekly', interval: 1, until: '2027-02-30' })).toMatchObject({ ok: false, path: '/repeat/until' });
    expect(seriesStarts(first, z, { frequency: 'weekly', interval: 1, until: '2027-01-05' })).toMatchObject({ ok: false, path: '/repeat/until' });
    expect(seriesStarts(first, z, { frequency: 'weekly', interval: 1, until: '2028-06-01' })).toMatchObject({ ok: false, path: '/repeat/until' });
  });
});
