import { afterAll, beforeAll, expect, test } from 'bun:test';
import { gzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../support/app.ts';

/** docs/contract/panel.md: the panel page loads at most 150 KB of JavaScript, gzip. */
const BUDGET_BYTES = 150 * 1024;

let ctx: TestApp;
beforeAll(async () => {
  ctx = await createTestApp('libsql');
});
afterAll(() => ctx.close());

test('the JavaScript the /admin page loads is at most 150 KB gzip', async () => {
  const page = await ctx.request('GET', '/admin');
  expect(page.status).toBe(200);
  const sources = [...String(page.body).matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1]!);
  expect(sources.length).toBeGreaterThan(0);
  let total = 0;
  for (const source of sources) {
    const script = await ctx.request('GET', new URL(source, 'http://localhost').pathname);
    expect(script.status).toBe(200);
    total += gzipSync(String(script.body)).length;
  }
  expect(total).toBeGreaterThan(10_000);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
});
