import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { createCalendarWriter } from '../../src/features/bookings/index.ts';
import { silentLogger } from '../../src/platform/logger.ts';
import type { OutboxWorker } from '../../src/platform/outbox/worker.ts';
import type { ProviderRecord, ServiceRecord } from '../../src/ports/storage/index.ts';
import { bookingBody, catalogue, setWorkspace, tuesday } from '../bookings/fixtures.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type CalDavServer, RADICALE, startRadicale, startXandikos, XANDIKOS } from '../support/caldav-server.ts';
import { type FaultyProxy, startFaultyProxy } from '../support/faulty-proxy.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { existsSync } from 'node:fs';

/*
 * The write-back of bookings into real CalDAV servers, radicale (with a password) and xandikos (without one)
 * (docs/contract/calendars.md §7), on both databases: a booking
 * appears in the provider's write calendar with the invite's UID, moves when rescheduled with a higher SEQUENCE,
 * is tentative while PENDING, and vanishes when cancelled; a write whose answer was lost is retried and leaves one
 * event; writes that keep failing mark the connection; svc's own events never block.
 */

/** The servers the same checks run against: each differs in ETags, sync tokens and where its calendars live. */
const SERVERS: [name: string, binary: string, start: () => Promise<CalDavServer>][] = [
  ['radicale', RADICALE, startRadicale],
  ['xandikos', XANDIKOS, startXandikos],
];

/** The VEVENTs of a calendar as fields: UID, SEQUENCE, STATUS, SUMMARY, DTSTART. */
async function eventsIn(server: CalDavServer, calendar: string) {
  const field = (event: string, name: string) => event.match(new RegExp(`^${name}[;:][^\\r\\n]*`, 'm'))?.[0].replace(/^[^:]*:/, '') ?? null;
  const dtstart = (event: string) => event.match(/^DTSTART[^\r\n]*/m)?.[0] ?? null;
  return (await server.listEvents(calendar)).map((event) => ({
    uid: field(event, 'UID'),
    sequence: field(event, 'SEQUENCE'),
    status: field(event, 'STATUS'),
    summary: field(event, 'SUMMARY'),
    start: dtstart(event),
  }));
}

let counter = 0;

for (const [serverName, binary, start] of SERVERS) {
  const describeIf = existsSync(binary) ? describe : describe.skip;
  describeIf(`booking write-back to ${serverName}`, () => {
    let server: CalDavServer;
    beforeAll(async () => {
      server = await start();
    }, 30_000);
    afterAll(() => server?.stop());

    describeEachAdapter('write-back', (adapter) => {
      let t: TestApp;
      let proxy: FaultyProxy;
      let writer: OutboxWorker;
      let provider: ProviderRecord;
      let service: ServiceRecord;
      let calendar: string;
      let connectionId: string;
      const bookings = `/api/v1/workspaces/acme/bookings`;
      const calendars = () => `/api/v1/workspaces/acme/providers/${provider.id}/calendars`;
      const uidOf = (bookingId: string) => `${bookingId}@localhost:3000`;
      const book = async (time: string) => {
        const response = await t.request('POST', bookings, { key: t.apiKey, body: bookingBody(service, tuesday(time)) });
        expect(response.status).toBe(200);
        return response.body.booking as { id: string; status: string };
      };
      const act = async (id: string, action: string, body?: unknown) => {
        const response = await t.request('POST', `${bookings}/${id}/${action}`, { key: t.apiKey, body });
        expect(response.status).toBe(200);
      };

      beforeEach(async () => {
        t = await createTestApp(adapter, {
          config: { SVC_CALENDAR_ALLOW_PRIVATE: true, SVC_WEBHOOK_RETRY_SCHEDULE: '1,1', SVC_PUBLIC_URL: 'http://localhost:3000' },
        });
        ({ provider, service } = await catalogue(t));
        calendar = `bookings-${adapter}-${++counter}`;
        await server.makeCalendar(calendar, 'Bookings');
        proxy = await startFaultyProxy(server.url);
        const connected = await t.request('POST', calendars(), {
          key: t.apiKey,
          body: {
            kind: 'caldav',
            url: server.calendarUrl(calendar).replace(server.url, proxy.url),
            ...(server.username ? { username: server.username, password: server.password } : {}),
          },
        });
        expect(connected.status).toBe(200);
        connectionId = connected.body.connection.id;
        const calendarId = connected.body.connection.calendars[0].id;
        const chosen = await t.request('PATCH', `${calendars()}/${connectionId}`, { key: t.apiKey, body: { calendars: [{ id: calendarId, writes: true }] } });
        expect(chosen.body.connection.calendars[0].writes).toBe(true);
        writer = createCalendarWriter({
          storage: t.deps.storage,
          config: t.deps.config,
          clock: t.clock,
          logger: silentLogger,
          calendars: t.deps.calendars,
          owner: 'test',
        });
      }, 30_000);
      afterEach(async () => {
        await proxy.close();
        await t.close();
      });

      test('a booking appears with the invite UID, moves when rescheduled (SEQUENCE rises), vanishes when cancelled', async () => {
        const booking = await book('10:00');
        expect(await writer.runOnce()).toBe(1);
        expect(await eventsIn(server, calendar)).toEqual([
          {
            uid: uidOf(booking.id),
            sequence: '0',
            status: 'CONFIRMED',
            summary: 'Haircut · Mia Schneider',
            start: 'DTSTART;TZID=Europe/Berlin:20261124T100000',
          },
        ]);
        expect((await t.deps.storage.getCalendarWrite(booking.id))!.status).toBe('done');

        await act(booking.id, 'reschedule', { date: tuesday('14:00') });
        expect(await writer.runOnce()).toBe(1);
        expect(await eventsIn(server, calendar)).toEqual([
          {
            uid: uidOf(booking.id),
            sequence: '1',
            status: 'CONFIRMED',
            summary: 'Haircut · Mia Schneider',
            start: 'DTSTART;TZID=Europe/Berlin:20261124T140000',
          },
        ]);

        await act(booking.id, 'cancel');
        expect(await writer.runOnce()).toBe(1);
        expect(await eventsIn(server, calendar)).toEqual([]);
        expect(await writer.runOnce()).toBe(0);
      });

      test('a PENDING booking is written tentative, confirmed with a higher SEQUENCE, and removed when declined', async () => {
        await setWorkspace(t, { requiresConfirmation: true });
        const confirmed = await book('10:00');
        const declined = await book('12:00');
        expect(confirmed.status).toBe('PENDING');
        expect(await writer.runOnce()).toBe(2);
        const first = await eventsIn(server, calendar);
        expect(first.map((event) => [event.uid, event.status, event.sequence]).sort()).toEqual(
          [
            [uidOf(confirmed.id), 'TENTATIVE', '0'],
            [uidOf(declined.id), 'TENTATIVE', '0'],
          ].sort(),
        );
        await act(confirmed.id, 'confirm');
        await act(declined.id, 'cancel', { reason: 'declined' });
        expect(await writer.runOnce()).toBe(2);
        expect((await eventsIn(server, calendar)).map((event) => [event.uid, event.status, event.sequence])).toEqual([[uidOf(confirmed.id), 'CONFIRMED', '1']]);
      });

      test('changes made before the write are collapsed: created, moved and cancelled before any attempt leaves nothing', async () => {
        const booking = await book('10:00');
        await act(booking.id, 'reschedule', { date: tuesday('11:00') });
        await act(booking.id, 'cancel');
        expect(await writer.runOnce()).toBe(1);
        expect(await eventsIn(server, calendar)).toEqual([]);
        expect(await t.deps.storage.getCalendarWrite(booking.id)).toMatchObject({ status: 'done', revision: 2, written: null });
      });

      test('a write whose answer was lost is retried after its back-off and leaves exactly one event', async () => {
        const booking = await book('10:00');
        proxy.mode = 'drop-next-put';
        expect(await writer.runOnce()).toBe(1);
        expect(proxy.dropped).toBe(1);
        // The server did the write; svc never heard so.
        expect((await eventsIn(server, calendar)).map((event) => event.uid)).toEqual([uidOf(booking.id)]);
        const failed = (await t.deps.storage.getCalendarWrite(booking.id))!;
        expect(failed).toMatchObject({ status: 'pending', attempts: 1, written: null });
        expect(failed.lastError).toBeString();
        // Not due before its back-off (1 s ±10%).
        expect(await writer.runOnce()).toBe(0);
        t.clock.advance(1_200);
        expect(await writer.runOnce()).toBe(1);
        expect((await eventsIn(server, calendar)).map((event) => event.uid)).toEqual([uidOf(booking.id)]);
        expect(await t.deps.storage.getCalendarWrite(booking.id)).toMatchObject({ status: 'done', attempts: 0, lastError: null });
      });

      test('writes that fail until the schedule is used up mark the connection: status error, lastError in words', async () => {
        const booking = await book('10:00');
        proxy.mode = 'refuse-puts';
        for (let attempt = 0; attempt < 3; attempt++) {
          expect(await writer.runOnce()).toBe(1);
          t.clock.advance(1_200);
        }
        expect(await t.deps.storage.getCalendarWrite(booking.id)).toMatchObject({ status: 'failed', attempts: 3 });
        const connection = await t.request('GET', `${calendars()}/${connectionId}`, { key: t.apiKey });
        expect(connection.body.connection.status).toBe('error');
        expect(connection.body.connection.lastError).toMatch(/^A booking could not be written to this calendar: .*503/);
        // A later change of the booking tries again from a fresh count.
        proxy.mode = 'pass';
        await act(booking.id, 'reschedule', { date: tuesday('11:00') });
        expect(await writer.runOnce()).toBe(1);
        expect((await eventsIn(server, calendar)).map((event) => [event.uid, event.sequence])).toEqual([[uidOf(booking.id), '1']]);
      });

      test('in a German workspace the failure is said in German (lastError from the catalogue)', async () => {
        expect((await t.request('PATCH', '/api/v1/workspaces/acme', { key: t.apiKey, body: { language: 'de' } })).status).toBe(200);
        await book('10:00');
        proxy.mode = 'refuse-puts';
        for (let attempt = 0; attempt < 3; attempt++) {
          expect(await writer.runOnce()).toBe(1);
          t.clock.advance(1_200);
        }
        const connection = await t.request('GET', `${calendars()}/${connectionId}`, { key: t.apiKey });
        expect(connection.body.connection.lastError).toBe(
          `Eine Buchung konnte nicht in diesen Kalender eingetragen werden: ${new URL(proxy.url).host} hat auf das Eintragen des Termins mit 503 geantwortet`,
        );
      });

      test("svc's own events never block: a sync after the write stores no busy time for them", async () => {
        const booking = await book('10:00');
        await writer.runOnce();
        const synced = await t.request('POST', `${calendars()}/${connectionId}/sync`, { key: t.apiKey });
        expect(synced.body.connection.status).toBe('ok');
        const busy = await t.deps.storage.busyTimesFor([provider.id], 0, Date.parse('2030-01-01T00:00:00Z'));
        expect(busy.filter((interval) => interval.uid === uidOf(booking.id))).toEqual([]);
      });

      test('a provider without a write calendar gets no write row', async () => {
        const calendarId = (await t.request('GET', `${calendars()}/${connectionId}`, { key: t.apiKey })).body.connection.calendars[0].id;
        await t.request('PATCH', `${calendars()}/${connectionId}`, { key: t.apiKey, body: { calendars: [{ id: calendarId, writes: false }] } });
        const booking = await book('10:00');
        expect(await t.deps.storage.getCalendarWrite(booking.id)).toBeNull();
        expect(await writer.runOnce()).toBe(0);
      });
    });
  });
}
