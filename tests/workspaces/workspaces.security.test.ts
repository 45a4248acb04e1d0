import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { INVALID_KEY, MISSING_KEY, V1, demoWorkspace, expectUnchanged, notFoundError, otherWorkspace } from '../services/catalogue-fixtures.ts';

describeEachAdapter('workspace settings: security', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(() => t.close());

  test('PATCH without a key -> 401 UNAUTHORIZED, nothing stored', async () => {
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme`, { body: { name: 'Taken over' } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(MISSING_KEY);
    });
  });

  test('PATCH with a wrong key -> 401 UNAUTHORIZED, nothing stored', async () => {
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme`, { key: 'svc_live_not-a-key', body: { name: 'Taken over' } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(INVALID_KEY);
    });
  });

  test('PATCH with the key of another workspace -> 401 UNAUTHORIZED, nothing stored', async () => {
    const other = await otherWorkspace(t);
    await expectUnchanged(t, async () => {
      const response = await t.request('PATCH', `${V1}/acme`, { key: other.apiKey, body: { name: 'Taken over' } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(INVALID_KEY);
    });
  });

  test('GET with the key of another workspace -> 401 UNAUTHORIZED', async () => {
    const other = await otherWorkspace(t);
    const response = await t.request('GET', `${V1}/acme`, { key: other.apiKey });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID_KEY);
  });

  test('PATCH without a key and with a bad body -> 401, the key is checked before the body', async () => {
    const response = await t.request('PATCH', `${V1}/acme`, { body: { timeFormat: 'never' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(MISSING_KEY);
  });

  test('PATCH without a key and with malformed JSON -> 401, the key is checked before the body is read', async () => {
    const response = await t.request('PATCH', `${V1}/acme`, { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(MISSING_KEY);
  });

  test('PATCH of an unknown slug without a key -> 404, the slug is checked before the key', async () => {
    const response = await t.request('PATCH', `${V1}/nope`, { body: { name: 'x' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundError('workspace nope'));
  });

  test('demo workspace: keyless GET -> 200', async () => {
    const demo = await demoWorkspace(t);
    const response = await t.request('GET', `${V1}/demo`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      workspace: {
        id: demo.id,
        name: 'Demo Hair & Wellness',
        slug: 'demo',
        primaryColor: '#0f766e',
        plan: 'demo',
        industry: 'beauty',
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
      },
    });
  });

  test('demo workspace: keyless PATCH -> 401, nothing stored', async () => {
    await demoWorkspace(t);
    await expectUnchanged(
      t,
      async () => {
        const response = await t.request('PATCH', `${V1}/demo`, { body: { name: 'Vandalised' } });
        expect(response.status).toBe(401);
        expect(response.body).toEqual(MISSING_KEY);
      },
      'demo',
    );
  });

  test('demo workspace: GET with a wrong key -> 401 (a key that is sent must be valid)', async () => {
    await demoWorkspace(t);
    const response = await t.request('GET', `${V1}/demo`, { key: t.apiKey });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID_KEY);
  });
});
