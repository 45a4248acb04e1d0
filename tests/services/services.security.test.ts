import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { MISSING_KEY, V1, addService, demoWorkspace, expectUnchanged, notFoundError, otherWorkspace, testKeyRefusals } from './catalogue-fixtures.ts';

describeEachAdapter('services: security', (adapter) => {
  let t: TestApp;
  let serviceId: string;
  beforeEach(async () => {
    t = await createTestApp(adapter);
    serviceId = (await addService(t)).id;
  });
  afterEach(() => t.close());

  const routes = () =>
    [
      ['GET', `${V1}/acme/services`, undefined],
      ['POST', `${V1}/acme/services`, { name: 'Sneaky', duration: 30, price: 0, currency: 'EUR' }],
      ['GET', `${V1}/acme/services/${serviceId}`, undefined],
      ['PATCH', `${V1}/acme/services/${serviceId}`, { price: 0 }],
      ['DELETE', `${V1}/acme/services/${serviceId}`, undefined],
    ] as const;

  testKeyRefusals('services', () => t, routes);

  test("a service of another workspace is not reachable through that workspace's own key -> 404", async () => {
    const other = await otherWorkspace(t);
    await expectUnchanged(t, async () => {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { price: 0 }],
        ['DELETE', undefined],
      ] as const) {
        const response = await t.request(method, `${V1}/other/services/${serviceId}`, { key: other.apiKey, body });
        expect([method, response.status]).toEqual([method, 404]);
        expect(response.body).toEqual(notFoundError(`service ${serviceId}`));
      }
    });
  });

  test('POST without a key and with an invalid body -> 401: the key is checked before the body', async () => {
    const response = await t.request('POST', `${V1}/acme/services`, { body: { duration: 'long' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(MISSING_KEY);
  });

  test('demo workspace: keyless GETs -> 200, keyless writes -> 401 and nothing stored', async () => {
    const demo = await demoWorkspace(t);
    const list = await t.request('GET', `${V1}/demo/services`);
    expect(list.status).toBe(200);
    expect(list.body.services.map((service: { name: string }) => service.name)).toEqual([
      'Haircut',
      'Colour & cut',
      'Free consultation',
      'Beginners yoga class',
    ]);
    const [haircut] = await t.deps.storage.listServices(demo.id, { activeOnly: true });
    const one = await t.request('GET', `${V1}/demo/services/${haircut!.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      success: true,
      service: {
        id: haircut!.id,
        name: 'Haircut',
        description: 'Wash, cut and style.',
        duration: 30,
        price: 35,
        currency: 'EUR',
        active: true,
        category: 'Hair',
        capacity: 1,
        bufferTime: 10,
        minNotice: 60,
        maxAdvance: 60,
        deposit: null,
        order: 0,
        providerIds: haircut!.providerIds,
        slotInterval: null,
        waitlist: false,
        repeatable: false,
      },
    });
    const writes = [
      ['POST', `${V1}/demo/services`, { name: 'Spam', duration: 30, price: 0, currency: 'EUR' }],
      ['PATCH', `${V1}/demo/services/${haircut!.id}`, { price: 0 }],
      ['DELETE', `${V1}/demo/services/${haircut!.id}`, undefined],
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
