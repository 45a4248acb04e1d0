import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import {
  MISSING_KEY,
  V1,
  addProvider,
  demoWorkspace,
  expectUnchanged,
  notFoundError,
  otherWorkspace,
  testKeyRefusals,
} from '../services/catalogue-fixtures.ts';

describeEachAdapter('providers: security', (adapter) => {
  let t: TestApp;
  let providerId: string;
  beforeEach(async () => {
    t = await createTestApp(adapter);
    providerId = (await addProvider(t)).id;
  });
  afterEach(() => t.close());

  const routes = () =>
    [
      ['GET', `${V1}/acme/providers`, undefined],
      ['POST', `${V1}/acme/providers`, { name: 'Intruder' }],
      ['GET', `${V1}/acme/providers/${providerId}`, undefined],
      ['PATCH', `${V1}/acme/providers/${providerId}`, { active: false }],
      ['DELETE', `${V1}/acme/providers/${providerId}`, undefined],
    ] as const;

  testKeyRefusals('providers', () => t, routes);

  test("a provider of another workspace is not reachable through that workspace's own key -> 404", async () => {
    const other = await otherWorkspace(t);
    await expectUnchanged(t, async () => {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { active: false }],
        ['DELETE', undefined],
      ] as const) {
        const response = await t.request(method, `${V1}/other/providers/${providerId}`, { key: other.apiKey, body });
        expect([method, response.status]).toEqual([method, 404]);
        expect(response.body).toEqual(notFoundError(`provider ${providerId}`));
      }
    });
  });

  test('demo workspace: keyless GETs -> 200, keyless writes -> 401 and nothing stored', async () => {
    const demo = await demoWorkspace(t);
    const list = await t.request('GET', `${V1}/demo/providers`);
    expect(list.status).toBe(200);
    const providers = await t.deps.storage.listProviders(demo.id);
    expect(list.body).toEqual({
      success: true,
      providers: providers.map((provider) => ({ id: provider.id, name: provider.name, email: provider.email, active: true, serviceIds: provider.serviceIds })),
    });
    expect(list.body.providers.map((provider: { name: string }) => provider.name)).toEqual(['Alex Hoffmann', 'Sam Richter']);
    const alex = providers[0]!;
    const one = await t.request('GET', `${V1}/demo/providers/${alex.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ success: true, provider: list.body.providers[0] });
    const writes = [
      ['POST', `${V1}/demo/providers`, { name: 'Spam' }],
      ['PATCH', `${V1}/demo/providers/${alex.id}`, { name: 'Vandalised' }],
      ['DELETE', `${V1}/demo/providers/${alex.id}`, undefined],
    ] as const;
    for (const [method, path, body] of writes) {
      await expectUnchanged(
        t,
        async () => {
          const response = await t.request(method, path, { body });
          expect([method, response.status]).toEqual([method, 401]);
          expect(response.body).toEqual(MISSING_KEY);
        },
        'demo',
      );
    }
  });
});
