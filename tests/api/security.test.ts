import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { ADAPTERS, POSTGRES_URL } from '../support/storage.ts';
import { concretePath, documentedOperations, type Operation } from './routes.ts';

const UNAUTHORIZED = { success: false, error: expect.any(String), code: 'UNAUTHORIZED' };

/**
 * One security suite over every keyed route, discovered from the OpenAPI document (which another test holds
 * equal to the routes served): a new keyed route is covered the moment it exists.
 */
for (const adapter of ADAPTERS) {
  const run = adapter === 'postgres' && !POSTGRES_URL ? describe.skip : describe;
  run(`security of every keyed route [${adapter}]`, () => {
    let ctx: TestApp;
    let otherKey: string;
    let operations: Operation[];

    beforeAll(async () => {
      // Every refused request counts against the client address (docs/contract/limits.md); this suite sends hundreds.
      ctx = await createTestApp(adapter, { config: { SVC_RATE_LIMIT: 100_000 } });
      otherKey = (await createWorkspace(ctx.deps, { slug: 'other-shop', name: 'Other Shop' })).apiKey;
      operations = documentedOperations((await ctx.request('GET', '/api/v1/openapi.json')).body);
    });
    afterAll(() => ctx.close());

    const call = (operation: Operation, slug: string, key?: string) =>
      ctx.request(operation.method, concretePath(operation, slug), { key, ...(operation.hasBody ? { body: {} } : {}) });

    test('there are keyed routes to check', () => {
      expect(operations.filter((operation) => operation.keyed).length).toBeGreaterThan(0);
    });

    test('no key -> 401 UNAUTHORIZED, before any validation', async () => {
      for (const operation of operations.filter((each) => each.keyed)) {
        const response = await call(operation, 'acme');
        expect({ route: `${operation.method} ${operation.path}`, status: response.status, body: response.body }).toEqual({
          route: `${operation.method} ${operation.path}`,
          status: 401,
          body: UNAUTHORIZED,
        });
      }
    });

    test('a wrong key -> 401 UNAUTHORIZED on every route that takes one', async () => {
      for (const operation of operations) {
        const response = await call(operation, 'acme', 'svc_live_not-a-real-key-000000000000000000000');
        expect({ route: `${operation.method} ${operation.path}`, status: response.status, body: response.body }).toEqual({
          route: `${operation.method} ${operation.path}`,
          status: 401,
          body: UNAUTHORIZED,
        });
      }
    });

    test("another workspace's key -> 401 UNAUTHORIZED", async () => {
      for (const operation of operations) {
        const response = await call(operation, 'acme', otherKey);
        expect({ route: `${operation.method} ${operation.path}`, status: response.status, body: response.body }).toEqual({
          route: `${operation.method} ${operation.path}`,
          status: 401,
          body: UNAUTHORIZED,
        });
      }
    });

    test('an unknown slug -> 404 NOT_FOUND before the key is looked at', async () => {
      for (const operation of operations) {
        const response = await call(operation, 'no-such-workspace');
        expect({ route: `${operation.method} ${operation.path}`, status: response.status, code: response.body.code }).toEqual({
          route: `${operation.method} ${operation.path}`,
          status: 404,
          code: 'NOT_FOUND',
        });
      }
    });

    test('keyed routes answer without CORS headers even to a browser origin', async () => {
      for (const operation of operations.filter((each) => each.keyed)) {
        const response = await ctx.request(operation.method, concretePath(operation, 'acme'), {
          key: ctx.apiKey,
          headers: { origin: 'https://shop.example.com' },
        });
        expect(response.headers.get('access-control-allow-origin'), `${operation.method} ${operation.path}`).toBeNull();
      }
    });
  });
}
