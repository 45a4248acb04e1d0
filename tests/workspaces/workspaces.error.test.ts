import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { V1, expectUnchanged, notFoundError, ruleError, schemaError } from '../services/catalogue-fixtures.ts';

describeEachAdapter('workspace settings: errors', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(() => t.close());

  const refusals: [rule: string, body: Record<string, unknown>, expected: object][] = [
    ['empty name', { name: '' }, schemaError('/name', 'name must not be empty')],
    ['blank name', { name: '   ' }, ruleError('name must not be blank')],
    ['name over 200 characters', { name: 'x'.repeat(201) }, schemaError('/name', 'name must be between 1 and 200 characters long')],
    ['name not a string', { name: 42 }, schemaError('/name', 'name must be a string')],
    ['primaryColor not #rrggbb', { primaryColor: 'red' }, schemaError('/primaryColor', 'primaryColor must be a colour as #rrggbb or null')],
    ['primaryColor with 3 digits', { primaryColor: '#abc' }, schemaError('/primaryColor', 'primaryColor must be a colour as #rrggbb or null')],
    ['empty industry', { industry: '' }, schemaError('/industry', 'industry must not be empty')],
    ['unknown timezone', { timezone: 'Mars/Olympus' }, ruleError('timezone must be an IANA time zone such as Europe/Berlin, got Mars/Olympus')],
    ['timezone given as an offset', { timezone: 'GMT+25' }, ruleError('timezone must be an IANA time zone such as Europe/Berlin, got GMT+25')],
    ['language not BCP 47', { language: 'en_US' }, ruleError('language must be a BCP 47 language tag such as en, de or pt-BR, got en_US')],
    ['timeFormat not 24h or 12h', { timeFormat: '25h' }, schemaError('/timeFormat', 'timeFormat must be one of 24h, 12h')],
    ['negative cancellationHours', { cancellationHours: -1 }, schemaError('/cancellationHours', 'cancellationHours must be an integer between 0 and 8760')],
    ['fractional cancellationHours', { cancellationHours: 1.5 }, schemaError('/cancellationHours', 'cancellationHours must be an integer')],
  ];

  for (const [rule, body, expected] of refusals) {
    test(`PATCH with ${rule} -> 400 VALIDATION_ERROR naming the field, nothing stored`, async () => {
      await expectUnchanged(t, async () => {
        const response = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(expected);
      });
    });
  }

  test('PATCH with one bad field among good ones stores none of them', async () => {
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body: { name: 'New name', language: 'de', timezone: 'Nowhere/Land' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('timezone must be an IANA time zone such as Europe/Berlin, got Nowhere/Land'));
    });
  });

  test('PATCH with malformed JSON -> 400 VALIDATION_ERROR', async () => {
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('request body is not valid JSON'));
    });
  });

  test('PATCH of an unknown slug -> 404 NOT_FOUND', async () => {
    const response = await t.request('PATCH', `${V1}/nope`, { key: t.apiKey, body: { name: 'x' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundError('workspace nope'));
  });

  test('GET of an unknown slug -> 404 NOT_FOUND', async () => {
    const response = await t.request('GET', `${V1}/nope`, { key: t.apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundError('workspace nope'));
  });
});
