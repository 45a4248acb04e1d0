import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { openMailTransport } from '../../adapters/mail/index.ts';
import { CalendarConnectionEvent } from '../../src/features/webhooks/model.ts';
import type { CalendarConnector } from '../../src/ports/calendar.ts';
import { CALENDAR_SYNC_LEASE_MS } from '../../src/scheduler/jobs.ts';
import { createScheduler } from '../../src/scheduler/scheduler.ts';
import type { WebhookMessageRecord } from '../../src/ports/storage/index.ts';
import { addProvider, addService, V1 } from '../services/catalogue-fixtures.ts';
import { startTestSmtp, type TestSmtp } from '../mail/smtp.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { caldavServersMissing, type RestartableCalDavServer, startRadicale } from '../support/caldav-server.ts';
import { describeEachAdapter } from '../support/storage.ts';

/*
 * The scheduled sync and the health of calendar connections against a real radicale, on both databases: an event
 * made in the calendar stops being offered once the scheduler synced, and a booking over it is refused; two
 * schedulers on one database sync each connection once per round; a server that is down turns the connection
 * `error` on the third failed sync (webhook and one mail), and back `ok` when it answers again.
 */

const missing = caldavServersMissing();
if (missing) console.log(`calendar sync tests skipped: ${missing}`);
const describeIf = missing ? describe.skip : describe;

const NOW = '2026-03-01T00:00:00.000Z';
const PASSWORD = 'correct horse battery';
const SYNC_SECONDS = 300;

function event(uid: string, start: string, end: string, summary = 'Dentist') {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//svc tests//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${start}`,
    `DTEND:${end}`,
    `SUMMARY:${summary}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** A connector that counts, per URL, the discoveries its syncs start with (one per sync of a connection). */
function counting(connector: CalendarConnector, counts: Map<string, number>): CalendarConnector {
  return {
    ...connector,
    open(account) {
      const source = connector.open(account);
      return {
        ...source,
        discover: () => {
          counts.set(account.url, (counts.get(account.url) ?? 0) + 1);
          return source.discover();
        },
      };
    },
  };
}

describeIf('scheduled calendar sync on radicale', () => {
  let server: RestartableCalDavServer;
  let smtp: TestSmtp;
  beforeAll(async () => {
    server = await startRadicale();
    smtp = await startTestSmtp();
    for (const name of ['a', 'b', 'c', 'd']) await server.makeCalendar(name, `Calendar ${name.toUpperCase()}`);
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  describeEachAdapter('sync', (adapter) => {
    let t: TestApp;
    let providerId: string;
    let serviceId: string;
    const calendarsPath = () => `${V1}/acme/providers/${providerId}/calendars`;
    const connect = async (calendar: string) => {
      const response = await t.request('POST', calendarsPath(), {
        key: t.apiKey,
        body: { kind: 'caldav', url: server.calendarUrl(calendar), username: server.username, password: PASSWORD },
      });
      expect(response.status).toBe(200);
      return response.body.connection as { id: string; status: string };
    };
    const slots = async (date: string) => (await t.request('GET', `${V1}/acme/availability?serviceId=${serviceId}&date=${date}`)).body.slots as string[];
    const days = async () =>
      (await t.request('GET', `${V1}/acme/availability/days?serviceId=${serviceId}&from=2026-03-02&to=2026-03-08`)).body.days as string[];
    const messages = async (): Promise<WebhookMessageRecord[]> =>
      (await t.deps.storage.claimDueMessages(`inspector-${Math.random()}`, Date.parse('2027-01-01T00:00:00Z'), Date.parse('2027-01-01T00:01:00Z'), 100)).filter(
        (message) => message.eventType.startsWith('calendar.'),
      );

    beforeEach(async () => {
      t = await createTestApp(adapter, {
        config: { SVC_CALENDAR_ALLOW_PRIVATE: true, SVC_CALENDAR_SYNC_SECONDS: SYNC_SECONDS, SVC_SMTP_URL: smtp.url, SVC_MAIL_FROM: 'svc@example.com' },
      });
      t.clock.set(NOW);
      providerId = (await addProvider(t)).id;
      serviceId = (await addService(t, { duration: 60, minNotice: 0, bufferTime: 15, providerIds: [providerId] })).id;
    }, 30_000);
    afterEach(() => t.close());

    test('an event made in the calendar leaves availability once the scheduler synced; a booking over it -> 409 SLOT_UNAVAILABLE', async () => {
      const connection = await connect('a');
      const scheduler = createScheduler(t.deps, { claimant: 'instance-a' });
      expect(await scheduler.runJob('sync-calendars')).toBe(1);
      // Tuesday 3 March: the whole working day is free
      expect(await slots('2026-03-03')).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00']);

      // 10:00-11:00 Berlin; with the service's 15 minutes of buffer it also takes 09:00 and 11:00
      const file = `dentist-${adapter}.ics`;
      await server.putEvent('a', file, event(`dentist-${adapter}@example.com`, '20260303T090000Z', '20260303T100000Z'));
      // not due yet: nothing is synced and the time is still offered
      expect(await scheduler.runJob('sync-calendars')).toBe(0);
      expect(await slots('2026-03-03')).toContain('10:00');

      t.clock.advance(SYNC_SECONDS * 1000);
      expect(await scheduler.runJob('sync-calendars')).toBe(1);
      expect(await slots('2026-03-03')).toEqual(['12:00', '13:00', '14:00', '15:00', '16:00']);
      const refused = await t.request('POST', `${V1}/acme/bookings`, {
        key: t.apiKey,
        body: { serviceId, email: 'ada@example.com', name: 'Ada', date: '2026-03-03T10:00:00+01:00' },
      });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('SLOT_UNAVAILABLE');
      const buffered = await t.request('POST', `${V1}/acme/bookings`, {
        key: t.apiKey,
        body: { serviceId, email: 'ada@example.com', name: 'Ada', date: '2026-03-03T11:00:00+01:00' },
      });
      expect(buffered.status).toBe(409);

      // blocks: false frees it at once; DELETE as well
      const patched = await t.request('PATCH', `${calendarsPath()}/${connection.id}`, {
        key: t.apiKey,
        body: { calendars: [{ id: server.calendarUrl('a'), blocks: false }] },
      });
      expect(patched.status).toBe(200);
      expect(await slots('2026-03-03')).toContain('10:00');
      await t.request('PATCH', `${calendarsPath()}/${connection.id}`, { key: t.apiKey, body: { calendars: [{ id: server.calendarUrl('a'), blocks: true }] } });
      expect(await slots('2026-03-03')).not.toContain('10:00');
      expect((await t.request('DELETE', `${calendarsPath()}/${connection.id}`, { key: t.apiKey })).status).toBe(204);
      expect(await slots('2026-03-03')).toContain('10:00');
      const booked = await t.request('POST', `${V1}/acme/bookings`, {
        key: t.apiKey,
        body: { serviceId, email: 'ada@example.com', name: 'Ada', date: '2026-03-03T10:00:00+01:00' },
      });
      expect(booked.status).toBe(200);
      await fetch(`${server.calendarUrl('a')}${file}`, { method: 'DELETE', headers: { authorization: `Basic ${btoa(`${server.username}:${PASSWORD}`)}` } });
    });

    test('a day wholly taken by an all-day calendar event is not among the days', async () => {
      await connect('b');
      const file = `away-${adapter}.ics`;
      await server.putEvent(
        'b',
        file,
        ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//svc tests//EN', 'BEGIN:VEVENT', `UID:away-${adapter}@example.com`, 'DTSTAMP:20260101T000000Z']
          .concat(['DTSTART;VALUE=DATE:20260304', 'DTEND;VALUE=DATE:20260305', 'SUMMARY:Away', 'END:VEVENT', 'END:VCALENDAR', ''])
          .join('\r\n'),
      );
      expect(await days()).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06']);
      t.clock.advance(1000);
      await createScheduler(t.deps).runJob('sync-calendars');
      expect(await days()).toEqual(['2026-03-02', '2026-03-03', '2026-03-05', '2026-03-06']);
      await fetch(`${server.calendarUrl('b')}${file}`, { method: 'DELETE', headers: { authorization: `Basic ${btoa(`${server.username}:${PASSWORD}`)}` } });
    });

    test('two schedulers on one database: each connection is synced by one of them, once per round', async () => {
      const connections = [await connect('a'), await connect('b'), await connect('c'), await connect('d')];
      const counts = new Map<string, number>();
      const first = createScheduler({ ...t.deps, calendars: counting(t.deps.calendars, counts) }, { claimant: 'instance-a' });
      const second = createScheduler({ ...t.deps, storage: t.db.reopen(), calendars: counting(t.deps.calendars, counts) }, { claimant: 'instance-b' });
      const round = async () => {
        counts.clear();
        const synced = (await Promise.all([first.runJob('sync-calendars'), second.runJob('sync-calendars'), first.runJob('sync-calendars')])) as number[];
        expect(synced.reduce((sum, each) => sum + each, 0)).toBe(connections.length);
        expect([...counts.entries()].sort()).toEqual(['a', 'b', 'c', 'd'].map((name) => [server.calendarUrl(name), 1]));
      };
      await round();
      t.clock.advance(SYNC_SECONDS * 1000 - 1);
      expect(await first.runJob('sync-calendars')).toBe(0);
      t.clock.advance(1);
      await round();
      t.clock.advance(SYNC_SECONDS * 1000);
      await round();
      const listed = (await t.request('GET', calendarsPath(), { key: t.apiKey })).body.connections as { status: string; lastSyncedAt: string }[];
      expect(listed.map((connection) => [connection.status, connection.lastSyncedAt])).toEqual(
        connections.map(() => ['ok', new Date(Date.parse(NOW) + 2 * SYNC_SECONDS * 1000).toISOString()]),
      );
      expect(CALENDAR_SYNC_LEASE_MS).toBeGreaterThan(10_000);
    });

    test('a server that is down: ok through two failed syncs, error on the third (webhook, one mail, lastError in words); ok and restored once it answers', async () => {
      await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body: { notificationEmail: 'owner@example.com' } });
      const hook = await t.request('POST', `${V1}/acme/webhooks`, { key: t.apiKey, body: { url: 'https://hooks.example.com/svc' } });
      expect(hook.status).toBe(200);
      await server.putEvent('c', `meeting-${adapter}.ics`, event(`meeting-${adapter}@example.com`, '20260303T090000Z', '20260303T100000Z'));
      const connection = await connect('c');
      const transport = openMailTransport(t.deps.config)!;
      const scheduler = createScheduler(t.deps, { claimant: 'instance-a', mailTransport: transport });
      const mailsBefore = smtp.mails.length;
      const get = async () => (await t.request('GET', `${calendarsPath()}/${connection.id}`, { key: t.apiKey })).body.connection;
      await server.halt();
      try {
        for (const expected of ['ok', 'ok', 'error']) {
          t.clock.advance(SYNC_SECONDS * 1000);
          await scheduler.runJob('sync-calendars');
          expect((await get()).status).toBe(expected);
        }
        const failed = await get();
        expect(failed.lastError).toBe(`${new URL(server.url).host} could not be reached (ECONNREFUSED)`);
        expect(JSON.stringify(failed)).not.toContain(PASSWORD);
        // its busy times stay as last read: the time is still blocked
        expect(await slots('2026-03-03')).toEqual(['12:00', '13:00', '14:00', '15:00', '16:00']);

        const [mail] = (await smtp.received(mailsBefore + 1)).slice(mailsBefore);
        expect(mail!.to).toMatchObject({ text: 'owner@example.com' });
        expect(mail!.subject).toBe(`Calendar not syncing: ${failed.name} (Alex Hoffmann)`);
        expect(mail!.text).toContain('could not be reached (ECONNREFUSED)');
        expect(mail!.text).not.toContain(PASSWORD);

        // a fourth failure sends nothing more
        t.clock.advance(SYNC_SECONDS * 1000);
        await scheduler.runJob('sync-calendars');
        const events = await messages();
        expect(events.map((message) => message.eventType)).toEqual(['calendar.connection.failed']);
        const body = JSON.parse(events[0]!.body);
        expect(Value.Check(CalendarConnectionEvent, body)).toBe(true);
        expect(body.data).toEqual({ workspace: 'acme', connection: { ...failed, lastSyncedAt: failed.lastSyncedAt } });
      } finally {
        await server.restart();
      }
      t.clock.advance(SYNC_SECONDS * 1000);
      await scheduler.runJob('sync-calendars');
      const restored = await get();
      expect(restored).toMatchObject({ status: 'ok', lastError: null, lastSyncedAt: new Date(t.clock.now()).toISOString() });
      const after = await messages();
      expect(after.map((message) => message.eventType)).toEqual(['calendar.connection.restored']);
      expect(JSON.parse(after[0]!.body).data.connection).toEqual(restored);
      expect(smtp.mails.length).toBe(mailsBefore + 1);
      await transport.close();
      await fetch(`${server.calendarUrl('c')}meeting-${adapter}.ics`, {
        method: 'DELETE',
        headers: { authorization: `Basic ${btoa(`${server.username}:${PASSWORD}`)}` },
      });
    });

    test('a refused password turns the connection error at once, in German for a German workspace', async () => {
      await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body: { notificationEmail: 'inhaber@example.com', language: 'de' } });
      const connection = await connect('d');
      // the password changes on the server's side: the stored one is refused from now on
      const stored = (await t.deps.storage.getCalendarConnection(t.workspace.id, providerId, connection.id))!;
      const { sealCalendarSecret } = await import('../../src/platform/sealed-secrets.ts');
      await t.deps.storage.updateCalendarConnection(
        connection.id,
        { sealedSecret: await sealCalendarSecret('an old password', t.deps.config.SVC_SECRET!, connection.id) },
        stored.updatedAt,
      );
      const transport = openMailTransport(t.deps.config)!;
      const before = smtp.mails.length;
      const synced = await t.request('POST', `${calendarsPath()}/${connection.id}/sync`, { key: t.apiKey });
      expect(synced.status).toBe(200);
      // lastError is svc's own sentence, said in the workspace's language (the mail quotes it under "Problem")
      const problem = `${new URL(server.url).host} hat Benutzername oder Passwort abgelehnt (401)`;
      expect(synced.body.connection).toMatchObject({ status: 'error', lastError: problem });
      // the scheduler's next run sends the mail the move marked due
      await createScheduler(t.deps, { mailTransport: transport }).runJob('sync-calendars');
      const [mail] = (await smtp.received(before + 1)).slice(before);
      expect(mail!.to).toMatchObject({ text: 'inhaber@example.com' });
      expect(mail!.subject).toStartWith('Kalender wird nicht abgeglichen');
      expect(mail!.text).toContain(problem);
      await transport.close();
    });
  });
});
