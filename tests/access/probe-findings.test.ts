import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ensureDemoWorkspace } from '../../src/features/demo/seed.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createApiKey } from '../../src/features/workspaces/service.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

/* Regression tests for what a probe of the running server found (issue 10), in-process. */

const LIMIT = 120;
const fromAddress = (address: string) => ({ 'x-forwarded-for': address });

describe('failed authentication counts against the client address', () => {
  let ctx: TestApp;
  beforeAll(async () => {
    ctx = await createTestApp('libsql', { config: { SVC_TRUST_PROXY: true } });
  });
  afterAll(() => ctx.close());

  test('120 guesses with 120 different keys from one address, then 429 RATE_LIMITED for the next guess', async () => {
    ctx.clock.set('2026-11-23T09:00:00.000Z');
    const statuses = new Set<number>();
    for (let i = 0; i < LIMIT; i++) {
      const response = await ctx.request('GET', '/api/v1/workspaces/acme', { key: `svc_live_guess-${i}`, headers: fromAddress('203.0.113.50') });
      statuses.add(response.status);
    }
    expect([...statuses]).toEqual([401]);
    const next = await ctx.request('GET', '/api/v1/workspaces/acme', { key: 'svc_live_guess-next', headers: fromAddress('203.0.113.50') });
    expect(next.status).toBe(429);
    expect(next.body).toEqual({ success: false, error: 'rate limit of 120 requests per minute exceeded; retry in 60 seconds', code: 'RATE_LIMITED' });
    expect(next.headers.get('retry-after')).toBe('60');
  });

  test("the guesses did not use up the real key's budget, nor another address's", async () => {
    ctx.clock.set('2026-11-23T09:00:30.000Z');
    const keyed = await ctx.request('GET', '/api/v1/workspaces/acme', { key: ctx.apiKey, headers: fromAddress('203.0.113.50') });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('x-ratelimit-remaining')).toBe('119');
    const elsewhere = await ctx.request('GET', '/api/v1/workspaces/acme', { key: 'svc_live_guess', headers: fromAddress('203.0.113.51') });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get('x-ratelimit-remaining')).toBe('119');
  });

  test('unknown slugs with a key count against the address too', async () => {
    ctx.clock.set('2026-11-23T10:00:00.000Z');
    for (let i = 0; i < LIMIT; i++) await ctx.request('GET', `/api/v1/workspaces/nope-${i}`, { key: ctx.apiKey, headers: fromAddress('203.0.113.60') });
    expect((await ctx.request('GET', '/api/v1/workspaces/nope', { key: ctx.apiKey, headers: fromAddress('203.0.113.60') })).status).toBe(429);
    expect((await ctx.request('GET', '/api/v1/workspaces/acme', { key: ctx.apiKey, headers: fromAddress('203.0.113.60') })).status).toBe(200);
  });
});

describe('credentials sent in a body or a path are limited per client address too', () => {
  let ctx: TestApp;
  beforeAll(async () => {
    ctx = await createTestApp('libsql', { config: { SVC_TRUST_PROXY: true }, payments: 'test' });
  });
  afterAll(() => ctx.close());

  /** `LIMIT` guesses (from one address) all refused with `refused`, then the next one 429. */
  async function guessUntilLimited(guess: (i: number) => Promise<{ status: number }>, refused: number) {
    const statuses = new Set<number>();
    for (let i = 0; i < LIMIT; i++) statuses.add((await guess(i)).status);
    expect([...statuses]).toEqual([refused]);
    const next = await guess(LIMIT);
    expect(next.status).toBe(429);
  }

  test('standalone panel sign-in: 120 wrong API keys from one address, then 429; another address still signs in', async () => {
    ctx.clock.set('2026-11-23T11:00:00.000Z');
    const signIn = (apiKey: string, address: string) =>
      ctx.request('POST', '/api/panel/session', { body: { workspaceSlug: 'acme', apiKey }, headers: fromAddress(address) });
    await guessUntilLimited((i) => signIn(`svc_live_guess-${i}`, '203.0.113.70'), 401);
    expect((await signIn(ctx.apiKey, '203.0.113.70')).status).toBe(429);
    expect((await signIn(ctx.apiKey, '203.0.113.71')).status).toBe(201);
  });

  test('panel session refresh with guessed tokens: 429 after 120', async () => {
    ctx.clock.set('2026-11-23T11:01:00.000Z');
    await guessUntilLimited(
      (i) => ctx.request('POST', '/api/panel/session/refresh', { headers: { ...fromAddress('203.0.113.72'), authorization: `Bearer guess-${i}` } }),
      401,
    );
  });

  test('guessed manage-link, checkout and calendar-feed tokens: 404 each, 429 after 120', async () => {
    const token = (i: number) => `${'A'.repeat(40)}${String(i).padStart(3, '0')}`;
    ctx.clock.set('2026-11-23T11:02:00.000Z');
    await guessUntilLimited((i) => ctx.request('GET', `/api/manage/${token(i)}`, { headers: fromAddress('203.0.113.73') }), 404);
    ctx.clock.set('2026-11-23T11:03:00.000Z');
    await guessUntilLimited((i) => ctx.request('GET', `/checkout/cs_guess_${i}`, { headers: fromAddress('203.0.113.74') }), 404);
    ctx.clock.set('2026-11-23T11:04:00.000Z');
    await guessUntilLimited((i) => ctx.request('GET', `/ics/${token(i)}.ics`, { headers: fromAddress('203.0.113.75') }), 404);
  });
});

describe('OPTIONS answers carry the rate-limit headers and are counted', () => {
  let ctx: TestApp;
  beforeAll(async () => {
    ctx = await createTestApp('libsql', { config: { SVC_TRUST_PROXY: true } });
    await ctx.deps.storage.updateWorkspace(ctx.workspace.id, { domains: ['shop.example.com'] }, ctx.clock.now());
  });
  afterAll(() => ctx.close());

  test('a preflight of a public route (204) and of a keyed route (404) both carry X-RateLimit-*', async () => {
    ctx.clock.set('2026-11-23T11:00:00.000Z');
    const preflight = await ctx.request('OPTIONS', '/api/v1/workspaces/acme/availability', {
      headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'GET', ...fromAddress('198.51.100.20') },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect([preflight.headers.get('x-ratelimit-limit'), preflight.headers.get('x-ratelimit-remaining')]).toEqual(['120', '119']);
    const keyed = await ctx.request('OPTIONS', '/api/v1/workspaces/acme/services', {
      headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST', ...fromAddress('198.51.100.20') },
    });
    expect(keyed.status).toBe(404);
    expect(keyed.body).toEqual({ success: false, error: 'route not found', code: 'NOT_FOUND' });
    expect([keyed.headers.get('x-ratelimit-limit'), keyed.headers.get('x-ratelimit-remaining')]).toEqual(['120', '118']);
  });

  test('past the limit a preflight is 429 like any request', async () => {
    ctx.clock.set('2026-11-23T12:00:00.000Z');
    const options = { headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'GET', ...fromAddress('198.51.100.21') } };
    for (let i = 0; i < LIMIT; i++) await ctx.request('OPTIONS', '/api/v1/workspaces/acme/availability', options);
    const refused = await ctx.request('OPTIONS', '/api/v1/workspaces/acme/availability', options);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(refused.headers.get('retry-after')).toBe('60');
  });
});

describe('malformed percent-escapes in a path', () => {
  let ctx: TestApp;
  beforeAll(async () => {
    ctx = await createTestApp('libsql');
  });
  afterAll(() => ctx.close());

  test('in the slug -> 400 VALIDATION_ERROR with the error body, on keyed and public routes and preflights', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/workspaces/%E0%A4%A/services'],
      ['POST', '/api/v1/workspaces/%E0%A4%A/bookings'],
      ['GET', '/api/v1/workspaces/%/config'],
    ] as const) {
      const response = await ctx.request(method, path, { key: ctx.apiKey, ...(method === 'POST' ? { body: {} } : {}) });
      expect({ path, status: response.status, code: response.body.code }).toEqual({ path, status: 400, code: 'VALIDATION_ERROR' });
      expect(response.body.error).toMatch(/is not valid percent-encoding$/);
    }
    const preflight = await ctx.request('OPTIONS', '/api/v1/workspaces/%E0%A4%A/availability', {
      headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBeLessThan(500);
  });

  test('in another path parameter -> 400 VALIDATION_ERROR, nothing changed', async () => {
    const response = await ctx.request('POST', '/api/v1/workspaces/acme/bookings/%E0%A4%A/cancel', { key: ctx.apiKey, body: {} });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
  });

  test('outside any declared route -> 404 with the error body', async () => {
    const response = await ctx.request('GET', '/api/v1/%E0%A4%A');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, error: 'route not found', code: 'NOT_FOUND' });
  });
});

describe('capability tokens in paths stay out of the request log', () => {
  test('a test-checkout id is written as [redacted]; /manage/ and /ics/ tokens too', async () => {
    const lines: Record<string, unknown>[] = [];
    const ctx = await createTestApp('libsql', { payments: 'test', logger: createLogger('info', (line) => lines.push(JSON.parse(line))) });
    try {
      const paths = ['/checkout/pay_01secretcheckoutid', '/checkout/pay_01secretcheckoutid/pay', '/manage/mgt_secret-token', '/ics/ics_secret-token.ics'];
      for (const path of paths) await ctx.request(path.endsWith('/pay') ? 'POST' : 'GET', path);
      // The request log is written after the response; wait until all four lines are in.
      for (let tries = 0; lines.filter((line) => line.msg === 'request').length < paths.length && tries < 200; tries++)
        await new Promise((resolve) => setImmediate(resolve));
      const logged = lines.filter((line) => line.msg === 'request').map((line) => line.path);
      expect(logged).toEqual(['/checkout/[redacted]', '/checkout/[redacted]/pay', '/manage/[redacted]', '/ics/[redacted]']);
      expect(JSON.stringify(lines)).not.toContain('secret');
    } finally {
      await ctx.close();
    }
  });
});

test('a request handed on under a routable URL (a one-letter Host) is logged once, with its request id', async () => {
  const lines: Record<string, unknown>[] = [];
  const ctx = await createTestApp('libsql', { logger: createLogger('info', (line) => lines.push(JSON.parse(line))) });
  try {
    const response = await ctx.app.handle(new Request('http://a/healthz'));
    expect(response.status).toBe(200);
    await ctx.request('GET', '/healthz');
    // Wait until the second request's line is in: the first one's lines were written before it.
    for (let tries = 0; lines.length < 2 && tries < 200; tries++) await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => [line.path, typeof line.requestId])).toEqual([
      ['/healthz', 'string'],
      ['/healthz', 'string'],
    ]);
  } finally {
    await ctx.close();
  }
});

describe("the demo workspace's keyless bookings show no visitor's contact data", () => {
  let ctx: TestApp;
  beforeAll(async () => {
    ctx = await createTestApp('libsql');
    await ensureDemoWorkspace(ctx.deps);
  });
  afterAll(() => ctx.close());

  test('keyless list and get: hidden@example.invalid, the first word of the name, no phone, notes or customFields', async () => {
    const demo = (await ctx.deps.storage.getWorkspaceBySlug('demo'))!;
    const keyless = await ctx.request('GET', '/api/v1/workspaces/demo/bookings?limit=100');
    expect(keyless.status).toBe(200);
    expect(keyless.body.bookings.length).toBeGreaterThan(0);
    for (const booking of keyless.body.bookings) {
      const stored = (await ctx.deps.storage.getBooking(demo.id, booking.id))!;
      expect(booking.customerEmail).toBe('hidden@example.invalid');
      expect(booking.customerName).toBe(stored.customerName?.split(' ')[0] ?? null);
      expect(Object.keys(booking)).not.toContainAnyValues(['phone', 'notes', 'customFields']);
      expect(JSON.stringify(booking)).not.toContain(stored.customerEmail);
    }
    const one = keyless.body.bookings[0];
    expect((await ctx.request('GET', `/api/v1/workspaces/demo/bookings/${one.id}`)).body).toEqual({ success: true, booking: one });
  });

  test("with the demo workspace's key everything is shown", async () => {
    const demo = (await ctx.deps.storage.getWorkspaceBySlug('demo'))!;
    const key = await createApiKey(ctx.deps, demo.id, 'test');
    const keyed = await ctx.request('GET', '/api/v1/workspaces/demo/bookings?limit=100', { key });
    for (const booking of keyed.body.bookings) {
      const stored = (await ctx.deps.storage.getBooking(demo.id, booking.id))!;
      expect({
        email: booking.customerEmail,
        name: booking.customerName,
        phone: booking.phone,
        notes: booking.notes,
        customFields: booking.customFields,
      }).toEqual({ email: stored.customerEmail, name: stored.customerName, phone: stored.phone, notes: stored.notes, customFields: stored.customFields });
    }
  });
});
