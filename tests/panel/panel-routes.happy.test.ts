import { afterEach, beforeEach, expect, test } from 'bun:test';
import { decodeJwt } from 'jose';
import { sha256Hex } from '../../src/core/secrets.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { BOTH, bootstrapRequest, link, SHOP } from './support.ts';
import { catalogue, tuesday } from '../bookings/fixtures.ts';

const V1 = '/api/v1/workspaces/acme';
const NOW_MS = Date.parse(TEST_NOW);
const iso = (ms: number) => new Date(ms).toISOString();

describeEachAdapter('panel routes, happy paths', (adapter) => {
  let ctx: TestApp;
  beforeEach(async () => {
    ctx = await createTestApp(adapter);
  });
  afterEach(() => ctx.close());

  test('PUT origin with a pairing code -> 201 with a host credential; the origin is listed and its host added to the widget domains', async () => {
    const pairing = await ctx.request('POST', `${V1}/pairing-codes`, { key: ctx.apiKey });
    expect(pairing.status).toBe(200);
    expect(pairing.body).toEqual({ success: true, pairingCode: expect.stringMatching(/^svc_pair_[A-Za-z0-9_-]{43}$/), expiresAt: iso(NOW_MS + 3_600_000) });
    const linked = await ctx.request('PUT', '/api/integrations/wordpress/panel/origin', {
      headers: { authorization: `SvcPair ${pairing.body.pairingCode}` },
      body: { version: 1, workspaceSlug: 'acme', origin: 'https://Shop.Example.com:443' },
    });
    expect(linked.status).toBe(201);
    expect(linked.body).toEqual({ success: true, hostCredential: expect.stringMatching(/^svc_host_[A-Za-z0-9_-]{43}$/), origin: SHOP, workspaceSlug: 'acme' });
    const origins = await ctx.request('GET', `${V1}/panel/origins`, { key: ctx.apiKey });
    expect(origins.body).toEqual({
      success: true,
      origins: [{ id: expect.stringMatching(/^hc_/), origin: SHOP, platform: 'wordpress', createdAt: TEST_NOW, lastUsedAt: null }],
    });
    const stored = await ctx.deps.storage.findHostCredential(sha256Hex(linked.body.hostCredential));
    expect(stored).toMatchObject({ origin: SHOP, workspaceId: ctx.workspace.id });
    expect((await ctx.request('GET', `${V1}/domains`, { key: ctx.apiKey })).body).toEqual({ success: true, domains: ['shop.example.com'] });
  });

  test('the hostplatform segment links and bootstraps too, and linking the same origin again replaces its credential', async () => {
    const first = await link(ctx, SHOP, 'hostplatform');
    const second = await link(ctx, SHOP, 'hostplatform');
    expect((await bootstrapRequest(ctx, first, { platform: 'hostplatform' })).status).toBe(401);
    expect((await bootstrapRequest(ctx, second, { platform: 'hostplatform' })).status).toBe(201);
    const origins = (await ctx.request('GET', `${V1}/panel/origins`, { key: ctx.apiKey })).body.origins;
    expect(origins).toEqual([{ id: expect.any(String), origin: SHOP, platform: 'hostplatform', createdAt: TEST_NOW, lastUsedAt: TEST_NOW }]);
    expect((await ctx.request('GET', `${V1}/domains`, { key: ctx.apiKey })).body.domains).toEqual(['shop.example.com']);
  });

  test('bootstrap -> 201 with a one-time code valid 60 s, a signed frameContext naming the code by hash, and the slug', async () => {
    const credential = await link(ctx);
    const response = await bootstrapRequest(ctx, credential, { capabilities: ['svc_manage_settings', 'svc_unknown'] });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      code: expect.stringMatching(/^svc_code_[A-Za-z0-9_-]{43}$/),
      frameContext: expect.any(String),
      expiresAt: iso(NOW_MS + 60_000),
      workspaceSlug: 'acme',
    });
    const claims = decodeJwt(response.body.frameContext);
    expect(claims).toEqual({
      slug: 'acme',
      origin: SHOP,
      caps: ['svc_manage_settings'],
      code: sha256Hex(response.body.code),
      sub: 'wp-user-1',
      aud: 'svc-panel',
      iat: NOW_MS / 1000,
      exp: NOW_MS / 1000 + 60,
    });
    expect(response.body.frameContext).not.toContain(response.body.code);
  });

  test('session exchange -> 201 with a 30-minute token, the capabilities asked for and the workspace; the code works once', async () => {
    const credential = await link(ctx);
    const boot = await bootstrapRequest(ctx, credential, { capabilities: ['svc_manage_operations'] });
    ctx.clock.advance(5_000);
    const session = await ctx.request('POST', '/api/panel/session', { body: { code: boot.body.code, frameContext: boot.body.frameContext } });
    expect(session.status).toBe(201);
    expect(session.body).toEqual({
      success: true,
      token: expect.stringMatching(/^svc_sess_[A-Za-z0-9_-]{43}$/),
      expiresAt: iso(NOW_MS + 5_000 + 1_800_000),
      expiresIn: 1800,
      renewableUntil: iso(NOW_MS + 5_000 + 12 * 3_600_000),
      capabilities: ['svc_manage_operations'],
      origin: SHOP,
      workspace: { id: ctx.workspace.id, slug: 'acme', name: 'Acme Studio', logoUrl: null, primaryColor: null },
    });
    const again = await ctx.request('POST', '/api/panel/session', { body: { code: boot.body.code, frameContext: boot.body.frameContext } });
    expect(again.status).toBe(401);
  });

  test('standalone sign-in with slug and API key -> a session with both capabilities and no origin', async () => {
    const session = await ctx.request('POST', '/api/panel/session', { body: { workspaceSlug: 'acme', apiKey: ctx.apiKey } });
    expect(session.status).toBe(201);
    expect(session.body).toMatchObject({ success: true, capabilities: BOTH, origin: null, expiresIn: 1800, workspace: { slug: 'acme', name: 'Acme Studio' } });
    const keys = (await ctx.request('GET', `${V1}/api-keys`, { key: ctx.apiKey })).body.apiKeys;
    expect(keys[0].lastUsedAt).toBe(TEST_NOW);
  });

  test('refresh -> 201 with a new token; the old one no longer refreshes; the new one expires 30 minutes after the refresh', async () => {
    const first = (await ctx.request('POST', '/api/panel/session', { body: { workspaceSlug: 'acme', apiKey: ctx.apiKey } })).body.token;
    ctx.clock.advance(28 * 60_000);
    const renewed = await ctx.request('POST', '/api/panel/session/refresh', { headers: { authorization: `Bearer ${first}` } });
    expect(renewed.status).toBe(201);
    expect(renewed.body).toMatchObject({
      success: true,
      expiresAt: iso(NOW_MS + 58 * 60_000),
      renewableUntil: iso(NOW_MS + 12 * 3_600_000),
      capabilities: BOTH,
      origin: null,
    });
    expect(renewed.body.token).not.toBe(first);
    expect((await ctx.request('POST', '/api/panel/session/refresh', { headers: { authorization: `Bearer ${first}` } })).status).toBe(401);
    expect((await ctx.request('POST', '/api/panel/session/refresh', { headers: { authorization: `Bearer ${renewed.body.token}` } })).status).toBe(201);
  });

  test('renewals stop at 12 hours after sign-in: the last one is cut to that instant', async () => {
    let token = (await ctx.request('POST', '/api/panel/session', { body: { workspaceSlug: 'acme', apiKey: ctx.apiKey } })).body.token;
    let last: any;
    for (let minutes = 25; minutes < 12 * 60; minutes += 25) {
      ctx.clock.set(NOW_MS + minutes * 60_000);
      last = await ctx.request('POST', '/api/panel/session/refresh', { headers: { authorization: `Bearer ${token}` } });
      expect({ minutes, status: last.status, body: last.body.error }).toMatchObject({ minutes, status: 201 });
      token = last.body.token;
    }
    expect(last.body.expiresAt).toBe(iso(NOW_MS + 12 * 3_600_000));
    ctx.clock.set(NOW_MS + 12 * 3_600_000 - 1);
    expect((await ctx.request('POST', '/api/panel/session/refresh', { headers: { authorization: `Bearer ${token}` } })).status).toBe(201);
  });

  test('DELETE origin with the host credential -> 204; bootstrap with it is refused at once', async () => {
    const credential = await link(ctx);
    const removed = await ctx.request('DELETE', '/api/integrations/wordpress/panel/origin', { headers: { authorization: `SvcHost ${credential}` } });
    expect(removed.status).toBe(204);
    expect(removed.body).toBe('');
    expect((await bootstrapRequest(ctx, credential)).status).toBe(401);
    expect((await ctx.request('GET', `${V1}/panel/origins`, { key: ctx.apiKey })).body.origins).toEqual([]);
  });

  test('revoking a linked origin through v1 stops its bootstrap at once and ends its sessions', async () => {
    const credential = await link(ctx);
    const boot = await bootstrapRequest(ctx, credential);
    const token = (await ctx.request('POST', '/api/panel/session', { body: { code: boot.body.code, frameContext: boot.body.frameContext } })).body.token;
    const [origin] = (await ctx.request('GET', `${V1}/panel/origins`, { key: ctx.apiKey })).body.origins;
    expect(await ctx.request('DELETE', `${V1}/panel/origins/${origin.id}`, { key: ctx.apiKey })).toMatchObject({ status: 200, body: { success: true } });
    expect((await bootstrapRequest(ctx, credential)).status).toBe(401);
    expect((await ctx.request('GET', V1, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await ctx.request('DELETE', `${V1}/panel/origins/${origin.id}`, { key: ctx.apiKey })).status).toBe(404);
  });

  test('API keys: create shows the key once, list shows id, name, prefix, createdAt, lastUsedAt; revoke stops it at once', async () => {
    const created = await ctx.request('POST', `${V1}/api-keys`, { key: ctx.apiKey, body: { name: 'ci' } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      success: true,
      key: expect.stringMatching(/^svc_live_[A-Za-z0-9_-]{43}$/),
      apiKey: { id: expect.stringMatching(/^key_/), name: 'ci', prefix: created.body.key.slice(0, 15), createdAt: TEST_NOW, lastUsedAt: null },
    });
    const listed = await ctx.request('GET', `${V1}/api-keys`, { key: created.body.key });
    expect(listed.body.apiKeys.map((key: any) => key.name)).toEqual(['default', 'ci']);
    // The listing request itself authenticated with the new key.
    expect(listed.body.apiKeys[1]).toEqual({ ...created.body.apiKey, lastUsedAt: TEST_NOW });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    const revoked = await ctx.request('DELETE', `${V1}/api-keys/${created.body.apiKey.id}`, { key: ctx.apiKey });
    expect(revoked).toMatchObject({ status: 200, body: { success: true } });
    expect((await ctx.request('GET', `${V1}/api-keys`, { key: created.body.key })).status).toBe(401);
    expect((await ctx.request('GET', `${V1}/api-keys`, { key: ctx.apiKey })).body.apiKeys.map((key: any) => key.name)).toEqual(['default']);
  });

  test("a key's lastUsedAt is the minute of its last authenticated request, written once a minute", async () => {
    const created = (await ctx.request('POST', `${V1}/api-keys`, { key: ctx.apiKey, body: { name: 'backend' } })).body;
    const lastUsedOfNewKey = async () => {
      const keys = (await ctx.request('GET', `${V1}/api-keys`, { key: ctx.apiKey })).body.apiKeys;
      return keys.find((key: any) => key.id === created.apiKey.id).lastUsedAt;
    };
    expect(await lastUsedOfNewKey()).toBeNull();
    ctx.clock.advance(90_000);
    expect((await ctx.request('GET', `${V1}/services`, { key: created.key })).status).toBe(200);
    expect(await lastUsedOfNewKey()).toBe(iso(NOW_MS + 60_000));
    ctx.clock.advance(20_000);
    await ctx.request('GET', `${V1}/services`, { key: created.key });
    expect(await lastUsedOfNewKey()).toBe(iso(NOW_MS + 60_000));
    ctx.clock.advance(60_000);
    await ctx.request('GET', `${V1}/services`, { key: created.key });
    expect(await lastUsedOfNewKey()).toBe(iso(NOW_MS + 120_000));
    // A refused key records nothing.
    await ctx.request('GET', `${V1}/services`, { key: `${created.key}x` });
    expect(await lastUsedOfNewKey()).toBe(iso(NOW_MS + 120_000));
  });

  test('PATCH workspace sets logoUrl and requiresConfirmation and shows them', async () => {
    const response = await ctx.request('PATCH', V1, { key: ctx.apiKey, body: { logoUrl: 'https://cdn.example.com/logo.png', requiresConfirmation: true } });
    expect(response.status).toBe(200);
    expect(response.body.workspace).toMatchObject({ logoUrl: 'https://cdn.example.com/logo.png', requiresConfirmation: true });
    expect((await ctx.request('PATCH', V1, { key: ctx.apiKey, body: { logoUrl: null } })).body.workspace.logoUrl).toBeNull();
  });

  test('requiresConfirmation set by PATCH makes a keyless booking of a free service PENDING; turned off, the next one is CONFIRMED', async () => {
    const { service } = await catalogue(ctx, { priceMinor: 0 });
    await ctx.request('PUT', `${V1}/domains`, { key: ctx.apiKey, body: { domains: ['shop.example.com'] } });
    const book = (time: string) =>
      ctx.request('POST', `${V1}/bookings`, {
        headers: { origin: SHOP },
        body: { serviceId: service.id, email: 'mia@example.com', name: 'Mia', date: tuesday(time) },
      });
    expect((await ctx.request('PATCH', V1, { key: ctx.apiKey, body: { requiresConfirmation: true } })).status).toBe(200);
    expect(await book('10:00')).toMatchObject({ status: 200, body: { booking: { status: 'PENDING', amount: null } } });
    expect((await ctx.request('PATCH', V1, { key: ctx.apiKey, body: { requiresConfirmation: false } })).status).toBe(200);
    expect(await book('12:00')).toMatchObject({ status: 200, body: { booking: { status: 'CONFIRMED' } } });
  });
});
