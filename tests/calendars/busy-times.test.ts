import { describe, expect, test } from 'bun:test';
import { type CalendarEvent, type EventTime, expandBusyTimes } from '../../src/core/busy-times.ts';

/*
 * Table tests of the busy-time rules (src/core/busy-times.ts): each names the rule it checks and states the
 * expected instants in UTC, worked out by hand from the zones' DST dates.
 */

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const zoned = (local: string, zone: string): EventTime => ({ local, zone });

function event(partial: Partial<CalendarEvent> & Pick<CalendarEvent, 'start'>): CalendarEvent {
  return {
    uid: 'ev-1',
    end: null,
    duration: null,
    rrule: null,
    rdates: [],
    exdates: [],
    recurrenceId: null,
    transparent: false,
    cancelled: false,
    ...partial,
  };
}

const spans = (events: CalendarEvent[], from: string, to: string, zone = 'Europe/Berlin') =>
  expandBusyTimes(events, { from: at(from), to: at(to) }, zone).map((busy) => [iso(busy.start), iso(busy.end)]);

describe('recurring series keep their wall-clock time in their own zone', () => {
  test('a weekly 09:00 New York meeting moves in UTC across the US spring change (8 March 2026)', () => {
    const series = event({
      start: zoned('2026-03-02T09:00:00', 'America/New_York'),
      end: zoned('2026-03-02T10:00:00', 'America/New_York'),
      rrule: 'FREQ=WEEKLY;COUNT=3',
    });
    expect(spans([series], '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z')).toEqual([
      ['2026-03-02T14:00:00.000Z', '2026-03-02T15:00:00.000Z'],
      ['2026-03-09T13:00:00.000Z', '2026-03-09T14:00:00.000Z'],
      ['2026-03-16T13:00:00.000Z', '2026-03-16T14:00:00.000Z'],
    ]);
  });

  test('a daily 02:30 Berlin event on the spring-forward day moves to 03:30 (the gap is skipped forward)', () => {
    const series = event({
      start: zoned('2026-03-28T02:30:00', 'Europe/Berlin'),
      end: zoned('2026-03-28T03:00:00', 'Europe/Berlin'),
      rrule: 'FREQ=DAILY;COUNT=3',
    });
    expect(spans([series], '2026-03-27T00:00:00Z', '2026-04-01T00:00:00Z')).toEqual([
      ['2026-03-28T01:30:00.000Z', '2026-03-28T02:00:00.000Z'],
      ['2026-03-29T01:30:00.000Z', '2026-03-29T02:00:00.000Z'],
      ['2026-03-30T00:30:00.000Z', '2026-03-30T01:00:00.000Z'],
    ]);
  });

  test('a daily 02:30 Berlin event on the fall-back day takes the earlier 02:30 (summer time)', () => {
    const series = event({ start: zoned('2026-10-25T02:30:00', 'Europe/Berlin'), duration: 'PT30M' });
    expect(spans([series], '2026-10-24T00:00:00Z', '2026-10-26T00:00:00Z')).toEqual([['2026-10-25T00:30:00.000Z', '2026-10-25T01:00:00.000Z']]);
  });

  test('a Sydney series crosses the southern autumn change (5 April 2026)', () => {
    const series = event({
      start: zoned('2026-04-03T09:00:00', 'Australia/Sydney'),
      end: zoned('2026-04-03T09:30:00', 'Australia/Sydney'),
      rrule: 'FREQ=DAILY;UNTIL=20260406T000000Z',
    });
    expect(spans([series], '2026-04-01T00:00:00Z', '2026-04-10T00:00:00Z', 'UTC')).toEqual([
      ['2026-04-02T22:00:00.000Z', '2026-04-02T22:30:00.000Z'],
      ['2026-04-03T22:00:00.000Z', '2026-04-03T22:30:00.000Z'],
      ['2026-04-04T23:00:00.000Z', '2026-04-04T23:30:00.000Z'],
    ]);
  });
});

describe('EXDATE, RDATE and RECURRENCE-ID', () => {
  const weekly = event({
    uid: 'series',
    start: zoned('2026-01-05T10:00:00', 'Europe/Berlin'),
    end: zoned('2026-01-05T11:00:00', 'Europe/Berlin'),
    rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=4',
    exdates: [{ local: '2026-01-12T09:00:00', zone: 'UTC' }],
    rdates: [zoned('2026-01-07T15:00:00', 'Europe/Berlin')],
  });
  const moved = event({
    uid: 'series',
    recurrenceId: zoned('2026-01-19T10:00:00', 'Europe/Berlin'),
    start: zoned('2026-01-20T14:00:00', 'Europe/Berlin'),
    end: zoned('2026-01-20T16:00:00', 'Europe/Berlin'),
  });
  const cancelled = event({
    uid: 'series',
    recurrenceId: zoned('2026-01-26T10:00:00', 'Europe/Berlin'),
    start: zoned('2026-01-26T10:00:00', 'Europe/Berlin'),
    cancelled: true,
  });

  test('an EXDATE given in UTC removes the occurrence at that instant; an RDATE adds one; an override replaces its occurrence; a cancelled override removes it', () => {
    expect(spans([weekly, moved, cancelled], '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')).toEqual([
      ['2026-01-05T09:00:00.000Z', '2026-01-05T10:00:00.000Z'],
      ['2026-01-07T14:00:00.000Z', '2026-01-07T15:00:00.000Z'],
      ['2026-01-20T13:00:00.000Z', '2026-01-20T15:00:00.000Z'],
    ]);
  });

  test('an override without its series in the data stands alone', () => {
    expect(spans([moved], '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')).toEqual([['2026-01-20T13:00:00.000Z', '2026-01-20T15:00:00.000Z']]);
  });

  test('a transparent override of a busy series frees that occurrence only', () => {
    const free = event({ ...moved, transparent: true });
    expect(spans([weekly, free], '2026-01-19T00:00:00Z', '2026-01-27T00:00:00Z')).toEqual([['2026-01-26T09:00:00.000Z', '2026-01-26T10:00:00.000Z']]);
  });
});

describe('all-day, floating, transparent and cancelled events', () => {
  test('an all-day event blocks its date 00:00-24:00 in the workspace zone, whichever zone it was written in', () => {
    const holiday = event({ start: { date: '2026-05-01' }, end: { date: '2026-05-02' } });
    expect(spans([holiday], '2026-04-01T00:00:00Z', '2026-06-01T00:00:00Z', 'America/New_York')).toEqual([
      ['2026-05-01T04:00:00.000Z', '2026-05-02T04:00:00.000Z'],
    ]);
  });

  test('a two-day all-day event across the Berlin spring change lasts 47 hours', () => {
    const trip = event({ start: { date: '2026-03-28' }, end: { date: '2026-03-30' } });
    expect(spans([trip], '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z')).toEqual([['2026-03-27T23:00:00.000Z', '2026-03-29T22:00:00.000Z']]);
  });

  test('a yearly all-day series with an EXDATE skips that year', () => {
    const birthday = event({ start: { date: '2025-07-14' }, rrule: 'FREQ=YEARLY', exdates: [{ date: '2026-07-14' }] });
    expect(spans([birthday], '2026-01-01T00:00:00Z', '2028-01-01T00:00:00Z', 'UTC')).toEqual([['2027-07-14T00:00:00.000Z', '2027-07-15T00:00:00.000Z']]);
  });

  test('a floating time is read in the workspace zone', () => {
    const lunch = event({ start: { local: '2026-07-01T12:00:00', zone: null }, end: { local: '2026-07-01T13:00:00', zone: null } });
    expect(spans([lunch], '2026-07-01T00:00:00Z', '2026-07-02T00:00:00Z', 'Asia/Tokyo')).toEqual([['2026-07-01T03:00:00.000Z', '2026-07-01T04:00:00.000Z']]);
  });

  test('TRANSPARENT and CANCELLED events block nothing; a cancelled series takes its overrides with it', () => {
    const start = zoned('2026-07-01T12:00:00', 'Europe/Berlin');
    const events = [
      event({ uid: 'a', start, duration: 'PT1H', transparent: true }),
      event({ uid: 'b', start, duration: 'PT1H', cancelled: true, rrule: 'FREQ=DAILY' }),
      event({ uid: 'b', start: zoned('2026-07-02T15:00:00', 'Europe/Berlin'), duration: 'PT1H', recurrenceId: zoned('2026-07-02T12:00:00', 'Europe/Berlin') }),
    ];
    expect(spans(events, '2026-07-01T00:00:00Z', '2026-07-05T00:00:00Z')).toEqual([]);
  });

  test('only intervals overlapping the window come back, and an endless series stops at the window', () => {
    const daily = event({ start: zoned('2020-01-01T08:00:00', 'Europe/Berlin'), duration: 'PT1H', rrule: 'FREQ=DAILY' });
    expect(spans([daily], '2026-07-01T06:30:00Z', '2026-07-02T06:30:00Z')).toEqual([
      ['2026-07-01T06:00:00.000Z', '2026-07-01T07:00:00.000Z'],
      ['2026-07-02T06:00:00.000Z', '2026-07-02T07:00:00.000Z'],
    ]);
  });
});
