import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { V1 } from '../services/catalogue-fixtures.ts';

describeEachAdapter('workspace settings: happy path', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(() => t.close());

  const acme = () => ({
    id: t.workspace.id,
    name: 'Acme Studio',
    slug: 'acme',
    primaryColor: null,
    plan: 'self-hosted',
    industry: 'other',
    timezone: 'Europe/Berlin',
    language: 'en',
    timeFormat: '24h',
    cancellationHours: 24,
    logoUrl: null,
    notificationEmail: null,
    locale: 'en',
    contactEmail: null,
    contactPhone: null,
    requiresConfirmation: false,
    refundOnCancel: false,
  });

  test('GET /workspaces/{slug} -> 200 with the workspace and the contract defaults', async () => {
    const response = await t.request('GET', `${V1}/acme`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, workspace: acme() });
  });

  test('PATCH with every field -> 200 with all of them set, and GET shows the same', async () => {
    const body = {
      name: 'Acme Hair & Beauty',
      primaryColor: '#0f766e',
      industry: 'beauty',
      timezone: 'America/New_York',
      language: 'de',
      timeFormat: '12h',
      cancellationHours: 48,
      logoUrl: 'https://cdn.example.com/acme.png',
      requiresConfirmation: true,
      refundOnCancel: false,
      notificationEmail: 'owner@acme.example',
      locale: 'de-DE',
      contactEmail: 'hello@acme.example',
      contactPhone: '+49 30 1234567',
    };
    const response = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, workspace: { ...acme(), ...body } });
    expect((await t.request('GET', `${V1}/acme`, { key: t.apiKey })).body).toEqual({ success: true, workspace: { ...acme(), ...body } });
  });

  test('locale follows the language until set, and null gives it back; contact fields are trimmed, empty = none', async () => {
    const german = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body: { language: 'de' } });
    expect(german.body.workspace.locale).toBe('de');
    const british = await t.request('PATCH', `${V1}/acme`, {
      key: t.apiKey,
      body: { language: 'en', locale: 'en-gb', contactEmail: '  hi@acme.example ', contactPhone: '' },
    });
    expect(british.status).toBe(200);
    expect(british.body.workspace).toMatchObject({ language: 'en', locale: 'en-GB', contactEmail: 'hi@acme.example', contactPhone: null });
    const reset = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body: { locale: null, contactEmail: null } });
    expect(reset.body.workspace).toMatchObject({ locale: 'en', contactEmail: null });
  });

  test('PATCH with a bad locale, contact email or phone -> 400 naming the field, nothing changes', async () => {
    for (const [body, field] of [
      [{ locale: 'not a locale!' }, 'locale'],
      [{ contactEmail: 'not-an-address' }, 'contactEmail'],
      [{ contactPhone: 'call me' }, 'contactPhone'],
    ] as const) {
      const response = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(field);
    }
    expect((await t.request('GET', `${V1}/acme`, { key: t.apiKey })).body).toEqual({ success: true, workspace: acme() });
  });

  test('PATCH with one field changes only that field', async () => {
    const response = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body: { cancellationHours: 0 } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, workspace: { ...acme(), cancellationHours: 0 } });
  });

  test('PATCH with an empty object -> 200 and nothing changes, not even updatedAt', async () => {
    t.clock.advance(60_000);
    const response = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, workspace: acme() });
    expect(await t.deps.storage.getWorkspaceBySlug('acme')).toEqual(t.workspace);
  });

  test('PATCH without a body -> 200 and nothing changes', async () => {
    const response = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, workspace: acme() });
    expect(await t.deps.storage.getWorkspaceBySlug('acme')).toEqual(t.workspace);
  });

  test('PATCH primaryColor null clears the colour', async () => {
    await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body: { primaryColor: '#AABBCC' } });
    const response = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body: { primaryColor: null } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, workspace: acme() });
  });

  test('PATCH stores language and timezone in their canonical spelling (pt-br -> pt-BR, europe/paris -> Europe/Paris)', async () => {
    const response = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body: { language: 'pt-br', timezone: 'europe/paris' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, workspace: { ...acme(), language: 'pt-BR', locale: 'pt-BR', timezone: 'Europe/Paris' } });
  });

  test('PATCH with an unknown or read-only field (slug, plan, id) -> 400 naming it, and nothing changes', async () => {
    for (const field of ['slug', 'plan', 'id', 'colour']) {
      const response = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body: { name: 'Renamed', [field]: 'x' } });
      const error =
        `${field} is not a field of this request; the fields are name, primaryColor, industry, timezone, language, locale, contactEmail, `
        + 'contactPhone, timeFormat, cancellationHours, logoUrl, requiresConfirmation, refundOnCancel, notificationEmail';
      expect({ field, status: response.status, body: response.body }).toEqual({
        field,
        status: 400,
        body: { success: false, error, code: 'VALIDATION_ERROR', details: [{ path: `/${field}`, message: error }] },
      });
    }
    expect(await t.deps.storage.getWorkspaceBySlug('acme')).toEqual(t.workspace);
  });

  test('PATCH stores text as given, markup included', async () => {
    const name = '<b>Acme</b> & "Friends" <script>alert(1)</script>';
    const response = await t.request('PATCH', `${V1}/acme`, { key: t.apiKey, body: { name } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.body).toEqual({ success: true, workspace: { ...acme(), name } });
  });
});
