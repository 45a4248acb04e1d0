import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { INVALID_KEY, MISSING_KEY, V1, demoWorkspace, expectUnchanged, otherWorkspace } from '../services/catalogue-fixtures.ts';

describeEachAdapter('widget domains: security', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
    await t.request('PUT', `${V1}/acme/domains`, { key: t.apiKey, body: { domains: ['shop.example.com'] } });
  });
  afterEach(() => t.close());

  test('PUT without a key -> 401, the allowed domains stay', async () => {
    await expectUnchanged(t, async () => {
      const response = await t.request('PUT', `${V1}/acme/domains`, { body: { domains: ['attacker.example'] } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(MISSING_KEY);
    });
  });

  test('PUT with a wrong key -> 401, the allowed domains stay', async () => {
    await expectUnchanged(t, async () => {
      const response = await t.request('PUT', `${V1}/acme/domains`, { key: `${t.apiKey}x`, body: { domains: ['attacker.example'] } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(INVALID_KEY);
    });
  });

  test('PUT with the key of another workspace -> 401, the allowed domains stay', async () => {
    const other = await otherWorkspace(t);
    await expectUnchanged(t, async () => {
      const response = await t.request('PUT', `${V1}/acme/domains`, { key: other.apiKey, body: { domains: ['attacker.example'] } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(INVALID_KEY);
    });
  });

  test('GET without a key -> 401 (the list is not public)', async () => {
    const response = await t.request('GET', `${V1}/acme/domains`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(MISSING_KEY);
  });

  test('demo workspace: keyless GET -> 200, keyless PUT -> 401 and nothing stored', async () => {
    await demoWorkspace(t);
    const read = await t.request('GET', `${V1}/demo/domains`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ success: true, domains: [] });
    await expectUnchanged(
      t,
      async () => {
        const write = await t.request('PUT', `${V1}/demo/domains`, { body: { domains: ['attacker.example'] } });
        expect(write.status).toBe(401);
        expect(write.body).toEqual(MISSING_KEY);
      },
      'demo',
    );
  });
});
