/**
 * Widget benchmark (issue 11): in Chromium, the time from the widget script having loaded (its resource timing
 * `responseEnd`) to (a) an interactive launcher button and (b) the first open days of the calendar, and from a
 * click on a day to its times shown. svc runs in-process on the demo workspace; the host page is another origin.
 *
 *   bun scripts/bench/widget.ts [--runs 20]
 */
import { calendarConnector } from '../../adapters/calendar/index.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { openPayments } from '../../adapters/payments/index.ts';
import { memoryRateLimiter } from '../../adapters/ratelimit/memory.ts';
import { libsqlStorage } from '../../adapters/storage/libsql/index.ts';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/platform/config.ts';
import { ensureDemoWorkspace } from '../../src/features/demo/seed.ts';
import type { AppDeps } from '../../src/platform/app-deps.ts';
import { systemClock } from '../../src/core/clock.ts';
import { silentLogger } from '../../src/platform/logger.ts';
import { ensureWebAssets } from '../build-web.ts';
import { machine } from './load.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
const RUNS = Number(values.runs);

await ensureWebAssets();
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-widget-'));
const storage = libsqlStorage(`file:${join(dir, 'svc.db')}`);
await storage.migrate();
const listen = (hostname: string, fetch: (request: Request) => Response | Promise<Response>) => Bun.serve({ hostname, port: 0, fetch });
const config = parseConfig({ SVC_SECRET: 'bench-secret-bench-secret-bench-secret-0123', SVC_DEMO: true });
const deps: AppDeps = {
  storage,
  config,
  clock: systemClock,
  logger: silentLogger,
  rateLimiter: memoryRateLimiter(),
  payments: openPayments(config),
  calendars: calendarConnector({ allowPrivate: false }),
};
await ensureDemoWorkspace(deps);
const app = createApp(deps);
const svc = listen('127.0.0.1', (request) => app.handle(request));
const appUrl = `http://127.0.0.1:${svc.port}`;
const serviceId = (await storage.listServices((await storage.getWorkspaceBySlug('demo'))!.id, { activeOnly: true }))[0]!.id;
const pages: Record<string, string> = {
  '/floating': `<!doctype html><html lang="en"><title>bench</title><body><script src="${appUrl}/svc-widget.min.js" data-slug="demo" async></script></body></html>`,
  '/inline': `<!doctype html><html lang="en"><title>bench</title><body><script src="${appUrl}/svc-widget.min.js" data-slug="demo" data-position="inline" data-service="${serviceId}" async></script></body></html>`,
};
const host = listen('127.0.0.2', (request) => new Response(pages[new URL(request.url).pathname] ?? 'not found', { headers: { 'content-type': 'text/html' } }));
const hostUrl = `http://127.0.0.2:${host.port}`;

const browser = await chromium.launch({
  executablePath: process.env.SVC_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

/** In the page from its start: the first moment (performance.now()) each selector exists in the widget's shadow root. */
function watch() {
  const seen: Record<string, number> = {};
  (window as unknown as { seen: Record<string, number> }).seen = seen;
  const selectors = ['button.launcher', 'button.day.open', 'button.time'];
  const check = () => {
    const root = document.querySelector('svc-booking')?.shadowRoot;
    for (const selector of selectors) if (!(selector in seen) && root?.querySelector(selector)) seen[selector] = performance.now();
    if (Object.keys(seen).length < selectors.length) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/** ms from the script's responseEnd until `selector` first existed. */
async function sinceScript(page: Page, selector: string): Promise<number> {
  await page.waitForFunction((wanted) => wanted in (window as unknown as { seen: Record<string, number> }).seen, selector);
  return page.evaluate((wanted) => {
    const script = performance.getEntriesByType('resource').find((entry) => entry.name.includes('svc-widget.min.js')) as PerformanceResourceTiming;
    return (window as unknown as { seen: Record<string, number> }).seen[wanted]! - script.responseEnd;
  }, selector);
}

const samples: Record<string, number[]> = { launcher: [], days: [], slots: [] };
for (let run = 0; run < RUNS; run++) {
  // a fresh context each run: nothing cached, as for a first visit
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(watch);
  await page.goto(`${hostUrl}/floating`);
  samples.launcher!.push(await sinceScript(page, 'button.launcher'));
  await page.goto(`${hostUrl}/inline`);
  samples.days!.push(await sinceScript(page, 'button.day.open'));
  const clicked = await page.evaluate(() => {
    (document.querySelector('svc-booking')!.shadowRoot!.querySelector('button.day.open') as HTMLButtonElement).click();
    return performance.now();
  });
  await page.waitForFunction(() => 'button.time' in (window as unknown as { seen: Record<string, number> }).seen);
  const shown = await page.evaluate(() => (window as unknown as { seen: Record<string, number> }).seen['button.time']!);
  samples.slots!.push(shown - clicked);
  await context.close();
}
await browser.close();
svc.stop(true);
host.stop(true);
await storage.close();
rmSync(dir, { recursive: true, force: true });

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5).toFixed(1), p90: at(0.9).toFixed(1), max: sorted.at(-1)!.toFixed(1) };
};
console.log(`widget bench, ${RUNS} cold runs each, ${machine()}`);
console.log('| measure | median ms | p90 ms | max ms |\n|---|---|---|---|');
for (const [name, label] of [
  ['launcher', 'script loaded → launcher button (floating)'],
  ['days', 'script loaded → first open days (inline, data-service)'],
  ['slots', 'click on a day → its times shown'],
] as const) {
  const { median, p90, max } = stats(samples[name]!);
  console.log(`| ${label} | ${median} | ${p90} | ${max} |`);
}
