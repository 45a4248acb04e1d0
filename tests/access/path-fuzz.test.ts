import { afterAll, beforeAll, expect, test } from 'bun:test';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';

/*
 * Whatever the path, method and credentials, the access step and the router answer with the contract's error
 * body and never a 5xx, and a write that is refused changes nothing.
 */

const segment = fc.oneof(
  fc.constantFrom(
    'api',
    'v1',
    'workspaces',
    'acme',
    'demo',
    'services',
    'bookings',
    'config',
    'availability',
    'days',
    'webhooks',
    'providers',
    'schedule',
    'domains',
    'custom-fields',
    'checkout',
    'healthz',
    '',
    '.',
    '..',
    '%',
    '%E0%A4%A',
    '%2F',
    '%00',
    '%ZZ',
    'a%20b',
    '😀',
    ':slug',
    '*',
  ),
  fc.string({ maxLength: 6 }).map(encodeURIComponent),
);
const path = fc.array(segment, { minLength: 1, maxLength: 7 }).map((segments) => `/${segments.join('/')}`);
const prefixed = fc.array(segment, { maxLength: 4 }).map((segments) => `/api/v1/workspaces/${segments.join('/')}`);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD');
const credential = fc.constantFrom<Record<string, string>>(
  {},
  { 'x-svc-api-key': 'wrong' },
  { authorization: 'Bearer x' },
  { authorization: 'SvcHost x' },
  { origin: 'https://evil.example' },
);

describeEachAdapter('access step fuzz', (adapter) => {
  let ctx: TestApp;
  beforeAll(async () => {
    ctx = await createTestApp(adapter, { config: { SVC_RATE_LIMIT: 1_000_000 } });
  });
  afterAll(() => ctx.close());

  test('random paths, methods and credentials: never a 5xx, errors in the contract body, nothing written', async () => {
    const before = await ctx.deps.storage.listServices(ctx.workspace.id, { activeOnly: false });
    await fc.assert(
      fc.asyncProperty(fc.oneof(path, prefixed), method, credential, fc.boolean(), async (target, verb, headers, withKey) => {
        const response = await ctx.app.handle(
          new Request(`http://localhost${target}`, {
            method: verb,
            headers: { ...headers, ...(withKey && !headers['x-svc-api-key'] ? { 'x-svc-api-key': ctx.apiKey } : {}), 'content-type': 'application/json' },
            body: verb === 'GET' || verb === 'HEAD' ? undefined : '{"name":',
          }),
        );
        expect({ target, verb, status: response.status }).toEqual({ target, verb, status: expect.any(Number) });
        expect(response.status, `${verb} ${target}`).toBeLessThan(500);
        if (response.status >= 400 && verb !== 'HEAD' && (response.headers.get('content-type') ?? '').includes('json')) {
          const body = await response.json();
          expect(body, `${verb} ${target}`).toEqual({
            success: false,
            error: expect.any(String),
            code: expect.any(String),
            ...(body.details ? { details: expect.any(Array) } : {}),
          });
        }
      }),
      { numRuns: 1500 },
    );
    expect(await ctx.deps.storage.listServices(ctx.workspace.id, { activeOnly: false })).toEqual(before);
  });
});
