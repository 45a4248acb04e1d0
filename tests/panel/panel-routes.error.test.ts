import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { createPairingCode } from '../../src/features/panel/pairing.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { bootstrapRequest, link, SHOP } from './support.ts';

const V1 = '/api/v1/workspaces/acme';
const unauthorized = (error: string) => ({ success: false, error, code: 'UNAUTHORIZED' });
const REFUSED_CODE = unauthorized('panel code is unknown, used or expired, or does not match its frameContext');
const REFUSED_PAIRING = unauthorized('pairing code is unknown, used, expired or not for this workspace');

describeEachAdapter('panel routes, errors', (adapter) => {
  let ctx: TestApp;
  beforeEach(async () => {
    ctx = await createTestApp(adapter);
  });
  afterEach(() => ctx.close());

  const linkWith = (authorization: string | undefined, body: Record<string, unknown> = {}) =>
    ctx.request('PUT', '/api/integrations/wordpress/panel/origin', {
      headers: authorization ? { authorization } : {},
      body: { version: 1, workspaceSlug: 'acme', origin: SHOP, ...body },
    });

  test('linking without, with a wrong, a used, an expired or a foreign pairing code -> 401, and no credential is stored', async () => {
    expect(await linkWith(undefined)).toMatchObject({ status: 401, body: unauthorized('missing pairing code: send Authorization: SvcPair <pairing code>') });
    expect(await linkWith('SvcPair svc_pair_wrong')).toMatchObject({ status: 401, body: REFUSED_PAIRING });
    const used = (await createPairingCode(ctx.deps, ctx.workspace.id)).pairingCode;
    expect((await linkWith(`SvcPair ${used}`)).status).toBe(201);
    expect(await linkWith(`SvcPair ${used}`, { origin: 'https://other.example.com' })).toMatchObject({ status: 401, body: REFUSED_PAIRING });
    const expired = (await createPairingCode(ctx.deps, ctx.workspace.id)).pairingCode;
    ctx.clock.advance(3_600_000);
    expect(await linkWith(`SvcPair ${expired}`, { origin: 'https://late.example.com' })).toMatchObject({ status: 401, body: REFUSED_PAIRING });
    const other = await createWorkspace(ctx.deps, { slug: 'other', name: 'Other' });
    const foreign = (await createPairingCode(ctx.deps, other.workspace.id)).pairingCode;
    expect(await linkWith(`SvcPair ${foreign}`, { origin: 'https://foreign.example.com' })).toMatchObject({ status: 401, body: REFUSED_PAIRING });
    expect((await ctx.deps.storage.listHostCredentials(ctx.workspace.id)).map((each) => each.origin)).toEqual([SHOP]);
  });

  test('linking with an origin that is not scheme://host[:port], or version 2 -> 400, and the code stays usable', async () => {
    const { pairingCode } = await createPairingCode(ctx.deps, ctx.workspace.id);
    for (const origin of [
      'https://shop.example.com/wp-admin',
      'shop.example.com',
      'ftp://shop.example.com',
      'https://user@shop.example.com',
      'https://shop.example.com?x=1',
    ]) {
      const response = await linkWith(`SvcPair ${pairingCode}`, { origin });
      const error = `origin must be scheme://host[:port]: http or https, a DNS name or an IP address as host (no wildcard), nothing after the port, such as https://shop.example.com; got ${origin}`;
      expect({ origin, status: response.status, body: response.body }).toEqual({
        origin,
        status: 400,
        body: { success: false, error, code: 'VALIDATION_ERROR', details: [{ path: '/origin', message: error }] },
      });
    }
    expect(await linkWith(`SvcPair ${pairingCode}`, { version: 2 })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', error: expect.stringContaining('version') },
    });
    expect((await linkWith(`SvcPair ${pairingCode}`)).status).toBe(201);
  });

  test('linking an origin whose host is a wildcard or carries characters a DNS name cannot -> 400 VALIDATION_ERROR, nothing stored', async () => {
    const { pairingCode } = await createPairingCode(ctx.deps, ctx.workspace.id);
    // hosts the URL parser lets through, which would widen or break frame-ancestors and the widget domains
    for (const origin of [
      'http://*',
      'https://*.example.com',
      'http://a.example;script-src',
      "http://x'.example",
      'https://shop_1.example.com',
      'https://-shop.example.com',
    ]) {
      const response = await linkWith(`SvcPair ${pairingCode}`, { origin });
      const error = `origin must be scheme://host[:port]: http or https, a DNS name or an IP address as host (no wildcard), nothing after the port, such as https://shop.example.com; got ${origin}`;
      expect({ origin, status: response.status, body: response.body }).toEqual({
        origin,
        status: 400,
        body: { success: false, error, code: 'VALIDATION_ERROR', details: [{ path: '/origin', message: error }] },
      });
    }
    expect(await ctx.deps.storage.listHostCredentials(ctx.workspace.id)).toEqual([]);
    expect((await ctx.deps.storage.getWorkspaceById(ctx.workspace.id))!.domains).toEqual([]);
    // the code was not spent on the refusals
    expect((await linkWith(`SvcPair ${pairingCode}`)).status).toBe(201);
  });

  test('an origin whose host is an IP literal links; an IPv4 host becomes a widget domain, and the iframe page names the origin in frame-ancestors', async () => {
    const credential = await link(ctx, 'http://192.0.2.10:8080');
    expect(await link(ctx, 'http://[2001:db8::1]:8443')).toStartWith('svc_host_');
    expect((await ctx.deps.storage.getWorkspaceById(ctx.workspace.id))!.domains).toEqual(['192.0.2.10']);
    const boot = await bootstrapRequest(ctx, credential, { origin: 'http://192.0.2.10:8080' });
    expect(boot.status).toBe(201);
    const page = await ctx.app.handle(new Request(`http://localhost/widget/panel/admin/acme?frameContext=${encodeURIComponent(boot.body.frameContext)}`));
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors http://192.0.2.10:8080 'self'");
  });

  test('bootstrap refuses a missing or unknown credential, another origin, a non-ADMIN role and another workspace with 401; version 2 with 400', async () => {
    const credential = await link(ctx);
    const boot = (options: Parameters<typeof bootstrapRequest>[2], headerCredential = credential) => bootstrapRequest(ctx, headerCredential, options);
    expect(
      await ctx.request('POST', '/api/integrations/wordpress/panel/bootstrap', {
        body: { version: 1, workspaceSlug: 'acme', origin: SHOP, subject: 'u', role: 'ADMIN', capabilities: [] },
      }),
    ).toMatchObject({ status: 401, body: unauthorized('missing host credential: send it as Authorization: SvcHost <credential>') });
    expect(await boot({}, 'svc_host_unknown')).toMatchObject({ status: 401, body: unauthorized('invalid host credential') });
    expect(await boot({ origin: 'https://evil.example.com' })).toMatchObject({
      status: 401,
      body: unauthorized('origin https://evil.example.com is not the linked origin of this host credential'),
    });
    for (const role of ['PROVIDER', 'CUSTOMER', 'admin']) {
      expect(await boot({ role })).toMatchObject({ status: 401, body: unauthorized(`role ${role} does not open the panel; only ADMIN does`) });
    }
    await createWorkspace(ctx.deps, { slug: 'other', name: 'Other' });
    const foreign = await ctx.request('POST', '/api/integrations/wordpress/panel/bootstrap', {
      headers: { authorization: `SvcHost ${credential}` },
      body: { version: 1, workspaceSlug: 'other', origin: SHOP, subject: 'u', role: 'ADMIN', capabilities: [] },
    });
    expect(foreign).toMatchObject({ status: 401, body: unauthorized('the host credential is not linked to this workspace') });
    const v2 = await ctx.request('POST', '/api/integrations/wordpress/panel/bootstrap', {
      headers: { authorization: `SvcHost ${credential}` },
      body: { version: 2, workspaceSlug: 'acme', origin: SHOP, subject: 'u', role: 'ADMIN', capabilities: [] },
    });
    expect(v2).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  test("session exchange refuses a used code, an expired code, an altered frameContext and another code's frameContext with 401", async () => {
    const credential = await link(ctx);
    const exchange = (code: string, frameContext: string) => ctx.request('POST', '/api/panel/session', { body: { code, frameContext } });
    const a = (await bootstrapRequest(ctx, credential)).body;
    const b = (await bootstrapRequest(ctx, credential)).body;
    expect(await exchange(a.code, b.frameContext)).toMatchObject({ status: 401, body: REFUSED_CODE });
    const [header, payload, signature] = a.frameContext.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(
      JSON.stringify({ ...claims, caps: ['svc_manage_operations', 'svc_manage_settings'], origin: 'https://evil.example.com' }),
    ).toString('base64url');
    expect(await exchange(a.code, `${header}.${forged}.${signature}`)).toMatchObject({ status: 401, body: REFUSED_CODE });
    expect((await exchange(a.code, a.frameContext)).status).toBe(201);
    expect(await exchange(a.code, a.frameContext)).toMatchObject({ status: 401, body: REFUSED_CODE });
    ctx.clock.advance(60_000);
    expect(await exchange(b.code, b.frameContext)).toMatchObject({ status: 401, body: REFUSED_CODE });
  });

  test("session exchange with a wrong key, an unknown slug or another workspace's key -> 401; with neither or both forms -> 400", async () => {
    const other = await createWorkspace(ctx.deps, { slug: 'other', name: 'Other' });
    const refused = unauthorized('workspace slug or API key is wrong');
    for (const body of [
      { workspaceSlug: 'acme', apiKey: 'svc_live_wrong' },
      { workspaceSlug: 'nobody', apiKey: ctx.apiKey },
      { workspaceSlug: 'acme', apiKey: other.apiKey },
    ]) {
      expect(await ctx.request('POST', '/api/panel/session', { body })).toMatchObject({ status: 401, body: refused });
    }
    const shape = {
      success: false,
      error: 'send either { code, frameContext } (embedded panel) or { workspaceSlug, apiKey } (standalone)',
      code: 'VALIDATION_ERROR',
    };
    expect(await ctx.request('POST', '/api/panel/session', { body: {} })).toMatchObject({ status: 400, body: shape });
    expect(
      await ctx.request('POST', '/api/panel/session', { body: { code: 'x', frameContext: 'y', workspaceSlug: 'acme', apiKey: ctx.apiKey } }),
    ).toMatchObject({ status: 400, body: shape });
  });

  test('refresh without a token, with an unknown one or an expired one -> 401', async () => {
    const token = (await ctx.request('POST', '/api/panel/session', { body: { workspaceSlug: 'acme', apiKey: ctx.apiKey } })).body.token;
    const refresh = (authorization?: string) => ctx.request('POST', '/api/panel/session/refresh', { headers: authorization ? { authorization } : {} });
    expect(await refresh()).toMatchObject({ status: 401, body: unauthorized('missing session: send Authorization: Bearer <session token>') });
    expect(await refresh('Bearer svc_sess_unknown')).toMatchObject({ status: 401, body: unauthorized('session is unknown or expired; sign in again') });
    ctx.clock.advance(30 * 60_000);
    expect(await refresh(`Bearer ${token}`)).toMatchObject({ status: 401, body: unauthorized('session is unknown or expired; sign in again') });
  });

  test('refresh of an embedded session -> 401 at any time; the session itself keeps working until it ends, and a fresh bootstrap opens a new one', async () => {
    const credential = await link(ctx);
    const open = async () => {
      const boot = await bootstrapRequest(ctx, credential);
      return (await ctx.request('POST', '/api/panel/session', { body: { code: boot.body.code, frameContext: boot.body.frameContext } })).body.token as string;
    };
    const token = await open();
    const refused = unauthorized('an embedded panel session is not renewed here; the host platform opens a new one through a fresh bootstrap');
    expect(await ctx.request('POST', '/api/panel/session/refresh', { headers: { authorization: `Bearer ${token}` } })).toMatchObject({
      status: 401,
      body: refused,
    });
    ctx.clock.advance(28 * 60_000);
    expect(await ctx.request('POST', '/api/panel/session/refresh', { headers: { authorization: `Bearer ${token}` } })).toMatchObject({
      status: 401,
      body: refused,
    });
    // the refusal did not end it, and nothing was issued in its place
    expect((await ctx.request('GET', V1, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    ctx.clock.advance(2 * 60_000);
    expect((await ctx.request('GET', V1, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await ctx.request('GET', V1, { headers: { authorization: `Bearer ${await open()}` } })).status).toBe(200);
  });

  describe('unlinking or re-linking an origin ends its sessions and voids its unspent codes at once', () => {
    const exchange = (boot: { body: { code: string; frameContext: string } }) =>
      ctx.request('POST', '/api/panel/session', { body: { code: boot.body.code, frameContext: boot.body.frameContext } });
    const read = (token: string) => ctx.request('GET', V1, { headers: { authorization: `Bearer ${token}` } });
    const INVALID_SESSION = unauthorized('invalid or expired panel session');

    /** A live session and an unspent bootstrap code of `credential`, then `end` runs. */
    async function afterEnding(credential: string, end: () => Promise<void>) {
      const token = (await exchange(await bootstrapRequest(ctx, credential))).body.token as string;
      const pending = await bootstrapRequest(ctx, credential);
      expect(pending.status).toBe(201);
      await end();
      expect(await exchange(pending)).toMatchObject({ status: 401, body: REFUSED_CODE });
      expect(await read(token)).toMatchObject({ status: 401, body: INVALID_SESSION });
    }

    test('the host unlinks (DELETE …/panel/origin): a code issued before no longer opens a session', async () => {
      const credential = await link(ctx);
      await afterEnding(credential, async () => {
        expect((await ctx.request('DELETE', '/api/integrations/wordpress/panel/origin', { headers: { authorization: `SvcHost ${credential}` } })).status).toBe(
          204,
        );
      });
    });

    test('the owner unlinks (DELETE /v1/…/panel/origins/{id}): a code issued before no longer opens a session', async () => {
      const credential = await link(ctx);
      await afterEnding(credential, async () => {
        const [origin] = (await ctx.request('GET', `${V1}/panel/origins`, { key: ctx.apiKey })).body.origins;
        expect((await ctx.request('DELETE', `${V1}/panel/origins/${origin.id}`, { key: ctx.apiKey })).status).toBe(200);
      });
    });

    test("re-linking the origin ends the old credential's sessions and codes; the new credential opens sessions, another origin's stay", async () => {
      const old = await link(ctx);
      const otherOrigin = 'https://blog.example.com';
      const other = await link(ctx, otherOrigin);
      const otherToken = (await exchange(await bootstrapRequest(ctx, other, { origin: otherOrigin }))).body.token as string;
      let renewed = '';
      await afterEnding(old, async () => {
        renewed = await link(ctx);
      });
      expect((await exchange(await bootstrapRequest(ctx, renewed))).status).toBe(201);
      expect((await read(otherToken)).status).toBe(200);
    });
  });

  test('DELETE origin with an unknown credential -> 401; v1 revokes of unknown ids -> 404', async () => {
    expect(await ctx.request('DELETE', '/api/integrations/hostplatform/panel/origin', { headers: { authorization: 'SvcHost svc_host_nope' } })).toMatchObject({
      status: 401,
      body: unauthorized('invalid host credential'),
    });
    expect(await ctx.request('DELETE', `${V1}/panel/origins/hc_nope`, { key: ctx.apiKey })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await ctx.request('DELETE', `${V1}/api-keys/key_nope`, { key: ctx.apiKey })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  test('PATCH workspace with a field it does not know -> 400 naming it, and nothing changes; a logoUrl that is not http(s) -> 400', async () => {
    const response = await ctx.request('PATCH', V1, { key: ctx.apiKey, body: { name: 'Renamed', logo: 'https://x.example/l.png' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR', error: expect.stringMatching(/^logo is not a field of this request/) });
    expect((await ctx.deps.storage.getWorkspaceById(ctx.workspace.id))!.name).toBe('Acme Studio');
    expect(await ctx.request('PATCH', V1, { key: ctx.apiKey, body: { logoUrl: 'javascript:alert(1)' } })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR' },
    });
    expect(await ctx.request('POST', `${V1}/api-keys`, { key: ctx.apiKey, body: { nmae: 'typo' } })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^nmae is not a field/) },
    });
  });

  test('the 11th link in a minute and the 61st bootstrap in a minute from one IP -> 429 RATE_LIMITED', async () => {
    const credential = await link(ctx);
    for (let i = 0; i < 9; i++) expect((await linkWith('SvcPair svc_pair_wrong')).status).toBe(401);
    const limited = await linkWith('SvcPair svc_pair_wrong');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(limited.headers.get('retry-after')).toBe('60');
    for (let i = 0; i < 60; i++) expect((await bootstrapRequest(ctx, credential)).status).toBe(201);
    expect((await bootstrapRequest(ctx, credential)).status).toBe(429);
    ctx.clock.advance(60_000);
    expect((await bootstrapRequest(ctx, credential)).status).toBe(201);
  });
});
