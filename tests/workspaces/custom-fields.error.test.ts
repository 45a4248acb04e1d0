import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { V1, addCustomField, addService, expectUnchanged, notFoundError, otherWorkspace, ruleError, schemaError } from '../services/catalogue-fixtures.ts';

describeEachAdapter('custom fields: errors', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(() => t.close());

  const base = { key: 'allergies', label: 'Allergies', type: 'text' };
  const refusals: [rule: string, body: Record<string, unknown>, expected: object][] = [
    ['no key', { label: 'A', type: 'text' }, schemaError('/key', 'key is required')],
    [
      'a key with upper case and hyphens',
      { ...base, key: 'Bad-Key' },
      schemaError('/key', 'key must be lower-case letters, digits and underscores, such as allergies'),
    ],
    ['an empty key', { ...base, key: '' }, schemaError('/key', 'key must not be empty')],
    ['a key over 64 characters', { ...base, key: 'k'.repeat(65) }, schemaError('/key', 'key must be between 1 and 64 characters long')],
    ['no label', { key: 'a', type: 'text' }, schemaError('/label', 'label is required')],
    ['a blank label', { ...base, label: '  ' }, ruleError('label must not be blank')],
    ['a label over 200 characters', { ...base, label: 'l'.repeat(201) }, schemaError('/label', 'label must be between 1 and 200 characters long')],
    ['an unknown type', { ...base, type: 'radio' }, schemaError('/type', 'type must be one of text, textarea, number, select, checkbox, phone, email, date')],
    ['required not a boolean', { ...base, required: 'yes' }, schemaError('/required', 'required must be true or false')],
    ['a select without options', { ...base, type: 'select' }, ruleError('options must list at least one choice when type is select')],
    ['a select with no choices', { ...base, type: 'select', options: [] }, ruleError('options must list at least one choice when type is select')],
    ['a select with a choice twice', { ...base, type: 'select', options: ['Nuts', 'Milk', 'Nuts'] }, ruleError('options[2] repeats options[0] (Nuts)')],
    ['a select with an empty choice', { ...base, type: 'select', options: ['Nuts', ''] }, ruleError('options[1] must not be blank')],
    [
      'a select with a choice over 200 characters',
      { ...base, type: 'select', options: ['o'.repeat(201)] },
      ruleError('options[0] must be at most 200 characters long'),
    ],
    [
      'a select with over 100 choices',
      { ...base, type: 'select', options: Array.from({ length: 101 }, (_, i) => `c${i}`) },
      schemaError('/options', 'options must have at most 100 items or null'),
    ],
    ['options on a text field', { ...base, options: ['a'] }, ruleError('options must be null unless type is select (type is text)')],
    ['empty options on a text field', { ...base, options: [] }, ruleError('options must be null unless type is select (type is text)')],
    [
      'a placeholder over 200 characters',
      { ...base, placeholder: 'p'.repeat(201) },
      schemaError('/placeholder', 'placeholder must be at most 200 characters long or null'),
    ],
    ['a fractional order', { ...base, order: 1.5 }, schemaError('/order', 'order must be an integer')],
    [
      'an unknown service id',
      { ...base, serviceIds: ['srv_unknown'] },
      ruleError('serviceIds[0] must be the id of a service of this workspace, got srv_unknown'),
    ],
  ];

  for (const [rule, body, expected] of refusals) {
    test(`POST with ${rule} -> 400 VALIDATION_ERROR naming the field, nothing stored`, async () => {
      await expectUnchanged(t, async () => {
        const response = await t.request('POST', `${V1}/acme/custom-fields`, { key: t.apiKey, body });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(expected);
      });
    });
  }

  test('POST with a key already used in the workspace -> 400 VALIDATION_ERROR, nothing stored', async () => {
    await addCustomField(t);
    await expectUnchanged(t, async () => {
      const response = await t.request('POST', `${V1}/acme/custom-fields`, { key: t.apiKey, body: { key: 'allergies', label: 'Again', type: 'textarea' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('a custom field with the key allergies already exists'));
    });
  });

  test('the same key in another workspace is allowed (keys are unique per workspace)', async () => {
    const other = await otherWorkspace(t);
    await addCustomField(t);
    const response = await t.request('POST', `${V1}/other/custom-fields`, { key: other.apiKey, body: base });
    expect(response.status).toBe(200);
  });

  test('POST naming a service of another workspace in serviceIds -> 400, nothing stored', async () => {
    const other = await otherWorkspace(t);
    const foreign = await addService(t, {}, other.apiKey, 'other');
    const own = await addService(t);
    await expectUnchanged(t, async () => {
      const response = await t.request('POST', `${V1}/acme/custom-fields`, { key: t.apiKey, body: { ...base, serviceIds: [own.id, foreign.id] } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError(`serviceIds[1] must be the id of a service of this workspace, got ${foreign.id}`));
    });
  });

  test('PATCH renaming the key to one already used -> 400 VALIDATION_ERROR, nothing stored', async () => {
    await addCustomField(t);
    const second = await addCustomField(t, { key: 'parking' });
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme/custom-fields/${second.id}`, { key: t.apiKey, body: { key: 'allergies' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('a custom field with the key allergies already exists'));
    });
  });

  test('PATCH type to select without options -> 400, nothing stored', async () => {
    const field = await addCustomField(t);
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey, body: { type: 'select' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('options must list at least one choice when type is select'));
    });
  });

  test('PATCH options onto a text field -> 400, nothing stored', async () => {
    const field = await addCustomField(t);
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey, body: { options: ['a', 'b'] } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('options must be null unless type is select (type is text)'));
    });
  });

  test('PATCH a select field options to [] -> 400, nothing stored', async () => {
    const field = await addCustomField(t, { type: 'select', options: ['a'] });
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey, body: { options: [] } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(ruleError('options must list at least one choice when type is select'));
    });
  });

  test('PATCH of an unknown fieldId -> 404 NOT_FOUND', async () => {
    const response = await t.request('PATCH', `${V1}/acme/custom-fields/cf_unknown`, { key: t.apiKey, body: { label: 'x' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundError('custom field cf_unknown'));
  });

  test('PATCH of an unknown fieldId with a bad body -> 400, the body is checked before the field is looked up', async () => {
    const response = await t.request('PATCH', `${V1}/acme/custom-fields/cf_unknown`, { key: t.apiKey, body: { type: 'radio' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(schemaError('/type', 'type must be one of text, textarea, number, select, checkbox, phone, email, date'));
  });

  test('DELETE of an unknown fieldId -> 404 NOT_FOUND', async () => {
    await addCustomField(t);
    await expectUnchanged(t, async () => {
      const response = await t.request('DELETE', `${V1}/acme/custom-fields/cf_unknown`, { key: t.apiKey });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(notFoundError('custom field cf_unknown'));
    });
  });

  test('DELETE of a field twice -> the second is 404 NOT_FOUND', async () => {
    const field = await addCustomField(t);
    expect((await t.request('DELETE', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey })).status).toBe(200);
    const response = await t.request('DELETE', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundError(`custom field ${field.id}`));
  });

  test('GET of an unknown slug -> 404 NOT_FOUND', async () => {
    const response = await t.request('GET', `${V1}/nope/custom-fields`, { key: t.apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundError('workspace nope'));
  });
});
