import { afterAll, beforeAll, expect, test } from 'bun:test';
import fc from 'fast-check';
import { addProvider, addService, bookDirectly, catalogueSnapshot, V1 } from '../services/catalogue-fixtures.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';

/*
 * The write routes with hostile bodies, headers and encodings (issue 10): random JSON, text that is not JSON, bytes
 * that are not UTF-8, NUL characters, deep nesting, numbers past any range, content types and encodings a client
 * should not send. Whatever arrives: never a 5xx, every error in the contract's JSON body, and a refused request
 * writes nothing.
 */

const FIELDS = ['name', 'duration', 'price', 'currency', 'email', 'date', 'serviceId', 'providerId', 'timezone', 'url', 'reason', 'domains', 'weekly', 'key'];
const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((text) => `${text}\u0000${text}`),
  fc.constantFrom('\uD800', '\u202E', '%E0%A4%A', '<script>', "' or 1=1 --", '../../etc/passwd', '9'.repeat(400), 'x'.repeat(70_000)),
);
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.constantFrom(1e308, -0, Number.MAX_SAFE_INTEGER + 2, null, true, false),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...FIELDS, '__proto__', 'constructor'), tie('value'), { maxKeys: 4 }),
  ),
})).value;
const jsonObject = fc.dictionary(fc.constantFrom(...FIELDS), hostileValue, { maxKeys: 6 }).map((object) => JSON.stringify(object));
const deepNesting = fc.integer({ min: 100, max: 5000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth));
const body = fc.oneof(jsonObject, fc.json(), fc.string({ maxLength: 60 }), deepNesting, fc.uint8Array({ maxLength: 64 }), fc.constant(''));
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
);
const extraHeaders = fc.record(
  {
    'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x-unknown'),
    'x-forwarded-for': fc.constantFrom('not-an-address', '999.1.1.1', ', ,', '::ffff:127.0.0.1'),
    accept: fc.constantFrom('*/*', 'text/html', 'application/xml', ''),
    'accept-language': fc.string({ maxLength: 30 }).map((text) => text.replace(/[^\x20-\x7e]/g, '')),
  },
  { requiredKeys: [] },
);

describeEachAdapter('request body fuzz on the write routes', (adapter) => {
  let ctx: TestApp;
  let routes: [method: string, path: string][];
  beforeAll(async () => {
    ctx = await createTestApp(adapter, { config: { SVC_RATE_LIMIT: 1_000_000, SVC_TRUST_PROXY: true } });
    const service = await addService(ctx);
    const provider = await addProvider(ctx, { serviceIds: [service.id] });
    const booking = await bookDirectly(ctx, service.id, provider.id);
    routes = [
      ['PATCH', `${V1}/acme`],
      ['PUT', `${V1}/acme/domains`],
      ['POST', `${V1}/acme/services`],
      ['PATCH', `${V1}/acme/services/${service.id}`],
      ['POST', `${V1}/acme/providers`],
      ['PATCH', `${V1}/acme/providers/${provider.id}`],
      ['PUT', `${V1}/acme/providers/${provider.id}/schedule`],
      ['PUT', `${V1}/acme/hours`],
      ['POST', `${V1}/acme/custom-fields`],
      ['POST', `${V1}/acme/bookings`],
      ['POST', `${V1}/acme/bookings/${booking.id}/cancel`],
      ['POST', `${V1}/acme/bookings/${booking.id}/reschedule`],
      ['POST', `${V1}/acme/webhooks`],
      ['POST', `${V1}/acme/api-keys`],
      ['POST', '/api/panel/session'],
      ['PUT', '/api/integrations/wordpress/panel/origin'],
    ];
  });
  afterAll(() => ctx.close());

  const state = async () => ({
    catalogue: await catalogueSnapshot(ctx),
    bookings: await ctx.deps.storage.listBookings(ctx.workspace.id, { limit: 1000 }),
    webhooks: await ctx.deps.storage.listWebhooks(ctx.workspace.id),
  });

  test('hostile bodies, content types, encodings and headers: never a 5xx, the contract error body, nothing written when refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), body, contentType, extraHeaders, fc.boolean(), async (routeIndex, payload, type, headers, withKey) => {
        const [method, path] = routes[routeIndex % routes.length]!;
        const before = await state();
        const response = await ctx.app.handle(
          new Request(`http://localhost${path}`, {
            method,
            headers: { ...headers, ...(type ? { 'content-type': type } : {}), ...(withKey ? { 'x-svc-api-key': ctx.apiKey } : {}) },
            body: payload,
          }),
        );
        const where = `${method} ${path} (${type || 'no content type'})`;
        expect(response.status, where).toBeLessThan(500);
        if (response.status >= 400) {
          expect(response.headers.get('content-type') ?? '', where).toContain('application/json');
          const error = await response.json();
          expect(error, where).toEqual({
            success: false,
            error: expect.any(String),
            code: expect.any(String),
            ...(error.details ? { details: expect.any(Array) } : {}),
          });
          expect(await state(), where).toEqual(before);
        }
      }),
      { numRuns: adapter === 'postgres' ? 300 : 800 },
    );
  });
});
