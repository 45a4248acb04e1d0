import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { openPayments } from '../../adapters/payments/index.ts';
import { memoryRateLimiter } from '../../adapters/ratelimit/memory.ts';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/platform/config.ts';
import { startBackground } from '../../src/scheduler/index.ts';
import { type CalendarConnectorOptions, calendarConnector } from '../../adapters/calendar/index.ts';
import type { AppDeps } from '../../src/platform/app-deps.ts';
import { createPairingCode } from '../../src/features/panel/pairing.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { freePort } from '../support/process.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';
import { CHROMIUM, SCREENSHOTS } from '../widget/browser-env.ts';

/** The linked host site; pages on OTHER_HOST (same port) are on an origin no workspace linked. */
export const HOST = '127.0.0.2';
export const OTHER_HOST = '127.0.0.3';
/** Short sessions, so a test sees the panel renew (docs/contract/panel.md with SVC_PANEL_SESSION_SECONDS). */
export const SESSION_SECONDS = 12;

export interface PanelBrowserEnv {
  appUrl: string;
  /** http://127.0.0.2:port: the linked site */
  hostUrl: string;
  /** http://127.0.0.3:port: a site that is not linked */
  otherUrl: string;
  deps: AppDeps;
  db: TestDatabase;
  apiKey: string;
  hostCredential: string;
  browser: Browser;
  /** every line svc logged */
  logLines: string[];
  /** every secret the run saw issued: pairing code, host credential, panel codes, session tokens, API keys */
  secrets: Set<string>;
  /** every URL the browser requested, and every cookie it was sent */
  requested: string[];
  /** how many bootstrap calls the host's backend made */
  bootstraps(): number;
  /** moves svc's clock forward (codes expire) */
  advanceClock(ms: number): void;
  /** serves `html` at `path` on both host addresses */
  hostPage(path: string, html: string): void;
  open(options?: BrowserContextOptions): Promise<{ page: Page; close(): Promise<void>; errors: string[] }>;
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * svc (in-process, real HTTP on 127.0.0.1) with the workspace `acme` linked to http://127.0.0.2:port through a
 * pairing code, and a host site on 127.0.0.2 and 127.0.0.3 whose backend route `POST /bootstrap` performs svc's
 * bootstrap call with its host credential, for the origin the request came to, as a platform plugin does.
 */
export interface PanelBrowserEnvOptions {
  /** settings beyond the env's own (e.g. SVC_WEBHOOK_ALLOW_PRIVATE for a receiver on loopback) */
  config?: Record<string, unknown>;
  /** run the webhook delivery loop and the jobs, as `svc serve` does */
  background?: boolean;
  /** the payment provider (default none); `test` makes a paid service's bookings await their payment */
  payments?: 'none' | 'test';
  /** the calendar adapters' settings beyond the fetch rule, which follows SVC_CALENDAR_ALLOW_PRIVATE (e.g. a Google stand-in) */
  calendars?: Omit<CalendarConnectorOptions, 'allowPrivate'>;
}

export async function startPanelBrowserEnv(options: PanelBrowserEnvOptions = {}): Promise<PanelBrowserEnv> {
  const db = await createTestDatabase('libsql');
  const port = freePort();
  const hostPort = freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const hostUrl = `http://${HOST}:${hostPort}`;
  const logLines: string[] = [];
  const secrets = new Set<string>();
  const requested: string[] = [];
  let offset = 0;
  const config = parseConfig({
    SVC_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    SVC_DEMO: false,
    SVC_PUBLIC_URL: appUrl,
    SVC_PANEL_SESSION_SECONDS: SESSION_SECONDS,
    LOG_LEVEL: 'debug',
    ...options.config,
  });
  const deps: AppDeps = {
    storage: db.storage,
    config,
    clock: { now: () => Date.now() + offset },
    logger: createLogger('debug', (line) => logLines.push(line)),
    rateLimiter: memoryRateLimiter(),
    payments: openPayments({ ...config, SVC_PAYMENTS: options.payments ?? 'none' }),
    calendars: calendarConnector({ ...options.calendars, allowPrivate: config.SVC_CALENDAR_ALLOW_PRIVATE }),
  };
  const { workspace, apiKey } = await createWorkspace(deps, { slug: 'acme', name: 'Acme Studio', timezone: 'Europe/Berlin' });
  secrets.add(apiKey);
  const app = createApp(deps);
  const background = options.background ? startBackground(deps) : null;
  const server = Bun.serve({ port, hostname: '127.0.0.1', fetch: (request) => app.handle(request) });

  const { pairingCode } = await createPairingCode(deps, workspace.id);
  secrets.add(pairingCode);
  const linked = await fetch(`${appUrl}/api/integrations/hostplatform/panel/origin`, {
    method: 'PUT',
    headers: { authorization: `SvcPair ${pairingCode}`, 'content-type': 'application/json' },
    body: JSON.stringify({ version: 1, workspaceSlug: 'acme', origin: hostUrl }),
  });
  const hostCredential = ((await linked.json()) as { hostCredential: string }).hostCredential;
  secrets.add(hostCredential);

  let bootstraps = 0;
  const pages = new Map<string, string>();
  const serveHost = async (request: Request) => {
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname === '/bootstrap') {
      bootstraps++;
      const answer = await fetch(`${appUrl}/api/integrations/hostplatform/panel/bootstrap`, {
        method: 'POST',
        headers: { authorization: `SvcHost ${hostCredential}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          version: 1,
          workspaceSlug: 'acme',
          origin: url.origin,
          subject: 'host-user-1',
          role: 'ADMIN',
          capabilities: url.searchParams.get('capabilities')?.split(',') ?? ['svc_manage_operations', 'svc_manage_settings'],
        }),
      });
      const text = await answer.text();
      const code = (JSON.parse(text) as { code?: string }).code;
      if (code) secrets.add(code);
      return new Response(text, { status: answer.status, headers: { 'content-type': 'application/json' } });
    }
    const html = pages.get(url.pathname);
    if (!html) return new Response('not found', { status: 404 });
    return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  };
  const hosts = [HOST, OTHER_HOST].map((hostname) => Bun.serve({ port: hostPort, hostname, fetch: serveHost }));

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    appUrl,
    hostUrl,
    otherUrl: `http://${OTHER_HOST}:${hostPort}`,
    deps,
    db,
    apiKey,
    hostCredential,
    browser,
    logLines,
    secrets,
    requested,
    bootstraps: () => bootstraps,
    advanceClock: (ms) => void (offset += ms),
    hostPage: (path, html) => void pages.set(path, html),
    async open(options = {}) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      context.on('request', (request) => void requested.push(request.url(), request.headers().cookie ?? ''));
      context.on('page', (opened) =>
        opened.on('response', async (response) => {
          if (!/\/api\/panel\/session/.test(response.url()) || response.status() !== 201) return;
          const body = (await response.json().catch(() => null)) as { token?: string } | null;
          if (body?.token) secrets.add(body.token);
        }),
      );
      // every session token the panel receives joins the secrets the log must not show
      page.on('response', async (response) => {
        if (!/\/api\/panel\/session/.test(response.url()) || response.status() !== 201) return;
        const body = (await response.json().catch(() => null)) as { token?: string } | null;
        if (body?.token) secrets.add(body.token);
      });
      return { page, errors, close: () => context.close() };
    },
    async screenshot(page, name) {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
    async close() {
      await browser.close();
      await background?.stop();
      for (const host of hosts) host.stop(true);
      server.stop(true);
      await db.drop();
    },
  };
}

/** A host page that mounts the panel with svc-panel-host.js, as a platform plugin's admin page does. */
export function mountPage(appUrl: string, options: { section?: string; mode?: 'window'; query?: string } = {}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host admin</title></head>
<body><h1>Host platform admin</h1><div id="svc-panel"></div>
<script src="${appUrl}/svc-panel-host.js"></script>
<script>
window.hostEvents = [];
window.panel = SvcPanelHost.mount({
  container: document.getElementById('svc-panel'), panelOrigin: ${JSON.stringify(appUrl)}, bootstrapUrl: '/bootstrap${options.query ?? ''}',
  section: ${JSON.stringify(options.section ?? 'dashboard')}, ${options.mode ? `mode: '${options.mode}',` : ''}
  bootstrapHeaders: { 'X-Test-Nonce': 'nonce' },
  onChanged: () => hostEvents.push('changed'), onOpenAdmin: () => hostEvents.push('open-admin'),
  onError: (error) => hostEvents.push('error: ' + error.message),
});
</script></body></html>`;
}

/**
 * A host page that speaks the protocol by hand (no host script): it frames the panel with channel `manual`
 * and lets the test post any message to it. `window.boot()` fetches a bootstrap from the host's backend.
 */
export function manualPage(appUrl: string, frameContextPlaceholder = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Manual host</title></head>
<body><div id="slot"></div>
<script>
window.received = [];
window.addEventListener('message', (event) => { if (event.origin === ${JSON.stringify(appUrl)}) received.push(event.data); });
window.boot = async () => (await fetch('/bootstrap', { method: 'POST' })).json();
window.frameWith = (frameContext) => {
  const frame = document.createElement('iframe');
  frame.id = 'panel';
  frame.style.cssText = 'width:100%;height:600px;border:0';
  frame.src = ${JSON.stringify(appUrl)} + '/widget/panel/admin/acme?channelId=manual&frameContext=' + encodeURIComponent(frameContext) + '&section=bookings';
  document.getElementById('slot').replaceChildren(frame);
};
window.post = (message) => document.getElementById('panel').contentWindow.postMessage(message, ${JSON.stringify(appUrl)});
${frameContextPlaceholder}
</script></body></html>`;
}
