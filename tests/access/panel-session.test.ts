import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { CredentialResolvers, PanelSession } from '../../src/platform/access/credentials.ts';
import { createApp, type App } from '../../src/app.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { createTestApp, send, type TestApp } from '../support/app.ts';

/*
 * Decisions section 12: every keyed v1 route takes the API key or a panel session of the workspace; reads need
 * any session, writes of operations svc_manage_operations, writes of settings svc_manage_settings, else 403.
 * Sessions are stored by the panel issue; here a fake resolver stands in for that store.
 */

const SERVICE = { name: 'Haircut', duration: 30, price: 35, currency: 'EUR' };
const FORBIDDEN = (capability: string) => ({
  success: false,
  error: `this panel session lacks the ${capability} capability this action needs`,
  code: 'FORBIDDEN',
});
const INVALID_SESSION = { success: false, error: 'invalid or expired panel session', code: 'UNAUTHORIZED' };

describe('panel sessions on v1 routes (fake session store)', () => {
  let ctx: TestApp;
  let app: App;
  const sessions = new Map<string, PanelSession>();
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    ctx = await createTestApp('libsql');
    const other = await createWorkspace(ctx.deps, { slug: 'other-shop', name: 'Other' });
    sessions.set('ops-token', { id: 'ses_ops', workspaceId: ctx.workspace.id, capabilities: ['svc_manage_operations'] });
    sessions.set('settings-token', { id: 'ses_settings', workspaceId: ctx.workspace.id, capabilities: ['svc_manage_settings'] });
    sessions.set('read-token', { id: 'ses_read', workspaceId: ctx.workspace.id, capabilities: [] });
    sessions.set('foreign-token', { id: 'ses_foreign', workspaceId: other.workspace.id, capabilities: ['svc_manage_operations', 'svc_manage_settings'] });
    const credentials: CredentialResolvers = {
      panelSession: async (token) => sessions.get(token) ?? null,
      hostCredential: async () => null,
    };
    app = createApp(ctx.deps, { credentials });
  });
  afterAll(() => ctx.close());

  test('a session without capabilities reads: GET bookings, services, workspace -> 200', async () => {
    for (const path of ['/api/v1/workspaces/acme/bookings', '/api/v1/workspaces/acme/services', '/api/v1/workspaces/acme']) {
      const response = await send(app, 'GET', path, { headers: bearer('read-token') });
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
    }
  });

  test('a session without svc_manage_operations -> 403 FORBIDDEN on createService, nothing stored', async () => {
    for (const token of ['read-token', 'settings-token']) {
      const response = await send(app, 'POST', '/api/v1/workspaces/acme/services', { headers: bearer(token), body: SERVICE });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(FORBIDDEN('svc_manage_operations'));
    }
    expect(await ctx.deps.storage.listServices(ctx.workspace.id, { activeOnly: false })).toEqual([]);
  });

  test('a session with svc_manage_operations creates a service -> 200', async () => {
    const response = await send(app, 'POST', '/api/v1/workspaces/acme/services', { headers: bearer('ops-token'), body: SERVICE });
    expect(response.status).toBe(200);
    expect(response.body.service.name).toBe('Haircut');
  });

  test('settings writes need svc_manage_settings: PUT domains -> 403 with operations only, 200 with settings', async () => {
    const refused = await send(app, 'PUT', '/api/v1/workspaces/acme/domains', { headers: bearer('ops-token'), body: { domains: ['evil.example'] } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(FORBIDDEN('svc_manage_settings'));
    expect((await ctx.deps.storage.getWorkspaceById(ctx.workspace.id))!.domains).toEqual([]);
    const allowed = await send(app, 'PUT', '/api/v1/workspaces/acme/domains', { headers: bearer('settings-token'), body: { domains: ['shop.example.com'] } });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toEqual({ success: true, domains: ['shop.example.com'] });
  });

  test('the capability is checked before the body: a bad body from a session lacking it -> 403, not 400', async () => {
    const response = await send(app, 'POST', '/api/v1/workspaces/acme/services', { headers: bearer('read-token'), body: { name: '' } });
    expect(response.status).toBe(403);
  });

  test('a session of another workspace, or an unknown token -> 401', async () => {
    for (const token of ['foreign-token', 'no-such-token']) {
      const response = await send(app, 'GET', '/api/v1/workspaces/acme/bookings', { headers: bearer(token) });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(INVALID_SESSION);
    }
  });

  test('an unknown slug is still 404 before the session is looked at', async () => {
    const response = await send(app, 'GET', '/api/v1/workspaces/nope/bookings', { headers: bearer('ops-token') });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
  });

  test('a session is rate-limited like a key: its own budget, apart from the keyless client address', async () => {
    ctx.clock.advance(60_000);
    const first = await send(app, 'GET', '/api/v1/workspaces/acme', { headers: bearer('read-token') });
    const second = await send(app, 'GET', '/api/v1/workspaces/acme', { headers: bearer('read-token') });
    const otherSession = await send(app, 'GET', '/api/v1/workspaces/acme', { headers: bearer('ops-token') });
    expect([
      first.headers.get('x-ratelimit-remaining'),
      second.headers.get('x-ratelimit-remaining'),
      otherSession.headers.get('x-ratelimit-remaining'),
    ]).toEqual(['119', '118', '119']);
  });
});

describe('panel sessions with the default resolvers (the panel store)', () => {
  test('every bearer token is unknown -> 401 UNAUTHORIZED', async () => {
    const ctx = await createTestApp('libsql');
    try {
      const response = await ctx.request('GET', '/api/v1/workspaces/acme/bookings', { headers: { authorization: 'Bearer anything' } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(INVALID_SESSION);
    } finally {
      await ctx.close();
    }
  });
});
