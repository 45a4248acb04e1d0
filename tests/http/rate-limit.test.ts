import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { postgresRateLimiter } from '../../adapters/ratelimit/postgres.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { systemClock } from '../../src/core/clock.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { startServe, type ServeProcess } from '../support/process.ts';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from '../support/storage.ts';

const LIMIT = 120;

async function exhaust(ctx: TestApp, count: number, options: Parameters<TestApp['request']>[2]) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await ctx.request('GET', '/api/v1/workspaces/acme', options)).status);
  return statuses;
}

describe('v1 rate limit (memory limiter, injected clock)', () => {
  let ctx: TestApp;
  beforeAll(async () => {
    ctx = await createTestApp('libsql', { config: { SVC_TRUST_PROXY: true } });
  });
  afterAll(() => ctx.close());
  afterEach(() => ctx.clock.advance(60_000));

  test('every v1 response carries the three X-RateLimit headers, errors included', async () => {
    ctx.clock.set('2026-11-23T08:10:00.000Z');
    const ok = await ctx.request('GET', '/api/v1/workspaces/acme', { key: ctx.apiKey });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit')).toBe('120');
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('119');
    expect(ok.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-23T08:11:00.000Z') / 1000));
    for (const path of ['/api/v1/workspaces/nope', '/api/v1/workspaces/acme', '/api/v1/workspaces/acme/config']) {
      const response = await ctx.request('GET', path, { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(response.headers.get('x-ratelimit-limit')).toBe('120');
      expect(response.headers.get('x-ratelimit-reset')).not.toBeNull();
    }
  });

  test('the 121st keyed request within 60 s -> 429 RATE_LIMITED with Retry-After until the oldest leaves the window', async () => {
    ctx.clock.set('2026-11-23T09:00:15.000Z');
    const statuses = await exhaust(ctx, LIMIT, { key: ctx.apiKey });
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await ctx.request('GET', '/api/v1/workspaces/acme', { key: ctx.apiKey });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: 'rate limit of 120 requests per minute exceeded; retry in 60 seconds', code: 'RATE_LIMITED' });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('120');
    // the window slides: the first request of 09:00:15 leaves it at 09:01:15, not at the calendar minute
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-23T09:01:15.000Z') / 1000));
    ctx.clock.set('2026-11-23T09:01:00.000Z');
    expect((await ctx.request('GET', '/api/v1/workspaces/acme', { key: ctx.apiKey })).status).toBe(429);
    ctx.clock.set('2026-11-23T09:01:15.000Z');
    const again = await ctx.request('GET', '/api/v1/workspaces/acme', { key: ctx.apiKey });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('119');
  });

  test('each API key has its own budget', async () => {
    ctx.clock.set('2026-11-23T10:00:00.000Z');
    const { apiKey: other } = await createWorkspace(ctx.deps, { slug: 'other-shop', name: 'Other' });
    await exhaust(ctx, LIMIT + 1, { key: ctx.apiKey });
    const response = await ctx.request('GET', '/api/v1/workspaces/other-shop', { key: other });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('119');
  });

  test('keyless requests count per client IP', async () => {
    ctx.clock.set('2026-11-23T11:00:00.000Z');
    const fromA = { headers: { 'x-forwarded-for': '198.51.100.1' } };
    for (let i = 0; i < LIMIT; i++) await ctx.request('GET', '/api/v1/workspaces/acme/config', fromA);
    expect((await ctx.request('GET', '/api/v1/workspaces/acme/config', fromA)).status).toBe(429);
    const fromB = await ctx.request('GET', '/api/v1/workspaces/acme/config', { headers: { 'x-forwarded-for': '198.51.100.2' } });
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get('x-ratelimit-remaining')).toBe('119');
  });

  test('behind a trusted proxy the last X-Forwarded-For entry is the client', async () => {
    ctx.clock.set('2026-11-23T12:00:00.000Z');
    for (let i = 0; i < LIMIT; i++) {
      // The client forges the first entry each time; the proxy appends the real address.
      await ctx.request('GET', '/api/v1/workspaces/acme/config', { headers: { 'x-forwarded-for': `10.0.0.${i}, 192.0.2.9` } });
    }
    const response = await ctx.request('GET', '/api/v1/workspaces/acme/config', { headers: { 'x-forwarded-for': '10.9.9.9, 192.0.2.9' } });
    expect(response.status).toBe(429);
  });
});

describe('v1 rate limit without SVC_TRUST_PROXY', () => {
  test('X-Forwarded-For is ignored: a client cannot buy a fresh budget with a forged header', async () => {
    const ctx = await createTestApp('libsql');
    try {
      for (let i = 0; i < LIMIT; i++) await ctx.request('GET', '/api/v1/workspaces/acme/config', { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      const response = await ctx.request('GET', '/api/v1/workspaces/acme/config', { headers: { 'x-forwarded-for': '198.51.100.99' } });
      expect(response.status).toBe(429);
    } finally {
      await ctx.close();
    }
  });
});

const describePostgres = POSTGRES_URL ? describe : describe.skip;

describePostgres('v1 rate limit on Postgres: one budget for every instance', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
  });
  afterAll(() => db.drop());

  test('two limiters on one database share the count', async () => {
    const first = postgresRateLimiter(postgres(db.env.DATABASE_URL!, { max: 2, onnotice: () => {} }));
    const second = postgresRateLimiter(postgres(db.env.DATABASE_URL!, { max: 2, onnotice: () => {} }));
    const lagging = postgresRateLimiter(postgres(db.env.DATABASE_URL!, { max: 2, onnotice: () => {} }));
    try {
      const now = Date.parse('2026-11-23T08:00:30.000Z');
      const decisions = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? first : second).hit('k', 8, 60_000, now)));
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(8);
      expect(decisions.map((decision) => decision.remaining).sort((a, b) => a - b)).toEqual([0, 0, 0, 1, 2, 3, 4, 5, 6, 7]);
      // The requests of 08:00:30 count in their 1-s slot until 08:01:31: the window slides, it does not reset.
      expect((await first.hit('k', 8, 60_000, now + 60_000)).allowed).toBe(false);
      const slid = await second.hit('k', 8, 60_000, now + 61_000);
      expect(slid).toEqual({ allowed: true, limit: 8, remaining: 7, resetAt: Date.parse('2026-11-23T08:02:32.000Z') });
      // An instance whose clock lags sees the older requests still in its window: it is stricter, never looser.
      const late = await lagging.hit('k', 8, 60_000, now);
      expect(late).toEqual({ allowed: false, limit: 8, remaining: 0, resetAt: Date.parse('2026-11-23T08:01:31.000Z') });
      await first.purge(now + 120_000);
      const fresh = postgresRateLimiter(postgres(db.env.DATABASE_URL!, { max: 1, onnotice: () => {} }));
      try {
        expect((await fresh.hit('k', 8, 60_000, now)).remaining).toBe(7);
      } finally {
        await fresh.close();
      }
    } finally {
      await first.close();
      await second.close();
      await lagging.close();
    }
  });

  test('two server processes on one Postgres share one budget per key', async () => {
    const { workspace, apiKey } = await createWorkspace({ storage: db.storage, clock: systemClock }, { slug: 'shared', name: 'Shared' });
    expect(workspace.slug).toBe('shared');
    const env = { ...db.env, SVC_DEMO: 'false', LOG_LEVEL: 'warn' };
    const servers: ServeProcess[] = [await startServe({ env }), await startServe({ env })];
    try {
      // Stay clear of a minute boundary so all requests fall in one window.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 50_000) await Bun.sleep(60_000 - intoMinute + 200);
      const statuses = await Promise.all(
        Array.from({ length: 140 }, (_, i) =>
          fetch(`${servers[i % 2]!.url}/api/v1/workspaces/shared`, { headers: { 'x-svc-api-key': apiKey } }).then((response) => response.status),
        ),
      );
      // Each instance leases tokens ahead; together they never allow more than the limit, and fall short of
      // it by at most 5 % of it each (src/ports/ratelimit.ts).
      const allowed = statuses.filter((status) => status === 200).length;
      expect(allowed).toBeLessThanOrEqual(LIMIT);
      expect(allowed).toBeGreaterThanOrEqual(LIMIT * 0.9);
      expect(statuses.filter((status) => status === 429)).toHaveLength(140 - allowed);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }, 90_000);
});
