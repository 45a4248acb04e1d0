import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { V1, addProvider, addService, expectUnchanged, notFoundError, otherWorkspace, ruleError, schemaError } from '../services/catalogue-fixtures.ts';

describeEachAdapter('providers: errors', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(() => t.close());

  const refusals: [rule: string, body: Record<string, unknown>, expected: object][] = [
    ['no name', { email: 'a@example.com' }, schemaError('/name', 'name is required')],
    ['an empty name', { name: '' }, schemaError('/name', 'name must not be empty')],
    ['a blank name', { name: '   ' }, ruleError('name must not be blank')],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, schemaError('/name', 'name must be between 1 and 200 characters long')],
    ['an email that is not one', { name: 'Alex', email: 'alex' }, schemaError('/email', 'email must be an email address or null')],
    ['active not a boolean', { name: 'Alex', active: 1 }, schemaError('/active', 'active must be true or false')],
    ['serviceIds not an array', { name: 'Alex', serviceIds: 'srv_x' }, schemaError('/serviceIds', 'serviceIds must be an array')],
    [
      'an unknown service',
      { name: 'Alex', serviceIds: ['srv_unknown'] },
      ruleError('serviceIds[0] must be the id of a service of this workspace, got srv_unknown'),
    ],
  ];

  for (const [rule, body, expected] of refusals) {
    test(`POST with ${rule} -> 400 VALIDATION_ERROR naming the field, nothing stored`, async () => {
      await expectUnchanged(t, async () => {
        const response = await t.request('POST', `${V1}/acme/providers`, { key: t.apiKey, body });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(expected);
      });
    });
  }

  test('POST naming a service of another workspace -> 400 naming serviceIds, nothing stored', async () => {
    const other = await otherWorkspace(t);
    const foreign = await addService(t, {}, other.apiKey, 'other');
    await expectUnchanged(t, async () => {
      const response = await t.request('POST', `${V1}/acme/providers`, { key: t.apiKey, body: { name: 'Alex', serviceIds: [foreign.id] } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError(`serviceIds[0] must be the id of a service of this workspace, got ${foreign.id}`));
    });
  });

  test('PATCH with a bad email -> 400, nothing stored', async () => {
    const provider = await addProvider(t, { email: 'alex@acme.example' });
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme/providers/${provider.id}`, { key: t.apiKey, body: { email: 'not-an-email' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(schemaError('/email', 'email must be an email address or null'));
    });
  });

  test('PATCH serviceIds with an unknown service -> 400, the links stay', async () => {
    const service = await addService(t);
    const provider = await addProvider(t, { serviceIds: [service.id] });
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme/providers/${provider.id}`, { key: t.apiKey, body: { serviceIds: [service.id, 'srv_gone'] } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('serviceIds[1] must be the id of a service of this workspace, got srv_gone'));
    });
  });

  test('GET, PATCH and DELETE of an unknown providerId -> 404 NOT_FOUND', async () => {
    await addProvider(t);
    await expectUnchanged(t, async () => {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { name: 'x' }],
        ['DELETE', undefined],
      ] as const) {
        const response = await t.request(method, `${V1}/acme/providers/prv_unknown`, { key: t.apiKey, body });
        expect([method, response.status]).toEqual([method, 404]);
        expect(response.body).toEqual(notFoundError('provider prv_unknown'));
      }
    });
  });

  test('PATCH of an unknown providerId with a bad body -> 400, the body is checked before the provider is looked up', async () => {
    const response = await t.request('PATCH', `${V1}/acme/providers/prv_unknown`, { key: t.apiKey, body: { name: '' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(schemaError('/name', 'name must not be empty'));
  });

  test('GET list of an unknown slug -> 404 NOT_FOUND', async () => {
    const response = await t.request('GET', `${V1}/nope/providers`, { key: t.apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundError('workspace nope'));
  });
});
