import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'bun:test';
import type { Server } from 'bun';
import { CATALOGUE_CACHE_MS } from '../../src/deps.ts';
import { addProvider, addService, V1 } from '../services/catalogue-fixtures.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';

/*
 * Availability reads its providers' calendar busy times from the read cache
 * (src/platform/storage-effects/calendar-busy-cache.ts), on both databases: a sync on this instance shows at
 * once, a sync by another instance within the cache's time, and a busy time the cache does not know yet never
 * lets a booking through (the reservation reads it afresh: docs/contract/calendars.md §5).
 */

/** The feed the test serves; `events` are [uid, start, end] in UTC. */
let events: [string, string, string][] = [];
let server: Server<undefined>;
let feedUrl: string;

const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
const feed = () =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//svc tests//busy cache//EN',
    'X-WR-CALNAME:Alex',
    ...events.flatMap(([uid, start, end]) => [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      `DTSTAMP:20261101T000000Z`,
      `DTSTART:${stamp(start)}`,
      `DTEND:${stamp(end)}`,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

beforeAll(() => {
  server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(feed(), { headers: { 'content-type': 'text/calendar' } }) });
  feedUrl = `http://127.0.0.1:${server.port}/alex.ics`;
});
afterAll(() => server.stop(true));

describeEachAdapter('calendar busy times in availability, through the read cache', (adapter) => {
  let t: TestApp;
  let providerId: string;
  let serviceId: string;
  let connectionId: string;
  const slots = async (date = '2026-11-24') => (await t.request('GET', `${V1}/acme/availability?serviceId=${serviceId}&date=${date}`)).body.slots as string[];
  const days = async () => (await t.request('GET', `${V1}/acme/availability/days?serviceId=${serviceId}&from=2026-11-24&to=2026-12-24`)).body.days as string[];
  const book = (date: string) => t.request('POST', `${V1}/acme/bookings`, { key: t.apiKey, body: { serviceId, email: 'ada@example.com', name: 'Ada', date } });

  beforeEach(async () => {
    events = [['standup@example.com', '2026-11-24T08:00:00Z', '2026-11-24T09:00:00Z']];
    t = await createTestApp(adapter, { config: { SVC_CALENDAR_ALLOW_PRIVATE: true } });
    providerId = (await addProvider(t)).id;
    serviceId = (await addService(t, { duration: 60, slotInterval: 60, bufferTime: 0, minNotice: 0, providerIds: [providerId] })).id;
    const connected = await t.request('POST', `${V1}/acme/providers/${providerId}/calendars`, { key: t.apiKey, body: { kind: 'ics', url: feedUrl } });
    expect(connected.status).toBe(200);
    connectionId = connected.body.connection.id;
  }, 30_000);
  afterEach(() => t.close());

  test('a sync on this instance shows in availability and in availability/days at once', async () => {
    // 09:00-10:00 Berlin is the standup
    expect(await slots()).toEqual(['10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00']);
    expect(await days()).toContain('2026-11-25');
    events.push(['lunch@example.com', '2026-11-24T11:00:00Z', '2026-11-24T12:00:00Z']);
    events.push(['offsite@example.com', '2026-11-24T23:00:00Z', '2026-11-25T23:00:00Z']);
    const synced = await t.request('POST', `${V1}/acme/providers/${providerId}/calendars/${connectionId}/sync`, { key: t.apiKey });
    expect(synced.status).toBe(200);
    expect(await slots()).toEqual(['10:00', '11:00', '13:00', '14:00', '15:00', '16:00']);
    expect(await slots('2026-11-25')).toEqual([]);
    expect(await days()).not.toContain('2026-11-25');
    // and un-blocking the calendar frees them at once
    const patched = await t.request('PATCH', `${V1}/acme/providers/${providerId}/calendars/${connectionId}`, {
      key: t.apiKey,
      body: { calendars: [{ id: feedUrl, blocks: false }] },
    });
    expect(patched.status).toBe(200);
    expect(await slots()).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00']);
  });

  test('a busy time synced by another instance: availability may still show the time, but createBooking there is 409, and the time goes once the cache has lapsed', async () => {
    expect(await slots()).toContain('12:00');
    const elsewhere = t.db.reopen();
    await elsewhere.storeCalendarSync(
      connectionId,
      {},
      [{ calendarId: feedUrl, intervals: [{ start: Date.parse('2026-11-24T11:00:00Z'), end: Date.parse('2026-11-24T12:00:00Z'), uid: 'lunch@example.com' }] }],
      t.clock.now(),
    );
    // this instance was not told: its cached busy times are stale
    expect(await slots()).toContain('12:00');
    const refused = await book('2026-11-24T12:00:00+01:00');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('SLOT_UNAVAILABLE');
    expect((await t.deps.storage.listBookings(t.workspace.id, { limit: 10 })).length).toBe(0);
    t.clock.advance(CATALOGUE_CACHE_MS);
    expect(await slots()).not.toContain('12:00');
    // a free time still books
    expect((await book('2026-11-24T13:00:00+01:00')).status).toBe(200);
  });

  test('a connection deleted on this instance frees its busy times at once', async () => {
    expect(await slots()).not.toContain('09:00');
    const deleted = await t.request('DELETE', `${V1}/acme/providers/${providerId}/calendars/${connectionId}`, { key: t.apiKey });
    expect(deleted.status).toBeLessThan(300);
    expect(await slots()).toContain('09:00');
  });
});
