import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { CredentialResolvers } from '../../src/platform/access/credentials.ts';
import { hostCredential, keyOrSession, publicRoute, securityRequirements, workspaceKey } from '../../src/platform/access/policy.ts';
import { resolvePrincipal, type AccessRequest } from '../../src/platform/access/resolve.ts';
import { AppError } from '../../src/core/errors.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

/** The principal step alone, against a real store and fake credential resolvers. */
describe('resolvePrincipal', () => {
  let ctx: TestApp;
  const resolvers: CredentialResolvers = {
    panelSession: async (token) => (token === 'ops' ? { id: 'ses_1', workspaceId: ctx.workspace.id, capabilities: ['svc_manage_operations'] } : null),
    hostCredential: async (credential) => (credential === 'host-secret' ? { id: 'hc_1', workspaceId: ctx.workspace.id, origin: 'https://wp.example' } : null),
  };
  const request = (headers: Record<string, string>, overrides: Partial<AccessRequest> = {}): AccessRequest => ({
    method: 'POST',
    slug: 'acme',
    headers: new Headers(headers),
    addressIdentity: 'ip:192.0.2.1',
    now: ctx.clock.now(),
    ...overrides,
  });
  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    return { status: (error as AppError).status, code: (error as AppError).code };
  };

  beforeAll(async () => {
    ctx = await createTestApp('libsql');
  });
  afterAll(() => ctx.close());

  test('an API key -> kind apiKey with every capability, counted per key', async () => {
    const principal = await resolvePrincipal(ctx.deps, resolvers, keyOrSession('svc_manage_settings'), request({ 'x-svc-api-key': ctx.apiKey }), true);
    expect(principal.kind).toBe('apiKey');
    expect(principal.workspace.id).toBe(ctx.workspace.id);
    expect([...principal.capabilities].sort()).toEqual(['svc_manage_operations', 'svc_manage_settings']);
    expect(principal.rateLimitIdentity).toMatch(/^key:[0-9a-f]{32}$/);
  });

  test('a session holding the capability -> kind panelSession, counted per session', async () => {
    const principal = await resolvePrincipal(ctx.deps, resolvers, keyOrSession('svc_manage_operations'), request({ authorization: 'Bearer ops' }), true);
    expect({ kind: principal.kind, capabilities: [...principal.capabilities], identity: principal.rateLimitIdentity }).toEqual({
      kind: 'panelSession',
      capabilities: ['svc_manage_operations'],
      identity: 'session:ses_1',
    });
  });

  test('a session lacking the capability -> 403 FORBIDDEN; reads need none', async () => {
    expect(await failure(resolvePrincipal(ctx.deps, resolvers, keyOrSession('svc_manage_settings'), request({ authorization: 'Bearer ops' }), true))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    const reader = await resolvePrincipal(ctx.deps, resolvers, keyOrSession('read'), request({ authorization: 'bearer ops' }, { method: 'GET' }), true);
    expect(reader.kind).toBe('panelSession');
  });

  test('a route of the API key only ignores a session: 401 missing key', async () => {
    expect(await failure(resolvePrincipal(ctx.deps, resolvers, workspaceKey(), request({ authorization: 'Bearer ops' }), true))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
  });

  test('unknown slug -> 404 before a wrong key or an unknown session -> 401', async () => {
    expect(await failure(resolvePrincipal(ctx.deps, resolvers, keyOrSession('read'), request({ 'x-svc-api-key': 'wrong' }, { slug: 'nope' }), true))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(await failure(resolvePrincipal(ctx.deps, resolvers, keyOrSession('read'), request({ 'x-svc-api-key': 'wrong' }), true))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
    expect(await failure(resolvePrincipal(ctx.deps, resolvers, keyOrSession('read'), request({ authorization: 'Bearer gone' }), true))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
  });

  test('a public route without a credential -> anonymous, counted per client address', async () => {
    const principal = await resolvePrincipal(ctx.deps, resolvers, publicRoute('anyOrigin'), request({}, { method: 'GET' }), true);
    expect({ kind: principal.kind, capabilities: principal.capabilities.size, identity: principal.rateLimitIdentity }).toEqual({
      kind: 'anonymous',
      capabilities: 0,
      identity: 'ip:192.0.2.1',
    });
  });

  test('a host credential names the workspace; missing or unknown -> 401; its limit counts per client address', async () => {
    const policy = hostCredential('panelBootstrap');
    const principal = await resolvePrincipal(ctx.deps, resolvers, policy, request({ authorization: 'SvcHost host-secret' }, { slug: null }), false);
    expect({ kind: principal.kind, workspace: principal.workspace.slug, identity: principal.rateLimitIdentity }).toEqual({
      kind: 'hostCredential',
      workspace: 'acme',
      identity: 'ip:192.0.2.1',
    });
    for (const headers of [{}, { authorization: 'SvcHost other' }, { authorization: 'Bearer host-secret' }] as Record<string, string>[]) {
      expect(await failure(resolvePrincipal(ctx.deps, resolvers, policy, request(headers, { slug: null }), false))).toEqual({
        status: 401,
        code: 'UNAUTHORIZED',
      });
    }
  });

  test('the OpenAPI security of each kind of declaration', () => {
    expect(securityRequirements(keyOrSession('read'))).toEqual([{ apiKey: [] }, { panelSession: [] }]);
    expect(securityRequirements(keyOrSession('svc_manage_operations', { keylessFromAllowedDomain: true }))).toEqual([{ apiKey: [] }, { panelSession: [] }, {}]);
    expect(securityRequirements(workspaceKey({ openWorkspace: 'demo' }))).toEqual([{ apiKey: [] }]);
    expect(securityRequirements(hostCredential('panelBootstrap'))).toEqual([{ hostCredential: [] }]);
    expect(securityRequirements(publicRoute('allowedDomains'))).toEqual([]);
  });
});
