import { waitFor } from '../support/wait.ts';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { newId } from '../../src/core/ids.ts';
import { createDispatcher } from '../../src/features/webhooks/dispatcher.ts';
import { parseConfig } from '../../src/platform/config.ts';
import { createTestApp, send } from '../support/app.ts';
import { startTestServer } from '../support/server.ts';
import { createTestDatabase, describeEachAdapter, POSTGRES_URL } from '../support/storage.ts';
import { createCatalogue, createWebhookTestApp, startReceiver, workdayAt, type Receiver, type WebhookTestApp } from '../webhooks/support.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** One sample of the text format: its name and labels, and its value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text-format answer (comments skipped; label values unescaped). */
function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    out.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return out;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when there is none. */
function sampleValue(all: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = all.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

describe('GET /metrics: the token rules', () => {
  test('without SVC_METRICS_TOKEN the route does not exist: 404 NOT_FOUND, with or without a token', async () => {
    const t = await createTestApp('libsql');
    try {
      for (const headers of [{}, bearer(TOKEN)]) {
        const response = await t.request('GET', '/metrics', { headers });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ success: false, error: 'route not found', code: 'NOT_FOUND' });
      }
    } finally {
      await t.close();
    }
  });

  test('with it: no token, a wrong one, one of another length or scheme -> 401 with WWW-Authenticate; the token -> 200 text format', async () => {
    const t = await createTestApp('libsql', { config: { SVC_METRICS_TOKEN: TOKEN } });
    try {
      const refused = [
        {},
        bearer(`${TOKEN.slice(0, -1)}X`),
        bearer(TOKEN.slice(0, -1)),
        bearer(`${TOKEN}0`),
        { authorization: `Basic ${TOKEN}` },
        { authorization: TOKEN },
        { authorization: 'Bearer' },
      ];
      for (const headers of refused) {
        const response = await t.request('GET', '/metrics', { headers });
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ success: false, error: 'missing or wrong metrics token (Authorization: Bearer …)', code: 'UNAUTHORIZED' });
        expect(response.headers.get('www-authenticate')).toBe('Bearer realm="svc metrics"');
      }
      const response = await send(t.app, 'GET', '/metrics', { headers: { authorization: `bearer  ${TOKEN}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(sampleValue(samples(response.body as string), 'svc_database_up')).toBe(1);
    } finally {
      await t.close();
    }
  });

  test('a token under 16 characters stops the start, naming the variable', () => {
    expect(() => parseConfig({ SVC_METRICS_TOKEN: 'short' })).toThrow(/SVC_METRICS_TOKEN/);
  });
});

describeEachAdapter('GET /metrics after traffic', (adapter) => {
  let t: WebhookTestApp;
  let receiver: Receiver;
  let scrape: () => Promise<Sample[]>;

  beforeAll(async () => {
    t = await createWebhookTestApp(adapter, { config: { SVC_METRICS_TOKEN: TOKEN } });
    receiver = startReceiver({ reply: () => new Response('down', { status: 500 }) });
    scrape = async () => {
      const response = await t.request('GET', '/metrics', { headers: bearer(TOKEN) });
      expect(response.status).toBe(200);
      return samples(response.body as string);
    };
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  test('requests by route template and status, the duration histogram, bookings by status, outbox depth, age and failures', async () => {
    const before = await scrape();
    expect(sampleValue(before, 'svc_bookings', { status: 'CONFIRMED' })).toBe(0);
    expect(sampleValue(before, 'svc_outbox_depth', { kind: 'webhook' })).toBe(0);
    expect(sampleValue(before, 'svc_outbox_oldest_age_seconds', { kind: 'webhook' })).toBe(0);
    expect(sampleValue(before, 'svc_outbox_depth', { kind: 'mail' })).toBe(0);
    expect(sampleValue(before, 'svc_outbox_delivery_failures_total', { kind: 'webhook' })).toBe(0);
    expect(sampleValue(before, 'svc_calendar_connections', { status: 'ok' })).toBe(0);

    await t.createWebhook(receiver.url, { events: ['booking.created', 'booking.cancelled'] });
    const { serviceId, providerId } = await createCatalogue(t);
    for (let i = 0; i < 3; i++) expect((await t.request('GET', '/api/v1/workspaces/acme', { key: t.apiKey })).status).toBe(200);
    expect((await t.request('GET', '/api/v1/workspaces/nope', { key: t.apiKey })).status).toBe(404);
    expect((await t.request('GET', '/no/such/page/ada@example.org')).status).toBe(404);
    const booked = [];
    for (const time of ['10:00', '11:00']) {
      const response = await t.request('POST', '/api/v1/workspaces/acme/bookings', {
        key: t.apiKey,
        body: { serviceId, providerId, date: workdayAt(t.clock.now(), time), email: 'mia@example.com', name: 'Mia Schneider' },
      });
      expect(response.status).toBe(200);
      booked.push(response.body.booking.id as string);
    }
    const writtenAt = t.clock.now();
    const cancelled = await t.request('POST', `/api/v1/workspaces/acme/bookings/${booked[0]}/cancel`, { key: t.apiKey, body: { reason: 'ill' } });
    expect(cancelled.status).toBe(200);
    await t.deps.storage.createCalendarConnection({
      id: newId('cal'),
      workspaceId: t.workspace.id,
      providerId,
      kind: 'ics',
      name: 'Holidays',
      url: 'https://calendar.example/holidays.ics',
      account: null,
      username: null,
      sealedSecret: null,
      status: 'error',
      lastSyncedAt: null,
      lastError: 'the server answered 404',
      failures: 3,
      calendars: [],
      syncState: {},
      createdAt: writtenAt,
      updatedAt: writtenAt,
    });

    // The receiver answers 500: every attempt fails, and each message waits for its retry.
    const dispatcher = createDispatcher({
      storage: t.deps.storage,
      config: t.deps.config,
      clock: t.clock,
      logger: t.deps.logger,
      metrics: t.deps.metrics,
      random: () => 0.5,
    });
    expect(await dispatcher.runOnce()).toBe(3);
    await dispatcher.stop();
    t.clock.advance(90_000);

    const after = await scrape();
    const workspaceRoute = { method: 'GET', route: '/api/v1/workspaces/:slug' };
    expect(sampleValue(after, 'svc_http_requests_total', { ...workspaceRoute, status: '200' })).toBe(3);
    expect(sampleValue(after, 'svc_http_requests_total', { ...workspaceRoute, status: '404' })).toBe(1);
    expect(sampleValue(after, 'svc_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(sampleValue(after, 'svc_http_requests_total', { method: 'POST', route: '/api/v1/workspaces/:slug/bookings', status: '200' })).toBe(2);
    const cancelRoute = '/api/v1/workspaces/:slug/bookings/:bookingId/cancel';
    expect(sampleValue(after, 'svc_http_requests_total', { method: 'POST', route: cancelRoute, status: '200' })).toBe(1);
    // the scrape before, counted once answered
    expect(sampleValue(after, 'svc_http_requests_total', { method: 'GET', route: '/metrics', status: '200' })).toBe(1);
    expect(sampleValue(after, 'svc_http_request_duration_seconds_count', { ...workspaceRoute, status: '200' })).toBe(3);
    expect(sampleValue(after, 'svc_http_request_duration_seconds_bucket', { ...workspaceRoute, status: '200', le: '+Inf' })).toBe(3);
    expect(sampleValue(after, 'svc_http_request_duration_seconds_sum', { ...workspaceRoute, status: '200' })).toBeGreaterThan(0);

    expect(sampleValue(after, 'svc_bookings', { status: 'CONFIRMED' })).toBe(1);
    expect(sampleValue(after, 'svc_bookings', { status: 'CANCELLED' })).toBe(1);
    expect(sampleValue(after, 'svc_bookings', { status: 'PENDING' })).toBe(0);
    expect(sampleValue(after, 'svc_bookings', { status: 'COMPLETED' })).toBe(0);
    // two booking.created and one booking.cancelled, all failed once and pending a retry
    expect(sampleValue(after, 'svc_outbox_depth', { kind: 'webhook' })).toBe(3);
    expect(sampleValue(after, 'svc_outbox_delivery_failures_total', { kind: 'webhook' })).toBe(3);
    expect(sampleValue(after, 'svc_outbox_delivery_failures_total', { kind: 'mail' })).toBe(0);
    const age = sampleValue(after, 'svc_outbox_oldest_age_seconds', { kind: 'webhook' })!;
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThanOrEqual(90 + (t.clock.now() - 90_000 - writtenAt) / 1000 + 5);
    expect(sampleValue(after, 'svc_calendar_connections', { status: 'error' })).toBe(1);
    expect(sampleValue(after, 'svc_calendar_connections', { status: 'ok' })).toBe(0);
    expect(sampleValue(after, 'svc_database_up')).toBe(1);
    expect(sampleValue(after, 'svc_db_operations_in_flight')).toBe(0);

    // No label carries a slug, an id, an address or a raw path.
    const values = after.flatMap((sample) => Object.values(sample.labels));
    for (const value of values) {
      expect(value).not.toMatch(/acme|nope|@|_[0-9a-z]{26}|\/no\/such/);
    }
    for (const id of booked) expect(values.join(' ')).not.toContain(id);
  });

  test('a database that does not answer: 200 with svc_database_up 0 and the database series left out, the process series kept', async () => {
    const storage = t.deps.storage;
    const original = storage.operationsSnapshot;
    storage.operationsSnapshot = async () => {
      throw new Error('connection refused');
    };
    try {
      const during = await scrape();
      expect(sampleValue(during, 'svc_database_up')).toBe(0);
      expect(sampleValue(during, 'svc_bookings', { status: 'CONFIRMED' })).toBeUndefined();
      expect(sampleValue(during, 'svc_outbox_depth', { kind: 'webhook' })).toBeUndefined();
      expect(sampleValue(during, 'svc_http_requests_total', { method: 'GET', route: '/api/v1/workspaces/:slug', status: '200' })).toBe(3);
    } finally {
      storage.operationsSnapshot = original;
    }
    expect(sampleValue(await scrape(), 'svc_database_up')).toBe(1);
  });
});

describe('GET /metrics on svc serve over a libSQL file', () => {
  test('svc_change_channel_up is 1: the one server of a file makes every booking write itself', async () => {
    const db = await createTestDatabase('libsql');
    const server = await startTestServer(db, { SVC_METRICS_TOKEN: TOKEN });
    try {
      const response = await fetch(`${server.url}/metrics`, { headers: bearer(TOKEN) });
      expect(response.status).toBe(200);
      expect(sampleValue(samples(await response.text()), 'svc_change_channel_up')).toBe(1);
    } finally {
      await server.stop();
      await db.drop();
    }
  });
});

(POSTGRES_URL ? describe : describe.skip)('GET /metrics on svc serve over Postgres', () => {
  test('svc_db_pool_max_connections is SVC_DB_POOL_SIZE', async () => {
    const db = await createTestDatabase('postgres');
    const server = await startTestServer(db, { SVC_METRICS_TOKEN: TOKEN, SVC_DB_POOL_SIZE: 7 });
    try {
      const response = await fetch(`${server.url}/metrics`, { headers: bearer(TOKEN) });
      expect(response.status).toBe(200);
      const all = samples(await response.text());
      expect(sampleValue(all, 'svc_db_pool_max_connections')).toBe(7);
      expect(sampleValue(all, 'svc_database_up')).toBe(1);
      // the instance hears the others' writes once its channel has heard its own first notification back
      await waitFor(
        async () => {
          const scraped = await fetch(`${server.url}/metrics`, { headers: bearer(TOKEN) });
          return sampleValue(samples(await scraped.text()), 'svc_change_channel_up') === 1;
        },
        { what: 'svc_change_channel_up 1' },
      );
    } finally {
      await server.stop();
      await db.drop();
    }
  });
});
