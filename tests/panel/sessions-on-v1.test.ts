import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { bearer, bootstrapRequest, embeddedSession, link } from './support.ts';

/* Decisions section 12 with sessions the panel really issues (tests/access/panel-session.test.ts covers the rules with a fake store). */

const V1 = '/api/v1/workspaces/acme';
const CREDENTIALS_FORBIDDEN = (missing: string) => ({
  success: false,
  error: `this action needs both svc_manage_operations and svc_manage_settings (it mints or revokes a credential); this panel session lacks ${missing}`,
  code: 'FORBIDDEN',
});
const INVALID_SESSION = { success: false, error: 'invalid or expired panel session', code: 'UNAUTHORIZED' };
const FORBIDDEN = (capability: string) => ({
  success: false,
  error: `this panel session lacks the ${capability} capability this action needs`,
  code: 'FORBIDDEN',
});

describeEachAdapter('embedded panel sessions on v1 routes', (adapter) => {
  let ctx: TestApp;
  let credential: string;
  beforeEach(async () => {
    ctx = await createTestApp(adapter);
    credential = await link(ctx);
  });
  afterEach(() => ctx.close());

  test('a session without capabilities reads the workspace, services, bookings, API keys and linked sites', async () => {
    const token = await embeddedSession(ctx, credential, []);
    for (const path of [V1, `${V1}/services`, `${V1}/bookings`, `${V1}/api-keys`, `${V1}/panel/origins`]) {
      const response = await ctx.request('GET', path, { headers: bearer(token) });
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
    }
  });

  test('a session without svc_manage_settings -> 403 FORBIDDEN on every settings write, and nothing changes', async () => {
    const token = await embeddedSession(ctx, credential, ['svc_manage_operations']);
    const writes: [string, string, unknown][] = [
      ['PATCH', V1, { name: 'Hijacked' }],
      ['PUT', `${V1}/domains`, { domains: ['evil.example'] }],
      ['POST', `${V1}/webhooks`, { url: 'https://hooks.example.com/x' }],
      ['POST', `${V1}/api-keys`, { name: 'x' }],
      ['POST', `${V1}/pairing-codes`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const response = await ctx.request(method, path, { headers: bearer(token), body });
      expect({ route: `${method} ${path}`, status: response.status, body: response.body }).toEqual({
        route: `${method} ${path}`,
        status: 403,
        body: path.endsWith('api-keys') || path.endsWith('pairing-codes') ? CREDENTIALS_FORBIDDEN('svc_manage_settings') : FORBIDDEN('svc_manage_settings'),
      });
    }
    const workspace = await ctx.deps.storage.getWorkspaceById(ctx.workspace.id);
    expect({ name: workspace!.name, domains: workspace!.domains }).toEqual({ name: 'Acme Studio', domains: ['shop.example.com'] });
    expect(await ctx.deps.storage.listApiKeys(ctx.workspace.id)).toHaveLength(1);
  });

  test('a session with svc_manage_settings changes settings; without svc_manage_operations it cannot create a service', async () => {
    const token = await embeddedSession(ctx, credential, ['svc_manage_settings']);
    expect(await ctx.request('PATCH', V1, { headers: bearer(token), body: { logoUrl: 'https://cdn.example.com/l.png' } })).toMatchObject({
      status: 200,
      body: { workspace: { logoUrl: 'https://cdn.example.com/l.png' } },
    });
    const service = await ctx.request('POST', `${V1}/services`, { headers: bearer(token), body: { name: 'Cut', duration: 30, price: 10, currency: 'EUR' } });
    expect(service).toMatchObject({ status: 403, body: FORBIDDEN('svc_manage_operations') });
  });

  test('minting a pairing code or minting or revoking an API key with svc_manage_settings alone -> 403 FORBIDDEN; unlinking a site needs settings only', async () => {
    const token = await embeddedSession(ctx, credential, ['svc_manage_settings']);
    const extra = (await ctx.request('POST', `${V1}/api-keys`, { key: ctx.apiKey, body: { name: 'laptop' } })).body.apiKey;
    const [origin] = (await ctx.request('GET', `${V1}/panel/origins`, { key: ctx.apiKey })).body.origins;
    const attempts: [string, string, unknown][] = [
      ['POST', `${V1}/api-keys`, { name: 'escalate' }],
      ['POST', `${V1}/pairing-codes`, undefined],
      ['DELETE', `${V1}/api-keys/${extra.id}`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const response = await ctx.request(method, path, { headers: bearer(token), body });
      expect({ route: `${method} ${path}`, status: response.status, body: response.body }).toEqual({
        route: `${method} ${path}`,
        status: 403,
        body: CREDENTIALS_FORBIDDEN('svc_manage_operations'),
      });
    }
    expect((await ctx.deps.storage.listApiKeys(ctx.workspace.id)).map((key) => key.id)).toEqual([expect.any(String), extra.id]);
    expect((await bootstrapRequest(ctx, credential)).status).toBe(201);
    expect((await ctx.request('DELETE', `${V1}/panel/origins/${origin.id}`, { headers: bearer(token) })).status).toBe(200);
    expect((await bootstrapRequest(ctx, credential)).status).toBe(401);
  });

  test('a session with both capabilities mints and revokes credentials', async () => {
    const token = await embeddedSession(ctx, credential);
    const minted = await ctx.request('POST', `${V1}/api-keys`, { headers: bearer(token), body: { name: 'ci' } });
    expect(minted.status).toBe(200);
    expect((await ctx.request('POST', `${V1}/pairing-codes`, { headers: bearer(token) })).status).toBe(200);
    expect((await ctx.request('DELETE', `${V1}/api-keys/${minted.body.apiKey.id}`, { headers: bearer(token) })).status).toBe(200);
  });

  test('an expired session, one of another workspace, and one whose linked site was revoked -> 401', async () => {
    const expiring = await embeddedSession(ctx, credential);
    ctx.clock.advance(30 * 60_000);
    expect(await ctx.request('GET', V1, { headers: bearer(expiring) })).toMatchObject({ status: 401, body: INVALID_SESSION });

    const other = await createWorkspace(ctx.deps, { slug: 'other', name: 'Other' });
    const standalone = (await ctx.request('POST', '/api/panel/session', { body: { workspaceSlug: 'other', apiKey: other.apiKey } })).body.token;
    expect(await ctx.request('GET', V1, { headers: bearer(standalone) })).toMatchObject({ status: 401, body: INVALID_SESSION });

    const live = await embeddedSession(ctx, credential);
    const [origin] = (await ctx.request('GET', `${V1}/panel/origins`, { key: ctx.apiKey })).body.origins;
    expect((await ctx.request('DELETE', `${V1}/panel/origins/${origin.id}`, { headers: bearer(live) })).status).toBe(200);
    expect(await ctx.request('GET', V1, { headers: bearer(live) })).toMatchObject({ status: 401, body: INVALID_SESSION });
  });

  test('a standalone session ends when the API key it signed in with is revoked', async () => {
    const extra = (await ctx.request('POST', `${V1}/api-keys`, { key: ctx.apiKey, body: { name: 'laptop' } })).body;
    const token = (await ctx.request('POST', '/api/panel/session', { body: { workspaceSlug: 'acme', apiKey: extra.key } })).body.token;
    expect((await ctx.request('GET', V1, { headers: bearer(token) })).status).toBe(200);
    expect((await ctx.request('DELETE', `${V1}/api-keys/${extra.apiKey.id}`, { key: ctx.apiKey })).status).toBe(200);
    expect(await ctx.request('GET', V1, { headers: bearer(token) })).toMatchObject({ status: 401, body: INVALID_SESSION });
  });

  test('each session has its own rate-limit budget', async () => {
    const first = await embeddedSession(ctx, credential);
    const second = await embeddedSession(ctx, credential);
    const remaining = async (token: string) => (await ctx.request('GET', V1, { headers: bearer(token) })).headers.get('x-ratelimit-remaining');
    expect([await remaining(first), await remaining(first), await remaining(second)]).toEqual(['119', '118', '119']);
  });

  test('a renewed standalone token keeps working; the one it replaced ends', async () => {
    const first = (await ctx.request('POST', '/api/panel/session', { body: { workspaceSlug: 'acme', apiKey: ctx.apiKey } })).body.token;
    const renewed = (await ctx.request('POST', '/api/panel/session/refresh', { headers: bearer(first) })).body.token;
    expect((await ctx.request('GET', V1, { headers: bearer(renewed) })).status).toBe(200);
    expect(await ctx.request('GET', V1, { headers: bearer(first) })).toMatchObject({ status: 401, body: INVALID_SESSION });
  });
});
