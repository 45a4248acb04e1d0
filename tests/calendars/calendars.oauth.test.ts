import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { calendarConnector } from '../../adapters/calendar/index.ts';
import { googleEventId } from '../../adapters/calendar/google/index.ts';
import type { OAuthTokens } from '../../src/ports/calendar.ts';
import { addProvider, V1 } from '../services/catalogue-fixtures.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type OAuthStandIn, type StandInKind, startOAuthStandIn } from '../support/oauth-calendars.ts';
import { describeEachAdapter } from '../support/storage.ts';

/*
 * Google Calendar and Microsoft 365 through the routes, against local stand-ins of both APIs (reached through the
 * endpoint overrides), on both databases: the consent round (POST → authorizeUrl → the stand-in's consent →
 * callback page → an `ok` connection with its calendars), busy and free events, incremental reads and a stale
 * token, a refresh ahead of expiry and after a 401, a refused refresh → `error` asking to reconnect, a refused
 * consent and a spent state, rate limits with Retry-After, and idempotent writes when an insert times out after
 * it was stored.
 */

const NOW = '2026-03-01T00:00:00.000Z';
const PUBLIC_URL = 'https://svc.example.com';

/** Events close to the providers' documented examples, in their shapes. */
function seed(standIn: OAuthStandIn, calendarId: string) {
  if (standIn.kind === 'google') {
    standIn.putEvent(calendarId, {
      id: '5n1cg3k0aaaa',
      iCalUID: '5n1cg3k0aaaa@google.com',
      status: 'confirmed',
      summary: 'Dentist',
      start: { dateTime: '2026-03-02T10:00:00+01:00', timeZone: 'Europe/Berlin' },
      end: { dateTime: '2026-03-02T11:00:00+01:00', timeZone: 'Europe/Berlin' },
    });
    standIn.putEvent(calendarId, {
      id: 'free0001',
      iCalUID: 'free0001@google.com',
      status: 'confirmed',
      transparency: 'transparent',
      summary: 'Focus time (free)',
      start: { dateTime: '2026-03-02T14:00:00+01:00' },
      end: { dateTime: '2026-03-02T15:00:00+01:00' },
    });
    standIn.putEvent(calendarId, {
      id: 'allday01',
      iCalUID: 'allday01@google.com',
      status: 'confirmed',
      summary: 'Trade fair',
      start: { date: '2026-03-04' },
      end: { date: '2026-03-05' },
    });
  } else {
    standIn.putEvent(calendarId, {
      id: 'AAMkAGI2busy=',
      iCalUId: '040000008200E00074C5B7101A82E00800000000A1',
      subject: 'Dentist',
      showAs: 'busy',
      isCancelled: false,
      isAllDay: false,
      start: { dateTime: '2026-03-02T10:00:00.0000000', timeZone: 'W. Europe Standard Time' },
      end: { dateTime: '2026-03-02T11:00:00.0000000', timeZone: 'W. Europe Standard Time' },
    });
    standIn.putEvent(calendarId, {
      id: 'AAMkAGI2free=',
      iCalUId: '040000008200E00074C5B7101A82E00800000000B2',
      subject: 'Focus time (free)',
      showAs: 'free',
      isCancelled: false,
      start: { dateTime: '2026-03-02T13:00:00.0000000', timeZone: 'UTC' },
      end: { dateTime: '2026-03-02T14:00:00.0000000', timeZone: 'UTC' },
    });
    standIn.putEvent(calendarId, {
      id: 'AAMkAGI2allday=',
      iCalUId: '040000008200E00074C5B7101A82E00800000000C3',
      subject: 'Trade fair',
      showAs: 'oof',
      isCancelled: false,
      isAllDay: true,
      start: { dateTime: '2026-03-04T00:00:00.0000000', timeZone: 'W. Europe Standard Time' },
      end: { dateTime: '2026-03-05T00:00:00.0000000', timeZone: 'W. Europe Standard Time' },
    });
  }
}

const EXPECTED_BUSY = {
  google: [
    ['2026-03-02T09:00:00.000Z', '2026-03-02T10:00:00.000Z', '5n1cg3k0aaaa@google.com'],
    ['2026-03-03T23:00:00.000Z', '2026-03-04T23:00:00.000Z', 'allday01@google.com'],
  ],
  microsoft: [
    ['2026-03-02T09:00:00.000Z', '2026-03-02T10:00:00.000Z', '040000008200E00074C5B7101A82E00800000000A1'],
    ['2026-03-03T23:00:00.000Z', '2026-03-04T23:00:00.000Z', '040000008200E00074C5B7101A82E00800000000C3'],
  ],
};

const settingsOf = (standIn: OAuthStandIn) =>
  standIn.kind === 'google'
    ? {
        SVC_GOOGLE_CLIENT_ID: standIn.clientId,
        SVC_GOOGLE_CLIENT_SECRET: standIn.clientSecret,
        SVC_GOOGLE_OAUTH_URL: standIn.url,
        SVC_GOOGLE_API_URL: standIn.url,
      }
    : {
        SVC_MICROSOFT_CLIENT_ID: standIn.clientId,
        SVC_MICROSOFT_CLIENT_SECRET: standIn.clientSecret,
        SVC_MICROSOFT_LOGIN_URL: standIn.url,
        SVC_MICROSOFT_GRAPH_URL: standIn.url,
      };

const iso = (busy: { start: number; end: number; uid: string }) => [new Date(busy.start).toISOString(), new Date(busy.end).toISOString(), busy.uid];

for (const kind of ['google', 'microsoft'] as StandInKind[]) {
  describeEachAdapter(`${kind} calendar connections`, (adapter) => {
    let t: TestApp;
    let standIn: OAuthStandIn;
    let providerId: string;
    let primary: string;
    const path = () => `${V1}/acme/providers/${providerId}/calendars`;
    const busyTimes = async () =>
      (await t.deps.storage.busyTimesFor([providerId], Date.parse('2026-01-01T00:00:00Z'), Date.parse('2027-01-01T00:00:00Z'))).map(iso);

    beforeEach(async () => {
      standIn = startOAuthStandIn(kind);
      primary = [...standIn.calendars.values()].find((calendar) => calendar.primary)!.id;
      seed(standIn, primary);
      t = await createTestApp(adapter, { config: { SVC_PUBLIC_URL: PUBLIC_URL, ...settingsOf(standIn) } });
      t.clock.set(NOW);
      providerId = (await addProvider(t)).id;
    }, 30_000);
    afterEach(async () => {
      await t.close();
      standIn.stop();
    });

    /** POST, then the consent at the stand-in, then the callback: the page's status and text, and the connection. */
    async function connect() {
      const created = await t.request('POST', path(), { key: t.apiKey, body: { kind } });
      expect(created.status).toBe(200);
      const consent = await fetch(created.body.authorizeUrl, { redirect: 'manual' });
      expect(consent.status).toBe(302);
      const back = new URL(consent.headers.get('location')!);
      expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/oauth/${kind}/callback`);
      const page = await t.request('GET', back.pathname + back.search);
      const connection = (await t.request('GET', `${path()}/${created.body.connection.id}`, { key: t.apiKey })).body.connection;
      return { created: created.body, page, connection, callback: back.pathname + back.search };
    }

    test('the consent round: POST answers a pending connection and the consent URL with PKCE; the callback connects it, lists the calendars and stores busy times (free ones left out)', async () => {
      const { created, page, connection } = await connect();
      expect(created.connection).toMatchObject({ kind, status: 'pending', url: null, account: null, calendars: [] });
      const authorize = new URL(created.authorizeUrl);
      expect(authorize.origin).toBe(standIn.url);
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/oauth/${kind}/callback`);
      expect(authorize.searchParams.get('scope')).toBe(
        kind === 'google'
          ? 'https://www.googleapis.com/auth/calendar.events https://www.googleapis.com/auth/calendar.readonly'
          : 'Calendars.ReadWrite offline_access',
      );
      expect(standIn.tokenRequests).toEqual([{ grantType: 'authorization_code', pkce: true }]);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toContain('no-store');
      expect(page.body).toContain('Calendar connected');
      expect(page.body).toContain(standIn.account);
      expect(connection).toMatchObject({ kind, status: 'ok', account: standIn.account, lastError: null, lastSyncedAt: NOW });
      expect(
        connection.calendars.map((calendar: { name: string; readOnly: boolean; blocks: boolean }) => [calendar.name, calendar.readOnly, calendar.blocks]),
      ).toEqual([...standIn.calendars.values()].map((calendar) => [calendar.name, !calendar.writable, true]));
      expect(await busyTimes()).toEqual(EXPECTED_BUSY[kind]);
      // the tokens are sealed: neither appears in the stored row
      const stored = await t.deps.storage.getCalendarConnection(t.workspace.id, providerId, connection.id);
      expect(stored!.sealedSecret).toMatch(/^v1\./);
      expect(stored!.sealedSecret).not.toContain('ya29.');
    });

    test('a state works once: the same callback again says the link expired, in German for a browser asking for German', async () => {
      const { callback } = await connect();
      const again = await t.request('GET', callback, { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
      expect(again.status).toBe(400);
      expect(again.body).toContain('Dieser Link ist abgelaufen');
    });

    test('a refused consent says so on the page, and the connection shows error asking to reconnect', async () => {
      standIn.consent = 'deny';
      const { page, connection } = await connect();
      expect(page.status).toBe(200);
      expect(page.body).toContain('was not granted');
      expect(connection.status).toBe('error');
      expect(connection.lastError).toContain('reconnect');
      expect(standIn.tokenRequests).toEqual([]);
    });

    test('a code the provider refuses: the page says the calendar could not be connected, and the connection shows why', async () => {
      const created = await t.request('POST', path(), { key: t.apiKey, body: { kind } });
      const consent = await fetch(created.body.authorizeUrl, { redirect: 'manual' });
      const back = new URL(consent.headers.get('location')!);
      back.searchParams.set('code', 'forged-code');
      const page = await t.request('GET', back.pathname + back.search);
      expect(page.status).toBe(502);
      expect(page.body).toContain('could not be connected');
      expect(standIn.tokenRequests).toEqual([{ grantType: 'authorization_code', pkce: null }]);
      const connection = (await t.request('GET', `${path()}/${created.body.connection.id}`, { key: t.apiKey })).body.connection;
      expect(connection).toMatchObject({ status: 'error', lastError: expect.stringContaining('reconnect') });
    });

    test('a consent completed after 10 minutes is expired', async () => {
      const created = await t.request('POST', path(), { key: t.apiKey, body: { kind } });
      const consent = await fetch(created.body.authorizeUrl, { redirect: 'manual' });
      t.clock.set('2026-03-01T00:10:01.000Z');
      const back = new URL(consent.headers.get('location')!);
      const page = await t.request('GET', back.pathname + back.search);
      expect(page.status).toBe(400);
      expect(page.body).toContain('This link has expired');
      const connection = (await t.request('GET', `${path()}/${created.body.connection.id}`, { key: t.apiKey })).body.connection;
      expect(connection).toMatchObject({ status: 'error', lastError: expect.stringContaining('within 10 minutes') });
    });

    test('incremental sync: only changes are asked for; a removed and a new event show; a stale token reads everything again', async () => {
      const { connection } = await connect();
      standIn.removeEvent(primary, kind === 'google' ? '5n1cg3k0aaaa' : 'AAMkAGI2busy=');
      const uid = kind === 'google' ? 'late0001@google.com' : 'LATE-UID';
      standIn.putEvent(
        primary,
        kind === 'google'
          ? { id: 'late0001', iCalUID: uid, status: 'confirmed', start: { dateTime: '2026-03-06T08:00:00Z' }, end: { dateTime: '2026-03-06T09:00:00Z' } }
          : {
              id: 'AAMkLATE=',
              iCalUId: uid,
              showAs: 'busy',
              start: { dateTime: '2026-03-06T08:00:00.0000000', timeZone: 'UTC' },
              end: { dateTime: '2026-03-06T09:00:00.0000000', timeZone: 'UTC' },
            },
      );
      const before = standIn.requests.length;
      const synced = await t.request('POST', `${path()}/${connection.id}/sync`, { key: t.apiKey });
      expect(synced.body.connection.status).toBe('ok');
      const reads = standIn.requests.slice(before).filter((request) => request.path.includes(kind === 'google' ? '/events' : '/delta'));
      expect(reads.every((request) => /syncToken=|deltatoken=/.test(request.path))).toBe(true);
      expect(await busyTimes()).toEqual([EXPECTED_BUSY[kind][1]!, ['2026-03-06T08:00:00.000Z', '2026-03-06T09:00:00.000Z', uid]]);

      standIn.forgetSyncTokens();
      const again = await t.request('POST', `${path()}/${connection.id}/sync`, { key: t.apiKey });
      expect(again.body.connection).toMatchObject({ status: 'ok', lastError: null });
      expect(await busyTimes()).toEqual([EXPECTED_BUSY[kind][1]!, ['2026-03-06T08:00:00.000Z', '2026-03-06T09:00:00.000Z', uid]]);
    });

    test('tokens are refreshed ahead of expiry and after a 401; a refused refresh turns the connection to error asking to reconnect', async () => {
      const { connection } = await connect();
      const sealedBefore = (await t.deps.storage.getCalendarConnection(t.workspace.id, providerId, connection.id))!.sealedSecret;
      t.clock.set('2026-03-01T00:58:00.000Z'); // the access token (3599 s) is close to expiry
      expect((await t.request('POST', `${path()}/${connection.id}/sync`, { key: t.apiKey })).body.connection.status).toBe('ok');
      expect(standIn.tokenRequests.map((request) => request.grantType)).toEqual(['authorization_code', 'refresh_token']);
      expect((await t.deps.storage.getCalendarConnection(t.workspace.id, providerId, connection.id))!.sealedSecret).not.toBe(sealedBefore);

      standIn.expireAccessTokens();
      expect((await t.request('POST', `${path()}/${connection.id}/sync`, { key: t.apiKey })).body.connection.status).toBe('ok');
      expect(standIn.tokenRequests.map((request) => request.grantType)).toEqual(['authorization_code', 'refresh_token', 'refresh_token']);

      standIn.expireAccessTokens();
      standIn.revokeRefreshTokens();
      const refused = await t.request('POST', `${path()}/${connection.id}/sync`, { key: t.apiKey });
      expect(refused.status).toBe(200);
      expect(refused.body.connection.status).toBe('error');
      expect(refused.body.connection.lastError).toContain('invalid_grant');
      expect(refused.body.connection.lastError).toContain('reconnect');
    });

    test('a 429 with Retry-After is waited out, then the sync goes on', async () => {
      const { connection } = await connect();
      standIn.rateLimit(1, 1);
      const before = standIn.requests.length;
      const synced = await t.request('POST', `${path()}/${connection.id}/sync`, { key: t.apiKey });
      expect(synced.body.connection).toMatchObject({ status: 'ok', lastError: null });
      const [limited, retried] = standIn.requests.slice(before);
      expect(retried!.path).toBe(limited!.path);
      expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(950);
    });

    test('writes by UID are idempotent: an insert stored but not answered in time, retried, updates the one event; delete removes it', async () => {
      const { connection } = await connect();
      const stored = (await t.deps.storage.getCalendarConnection(t.workspace.id, providerId, connection.id))!;
      // The adapter as the write-back uses it, with a short request time limit so the stalled insert times out.
      const connector = calendarConnector({
        allowPrivate: true,
        timeoutMs: 300,
        now: () => t.clock.now(),
        ...(kind === 'google'
          ? { google: { clientId: standIn.clientId, clientSecret: standIn.clientSecret, oauthUrl: standIn.url, apiUrl: standIn.url } }
          : { microsoft: { clientId: standIn.clientId, clientSecret: standIn.clientSecret, tenant: 'common', loginUrl: standIn.url, graphUrl: standIn.url } }),
      });
      const { openCalendarSecret } = await import('../../src/platform/sealed-secrets.ts');
      const { tokens } = JSON.parse(await openCalendarSecret(stored.sealedSecret!, t.deps.config.SVC_SECRET!, stored.id)) as { tokens: OAuthTokens };
      const source = connector.open({ kind, url: '', oauth: { tokens, save: async () => {} } });
      const uid = 'bk_01jq3x7m2k@svc.example.com';
      const ics = (summary: string, status: string, sequence: number) =>
        [
          'BEGIN:VCALENDAR',
          'VERSION:2.0',
          'PRODID:-//svc//EN',
          'BEGIN:VEVENT',
          `UID:${uid}`,
          'DTSTAMP:20260301T000000Z',
          'DTSTART:20260310T090000Z',
          'DTEND:20260310T100000Z',
          `SUMMARY:${summary}`,
          `STATUS:${status}`,
          `SEQUENCE:${sequence}`,
          'END:VEVENT',
          'END:VCALENDAR',
        ].join('\r\n');
      const studio = [...standIn.calendars.values()].find((calendar) => calendar.name === 'Studio')!;
      standIn.stallNextInsert(1500);
      await expect(source.putEvent(studio.id, uid, ics('Haircut · Jo Doe', 'TENTATIVE', 0))).rejects.toThrow();
      expect([...studio.events.values()].filter((event) => !event.deleted)).toHaveLength(1);
      await source.putEvent(studio.id, uid, ics('Haircut · Jo Doe', 'CONFIRMED', 1));
      const live = [...studio.events.values()].filter((event) => !event.deleted);
      expect(live).toHaveLength(1);
      if (kind === 'google') expect(live[0]).toMatchObject({ id: googleEventId(uid), iCalUID: uid, status: 'confirmed', summary: 'Haircut · Jo Doe' });
      else expect(live[0]).toMatchObject({ transactionId: uid, showAs: 'busy', subject: 'Haircut · Jo Doe' });
      await source.deleteEvent(studio.id, uid);
      await source.deleteEvent(studio.id, uid);
      expect([...studio.events.values()].filter((event) => !event.deleted)).toHaveLength(0);
      // written again after a delete: still one event
      await source.putEvent(studio.id, uid, ics('Haircut · Jo Doe', 'CONFIRMED', 2));
      expect([...studio.events.values()].filter((event) => !event.deleted)).toHaveLength(1);
    });
  });
}

describe('without client id and secret', () => {
  test('POST of google or microsoft answers 400 NOT_CONFIGURED', async () => {
    const t = await createTestApp('libsql');
    try {
      const providerId = (await addProvider(t)).id;
      for (const kind of ['google', 'microsoft']) {
        const response = await t.request('POST', `${V1}/acme/providers/${providerId}/calendars`, { key: t.apiKey, body: { kind } });
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('NOT_CONFIGURED');
      }
    } finally {
      await t.close();
    }
  });
});
