import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { openPayments } from '../../adapters/payments/index.ts';
import { memoryRateLimiter } from '../../adapters/ratelimit/memory.ts';
import { createApp } from '../../src/app.ts';
import { parseConfig, type Config } from '../../src/platform/config.ts';
import { calendarConnector } from '../../adapters/calendar/index.ts';
import type { AppDeps } from '../../src/platform/app-deps.ts';
import { systemClock } from '../../src/core/clock.ts';
import { silentLogger } from '../../src/platform/logger.ts';
import type { WorkspaceRecord } from '../../src/ports/storage/index.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { freePort } from '../support/process.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';

export const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';
/** where screenshots go: test-output/screenshots, or SVC_SCREENSHOTS when set */
export const SCREENSHOTS = process.env.SVC_SCREENSHOTS ?? join(import.meta.dir, '..', '..', 'test-output', 'screenshots');

/** The host page's address: another origin than svc's (127.0.0.1), an allowed widget domain of `acme`. */
export const ALLOWED_HOST = '127.0.0.2';
/** A second host page address that no workspace allows. */
export const OTHER_HOST = '127.0.0.3';

export interface HostPage {
  html: string;
  /** Content-Security-Policy of the page; none when absent */
  csp?: string;
}

/**
 * One svc (in-process, real HTTP, system clock, libSQL) on 127.0.0.1, one host-page server answering on
 * 127.0.0.2 and 127.0.0.3, and one Chromium: what a browser test file shares.
 */
export interface BrowserEnv {
  appUrl: string;
  /** http://127.0.0.2:port: allowed for acme */
  hostUrl: string;
  /** http://127.0.0.3:port: allowed nowhere */
  otherHostUrl: string;
  deps: AppDeps;
  db: TestDatabase;
  workspace: WorkspaceRecord;
  apiKey: string;
  browser: Browser;
  /** serves `page` at `path` on both host addresses */
  hostPage(path: string, page: HostPage): void;
  /** a new browser context (emulation options such as timezoneId, colorScheme, viewport) and page */
  open(options?: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  /** saves a screenshot under test-output/screenshots */
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export async function startBrowserEnv(options: { config?: Record<string, unknown>; payments?: 'none' | 'test' } = {}): Promise<BrowserEnv> {
  const db = await createTestDatabase('libsql');
  const port = freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const config: Config = parseConfig({
    SVC_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    SVC_DEMO: false,
    SVC_PUBLIC_URL: appUrl,
    ...options.config,
  });
  const deps: AppDeps = {
    storage: db.storage,
    config,
    clock: systemClock,
    logger: silentLogger,
    rateLimiter: memoryRateLimiter(),
    payments: openPayments({ ...config, SVC_PAYMENTS: options.payments ?? 'none' }),
    calendars: calendarConnector({ allowPrivate: false }),
  };
  const { workspace, apiKey } = await createWorkspace(deps, { slug: 'acme', name: 'Acme Studio', timezone: 'Europe/Berlin' });
  const allowed = (await db.storage.updateWorkspace(workspace.id, { domains: [ALLOWED_HOST] }, Date.now()))!;
  const app = createApp(deps);
  const server = Bun.serve({ port, hostname: '127.0.0.1', fetch: (request) => app.handle(request) });

  const pages = new Map<string, HostPage>();
  const serveHost = (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === '/favicon.ico') return new Response(null, { status: 204 });
    const hosted = pages.get(path);
    if (!hosted) return new Response('not found', { status: 404 });
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
    if (hosted.csp) headers['content-security-policy'] = hosted.csp;
    return new Response(hosted.html, { headers });
  };
  const hostPort = freePort();
  const hosts = [ALLOWED_HOST, OTHER_HOST].map((hostname) => Bun.serve({ port: hostPort, hostname, fetch: serveHost }));

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    appUrl,
    hostUrl: `http://${ALLOWED_HOST}:${hostPort}`,
    otherHostUrl: `http://${OTHER_HOST}:${hostPort}`,
    deps,
    db,
    workspace: allowed,
    apiKey,
    browser,
    hostPage: (path, page) => void pages.set(path, page),
    async open(contextOptions = {}) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...contextOptions });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') errors.push(`${message.type()}: ${message.text()}`);
      });
      return { context, page, errors };
    },
    async screenshot(page, name) {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
    async close() {
      await browser.close();
      for (const host of hosts) host.stop(true);
      server.stop(true);
      await db.drop();
    },
  };
}

/** A host page with one widget tag; `attributes` become data-* attributes. */
export function widgetPage(appUrl: string, attributes: Record<string, string>, extra = ''): string {
  const data = Object.entries(attributes)
    .map(([key, value]) => ` data-${key}="${value}"`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host page</title></head>
<body><main><h1>A site that takes bookings</h1><p>Some text of the host page.</p>
<script src="${appUrl}/svc-widget.min.js"${data} async></script>${extra}
</main></body></html>`;
}
