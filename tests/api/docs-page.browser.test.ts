import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chromiumAvailable, SCREENSHOTS, startBrowserEnv, type BrowserEnv } from '../widget/browser-env.ts';
import { axeViolations } from '../widget/drive.ts';

/*
 * GET /api/v1/docs (docs/decisions/0017, docs/contract/first-day.md §7): Redoc's standalone bundle, served by svc
 * itself, renders the OpenAPI description under the page's CSP with the network cut off beyond svc's origin; no
 * axe violation, with the reader's system in either colour scheme: light, or Redoc started with svc's dark theme.
 */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/** The page's and the sidebar's backgrounds in each scheme (web/docs/docs.css, web/docs/main.ts). */
const BACKGROUND = { light: 'rgb(255, 255, 255)', dark: 'rgb(21, 23, 28)' };
const SIDEBAR = { light: 'rgb(246, 247, 249)', dark: 'rgb(29, 32, 38)' };

describeBrowser('the API reference page', () => {
  let env: BrowserEnv;
  beforeAll(async () => {
    env = await startBrowserEnv();
  }, 60_000);
  afterAll(() => env?.close());

  test('the page: a page-kit document under its own CSP, loading Redoc and its start script from svc, versioned', async () => {
    const response = await fetch(`${env.appUrl}/api/v1/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    const page = await response.text();
    const scripts = [...page.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts).toEqual([
      expect.stringMatching(/^\/api\/v1\/docs\/redoc\.standalone\.js\?v=[\w-]+$/),
      expect.stringMatching(/^\/api\/v1\/docs\/docs\.js\?v=[\w-]+$/),
    ]);

    // the bundle: gzip when accepted, immutable under its ?v= URL, revalidated by ETag without it
    const bundle = await fetch(`${env.appUrl}${scripts[0]}`, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-encoding')).toBe('gzip');
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const compressed = new Uint8Array(await bundle.arrayBuffer());
    const source = gunzipSync(compressed).toString();
    expect(source).toContain('Redoc');
    expect(compressed.length).toBeLessThan(source.length / 2);
    const etag = bundle.headers.get('etag')!;
    const again = await fetch(`${env.appUrl}/api/v1/docs/redoc.standalone.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`${colorScheme}: offline beyond svc, under its CSP, it renders the operations and webhooks; no axe violation`, async () => {
      const { context, page, errors } = await env.open({ colorScheme });
      const origin = new URL(env.appUrl).origin;
      const elsewhere: string[] = [];
      // the network stops at svc: any request to another origin is noted and refused
      await context.route(
        () => true,
        (route) => {
          const url = route.request().url();
          if (url.startsWith('blob:') || url.startsWith('data:') || new URL(url).origin === origin) return route.continue();
          elsewhere.push(url);
          return route.abort('blockedbyclient');
        },
      );
      await page.goto(`${env.appUrl}/api/v1/docs`);
      // an operation of the document and its HTTP method, rendered by Redoc
      await page
        .locator('h2', { hasText: /^Get a workspace\s*$/ })
        .first()
        .waitFor({ timeout: 60_000 });
      expect(await page.locator('[role="menuitem"] .operation-type').count()).toBeGreaterThan(20);
      expect(await page.getByText('booking.created').count()).toBeGreaterThan(0);
      // the page follows the reader's scheme: Redoc started with the matching theme (docs/decisions/0017)
      expect(await page.locator('#redoc').getAttribute('data-scheme')).toBe(colorScheme);
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(BACKGROUND[colorScheme]);
      // the middle column and the sidebar stand on the page's own background, not a light one
      const surfaces = await page.evaluate(() =>
        ['.api-content', '.menu-content'].map((selector) => getComputedStyle(document.querySelector(selector)!).backgroundColor),
      );
      expect(surfaces[0]).toBe('rgba(0, 0, 0, 0)');
      expect(surfaces[1]).toBe(SIDEBAR[colorScheme]);
      // the viewport only: the whole reference is too tall for one picture
      await page.screenshot({ path: join(SCREENSHOTS, `api-docs-${colorScheme}.png`) });
      expect(elsewhere).toEqual([]);
      // no script error and no CSP refusal while it rendered
      expect(errors).toEqual([]);
      await context.close();

      // axe-core is injected by the test, which the page's CSP would refuse: a second context lets it in
      const audit = await env.open({ colorScheme, bypassCSP: true });
      await audit.page.goto(`${env.appUrl}/api/v1/docs`);
      await audit.page
        .locator('h2', { hasText: /^Get a workspace\s*$/ })
        .first()
        .waitFor({ timeout: 60_000 });
      expect(await axeViolations(audit.page)).toEqual([]);
      await audit.context.close();
    }, 240_000);
  }

  test('a reader whose system turns dark while the page is open gets the dark theme without reloading, and back', async () => {
    const { context, page, errors } = await env.open({ colorScheme: 'light' });
    await page.goto(`${env.appUrl}/api/v1/docs`);
    await page
      .locator('#redoc[data-scheme="light"] h2', { hasText: /^Get a workspace\s*$/ })
      .first()
      .waitFor({ timeout: 60_000 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page
      .locator('#redoc[data-scheme="dark"] h2', { hasText: /^Get a workspace\s*$/ })
      .first()
      .waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.menu-content')!).backgroundColor)).toBe(SIDEBAR.dark);
    expect(await page.locator('#redoc').count()).toBe(1);
    await page.emulateMedia({ colorScheme: 'light' });
    await page
      .locator('#redoc[data-scheme="light"] h2', { hasText: /^Get a workspace\s*$/ })
      .first()
      .waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.menu-content')!).backgroundColor)).toBe(SIDEBAR.light);
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
