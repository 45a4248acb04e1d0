import { afterAll, beforeAll, expect, test } from 'bun:test';
import { POLICY_HOOK } from '../../src/platform/access/macro.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

/* Issue 10: every route declares who may call it next to its definition; none falls to a default. */

let ctx: TestApp;
beforeAll(async () => {
  ctx = await createTestApp('libsql', { payments: 'test' });
});
afterAll(() => ctx.close());

test('every route of the app declares its access policy', () => {
  const routes = ctx.app.routes as { method: string; path: string; hooks: Record<string, unknown> }[];
  expect(routes.length).toBeGreaterThan(50);
  const undeclared = routes.filter((route) => !route.hooks[POLICY_HOOK]).map((route) => `${route.method} ${route.path}`);
  expect(undeclared).toEqual([]);
});
