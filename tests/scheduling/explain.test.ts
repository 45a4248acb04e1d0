import { afterEach, beforeEach, expect, test } from 'bun:test';
import { newId } from '../../src/core/ids.ts';
import { addProvider, addService, V1 } from '../services/catalogue-fixtures.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';

/*
 * GET /workspaces/{slug}/availability/explain (docs/contract/calendars.md §11) on both databases: every start time
 * of the grid with every reason it is not free, calendars named by their name and never by an event, and the free
 * times exactly those availability answers.
 */

const WORK = 'https://dav.example.com/alex/work/';
const at = (iso: string) => Date.parse(iso);

describeEachAdapter('availability explain', (adapter) => {
  let t: TestApp;
  let providerId: string;
  let serviceId: string;
  let connectionId: string;
  const explain = (query: string, key: string | undefined = t.apiKey) => t.request('GET', `${V1}/acme/availability/explain?${query}`, { key });
  const byTime = (times: { time: string; reasons: unknown[] }[]) => Object.fromEntries(times.map((entry) => [entry.time, entry.reasons]));

  beforeEach(async () => {
    t = await createTestApp(adapter);
    providerId = (await addProvider(t)).id;
    serviceId = (await addService(t, { duration: 60, bufferTime: 15, minNotice: 60, maxAdvance: 30, providerIds: [providerId] })).id;
    connectionId = newId('cal');
    await t.deps.storage.createCalendarConnection({
      id: connectionId,
      workspaceId: t.workspace.id,
      providerId,
      kind: 'caldav',
      name: 'dav.example.com',
      url: 'https://dav.example.com/alex/',
      account: 'alex',
      username: 'alex',
      sealedSecret: null,
      status: 'ok',
      lastSyncedAt: t.clock.now(),
      lastError: null,
      failures: 0,
      calendars: [{ id: WORK, name: 'Work', blocks: true, writes: false, readOnly: false }],
      syncState: {},
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    });
    // Tuesday 24 November, 13:00-14:00 Berlin
    await t.deps.storage.storeCalendarSync(
      connectionId,
      {},
      [{ calendarId: WORK, intervals: [{ start: at('2026-11-24T12:00:00Z'), end: at('2026-11-24T13:00:00Z'), uid: 'secret-meeting@example.com' }] }],
      t.clock.now(),
    );
  }, 30_000);
  afterEach(() => t.close());

  test('a day with a booking and a calendar event: BOOKED, CALENDAR_BUSY by calendar name, BUFFER around both, OUTSIDE_HOURS; free = availability', async () => {
    const booked = await t.request('POST', `${V1}/acme/bookings`, {
      key: t.apiKey,
      body: { serviceId, email: 'ada@example.com', name: 'Ada', date: '2026-11-24T10:00:00+01:00' },
    });
    expect(booked.status).toBe(200);
    const response = await explain(`serviceId=${serviceId}&date=2026-11-24`);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.timezone).toBe('Europe/Berlin');
    const times = response.body.times as { time: string; providerId: string; free: boolean; reasons: unknown[] }[];
    expect(times.map((entry) => entry.time)).toEqual(Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, '0')}:00`));
    expect(times.every((entry) => entry.providerId === providerId && entry.free === (entry.reasons.length === 0))).toBe(true);
    const reasons = byTime(times);
    expect(reasons['08:00']).toEqual([{ code: 'OUTSIDE_HOURS' }]);
    expect(reasons['09:00']).toEqual([{ code: 'BUFFER' }]);
    expect(reasons['10:00']).toEqual([{ code: 'BOOKED', bookingId: booked.body.booking.id }]);
    expect(reasons['11:00']).toEqual([{ code: 'BUFFER' }]);
    expect(reasons['12:00']).toEqual([{ code: 'BUFFER' }]);
    expect(reasons['13:00']).toEqual([{ code: 'CALENDAR_BUSY', connectionId, calendarName: 'Work' }]);
    expect(reasons['14:00']).toEqual([{ code: 'BUFFER' }]);
    expect(reasons['15:00']).toEqual([]);
    expect(reasons['16:00']).toEqual([]);
    expect(reasons['17:00']).toEqual([{ code: 'OUTSIDE_HOURS' }]);
    expect(JSON.stringify(response.body)).not.toContain('secret-meeting');

    const slots = (await t.request('GET', `${V1}/acme/availability?serviceId=${serviceId}&date=2026-11-24`)).body.slots;
    expect(times.filter((entry) => entry.free).map((entry) => entry.time)).toEqual(slots);
  });

  test('today: PAST before now, MIN_NOTICE within the notice; far ahead: MAX_ADVANCE; a closed date: EXCEPTION', async () => {
    // now is Monday 23 November 09:00 Berlin, minNotice 60 minutes
    const today = byTime((await explain(`serviceId=${serviceId}&date=2026-11-23`)).body.times);
    expect(today['08:00']).toEqual([{ code: 'PAST' }, { code: 'OUTSIDE_HOURS' }]);
    expect(today['09:00']).toEqual([{ code: 'MIN_NOTICE' }]);
    expect(today['10:00']).toEqual([]);
    const far = byTime((await explain(`serviceId=${serviceId}&date=2027-01-05`)).body.times);
    expect(far['10:00']).toEqual([{ code: 'MAX_ADVANCE' }]);

    const schedule = (await t.request('GET', `${V1}/acme/schedule`, { key: t.apiKey })).body.schedule;
    const put = await t.request('PUT', `${V1}/acme/schedule`, {
      key: t.apiKey,
      body: { ...schedule, exceptions: [{ date: '2026-11-25', intervals: [] }] },
    });
    expect(put.status).toBe(200);
    const closed = byTime((await explain(`serviceId=${serviceId}&date=2026-11-25`)).body.times);
    expect(closed['10:00']).toEqual([{ code: 'EXCEPTION' }]);
  });

  test('a calendar that does not block, or a deleted connection, explains nothing', async () => {
    await t.request('PATCH', `${V1}/acme/providers/${providerId}/calendars/${connectionId}`, {
      key: t.apiKey,
      body: { calendars: [{ id: WORK, blocks: false }] },
    });
    expect(byTime((await explain(`serviceId=${serviceId}&date=2026-11-24&providerId=${providerId}`)).body.times)['13:00']).toEqual([]);
  });

  test('errors: an unknown service -> 400 SERVICE_NOT_FOUND, a bad date -> 400 VALIDATION_ERROR, no key -> 401', async () => {
    const unknown = await explain('serviceId=srv_nope&date=2026-11-24');
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('SERVICE_NOT_FOUND');
    const badDate = await explain(`serviceId=${serviceId}&date=2026-02-30`);
    expect(badDate.status).toBe(400);
    expect(badDate.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    const keyless = await explain(`serviceId=${serviceId}&date=2026-11-24`, '');
    expect(keyless.status).toBe(401);
  });
});
