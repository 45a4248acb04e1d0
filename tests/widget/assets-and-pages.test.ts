import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { gunzipSync } from 'node:zlib';
import { webAsset } from '../../src/platform/web-assets/routes.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

/** docs/contract/widget.md §9: the widget script is at most 30 KB gzip. */
const WIDGET_BUDGET_BYTES = 30 * 1024;

describe('GET /svc-widget.min.js', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const get = (headers: Record<string, string> = {}, path = '/svc-widget.min.js') => t.app.handle(new Request(`http://localhost${path}`, { headers }));

  test(`the widget script is at most 30 KB gzip (budget)`, () => {
    const asset = webAsset('/svc-widget.min.js');
    expect(asset.gzipBytes).toBeGreaterThan(1000);
    expect(asset.gzipBytes).toBeLessThanOrEqual(WIDGET_BUDGET_BYTES);
  });

  test('serves the built script as application/javascript with a content-hash ETag and a day of cache', async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = await response.text();
    expect(body).toBe(webAsset('/svc-widget.min.js').body);
    expect(body).toContain('svc-booking');
  });

  test('If-None-Match with the current ETag -> 304 without a body; a stale one -> 200', async () => {
    const etag = (await get()).headers.get('etag')!;
    const fresh = await get({ 'if-none-match': etag });
    expect(fresh.status).toBe(304);
    expect(await fresh.text()).toBe('');
    expect(fresh.headers.get('etag')).toBe(etag);
    expect((await get({ 'if-none-match': '"something-older"' })).status).toBe(200);
  });

  test('gzip when the client accepts it, the same bytes once inflated', async () => {
    const response = await get({ 'accept-encoding': 'gzip, br' });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const inflated = gunzipSync(new Uint8Array(await response.arrayBuffer())).toString('utf8');
    expect(inflated).toBe(webAsset('/svc-widget.min.js').body);
  });

  test('?v=<hash> is immutable for a year', async () => {
    const hash = webAsset('/svc-widget.min.js').etag.slice(1, -1);
    const response = await get({}, `/svc-widget.min.js?v=${hash}`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});

describe('hosted pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('libsql', { config: { SVC_PUBLIC_URL: 'https://svc.example.net' } });
  });
  afterAll(() => t.close());
  const get = (path: string) => t.app.handle(new Request(`http://localhost${path}`));
  const STRICT =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-src 'none'; img-src 'self' data: https:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

  test('GET /book/{slug}: the widget inline, the workspace name as title, a strict CSP', async () => {
    await t.request('PATCH', '/api/v1/workspaces/acme', { key: t.apiKey, body: { name: 'Acme <Studio>', language: 'de' } });
    const response = await get('/book/acme');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(STRICT);
    const html = await response.text();
    expect(html).toContain('<title>Acme &lt;Studio&gt;</title>');
    expect(html).toContain('<html lang="de">');
    const hash = webAsset('/svc-widget.min.js').etag.slice(1, -1);
    expect(html).toContain(`<script src="/svc-widget.min.js?v=${hash}" data-slug="acme" data-position="inline" data-theme="system" async></script>`);
    expect(html).not.toMatch(/<style|style=|<script>/);
  });

  test('GET /book/{unknown}: a 404 HTML page, not JSON', async () => {
    const response = await get('/book/nobody-here');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('<title>Booking page not found</title>');
    expect(html).toContain('nobody-here');
  });

  test('GET /: the welcome page links to the demo, the API reference and the admin panel', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(STRICT);
    const html = await response.text();
    for (const link of ['href="/book/demo"', 'href="/api/v1/docs"', 'href="/admin"']) expect(html).toContain(link);
    expect(html).toContain(
      // one attribute a line, so a narrow screen never breaks inside one
      '<pre class="snippet" tabindex="0"><code>&lt;script src=&quot;https://svc.example.net/svc-widget.min.js&quot;\n        data-slug=&quot;your-workspace&quot; async&gt;&lt;/script&gt;</code></pre>',
    );
  });

  test('GET /svc-pages.css serves the pages stylesheet', async () => {
    const response = await get('/svc-pages.css');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  test('a configured captcha adds its provider to the pages CSP, and only then', async () => {
    const withCaptcha = await createTestApp('libsql', { config: { SVC_CAPTCHA_PROVIDER: 'turnstile', SVC_CAPTCHA_SITE_KEY: 'site' } });
    try {
      const csp = (await withCaptcha.app.handle(new Request('http://localhost/book/acme'))).headers.get('content-security-policy');
      expect(csp).toContain("script-src 'self' https://challenges.cloudflare.com");
      expect(csp).toContain('frame-src https://challenges.cloudflare.com');
    } finally {
      await withCaptcha.close();
    }
  });
});
