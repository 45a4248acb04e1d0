import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { V1, addProvider, expectUnchanged, notFoundError, ruleError, schemaError, week } from '../services/catalogue-fixtures.ts';

describeEachAdapter('working hours: errors', (adapter) => {
  let t: TestApp;
  let providerId: string;
  beforeEach(async () => {
    t = await createTestApp(adapter);
    providerId = (await addProvider(t)).id;
    await t.request('PUT', `${V1}/acme/providers/${providerId}/schedule`, {
      key: t.apiKey,
      body: { weekly: week({ mon: [{ start: '08:00', end: '10:00' }] }) },
    });
  });
  afterEach(() => t.close());

  const at = (start: string, end: string) => ({ start, end });
  const refusals: [rule: string, body: unknown, expected: object][] = [
    [
      'a start without a leading zero',
      { weekly: week({ mon: [at('9:00', '12:00')] }) },
      schemaError('/weekly/mon/0/start', 'weekly.mon[0].start must be a time as HH:mm between 00:00 and 23:59'),
    ],
    [
      'a start at 24:00',
      { weekly: week({ mon: [at('24:00', '24:00')] }) },
      schemaError('/weekly/mon/0/start', 'weekly.mon[0].start must be a time as HH:mm between 00:00 and 23:59'),
    ],
    [
      'an end past 24:00',
      { weekly: week({ tue: [at('09:00', '24:30')] }) },
      schemaError('/weekly/tue/0/end', 'weekly.tue[0].end must be a time as HH:mm between 00:00 and 24:00'),
    ],
    [
      'minutes past 59',
      { weekly: week({ tue: [at('09:60', '10:00')] }) },
      schemaError('/weekly/tue/0/start', 'weekly.tue[0].start must be a time as HH:mm between 00:00 and 23:59'),
    ],
    ['an interval without an end', { weekly: week({ wed: [{ start: '09:00' }] as never }) }, schemaError('/weekly/wed/0/end', 'weekly.wed[0].end is required')],
    ['an end before the start', { weekly: week({ mon: [at('12:00', '09:00')] }) }, ruleError('weekly.mon[0].end must be after its start (12:00), got 09:00')],
    ['an end equal to the start', { weekly: week({ fri: [at('09:00', '09:00')] }) }, ruleError('weekly.fri[0].end must be after its start (09:00), got 09:00')],
    ['overlapping intervals', { weekly: week({ mon: [at('09:00', '12:00'), at('11:00', '13:00')] }) }, ruleError('weekly.mon[1] overlaps weekly.mon[0]')],
    [
      'intervals out of order',
      { weekly: week({ tue: [at('13:00', '17:00'), at('09:00', '12:00')] }) },
      ruleError("weekly.tue[1] must come after weekly.tue[0]: list a day's intervals in order of start"),
    ],
    ['a missing weekday', { weekly: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [] } }, schemaError('/weekly/sun', 'weekly.sun is required')],
    ['no weekly at all', { exceptions: [] }, ruleError('weekly is required: send { weekly: { mon: [...], ..., sun: [] }, exceptions: [...] }')],
    [
      'an exception date in another format',
      { weekly: week(), exceptions: [{ date: '24.12.2026', intervals: [] }] },
      schemaError('/exceptions/0/date', 'exceptions[0].date must be a date as YYYY-MM-DD'),
    ],
    [
      'an exception date that does not exist',
      { weekly: week(), exceptions: [{ date: '2026-02-30', intervals: [] }] },
      ruleError('exceptions[0].date must be a real date as YYYY-MM-DD, got 2026-02-30'),
    ],
    [
      'an exception month 13',
      { weekly: week(), exceptions: [{ date: '2026-13-01', intervals: [] }] },
      ruleError('exceptions[0].date must be a real date as YYYY-MM-DD, got 2026-13-01'),
    ],
    [
      'the same exception date twice',
      {
        weekly: week(),
        exceptions: [
          { date: '2026-12-24', intervals: [] },
          { date: '2026-12-31', intervals: [] },
          { date: '2026-12-24', intervals: [at('09:00', '12:00')] },
        ],
      },
      ruleError('exceptions[2].date repeats exceptions[0].date (2026-12-24)'),
    ],
    [
      'overlapping exception intervals',
      { weekly: week(), exceptions: [{ date: '2026-12-24', intervals: [at('09:00', '12:00'), at('10:00', '11:00')] }] },
      ruleError('exceptions[0].intervals[1] overlaps exceptions[0].intervals[0]'),
    ],
    [
      'an exception without intervals',
      { weekly: week(), exceptions: [{ date: '2026-12-24' }] },
      schemaError('/exceptions/0/intervals', 'exceptions[0].intervals is required'),
    ],
    [
      'the GET answer shape with an overlap',
      { success: true, schedule: { weekly: week({ thu: [at('09:00', '12:00'), at('09:30', '10:00')] }), exceptions: [] } },
      ruleError('schedule.weekly.thu[1] overlaps schedule.weekly.thu[0]'),
    ],
  ];

  for (const [rule, body, expected] of refusals) {
    test(`PUT the workspace schedule with ${rule} -> 400 VALIDATION_ERROR naming the place, nothing stored`, async () => {
      await expectUnchanged(t, async () => {
        const response = await t.request('PUT', `${V1}/acme/schedule`, { key: t.apiKey, body });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(expected);
      });
    });
  }

  test('PUT a provider schedule with overlapping intervals -> 400, the provider keeps its hours', async () => {
    await expectUnchanged(t, async () => {
      const response = await t.request('PUT', `${V1}/acme/providers/${providerId}/schedule`, {
        key: t.apiKey,
        body: { weekly: week({ sat: [at('09:00', '12:00'), at('11:59', '13:00')] }) },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('weekly.sat[1] overlaps weekly.sat[0]'));
    });
  });

  test('PUT with malformed JSON -> 400 VALIDATION_ERROR, nothing stored', async () => {
    await expectUnchanged(t, async () => {
      const response = await t.request('PUT', `${V1}/acme/schedule`, {
        key: t.apiKey,
        rawBody: '{"weekly": {',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('request body is not valid JSON'));
    });
  });

  test('GET, PUT and DELETE the schedule of an unknown provider -> 404 NOT_FOUND', async () => {
    await expectUnchanged(t, async () => {
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { weekly: week() }],
        ['DELETE', undefined],
      ] as const) {
        const response = await t.request(method, `${V1}/acme/providers/prv_unknown/schedule`, { key: t.apiKey, body });
        expect([method, response.status]).toEqual([method, 404]);
        expect(response.body).toEqual(notFoundError('provider prv_unknown'));
      }
    });
  });

  test('PUT the schedule of an unknown provider with a bad body -> 400, the body is checked before the provider is looked up', async () => {
    const response = await t.request('PUT', `${V1}/acme/providers/prv_unknown/schedule`, {
      key: t.apiKey,
      body: { weekly: week({ mon: [at('10:00', '09:00')] }) },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(ruleError('weekly.mon[0].end must be after its start (10:00), got 09:00'));
  });

  test('GET the schedule of an unknown slug -> 404 NOT_FOUND', async () => {
    const response = await t.request('GET', `${V1}/nope/schedule`, { key: t.apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundError('workspace nope'));
  });
});
