import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { INVALID_KEY, MISSING_KEY, V1, addCustomField, demoWorkspace, expectUnchanged, notFoundError, otherWorkspace } from '../services/catalogue-fixtures.ts';

describeEachAdapter('custom fields: security', (adapter) => {
  let t: TestApp;
  let fieldId: string;
  beforeEach(async () => {
    t = await createTestApp(adapter);
    fieldId = (await addCustomField(t)).id;
  });
  afterEach(() => t.close());

  const writes = () =>
    [
      ['POST', `${V1}/acme/custom-fields`, { key: 'parking', label: 'Parking', type: 'checkbox' }],
      ['PATCH', `${V1}/acme/custom-fields/${fieldId}`, { label: 'Changed' }],
      ['DELETE', `${V1}/acme/custom-fields/${fieldId}`, undefined],
    ] as const;

  test('writes without a key -> 401, nothing stored', async () => {
    for (const [method, path, body] of writes()) {
      await expectUnchanged(t, async () => {
        const response = await t.request(method, path, { body });
        expect([method, response.status]).toEqual([method, 401]);
        expect(response.body).toEqual(MISSING_KEY);
      });
    }
  });

  test('writes with a wrong key -> 401, nothing stored', async () => {
    for (const [method, path, body] of writes()) {
      await expectUnchanged(t, async () => {
        const response = await t.request(method, path, { body, key: 'svc_live_wrong' });
        expect([method, response.status]).toEqual([method, 401]);
        expect(response.body).toEqual(INVALID_KEY);
      });
    }
  });

  test('reads and writes with the key of another workspace -> 401, nothing stored', async () => {
    const other = await otherWorkspace(t);
    const read = await t.request('GET', `${V1}/acme/custom-fields`, { key: other.apiKey });
    expect(read.status).toBe(401);
    expect(read.body).toEqual(INVALID_KEY);
    for (const [method, path, body] of writes()) {
      await expectUnchanged(t, async () => {
        const response = await t.request(method, path, { body, key: other.apiKey });
        expect([method, response.status]).toEqual([method, 401]);
        expect(response.body).toEqual(INVALID_KEY);
      });
    }
  });

  test('a field of another workspace cannot be changed or deleted through its own key -> 404', async () => {
    const other = await otherWorkspace(t);
    await expectUnchanged(t, async () => {
      const patch = await t.request('PATCH', `${V1}/other/custom-fields/${fieldId}`, { key: other.apiKey, body: { label: 'Changed' } });
      expect(patch.status).toBe(404);
      expect(patch.body).toEqual(notFoundError(`custom field ${fieldId}`));
      const remove = await t.request('DELETE', `${V1}/other/custom-fields/${fieldId}`, { key: other.apiKey });
      expect(remove.status).toBe(404);
      expect(remove.body).toEqual(notFoundError(`custom field ${fieldId}`));
    });
  });

  test('demo workspace: keyless GET -> 200, keyless POST -> 401 and nothing stored', async () => {
    await demoWorkspace(t);
    const read = await t.request('GET', `${V1}/demo/custom-fields`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ success: true, customFields: [] });
    await expectUnchanged(
      t,
      async () => {
        const write = await t.request('POST', `${V1}/demo/custom-fields`, { body: { key: 'spam', label: 'Spam', type: 'text' } });
        expect(write.status).toBe(401);
        expect(write.body).toEqual(MISSING_KEY);
      },
      'demo',
    );
  });
});
