import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ensureDemoWorkspace } from '../../src/features/demo/seed.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

const ALLOWED = 'https://shop.example.com';
const SUBDOMAIN = 'https://book.example.org';
const STRANGER = 'https://evil.example.net';

function corsHeaders(headers: Headers) {
  return Object.fromEntries([...headers].filter(([name]) => name.startsWith('access-control-')));
}

describe('CORS: only the widget routes, only for allowed origins', () => {
  let ctx: TestApp;
  beforeAll(async () => {
    ctx = await createTestApp('libsql');
    await ctx.deps.storage.updateWorkspace(ctx.workspace.id, { domains: ['shop.example.com', '*.example.org'] }, ctx.clock.now());
    await ensureDemoWorkspace(ctx.deps);
  });
  afterAll(() => ctx.close());

  test('widget config is readable from any origin', async () => {
    const response = await ctx.request('GET', '/api/v1/workspaces/acme/config', { headers: { origin: STRANGER } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(STRANGER);
    expect(response.headers.get('vary')).toBe('Origin');
    expect(response.headers.get('access-control-expose-headers')).toContain('x-ratelimit-remaining');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  test('preflight of availability from an allowed domain and from a subdomain wildcard -> 204 with CORS headers', async () => {
    for (const origin of [ALLOWED, SUBDOMAIN]) {
      const response = await ctx.request('OPTIONS', '/api/v1/workspaces/acme/availability', {
        headers: { origin, 'access-control-request-method': 'GET' },
      });
      expect(response.status).toBe(204);
      expect(corsHeaders(response.headers)).toEqual({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, OPTIONS',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
      });
    }
  });

  test('preflight of a keyless booking from an allowed domain never allows the API key header', async () => {
    const response = await ctx.request('OPTIONS', '/api/v1/workspaces/acme/bookings', {
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-svc-api-key' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type');
  });

  test('preflight from a domain that is not allowed -> no CORS headers', async () => {
    for (const origin of [STRANGER, 'https://example.org', 'https://shop.example.com.evil.net']) {
      const response = await ctx.request('OPTIONS', '/api/v1/workspaces/acme/bookings', {
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(response.status).toBe(204);
      expect(corsHeaders(response.headers)).toEqual({});
    }
  });

  test('the demo workspace allows any origin', async () => {
    const response = await ctx.request('OPTIONS', '/api/v1/workspaces/demo/bookings', {
      headers: { origin: STRANGER, 'access-control-request-method': 'POST' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe(STRANGER);
  });

  test('keyed routes send no CORS headers, even to an allowed origin', async () => {
    const response = await ctx.request('GET', '/api/v1/workspaces/acme', { key: ctx.apiKey, headers: { origin: ALLOWED } });
    expect(response.status).toBe(200);
    expect(corsHeaders(response.headers)).toEqual({});
    const list = await ctx.request('GET', '/api/v1/workspaces/acme/bookings', { key: ctx.apiKey, headers: { origin: ALLOWED } });
    expect(corsHeaders(list.headers)).toEqual({});
  });

  test('preflight of a keyed route -> 404 without CORS headers', async () => {
    for (const [path, method] of [
      ['/api/v1/workspaces/acme', 'GET'],
      ['/api/v1/workspaces/acme/bookings', 'GET'],
      ['/api/v1/workspaces/acme/services', 'POST'],
    ] as const) {
      const response = await ctx.request('OPTIONS', path, { headers: { origin: ALLOWED, 'access-control-request-method': method } });
      expect(response.status).toBe(404);
      expect(corsHeaders(response.headers)).toEqual({});
    }
  });

  test('a public route called with an API key is a backend call: no CORS headers', async () => {
    const response = await ctx.request('GET', '/api/v1/workspaces/acme/config', { key: ctx.apiKey, headers: { origin: ALLOWED } });
    expect(response.status).toBe(200);
    expect(corsHeaders(response.headers)).toEqual({});
  });
});
