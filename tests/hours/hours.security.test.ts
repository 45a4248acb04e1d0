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
  week,
} from '../services/catalogue-fixtures.ts';

describeEachAdapter('working hours: security', (adapter) => {
  let t: TestApp;
  let providerId: string;
  beforeEach(async () => {
    t = await createTestApp(adapter);
    providerId = (await addProvider(t)).id;
  });
  afterEach(() => t.close());

  const closed = { weekly: week() };
  const routes = () =>
    [
      ['GET', `${V1}/acme/schedule`, undefined],
      ['PUT', `${V1}/acme/schedule`, closed],
      ['GET', `${V1}/acme/providers/${providerId}/schedule`, undefined],
      ['PUT', `${V1}/acme/providers/${providerId}/schedule`, closed],
      ['DELETE', `${V1}/acme/providers/${providerId}/schedule`, undefined],
    ] as const;

  testKeyRefusals('working-hours', () => t, routes);

  test("a provider of another workspace: its schedule is not reachable through that workspace's own key -> 404", async () => {
    const other = await otherWorkspace(t);
    await expectUnchanged(t, async () => {
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', closed],
        ['DELETE', undefined],
      ] as const) {
        const response = await t.request(method, `${V1}/other/providers/${providerId}/schedule`, { key: other.apiKey, body });
        expect([method, response.status]).toEqual([method, 404]);
        expect(response.body).toEqual(notFoundError(`provider ${providerId}`));
      }
    });
  });

  test('PUT without a key and with an invalid schedule -> 401: the key is checked before the body', async () => {
    const response = await t.request('PUT', `${V1}/acme/schedule`, { body: { weekly: 'always' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(MISSING_KEY);
  });

  test('demo workspace: keyless GETs -> 200, keyless PUT and DELETE -> 401 and nothing stored', async () => {
    const demo = await demoWorkspace(t);
    const workspaceHours = await t.request('GET', `${V1}/demo/schedule`);
    expect(workspaceHours.status).toBe(200);
    const weekday = [{ start: '09:00', end: '17:00' }];
    const expectedWorkspace = {
      weekly: week({ mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: [{ start: '10:00', end: '14:00' }] }),
      exceptions: [],
    };
    expect(workspaceHours.body).toEqual({ success: true, schedule: expectedWorkspace });
    const [alex, sam] = await t.deps.storage.listProviders(demo.id);
    const split = [
      { start: '09:00', end: '12:30' },
      { start: '13:30', end: '18:00' },
    ];
    expect((await t.request('GET', `${V1}/demo/providers/${alex!.id}/schedule`)).body).toEqual({
      success: true,
      schedule: { weekly: week({ mon: split, tue: split, wed: split, thu: split, fri: split }), exceptions: [] },
      inherited: false,
    });
    expect((await t.request('GET', `${V1}/demo/providers/${sam!.id}/schedule`)).body).toEqual({ success: true, schedule: expectedWorkspace, inherited: true });
    const writes = [
      ['PUT', `${V1}/demo/schedule`, closed],
      ['PUT', `${V1}/demo/providers/${alex!.id}/schedule`, closed],
      ['DELETE', `${V1}/demo/providers/${alex!.id}/schedule`, undefined],
    ] as const;
    for (const [method, path, body] of writes) {
      await expectUnchanged(
        t,
        async () => {
          const response = await t.request(method, path, { body });
          expect([method, path, response.status]).toEqual([method, path, 401]);
          expect(response.body).toEqual(MISSING_KEY);
        },
        'demo',
      );
    }
  });
});
