import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { V1, addProvider, addService, expectUnchanged, notFoundError, otherWorkspace, ruleError, schemaError } from './catalogue-fixtures.ts';

describeEachAdapter('services: errors', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(() => t.close());

  const base = { name: 'Haircut', duration: 30, price: 35, currency: 'EUR' };
  const without = (field: keyof typeof base) => Object.fromEntries(Object.entries(base).filter(([key]) => key !== field));

  const refusals: [rule: string, body: Record<string, unknown>, expected: object][] = [
    ['no name', without('name'), schemaError('/name', 'name is required')],
    ['an empty name', { ...base, name: '' }, schemaError('/name', 'name must not be empty')],
    ['a blank name', { ...base, name: ' \t ' }, ruleError('name must not be blank')],
    ['a name over 200 characters', { ...base, name: 'n'.repeat(201) }, schemaError('/name', 'name must be between 1 and 200 characters long')],
    ['no duration', without('duration'), schemaError('/duration', 'duration is required')],
    ['a duration under 5 minutes', { ...base, duration: 4 }, schemaError('/duration', 'duration must be an integer between 5 and 1440')],
    ['a duration over a day', { ...base, duration: 1441 }, schemaError('/duration', 'duration must be an integer between 5 and 1440')],
    ['a fractional duration', { ...base, duration: 30.5 }, schemaError('/duration', 'duration must be an integer')],
    ['no price', without('price'), schemaError('/price', 'price is required')],
    ['a negative price', { ...base, price: -1 }, schemaError('/price', 'price must be at least 0')],
    ['a price as a string', { ...base, price: 'free' }, schemaError('/price', 'price must be a number')],
    [
      'more decimals than EUR has',
      { ...base, price: 35.555 },
      ruleError('price must be a non-negative number of EUR with at most 2 decimal places, got 35.555'),
    ],
    [
      'decimals on JPY',
      { ...base, price: 1.5, currency: 'JPY' },
      ruleError('price must be a non-negative whole number of JPY (JPY has no decimal places), got 1.5'),
    ],
    ['a price too large to store', { ...base, price: 30_000_000 }, ruleError('price must be at most 21474836.47 EUR')],
    ['no currency', without('currency'), schemaError('/currency', 'currency is required')],
    ['a lower-case currency', { ...base, currency: 'eur' }, schemaError('/currency', 'currency must be an ISO 4217 code in upper case such as EUR')],
    ['an unknown currency', { ...base, currency: 'XYZ' }, ruleError('currency must be an ISO 4217 code in upper case such as EUR, got XYZ')],
    [
      'a description over 2000 characters',
      { ...base, description: 'd'.repeat(2001) },
      schemaError('/description', 'description must be at most 2000 characters long or null'),
    ],
    ['active not a boolean', { ...base, active: 'yes' }, schemaError('/active', 'active must be true or false')],
    ['an empty category', { ...base, category: '' }, ruleError('category must not be blank')],
    [
      'a category over 200 characters',
      { ...base, category: 'c'.repeat(201) },
      schemaError('/category', 'category must be at most 200 characters long or null'),
    ],
    ['capacity 0', { ...base, capacity: 0 }, schemaError('/capacity', 'capacity must be an integer between 1 and 1000')],
    ['capacity over 1000', { ...base, capacity: 1001 }, schemaError('/capacity', 'capacity must be an integer between 1 and 1000')],
    ['a negative bufferTime', { ...base, bufferTime: -5 }, schemaError('/bufferTime', 'bufferTime must be an integer between 0 and 1440')],
    ['a negative minNotice', { ...base, minNotice: -1 }, schemaError('/minNotice', 'minNotice must be an integer between 0 and 525600')],
    ['maxAdvance 0 days', { ...base, maxAdvance: 0 }, schemaError('/maxAdvance', 'maxAdvance must be an integer between 1 and 3650 or null')],
    ['a negative deposit', { ...base, deposit: -1 }, schemaError('/deposit', 'deposit must be at least 0 or null')],
    ['a deposit above the price', { ...base, deposit: 40 }, ruleError('deposit must be at most the price (35 EUR), got 40')],
    [
      'more decimals on the deposit than EUR has',
      { ...base, deposit: 1.234 },
      ruleError('deposit must be a non-negative number of EUR with at most 2 decimal places, got 1.234'),
    ],
    ['a fractional order', { ...base, order: 0.5 }, schemaError('/order', 'order must be an integer')],
    ['slotInterval under 5 minutes', { ...base, slotInterval: 4 }, schemaError('/slotInterval', 'slotInterval must be an integer between 5 and 1440 or null')],
    ['providerIds not an array', { ...base, providerIds: 'prv_x' }, schemaError('/providerIds', 'providerIds must be an array')],
    [
      'an unknown provider',
      { ...base, providerIds: ['prv_unknown'] },
      ruleError('providerIds[0] must be the id of a provider of this workspace, got prv_unknown'),
    ],
  ];

  for (const [rule, body, expected] of refusals) {
    test(`POST with ${rule} -> 400 VALIDATION_ERROR naming the field, nothing stored`, async () => {
      await expectUnchanged(t, async () => {
        const response = await t.request('POST', `${V1}/acme/services`, { key: t.apiKey, body });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(expected);
      });
    });
  }

  test('POST naming a provider of another workspace -> 400 naming providerIds, nothing stored', async () => {
    const other = await otherWorkspace(t);
    const foreign = await addProvider(t, {}, other.apiKey, 'other');
    const own = await addProvider(t);
    await expectUnchanged(t, async () => {
      const response = await t.request('POST', `${V1}/acme/services`, { key: t.apiKey, body: { ...base, providerIds: [own.id, foreign.id] } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError(`providerIds[1] must be the id of a provider of this workspace, got ${foreign.id}`));
    });
  });

  test('POST with malformed JSON -> 400 VALIDATION_ERROR, nothing stored', async () => {
    await expectUnchanged(t, async () => {
      const response = await t.request('POST', `${V1}/acme/services`, { key: t.apiKey, rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('request body is not valid JSON'));
    });
  });

  test('PATCH with a schema violation -> 400, nothing stored', async () => {
    const service = await addService(t);
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme/services/${service.id}`, { key: t.apiKey, body: { duration: 2 } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(schemaError('/duration', 'duration must be an integer between 5 and 1440'));
    });
  });

  test('PATCH currency to one the kept price does not fit (35.5 EUR -> JPY) -> 400 naming price, nothing stored', async () => {
    const service = await addService(t, { price: 35.5 });
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme/services/${service.id}`, { key: t.apiKey, body: { currency: 'JPY' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('price must be a non-negative whole number of JPY (JPY has no decimal places), got 35.5'));
    });
  });

  test('PATCH price below the kept deposit -> 400 naming deposit, nothing stored', async () => {
    const service = await addService(t, { deposit: 20 });
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme/services/${service.id}`, { key: t.apiKey, body: { price: 10 } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('deposit must be at most the price (10 EUR), got 20'));
    });
  });

  test('PATCH providerIds with an unknown provider -> 400, the links stay', async () => {
    const provider = await addProvider(t);
    const service = await addService(t, { providerIds: [provider.id] });
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme/services/${service.id}`, { key: t.apiKey, body: { providerIds: ['prv_gone'] } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('providerIds[0] must be the id of a provider of this workspace, got prv_gone'));
    });
  });

  test('GET, PATCH and DELETE of an unknown serviceId -> 404 NOT_FOUND', async () => {
    await addService(t);
    await expectUnchanged(t, async () => {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { name: 'x' }],
        ['DELETE', undefined],
      ] as const) {
        const response = await t.request(method, `${V1}/acme/services/srv_unknown`, { key: t.apiKey, body });
        expect([method, response.status]).toEqual([method, 404]);
        expect(response.body).toEqual(notFoundError('service srv_unknown'));
      }
    });
  });

  test('PATCH of an unknown serviceId with a bad body -> 400, the body is checked before the service is looked up', async () => {
    const response = await t.request('PATCH', `${V1}/acme/services/srv_unknown`, { key: t.apiKey, body: { capacity: 0 } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(schemaError('/capacity', 'capacity must be an integer between 1 and 1000'));
  });

  test('GET list of an unknown slug -> 404 NOT_FOUND', async () => {
    const response = await t.request('GET', `${V1}/nope/services`, { key: t.apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundError('workspace nope'));
  });
});
