import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { V1 } from '../services/catalogue-fixtures.ts';

describeEachAdapter('widget domains: happy path', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(() => t.close());

  test('a new workspace allows no domain', async () => {
    const response = await t.request('GET', `${V1}/acme/domains`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, domains: [] });
  });

  test('PUT stores the domains in lower case without a trailing dot, drops repeats, and GET returns them', async () => {
    const response = await t.request('PUT', `${V1}/acme/domains`, {
      key: t.apiKey,
      body: { domains: ['Example.com.', '*.Shop.example.org', ' booking.example.net ', 'example.com'] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, domains: ['example.com', '*.shop.example.org', 'booking.example.net'] });
    expect((await t.request('GET', `${V1}/acme/domains`, { key: t.apiKey })).body).toEqual({
      success: true,
      domains: ['example.com', '*.shop.example.org', 'booking.example.net'],
    });
    expect((await t.deps.storage.getWorkspaceBySlug('acme'))?.domains).toEqual(['example.com', '*.shop.example.org', 'booking.example.net']);
  });

  test('PUT replaces the whole list; an empty list allows no domain', async () => {
    await t.request('PUT', `${V1}/acme/domains`, { key: t.apiKey, body: { domains: ['example.com'] } });
    const replaced = await t.request('PUT', `${V1}/acme/domains`, { key: t.apiKey, body: { domains: ['example.org'] } });
    expect(replaced.body).toEqual({ success: true, domains: ['example.org'] });
    const cleared = await t.request('PUT', `${V1}/acme/domains`, { key: t.apiKey, body: { domains: [] } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ success: true, domains: [] });
  });

  test('PUT accepts 100 domains', async () => {
    const domains = Array.from({ length: 100 }, (_, index) => `shop${index}.example.com`);
    const response = await t.request('PUT', `${V1}/acme/domains`, { key: t.apiKey, body: { domains } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, domains });
  });
});
