import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { chromiumAvailable, startBrowserEnv, type BrowserEnv } from './browser-env.ts';
import { seedCatalogue } from './catalogue.ts';
import { axeViolations, chooseFirstDay, chooseService, widgetOf } from './drive.ts';

/*
 * The widget is light or dark as the page around it is, even when its async script runs before the page's
 * stylesheet has arrived (a slow stylesheet, the widget's script from cache): it looks at the page again once the
 * page has loaded. The hosted booking page follows the visitor's system from the start (data-theme="system").
 * The stylesheets are held back by the test until the widget has shown its first step.
 */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

describeBrowser('the widget theme when the page stylesheet comes late', () => {
  let env: BrowserEnv;
  beforeAll(async () => {
    env = await startBrowserEnv();
    await seedCatalogue(env);
  }, 30_000);
  afterAll(() => env?.close());

  /** Holds every request matching `pattern` until the widget's first step shows, then lets it through. */
  async function holdUntilWidgetShows(page: Page, pattern: string | RegExp): Promise<() => Promise<void>> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(pattern, async (route) => {
      await held;
      await route.fallback();
    });
    return async () => {
      await widgetOf(page).getByRole('heading', { name: 'Choose a service' }).waitFor();
      release();
    };
  }

  test('a dark host page whose stylesheet arrives after the widget started: the widget turns dark', async () => {
    env.hostPage('/dark-late', {
      html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dark host</title><link rel="stylesheet" href="/dark.css"></head>
<body><main><h1>A dark site</h1><script src="${env.appUrl}/svc-widget.min.js" data-slug="acme" data-position="inline" async></script></main></body></html>`,
    });
    env.hostPage('/dark.css', { html: 'body { background: #111318; color: #eee; }' });
    const { context, page, errors } = await env.open();
    // the host's little server answers text/html: the stylesheet goes out as CSS
    await page.route('**/dark.css', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'text/css' } });
    });
    const release = await holdUntilWidgetShows(page, '**/dark.css');
    await page.goto(`${env.hostUrl}/dark-late`, { waitUntil: 'commit' });
    await release();
    await page.waitForFunction(() => document.querySelector('svc-booking')?.getAttribute('theme') === 'dark');
    expect(await widgetOf(page).evaluate((host) => getComputedStyle(host).colorScheme)).toBe('dark');
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const width of [390, 1280]) {
    test(`the booking page at ${width} px in the dark, with its stylesheet late: a dark widget from the first step to the details, axe-clean, no sideways scrolling`, async () => {
      // axe-core is injected by the test, which the page's CSP would refuse
      const { context, page, errors } = await env.open({ colorScheme: 'dark', viewport: { width, height: 844 }, bypassCSP: true });
      const release = await holdUntilWidgetShows(page, '**/svc-pages.css*');
      await page.goto(`${env.appUrl}/book/acme`, { waitUntil: 'commit' });
      await release();
      const widget = widgetOf(page);
      // dark before the page's stylesheet has said anything: the widget follows the system
      expect(await widget.evaluate((host) => getComputedStyle(host).colorScheme)).toBe('dark');
      await chooseService(widget, 'Consultation');
      await chooseFirstDay(widget);
      expect(await widget.evaluate((host) => getComputedStyle(host).colorScheme)).toBe('dark');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
