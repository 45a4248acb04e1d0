import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { V1, addCustomField, addService } from '../services/catalogue-fixtures.ts';

describeEachAdapter('custom fields: happy path', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(() => t.close());

  const textField = { key: 'allergies', label: 'Allergies', type: 'text', required: false, options: null, placeholder: null, order: 0, serviceIds: [] };

  test('a new workspace has no custom fields', async () => {
    const response = await t.request('GET', `${V1}/acme/custom-fields`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, customFields: [] });
  });

  test('POST with key, label and type -> 200 with the defaults (not required, no options, order 0, every service)', async () => {
    const response = await t.request('POST', `${V1}/acme/custom-fields`, { key: t.apiKey, body: { key: 'allergies', label: 'Allergies', type: 'text' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, customField: { id: expect.stringMatching(/^cf_[0-9a-z]{26}$/), ...textField } });
  });

  test('POST a select field with every attribute -> 200 with all of them', async () => {
    const service = await addService(t);
    const body = {
      key: 'hair_length',
      label: 'Hair length',
      type: 'select',
      required: true,
      options: ['Short', 'Medium', 'Long'],
      placeholder: 'Choose one',
      order: 3,
      serviceIds: [service.id],
    };
    const response = await t.request('POST', `${V1}/acme/custom-fields`, { key: t.apiKey, body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, customField: { id: expect.any(String), ...body } });
  });

  test('POST accepts every field type', async () => {
    for (const type of ['text', 'textarea', 'number', 'checkbox', 'phone', 'email', 'date']) {
      const response = await t.request('POST', `${V1}/acme/custom-fields`, { key: t.apiKey, body: { key: `f_${type}`, label: type, type } });
      expect(response.status).toBe(200);
      expect(response.body.customField.type).toBe(type);
    }
  });

  test('GET lists the fields ordered by order, then key, and the widget config shows the same list', async () => {
    const late = await addCustomField(t, { key: 'notes_extra', label: 'More', order: 5 });
    const b = await addCustomField(t, { key: 'b_field', label: 'B', order: 1 });
    const a = await addCustomField(t, { key: 'a_field', label: 'A', order: 1 });
    const response = await t.request('GET', `${V1}/acme/custom-fields`, { key: t.apiKey });
    expect(response.status).toBe(200);
    const expected = [
      { ...textField, id: a.id, key: 'a_field', label: 'A', order: 1 },
      { ...textField, id: b.id, key: 'b_field', label: 'B', order: 1 },
      { ...textField, id: late.id, key: 'notes_extra', label: 'More', order: 5 },
    ];
    expect(response.body).toEqual({ success: true, customFields: expected });
    const config = await t.request('GET', `${V1}/acme/config`);
    expect(config.body.customFields).toEqual(expected);
  });

  test('PATCH changes the fields sent and keeps the others', async () => {
    const field = await addCustomField(t);
    const response = await t.request('PATCH', `${V1}/acme/custom-fields/${field.id}`, {
      key: t.apiKey,
      body: { label: 'Any allergies?', required: true, placeholder: 'e.g. latex' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      customField: { ...textField, id: field.id, label: 'Any allergies?', required: true, placeholder: 'e.g. latex' },
    });
    expect((await t.request('GET', `${V1}/acme/custom-fields`, { key: t.apiKey })).body.customFields).toEqual([response.body.customField]);
  });

  test('PATCH with an empty body -> 200 and the field unchanged', async () => {
    const field = await addCustomField(t);
    const response = await t.request('PATCH', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey, body: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, customField: { ...textField, id: field.id } });
  });

  test('PATCH may rename the key, to the same key or a free one', async () => {
    const field = await addCustomField(t);
    const same = await t.request('PATCH', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey, body: { key: 'allergies' } });
    expect(same.status).toBe(200);
    const renamed = await t.request('PATCH', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey, body: { key: 'allergy_notes' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ success: true, customField: { ...textField, id: field.id, key: 'allergy_notes' } });
  });

  test('PATCH type from select to text drops the options; to select it needs new ones', async () => {
    const field = await addCustomField(t, { type: 'select', options: ['Yes', 'No'] });
    const toText = await t.request('PATCH', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey, body: { type: 'text' } });
    expect(toText.status).toBe(200);
    expect(toText.body).toEqual({ success: true, customField: { ...textField, id: field.id } });
    const toSelect = await t.request('PATCH', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey, body: { type: 'select', options: ['A', 'B'] } });
    expect(toSelect.status).toBe(200);
    expect(toSelect.body).toEqual({ success: true, customField: { ...textField, id: field.id, type: 'select', options: ['A', 'B'] } });
  });

  test('PATCH serviceIds replaces the list, repeats dropped; [] means every service', async () => {
    const cut = await addService(t, { name: 'Cut' });
    const colour = await addService(t, { name: 'Colour' });
    const field = await addCustomField(t, { serviceIds: [cut.id] });
    const replaced = await t.request('PATCH', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey, body: { serviceIds: [colour.id, cut.id, colour.id] } });
    expect(replaced.body).toEqual({ success: true, customField: { ...textField, id: field.id, serviceIds: [colour.id, cut.id] } });
    const every = await t.request('PATCH', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey, body: { serviceIds: [] } });
    expect(every.body).toEqual({ success: true, customField: { ...textField, id: field.id } });
  });

  test('DELETE removes the field -> 200 { success: true }; its key can be used again', async () => {
    const field = await addCustomField(t);
    const response = await t.request('DELETE', `${V1}/acme/custom-fields/${field.id}`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    expect((await t.request('GET', `${V1}/acme/custom-fields`, { key: t.apiKey })).body).toEqual({ success: true, customFields: [] });
    const again = await t.request('POST', `${V1}/acme/custom-fields`, { key: t.apiKey, body: { key: 'allergies', label: 'Allergies', type: 'text' } });
    expect(again.status).toBe(200);
  });

  test('labels, options and placeholders are stored as given, markup included', async () => {
    const body = { key: 'markup', label: '<img src=x onerror=alert(1)>', type: 'select', options: ['<b>bold</b>', '&amp;'], placeholder: '"quoted"' };
    const response = await t.request('POST', `${V1}/acme/custom-fields`, { key: t.apiKey, body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, customField: { ...textField, ...body, id: expect.any(String) } });
  });
});
