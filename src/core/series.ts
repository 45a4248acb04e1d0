/**
 * Weekly series (docs/contract/series.md): the starts of a booking's occurrences. Pure; the time zone
 * arithmetic goes through Temporal, so every occurrence keeps the first one's wall-clock time in the workspace
 * zone across DST changes.
 */

/** The fewest and most occurrences of a series. */
export const SERIES_MIN = 2;
export const SERIES_MAX = 52;
/** The largest gap between occurrences, weeks. */
export const SERIES_MAX_INTERVAL = 4;

export interface Repeat {
  frequency: 'weekly';
  /** weeks between occurrences, 1–4 */
  interval: number;
  /** how many occurrences, the first included (2–52); exactly one of count and until */
  count?: number;
  /** the last day (workspace zone, YYYY-MM-DD, included) an occurrence may fall on */
  until?: string;
}

export type SeriesStarts = { ok: true; starts: number[] } | { ok: false; path: string; message: string };

/**
 * The occurrences' starts (epoch ms), the first being `first`: every `interval` weeks, at the first one's local
 * time in `timezone`. A local time a DST change skips on some day is moved forward by the gap (Temporal's
 * `compatible`, as a clock would show it); an ambiguous one takes the earlier instant. With `until`, the
 * occurrences up to that day; either way between SERIES_MIN and SERIES_MAX of them, or a reason naming the field.
 */
export function seriesStarts(first: number, timezone: string, repeat: Repeat): SeriesStarts {
  if (!Number.isInteger(repeat.interval) || repeat.interval < 1 || repeat.interval > SERIES_MAX_INTERVAL) {
    return { ok: false, path: '/repeat/interval', message: `repeat.interval must be a whole number of weeks from 1 to ${SERIES_MAX_INTERVAL}` };
  }
  if ((repeat.count === undefined) === (repeat.until === undefined)) {
    return { ok: false, path: '/repeat', message: 'repeat needs exactly one of count and until' };
  }
  const local = Temporal.Instant.fromEpochMilliseconds(first).toZonedDateTimeISO(timezone).toPlainDateTime();
  const at = (index: number) =>
    local
      .add({ weeks: index * repeat.interval })
      .toZonedDateTime(timezone, { disambiguation: 'compatible' })
      .toInstant().epochMilliseconds;
  let count: number;
  if (repeat.count !== undefined) {
    if (!Number.isInteger(repeat.count) || repeat.count < SERIES_MIN || repeat.count > SERIES_MAX) {
      return { ok: false, path: '/repeat/count', message: `repeat.count must be a whole number from ${SERIES_MIN} to ${SERIES_MAX}` };
    }
    count = repeat.count;
  } else {
    let until: Temporal.PlainDate;
    try {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(repeat.until!)) throw new RangeError('not a date');
      until = Temporal.PlainDate.from(repeat.until!, { overflow: 'reject' });
    } catch {
      return { ok: false, path: '/repeat/until', message: `repeat.until must be a calendar date as YYYY-MM-DD, got ${repeat.until}` };
    }
    const days = local.toPlainDate().until(until, { largestUnit: 'days' }).days;
    count = days < 0 ? 0 : Math.floor(days / (7 * repeat.interval)) + 1;
    if (count < SERIES_MIN || count > SERIES_MAX) {
      return {
        ok: false,
        path: '/repeat/until',
        message: `repeat.until must leave ${SERIES_MIN} to ${SERIES_MAX} occurrences (the first one included), got ${count}`,
      };
    }
  }
  return { ok: true, starts: Array.from({ length: count }, (_, index) => at(index)) };
}
