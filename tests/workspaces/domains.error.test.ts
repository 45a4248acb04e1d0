import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { V1, expectUnchanged, notFoundError, ruleError, schemaError } from '../services/catalogue-fixtures.ts';

describeEachAdapter('widget domains: errors', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
    await t.request('PUT', `${V1}/acme/domains`, { key: t.apiKey, body: { domains: ['kept.example.com'] } });
  });
  afterEach(() => t.close());

  const badEntries = [
    'https://example.com',
    'example.com/booking',
    'example.com:8443',
    'exa mple.com',
    '*.',
    '*example.com',
    'a.*.example.com',
    '',
    '-bad.example.com',
  ];
  for (const entry of badEntries) {
    test(`PUT with the entry ${JSON.stringify(entry)} -> 400 naming that entry, nothing stored`, async () => {
      await expectUnchanged(t, async () => {
        const response = await t.request('PUT', `${V1}/acme/domains`, { key: t.apiKey, body: { domains: ['example.com', entry] } });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(ruleError('domains[1] must be a domain such as example.com or *.example.com'));
      });
    });
  }

  const refusals: [rule: string, body: unknown, expected: object][] = [
    [
      'more than 100 domains',
      { domains: Array.from({ length: 101 }, (_, index) => `shop${index}.example.com`) },
      schemaError('/domains', 'domains must have at most 100 items'),
    ],
    ['no domains field', { hosts: ['example.com'] }, schemaError('/domains', 'domains is required')],
    ['domains not an array', { domains: 'example.com' }, schemaError('/domains', 'domains must be an array')],
    ['an entry that is not a string', { domains: ['example.com', 7] }, schemaError('/domains/1', 'domains[1] must be a string')],
  ];
  for (const [rule, body, expected] of refusals) {
    test(`PUT with ${rule} -> 400 VALIDATION_ERROR, nothing stored`, async () => {
      await expectUnchanged(t, async () => {
        const response = await t.request('PUT', `${V1}/acme/domains`, { key: t.apiKey, body });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(expected);
      });
    });
  }

  test('PUT of an unknown slug -> 404 NOT_FOUND', async () => {
    const response = await t.request('PUT', `${V1}/nope/domains`, { key: t.apiKey, body: { domains: [] } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundError('workspace nope'));
  });
});
