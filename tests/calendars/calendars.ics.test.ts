import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'bun';
import { guardedFetch, GuardedFetchError } from '../../src/platform/guarded-fetch.ts';
import { addProvider, V1 } from '../services/catalogue-fixtures.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';

/*
 * Read-only iCalendar URLs served by the test: a Google-shaped export (X-WR-TIMEZONE, VTIMEZONE with
 * X-LIC-LOCATION) and an Outlook-shaped one (Windows zone names), on both databases; the conditional re-read, a
 * failing feed's health, and the guarded fetch's limits.
 */

const FIXTURES = join(import.meta.dir, 'fixtures');
const NOW = '2026-03-01T00:00:00.000Z';

/** What the feed server answers, per path; `etag` makes it answer 304 to a matching If-None-Match. */
const feeds = new Map<string, { status?: number; body: string; type?: string; etag?: string }>();
const seen: { path: string; status: number; ifNoneMatch: string | null; authorization: string | null }[] = [];
let server: Server<undefined>;
let base: string;

beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      const feed = feeds.get(url.pathname);
      const ifNoneMatch = request.headers.get('if-none-match');
      const record = (status: number) => seen.push({ path: url.pathname, status, ifNoneMatch, authorization: request.headers.get('authorization') });
      if (url.pathname === '/redirect') {
        record(302);
        return new Response(null, { status: 302, headers: { location: url.searchParams.get('to')! } });
      }
      if (!feed) {
        record(404);
        return new Response('not found', { status: 404 });
      }
      if (feed.etag && ifNoneMatch === feed.etag) {
        record(304);
        return new Response(null, { status: 304, headers: { etag: feed.etag } });
      }
      record(feed.status ?? 200);
      return new Response(feed.body, {
        status: feed.status ?? 200,
        headers: { 'content-type': feed.type ?? 'text/calendar; charset=utf-8', ...(feed.etag ? { etag: feed.etag } : {}) },
      });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.stop(true));

const iso = (busy: { start: number; end: number; uid: string }) => [new Date(busy.start).toISOString(), new Date(busy.end).toISOString(), busy.uid];

describeEachAdapter('iCalendar URL connections', (adapter) => {
  let t: TestApp;
  let providerId: string;
  const path = () => `${V1}/acme/providers/${providerId}/calendars`;
  const busyTimes = async () =>
    (await t.deps.storage.busyTimesFor([providerId], Date.parse('2026-01-01T00:00:00Z'), Date.parse('2027-01-01T00:00:00Z'))).map(iso);

  beforeEach(async () => {
    t = await createTestApp(adapter, { config: { SVC_CALENDAR_ALLOW_PRIVATE: true } });
    t.clock.set(NOW);
    providerId = (await addProvider(t)).id;
    feeds.clear();
    seen.length = 0;
    feeds.set('/google.ics', { body: readFileSync(join(FIXTURES, 'google-export.ics'), 'utf8'), etag: '"g1"' });
    feeds.set('/outlook.ics', { body: readFileSync(join(FIXTURES, 'outlook-export.ics'), 'utf8') });
  }, 30_000);
  afterEach(() => t.close());

  test('a Google export (X-WR-TIMEZONE, VTIMEZONE): the weekly New York series moves an hour in UTC on 8 March; free events do not block; the all-day blocks its Berlin day', async () => {
    const response = await t.request('POST', path(), { key: t.apiKey, body: { kind: 'ics', url: `${base}/google.ics` } });
    expect(response.status).toBe(200);
    expect(response.body.connection).toEqual({
      id: expect.stringMatching(/^cal_/),
      providerId,
      kind: 'ics',
      name: 'Alex (Google)',
      url: `${base}/google.ics`,
      account: null,
      status: 'ok',
      lastSyncedAt: NOW,
      lastError: null,
      calendars: [{ id: `${base}/google.ics`, name: 'Alex (Google)', blocks: true, writes: false, readOnly: true }],
      createdAt: NOW,
    });
    expect(await busyTimes()).toEqual([
      ['2026-03-06T14:00:00.000Z', '2026-03-06T15:00:00.000Z', '5n1cg3k0@google.com'],
      ['2026-03-11T23:00:00.000Z', '2026-03-12T23:00:00.000Z', 'allday@google.com'],
      ['2026-03-13T13:00:00.000Z', '2026-03-13T14:00:00.000Z', '5n1cg3k0@google.com'],
      ['2026-03-20T13:00:00.000Z', '2026-03-20T14:00:00.000Z', '5n1cg3k0@google.com'],
    ]);
  });

  test('an Outlook export (TZID "W. Europe Standard Time"): the daily series keeps 09:00 Berlin across 29 March, its EXDATE and the cancelled event are left out', async () => {
    const response = await t.request('POST', path(), { key: t.apiKey, body: { kind: 'ics', url: `${base}/outlook.ics` } });
    expect(response.status).toBe(200);
    expect(await busyTimes()).toEqual([
      ['2026-03-26T08:00:00.000Z', '2026-03-26T09:00:00.000Z', '040000008200E00074C5B7101A82E00800000000'],
      ['2026-03-27T08:00:00.000Z', '2026-03-27T09:00:00.000Z', '040000008200E00074C5B7101A82E00800000000'],
      ['2026-03-29T07:00:00.000Z', '2026-03-29T08:00:00.000Z', '040000008200E00074C5B7101A82E00800000000'],
    ]);
  });

  test('an unchanged feed is asked with If-None-Match and not read again; its busy times stay', async () => {
    const { body } = await t.request('POST', path(), { key: t.apiKey, body: { kind: 'ics', url: `${base}/google.ics` } });
    const before = await busyTimes();
    t.clock.set('2026-03-01T00:05:00.000Z');
    const synced = await t.request('POST', `${path()}/${body.connection.id}/sync`, { key: t.apiKey });
    expect(synced.status).toBe(200);
    expect(synced.body.connection.lastSyncedAt).toBe('2026-03-01T00:05:00.000Z');
    expect(seen.at(-1)).toEqual({ path: '/google.ics', status: 304, ifNoneMatch: '"g1"', authorization: null });
    expect(await busyTimes()).toEqual(before);
  });

  test('a failing feed: sync answers 200 with lastError; the third failure in a row turns the status to error; the next good sync restores ok', async () => {
    const { body } = await t.request('POST', path(), { key: t.apiKey, body: { kind: 'ics', url: `${base}/outlook.ics` } });
    const sync = () => t.request('POST', `${path()}/${body.connection.id}/sync`, { key: t.apiKey });
    feeds.set('/outlook.ics', { status: 500, body: 'oops' });
    const first = await sync();
    expect(first.status).toBe(200);
    expect(first.body.connection).toMatchObject({ status: 'ok', lastError: `127.0.0.1:${server.port} answered 500 for the calendar`, lastSyncedAt: NOW });
    await sync();
    expect((await sync()).body.connection.status).toBe('error');
    // busy times of the last good sync stay meanwhile
    expect((await busyTimes()).length).toBe(3);
    feeds.set('/outlook.ics', { body: readFileSync(join(FIXTURES, 'outlook-export.ics'), 'utf8') });
    expect((await sync()).body.connection).toMatchObject({ status: 'ok', lastError: null });
  });

  test('PATCH writes: true on an iCalendar URL (read-only) -> 400 VALIDATION_ERROR', async () => {
    const { body } = await t.request('POST', path(), { key: t.apiKey, body: { kind: 'ics', url: `${base}/google.ics` } });
    const response = await t.request('PATCH', `${path()}/${body.connection.id}`, {
      key: t.apiKey,
      body: { calendars: [{ id: `${base}/google.ics`, writes: true }] },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      code: 'VALIDATION_ERROR',
      error: 'calendar Alex (Google) is read-only: svc cannot write bookings there',
      details: [{ path: '/calendars/0/writes', message: 'read-only calendar' }],
    });
  });

  test('a page that is not iCalendar -> 400 CALENDAR_UNREACHABLE; a 401 -> 400 CALENDAR_AUTH_FAILED; ftp:// -> 400 VALIDATION_ERROR', async () => {
    feeds.set('/page.html', { body: '<!doctype html><title>hello</title>', type: 'text/html' });
    feeds.set('/locked.ics', { status: 401, body: 'who are you' });
    const html = await t.request('POST', path(), { key: t.apiKey, body: { kind: 'ics', url: `${base}/page.html` } });
    expect(html.body).toEqual({ success: false, code: 'CALENDAR_UNREACHABLE', error: 'the answer is not an iCalendar file (no BEGIN:VCALENDAR)' });
    const locked = await t.request('POST', path(), { key: t.apiKey, body: { kind: 'ics', url: `${base}/locked.ics` } });
    expect(locked.body).toEqual({ success: false, code: 'CALENDAR_AUTH_FAILED', error: `127.0.0.1:${server.port} refused the username or password (401)` });
    const ftp = await t.request('POST', path(), { key: t.apiKey, body: { kind: 'ics', url: 'ftp://example.com/cal.ics' } });
    expect(ftp.status).toBe(400);
    expect(ftp.body.code).toBe('VALIDATION_ERROR');
    expect((await t.request('GET', path(), { key: t.apiKey })).body.connections).toEqual([]);
  });

  test('google and microsoft without their client id and secret -> 400 NOT_CONFIGURED', async () => {
    const response = await t.request('POST', path(), { key: t.apiKey, body: { kind: 'google' } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('NOT_CONFIGURED');
  });
});

describe('guarded fetch', () => {
  beforeEach(() => {
    feeds.clear();
    seen.length = 0;
  });

  test('an answer over the size limit is refused', async () => {
    feeds.set('/big.ics', { body: 'x'.repeat(64 * 1024) });
    const fetch = guardedFetch({ allowPrivate: true, maxBytes: 1024 });
    const error = await fetch(`${base}/big.ics`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GuardedFetchError);
    expect((error as GuardedFetchError).reason).toBe('too-large');
  });

  test('a redirect is followed, and the Authorization header does not go to another origin', async () => {
    feeds.set('/target.ics', { body: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' });
    const fetch = guardedFetch({ allowPrivate: true });
    const other = `http://localhost:${server.port}/target.ics`;
    const response = await fetch(`${base}/redirect?to=${encodeURIComponent(other)}`, { headers: { authorization: 'Basic c2VjcmV0' } });
    expect(response.status).toBe(200);
    expect(seen.map((entry) => [entry.path, entry.authorization])).toEqual([
      ['/redirect', 'Basic c2VjcmV0'],
      ['/target.ics', null],
    ]);
  });

  test('without allowPrivate, a name that resolves to loopback is refused before any connection', async () => {
    const fetch = guardedFetch({ allowPrivate: false, resolve: async () => ['127.0.0.1'] });
    const error = await fetch(`http://calendar.example:${server.port}/google.ics`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GuardedFetchError);
    expect((error as GuardedFetchError).message).toBe('calendar.example resolves to 127.0.0.1, not a public address (loopback)');
    expect(seen).toEqual([]);
  });
});
