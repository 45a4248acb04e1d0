import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { calendarConnector } from '../../adapters/calendar/index.ts';
import { CalendarAccessError } from '../../src/ports/calendar.ts';
import { openCalendarSecret } from '../../src/platform/sealed-secrets.ts';
import { addProvider, V1 } from '../services/catalogue-fixtures.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type CalDavServer, caldavServersMissing, startRadicale, startXandikos } from '../support/caldav-server.ts';
import { freePort } from '../support/process.ts';
import { describeEachAdapter } from '../support/storage.ts';

/*
 * Calendar connections against real CalDAV servers (radicale with a password, xandikos without), on both
 * databases: connect, discover, sync a recurring series with an override and an EXDATE, a New York series across
 * the US DST change, an all-day and a transparent event; refused passwords and a server that is down; the
 * owner's choices; and the adapter's write by UID.
 */

const missing = caldavServersMissing();
if (missing) console.log(`calendar CalDAV tests skipped: ${missing}`);
const describeIf = missing ? describe.skip : describe;

const FIXTURES = join(import.meta.dir, 'fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const NOW = '2026-03-01T00:00:00.000Z';
const PASSWORD = 'correct horse battery';

/** The busy times of the fixtures in the workspace zone (Europe/Berlin), worked out by hand. */
const FIXTURE_BUSY = [
  ['2026-03-02T09:00:00.000Z', '2026-03-02T10:00:00.000Z', 'weekly-standup@example.com'],
  // 09:00 New York: 14:00Z before the US change on 8 March, 13:00Z after
  ['2026-03-06T14:00:00.000Z', '2026-03-06T14:30:00.000Z', 'ny-call@example.com'],
  ['2026-03-07T14:00:00.000Z', '2026-03-07T14:30:00.000Z', 'ny-call@example.com'],
  ['2026-03-08T13:00:00.000Z', '2026-03-08T13:30:00.000Z', 'ny-call@example.com'],
  ['2026-03-09T13:00:00.000Z', '2026-03-09T13:30:00.000Z', 'ny-call@example.com'],
  // 9 March is an EXDATE; 16 March moved to Tuesday 17 March 14:00
  ['2026-03-17T13:00:00.000Z', '2026-03-17T14:00:00.000Z', 'weekly-standup@example.com'],
  // the all-day 20 March, 00:00-24:00 Berlin
  ['2026-03-19T23:00:00.000Z', '2026-03-20T23:00:00.000Z', 'holiday@example.com'],
  ['2026-03-23T09:00:00.000Z', '2026-03-23T10:00:00.000Z', 'weekly-standup@example.com'],
  // 10:00 Berlin after the EU change on 29 March is 08:00Z
  ['2026-03-30T08:00:00.000Z', '2026-03-30T09:00:00.000Z', 'weekly-standup@example.com'],
];

async function fill(server: CalDavServer) {
  await server.makeCalendar('work', 'Work');
  await server.makeCalendar('other', 'Other');
  for (const name of ['series', 'new-york', 'all-day', 'transparent']) await server.putEvent('work', `${name}.ics`, fixture(`${name}.ics`));
}

function event(uid: string, summary: string, start = '20260325T100000Z', end = '20260325T110000Z') {
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

describeIf('calendar connections on radicale', () => {
  let server: CalDavServer;
  beforeAll(async () => {
    server = await startRadicale();
    await fill(server);
  }, 30_000);
  afterAll(() => server?.stop());

  describeEachAdapter('routes', (adapter) => {
    let t: TestApp;
    let providerId: string;
    const path = () => `${V1}/acme/providers/${providerId}/calendars`;
    const busyTimes = async () =>
      (await t.deps.storage.busyTimesFor([providerId], Date.parse('2026-01-01T00:00:00Z'), Date.parse('2027-01-01T00:00:00Z'))).map((busy) => [
        new Date(busy.start).toISOString(),
        new Date(busy.end).toISOString(),
        busy.uid,
      ]);
    const connect = (body: Record<string, unknown> = {}) =>
      t.request('POST', path(), { key: t.apiKey, body: { kind: 'caldav', url: server.url, username: server.username, password: PASSWORD, ...body } });

    beforeEach(async () => {
      t = await createTestApp(adapter, { config: { SVC_CALENDAR_ALLOW_PRIVATE: true } });
      t.clock.set(NOW);
      providerId = (await addProvider(t)).id;
    }, 30_000);
    afterEach(() => t.close());

    test('POST caldav with the server URL -> 200, the calendar discovered and synced: recurring, DST-crossing and all-day events block, transparent ones do not', async () => {
      const response = await connect();
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        connection: {
          id: expect.stringMatching(/^cal_[0-9a-z]{26}$/),
          providerId,
          kind: 'caldav',
          name: new URL(server.url).host,
          url: `${server.url}/`,
          account: 'alex',
          status: 'ok',
          lastSyncedAt: NOW,
          lastError: null,
          calendars: expect.arrayContaining([
            { id: server.calendarUrl('work'), name: 'Work', blocks: true, writes: false, readOnly: false },
            { id: server.calendarUrl('other'), name: 'Other', blocks: true, writes: false, readOnly: false },
          ]),
          createdAt: NOW,
        },
      });
      expect(response.body.connection.calendars.length).toBe(2);
      expect(await busyTimes()).toEqual(FIXTURE_BUSY);
    });

    test('the password is stored sealed under SVC_SECRET for this connection only, and never answered', async () => {
      const { body } = await connect();
      expect(JSON.stringify(body)).not.toContain(PASSWORD);
      const stored = (await t.db.storage.getCalendarConnection(t.workspace.id, providerId, body.connection.id))!;
      expect(stored.sealedSecret).not.toContain(PASSWORD);
      expect(await openCalendarSecret(stored.sealedSecret!, t.deps.config.SVC_SECRET!, stored.id)).toBe(PASSWORD);
      await expect(openCalendarSecret(stored.sealedSecret!, t.deps.config.SVC_SECRET!, 'cal_other')).rejects.toThrow('does not open');
    });

    test('credentials in the URL are taken out of it and used', async () => {
      const url = new URL(server.url);
      url.username = server.username;
      url.password = encodeURIComponent(PASSWORD);
      const response = await t.request('POST', path(), { key: t.apiKey, body: { kind: 'caldav', url: url.toString() } });
      expect(response.status).toBe(200);
      expect(response.body.connection.url).toBe(`${server.url}/`);
      expect(response.body.connection.status).toBe('ok');
    });

    test('POST with a calendar URL keeps just that calendar', async () => {
      const response = await connect({ url: server.calendarUrl('work') });
      expect(response.status).toBe(200);
      expect(response.body.connection.calendars.map((calendar: { name: string }) => calendar.name)).toEqual(['Work']);
    });

    test('a wrong password -> 400 CALENDAR_AUTH_FAILED, nothing stored', async () => {
      const response = await connect({ password: 'wrong' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        code: 'CALENDAR_AUTH_FAILED',
        error: `${new URL(server.url).host} refused the username or password (401)`,
      });
      expect((await t.request('GET', path(), { key: t.apiKey })).body).toEqual({ success: true, connections: [] });
    });

    test('a server that is down -> 400 CALENDAR_UNREACHABLE', async () => {
      const response = await connect({ url: `http://127.0.0.1:${freePort()}/` });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('CALENDAR_UNREACHABLE');
      expect(response.body.error).toContain('could not be reached (ECONNREFUSED)');
    });

    test('without SVC_CALENDAR_ALLOW_PRIVATE a loopback calendar -> 400 CALENDAR_UNREACHABLE naming the rule', async () => {
      const strict = await createTestApp(adapter);
      try {
        const provider = await addProvider(strict);
        const response = await strict.request('POST', `${V1}/acme/providers/${provider.id}/calendars`, {
          key: strict.apiKey,
          body: { kind: 'caldav', url: server.url, username: server.username, password: PASSWORD },
        });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ success: false, code: 'CALENDAR_UNREACHABLE', error: '127.0.0.1 is not a public address (loopback)' });
      } finally {
        await strict.close();
      }
    });

    test('GET lists and gets; PATCH blocks: false frees at once; writes: true takes the write calendar; DELETE -> 204 and the busy times go', async () => {
      const { body } = await connect({ url: server.calendarUrl('work') });
      const id = body.connection.id;
      expect((await t.request('GET', path(), { key: t.apiKey })).body).toEqual({ success: true, connections: [body.connection] });
      expect((await t.request('GET', `${path()}/${id}`, { key: t.apiKey })).body).toEqual(body);

      const calendarId = server.calendarUrl('work');
      const off = await t.request('PATCH', `${path()}/${id}`, { key: t.apiKey, body: { calendars: [{ id: calendarId, blocks: false, writes: true }] } });
      expect(off.status).toBe(200);
      expect(off.body.connection.calendars).toEqual([{ id: calendarId, name: 'Work', blocks: false, writes: true, readOnly: false }]);
      expect(await busyTimes()).toEqual([]);
      await t.request('PATCH', `${path()}/${id}`, { key: t.apiKey, body: { calendars: [{ id: calendarId, blocks: true }] } });
      expect(await busyTimes()).toEqual(FIXTURE_BUSY);

      const unknown = await t.request('PATCH', `${path()}/${id}`, { key: t.apiKey, body: { calendars: [{ id: 'https://elsewhere/', blocks: true }] } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe('VALIDATION_ERROR');

      const deleted = await t.request('DELETE', `${path()}/${id}`, { key: t.apiKey });
      expect(deleted.status).toBe(204);
      expect(await busyTimes()).toEqual([]);
      expect((await t.request('GET', `${path()}/${id}`, { key: t.apiKey })).status).toBe(404);
      expect((await t.request('DELETE', `${path()}/${id}`, { key: t.apiKey })).status).toBe(404);
    });

    test('POST …/sync reads what changed; events svc wrote itself (its booking UIDs) never block', async () => {
      const { body } = await connect();
      const name = `late-${adapter}.ics`;
      await server.putEvent('work', name, event('dentist@example.com', 'Dentist', '20260401T070000Z', '20260401T080000Z'));
      await server.putEvent('work', `own-${adapter}.ics`, event(`bk_01own${adapter}@localhost:8080`, 'Cut · Ada', '20260402T070000Z', '20260402T080000Z'));
      t.clock.set('2026-03-01T01:00:00.000Z');
      const synced = await t.request('POST', `${path()}/${body.connection.id}/sync`, { key: t.apiKey });
      expect(synced.status).toBe(200);
      expect(synced.body.connection.lastSyncedAt).toBe('2026-03-01T01:00:00.000Z');
      expect(await busyTimes()).toEqual([...FIXTURE_BUSY, ['2026-04-01T07:00:00.000Z', '2026-04-01T08:00:00.000Z', 'dentist@example.com']]);
      await fetch(`${server.calendarUrl('work')}${name}`, { method: 'DELETE', headers: { authorization: `Basic ${btoa(`${server.username}:${PASSWORD}`)}` } });
      await fetch(`${server.calendarUrl('work')}own-${adapter}.ics`, {
        method: 'DELETE',
        headers: { authorization: `Basic ${btoa(`${server.username}:${PASSWORD}`)}` },
      });
    });

    test('an unknown provider -> 404; another workspace key -> 401', async () => {
      const response = await t.request('GET', `${V1}/acme/providers/prv_nope/calendars`, { key: t.apiKey });
      expect(response.status).toBe(404);
      const keyless = await t.request('GET', path());
      expect(keyless.status).toBe(401);
    });
  });

  describe('adapter writes by UID', () => {
    const open = () => calendarConnector({ allowPrivate: true }).open({ kind: 'caldav', url: server.url, username: server.username, password: PASSWORD });

    test('a retried put with the same UID updates the one event, never makes a second; delete removes it and a second delete is no error', async () => {
      const source = open();
      const calendarId = server.calendarUrl('work');
      const uid = 'bk_01putonce@svc.example';
      await source.putEvent(calendarId, uid, event(uid, 'Cut · Ada'));
      await source.putEvent(calendarId, uid, event(uid, 'Cut · Ada (moved)'));
      await open().putEvent(calendarId, uid, event(uid, 'Cut · Ada (moved again)'));
      const mine = (await server.listEvents('work')).filter((text) => text.includes(uid));
      expect(mine.length).toBe(1);
      expect(mine[0]).toContain('SUMMARY:Cut · Ada (moved again)');
      await source.deleteEvent(calendarId, uid);
      await source.deleteEvent(calendarId, uid);
      expect((await server.listEvents('work')).filter((text) => text.includes(uid))).toEqual([]);
    });

    test('a put of an event created elsewhere under another file name updates that file', async () => {
      const uid = 'made-by-phone@example.com';
      await server.putEvent('work', 'phone-made-this.ics', event(uid, 'From the phone'));
      await open().putEvent(server.calendarUrl('work'), uid, event(uid, 'Changed by svc'));
      const mine = (await server.listEvents('work')).filter((text) => text.includes(uid));
      expect(mine).toEqual([expect.stringContaining('SUMMARY:Changed by svc')]);
      await open().deleteEvent(server.calendarUrl('work'), uid);
    });

    test('a read with the state of the last read answers unchanged until the calendar changes', async () => {
      const source = open();
      const window = { from: Date.parse('2026-03-01T00:00:00Z'), to: Date.parse('2026-04-01T00:00:00Z') };
      const first = await source.readEvents(server.calendarUrl('work'), window, null);
      expect(first.changed).toBe(true);
      expect(await source.readEvents(server.calendarUrl('work'), window, first.state)).toEqual({ changed: false, state: first.state });
      await server.putEvent('work', 'state.ics', event('state@example.com', 'Change'));
      expect((await source.readEvents(server.calendarUrl('work'), window, first.state)).changed).toBe(true);
      await open().deleteEvent(server.calendarUrl('work'), 'state@example.com');
    });

    test('a wrong password is CalendarAccessError auth on every call', async () => {
      const source = calendarConnector({ allowPrivate: true }).open({ kind: 'caldav', url: server.url, username: server.username, password: 'nope' });
      const error = await source.readEvents(server.calendarUrl('work'), { from: 0, to: 1 }, null).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CalendarAccessError);
      expect((error as CalendarAccessError).reason).toBe('auth');
    });
  });
});

describeIf('calendar connections on xandikos (no authentication)', () => {
  let server: CalDavServer;
  let t: TestApp;
  beforeAll(async () => {
    server = await startXandikos();
    for (const name of ['series', 'new-york', 'all-day', 'transparent']) await server.putEvent('calendar', `${name}.ics`, fixture(`${name}.ics`));
    t = await createTestApp('libsql', { config: { SVC_CALENDAR_ALLOW_PRIVATE: true } });
    t.clock.set(NOW);
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await server?.stop();
  });

  test('POST caldav with the server URL and no credentials -> 200 with the same busy times as radicale', async () => {
    const provider = await addProvider(t);
    const response = await t.request('POST', `${V1}/acme/providers/${provider.id}/calendars`, { key: t.apiKey, body: { kind: 'caldav', url: server.url } });
    expect(response.status).toBe(200);
    expect(response.body.connection.status).toBe('ok');
    expect(response.body.connection.calendars.map((calendar: { id: string }) => calendar.id)).toContain(server.calendarUrl('calendar'));
    const busy = await t.deps.storage.busyTimesFor([provider.id], Date.parse('2026-01-01T00:00:00Z'), Date.parse('2027-01-01T00:00:00Z'));
    expect(busy.map((entry) => [new Date(entry.start).toISOString(), new Date(entry.end).toISOString(), entry.uid])).toEqual(FIXTURE_BUSY);
  });

  test('an event added after the first sync is read at the next (the calendar tells its change; unchanged, nothing is read again)', async () => {
    const provider = await addProvider(t);
    const path = `${V1}/acme/providers/${provider.id}/calendars`;
    const connected = await t.request('POST', path, { key: t.apiKey, body: { kind: 'caldav', url: server.calendarUrl('calendar') } });
    expect(connected.body.connection.status).toBe('ok');
    const id = connected.body.connection.id;
    const state = async () => (await t.deps.storage.getCalendarConnection(t.workspace.id, provider.id, id))!.syncState[server.calendarUrl('calendar')];
    const before = await state();
    expect(JSON.parse(before!).state).toBeString();
    // unchanged: the stored state stays as it was
    expect((await t.request('POST', `${path}/${id}/sync`, { key: t.apiKey })).body.connection.status).toBe('ok');
    expect(await state()).toBe(before);
    const added = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//svc tests//EN',
      'BEGIN:VEVENT',
      'UID:added-later@example.com',
      'DTSTAMP:20260101T000000Z',
      'DTSTART:20260310T090000Z',
      'DTEND:20260310T100000Z',
      'SUMMARY:Added later',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    await server.putEvent('calendar', 'added-later.ics', added);
    expect((await t.request('POST', `${path}/${id}/sync`, { key: t.apiKey })).body.connection.status).toBe('ok');
    expect(await state()).not.toBe(before);
    const busy = await t.deps.storage.busyTimesFor([provider.id], Date.parse('2026-03-10T00:00:00Z'), Date.parse('2026-03-11T00:00:00Z'));
    expect(busy.map((entry) => entry.uid)).toContain('added-later@example.com');
  });
});
