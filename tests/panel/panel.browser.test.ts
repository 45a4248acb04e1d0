import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Frame, Page } from 'playwright-core';
import { createPairingCode } from '../../src/features/panel/pairing.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { manualPage, mountPage, SESSION_SECONDS, startPanelBrowserEnv, type PanelBrowserEnv } from './panel-browser-env.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const REFUSED_CODE = 'panel code is unknown, used or expired, or does not match its frameContext';

/** Polls `check` until it holds (a condition, not a sleep); fails with `what` after `ms`. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

const PANEL_IFRAME = 'iframe#panel, iframe[title="Admin panel"]';
const panelFrame = (page: Page) => page.frameLocator(PANEL_IFRAME);

describeBrowser('embedded admin panel in Chromium, across two origins', () => {
  let env: PanelBrowserEnv;
  beforeAll(async () => {
    env = await startPanelBrowserEnv();
    env.hostPage('/mount', mountPage(env.appUrl));
    env.hostPage('/manual', manualPage(env.appUrl));
  });
  afterAll(() => env?.close());

  /** A bootstrap straight from svc for the linked origin, as the host's backend would make it. */
  async function bootstrapForHost(): Promise<{ code: string; frameContext: string }> {
    const response = await fetch(`${env.hostUrl}/bootstrap`, { method: 'POST' });
    return response.json() as Promise<{ code: string; frameContext: string }>;
  }

  const exchange = (code: string, frameContext: string) =>
    fetch(`${env.appUrl}/api/panel/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code, frameContext }),
    });

  /** The manual host page with the panel framed, once the panel has said it is ready. */
  async function manualPanel(frameContext: string, on = env.hostUrl) {
    const opened = await env.open();
    await opened.page.goto(`${on}/manual`);
    await opened.page.evaluate((context) => (window as any).frameWith(context), frameContext);
    return opened;
  }

  const envelope = (fields: Record<string, unknown>) => ({ source: 'svc-wordpress', version: 1, channelId: 'manual', origin: env.hostUrl, ...fields });

  test('handshake: the host script mounts the panel, which shows the workspace and section, sizes its iframe and holds no cookie', async () => {
    const before = env.bootstraps();
    for (const [scheme, viewport, device] of [
      ['light', { width: 1280, height: 900 }, 'desktop'],
      ['dark', { width: 375, height: 740 }, 'phone'],
    ] as const) {
      const { page, errors, close } = await env.open({ colorScheme: scheme, viewport });
      await page.goto(`${env.hostUrl}/mount`);
      const frame = panelFrame(page);
      await frame.getByRole('heading', { level: 1, name: 'Acme Studio' }).waitFor();
      await frame.getByRole('heading', { level: 2, name: 'Dashboard' }).waitFor();
      await frame.getByText('Europe/Berlin').waitFor();
      expect(await frame.getByRole('button', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
      // the panel reports its height and the host script applies it
      const contentHeight = () =>
        panelFrame(page)
          .locator('html')
          .evaluate((html) => Math.ceil(html.getBoundingClientRect().height));
      await until(
        "the iframe to take the panel's height",
        async () => (await page.locator(PANEL_IFRAME).evaluate((el) => (el as HTMLElement).style.height)) === `${await contentHeight()}px`,
      );
      expect(await contentHeight()).not.toBe(480);
      await env.screenshot(page, `panel-embedded-${scheme}-${device}`);
      expect((await page.context().cookies()).filter((cookie) => cookie.domain === '127.0.0.1')).toEqual([]);
      expect(errors).toEqual([]);
      await close();
    }
    expect(env.bootstraps()).toBe(before + 2);
  }, 60_000);

  test('the panel ignores messages with a wrong channelId, source or version, and one from a wrong origin; it stays connecting', async () => {
    const first = await bootstrapForHost();
    const { page, close } = await manualPanel(first.frameContext);
    await until(
      'svc:panel:ready',
      async () =>
        await page.evaluate(() =>
          (window as any).received.some((m: any) => m.type === 'svc:panel:ready' && m.channelId === 'manual' && m.source === 'svc-panel' && m.version === 1),
        ),
    );
    const bootstrapMessage = { type: 'svc:panel:bootstrap', code: first.code };
    for (const wrong of [{ channelId: 'other' }, { source: 'svc-panel' }, { source: 'svc-host' }, { version: 2 }, { origin: 'http://127.0.0.9' }]) {
      await page.evaluate((message) => (window as any).post(message), envelope({ ...bootstrapMessage, ...wrong }));
    }
    // a page of another origin that reaches the panel's window posts a perfect message: the origin check drops it
    env.hostPage(
      '/evil',
      `<!doctype html><script>parent.frames[0].postMessage(${JSON.stringify(envelope(bootstrapMessage))}, '*'); document.title = 'posted';</script>`,
    );
    await page.evaluate((url) => {
      const evil = document.createElement('iframe');
      evil.src = url;
      document.body.append(evil);
    }, `${env.otherUrl}/evil`);
    await until('the foreign page to post', () => page.frames().some((frame) => frame.url().endsWith('/evil')));
    await until(
      'the foreign message to be posted',
      async () =>
        (await page
          .frames()
          .find((frame) => frame.url().endsWith('/evil'))!
          .title()) === 'posted',
    );
    await panelFrame(page).getByText('Connecting…').waitFor();
    // the right message with a second code opens the panel; the first code was never spent
    const second = await bootstrapForHost();
    await page.evaluate(
      (message) => (window as any).post(message),
      envelope({ type: 'svc:panel:bootstrap', code: second.code, frameContext: second.frameContext }),
    );
    await panelFrame(page).getByRole('heading', { level: 2, name: 'Bookings' }).waitFor();
    expect((await exchange(first.code, first.frameContext)).status).toBe(201);
    await close();
  }, 60_000);

  test('the host script ignores a panel-like message from another origin: the iframe keeps its size', async () => {
    const { page, close } = await env.open();
    await page.goto(`${env.hostUrl}/mount`);
    await panelFrame(page).getByRole('heading', { level: 1, name: 'Acme Studio' }).waitFor();
    const heightBefore = await page.locator(PANEL_IFRAME).evaluate((el) => (el as HTMLElement).style.height);
    const channelId = new URL((await page.locator(PANEL_IFRAME).getAttribute('src')) as string).searchParams.get('channelId');
    const forged = { type: 'svc:panel:resize', height: 4321, source: 'svc-panel', version: 1, channelId };
    env.hostPage('/forge-resize', `<!doctype html><script>parent.postMessage(${JSON.stringify(forged)}, '*'); document.title = 'posted';</script>`);
    await page.evaluate((url) => {
      const evil = document.createElement('iframe');
      evil.src = url;
      document.body.append(evil);
    }, `${env.otherUrl}/forge-resize`);
    await until(
      'the forged message',
      async () =>
        (await page
          .frames()
          .find((frame) => frame.url().endsWith('/forge-resize'))
          ?.title()) === 'posted',
    );
    await panelFrame(page).getByRole('button', { name: 'Settings' }).click();
    await panelFrame(page).getByRole('heading', { level: 2, name: 'Settings' }).waitFor();
    expect(await page.locator(PANEL_IFRAME).evaluate((el) => (el as HTMLElement).style.height)).not.toBe('4321px');
    expect(heightBefore).not.toBe('4321px');
    await close();
  }, 60_000);

  test('a page on an origin that is not linked cannot frame the panel (frame-ancestors)', async () => {
    const context = await bootstrapForHost();
    const { page, close } = await manualPanel(context.frameContext, env.otherUrl);
    await until('the frame to settle', () => page.frames().length > 1 && page.frames()[1]!.url() !== 'about:blank');
    const frame = page.frames()[1] as Frame;
    expect(frame.url()).not.toContain('/widget/panel/admin/');
    expect(await page.evaluate(() => (window as any).received)).toEqual([]);
    await close();
    // the same page on the linked origin is framed
    const linked = await manualPanel(context.frameContext);
    await until('svc:panel:ready', async () => (await linked.page.evaluate(() => (window as any).received.length)) > 0);
    await linked.close();
  }, 60_000);

  /** Frames a fresh panel with `frameContext`, posts `message` as the host's bootstrap, and waits for the refusal shown. */
  async function refusedInPanel(frameContext: string, message: { code: string; frameContext: string }) {
    const { page, close } = await manualPanel(frameContext);
    await until('ready', async () => (await page.evaluate(() => (window as any).received.length)) > 0);
    await page.evaluate((posted) => (window as any).post(posted), envelope({ type: 'svc:panel:bootstrap', ...message }));
    await panelFrame(page).getByRole('alert').filter({ hasText: REFUSED_CODE }).waitFor();
    await close();
  }

  test('a used code is refused, and the panel says so', async () => {
    const used = await bootstrapForHost();
    expect((await exchange(used.code, used.frameContext)).status).toBe(201);
    await refusedInPanel(used.frameContext, used);
  }, 60_000);

  test('an altered frameContext is refused, and the refusal does not spend the code', async () => {
    const altered = await bootstrapForHost();
    const [header, payload, signature] = altered.frameContext.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, caps: ['svc_manage_settings', 'svc_manage_operations'], sub: 'someone-else' })).toString(
      'base64url',
    );
    await refusedInPanel(altered.frameContext, { code: altered.code, frameContext: `${header}.${forged}.${signature}` });
    expect((await exchange(altered.code, altered.frameContext)).status).toBe(201);
  }, 60_000);

  test('an expired code (61 s later) is refused, and the panel says so', async () => {
    const expired = await bootstrapForHost();
    env.advanceClock(61_000);
    await refusedInPanel(expired.frameContext, expired);
  }, 60_000);

  test(`the session expiry (${SESSION_SECONDS} s here) makes the panel ask for a new code; the host script re-bootstraps and the panel keeps working`, async () => {
    const { page, close, errors } = await env.open();
    const sessions: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/panel/session') && response.status() === 201) sessions.push(response.url());
    });
    await page.goto(`${env.hostUrl}/mount`);
    await panelFrame(page).getByRole('heading', { level: 1, name: 'Acme Studio' }).waitFor();
    await until('a second session from a second bootstrap', () => sessions.length >= 2, SESSION_SECONDS * 1000 + 10_000);
    const read = page.waitForResponse((response) => /\/api\/v1\/workspaces\/acme$/.test(response.url()));
    await panelFrame(page).getByRole('button', { name: 'Services' }).click();
    expect((await read).status()).toBe(200);
    await panelFrame(page).getByRole('heading', { level: 2, name: 'Services' }).waitFor();
    expect(await panelFrame(page).getByRole('alert').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  test('window mode: a click opens the panel in a new window that talks to its opener', async () => {
    env.hostPage('/window', mountPage(env.appUrl, { mode: 'window', section: 'hours' }));
    const { page, close } = await env.open();
    await page.goto(`${env.hostUrl}/window`);
    const [opened] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Open the admin panel' }).click()]);
    await opened.getByRole('heading', { level: 1, name: 'Acme Studio' }).waitFor();
    await opened.getByRole('heading', { level: 2, name: 'Working hours' }).waitFor();
    await opened.getByRole('button', { name: 'Open full admin' }).click();
    await until('the host to hear open-admin', async () => (await page.evaluate(() => (window as any).hostEvents)).includes('open-admin'));
    await close();
  }, 60_000);

  test("window mode: a page that opens the panel of acme with its own workspace's frameContext and code cannot sign the window in to its workspace", async () => {
    // the attacker runs a workspace of its own, linked to its own site, and bootstraps it as any host could
    const { workspace: evil } = await createWorkspace(env.deps, { slug: 'evil', name: 'Evil Studio', timezone: 'Europe/Berlin' });
    const { pairingCode } = await createPairingCode(env.deps, evil.id);
    const linked = await fetch(`${env.appUrl}/api/integrations/hostplatform/panel/origin`, {
      method: 'PUT',
      headers: { authorization: `SvcPair ${pairingCode}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 1, workspaceSlug: 'evil', origin: env.otherUrl }),
    });
    const evilCredential = ((await linked.json()) as { hostCredential: string }).hostCredential;
    const boot = await fetch(`${env.appUrl}/api/integrations/hostplatform/panel/bootstrap`, {
      method: 'POST',
      headers: { authorization: `SvcHost ${evilCredential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 1, workspaceSlug: 'evil', origin: env.otherUrl, subject: 'attacker', role: 'ADMIN', capabilities: [] }),
    });
    const { code, frameContext } = (await boot.json()) as { code: string; frameContext: string };
    env.hostPage(
      '/lure',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lure</title></head><body>
<button id="open">Open</button>
<script>
document.getElementById('open').addEventListener('click', () => {
  const panel = window.open(${JSON.stringify(`${env.appUrl}/widget/panel/admin/acme?channelId=lure&frameContext=${encodeURIComponent(frameContext)}`)});
  window.addEventListener('message', (event) => {
    if (event.source !== panel || event.data?.type !== 'svc:panel:ready') return;
    panel.postMessage({ type: 'svc:panel:bootstrap', source: 'svc-wordpress', version: 1, channelId: 'lure', origin: ${JSON.stringify(env.otherUrl)}, code: ${JSON.stringify(code)}, frameContext: ${JSON.stringify(frameContext)} }, ${JSON.stringify(env.appUrl)});
  });
});
</script></body></html>`,
    );
    const { page, close } = await env.open();
    await page.goto(`${env.otherUrl}/lure`);
    const [opened] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Open' }).click()]);
    // the exchange itself succeeds (the code and frameContext are genuine), so the panel alone must refuse the session
    const exchanged = await opened.waitForResponse((response) => response.url().endsWith('/api/panel/session'));
    expect(exchanged.status()).toBe(201);
    await opened.getByRole('alert').filter({ hasText: 'another workspace or site' }).waitFor();
    expect(await opened.getByText('Evil Studio').count()).toBe(0);
    expect(await opened.getByRole('heading', { level: 1 }).count()).toBe(0);
    await close();
  }, 60_000);

  test('standalone /admin: a wrong key shows the error; slug and key sign in; sign-out returns to the form', async () => {
    for (const [scheme, viewport, device] of [
      ['light', { width: 1280, height: 900 }, 'desktop'],
      ['dark', { width: 375, height: 740 }, 'phone'],
    ] as const) {
      const { page, errors, close } = await env.open({ colorScheme: scheme, viewport });
      await page.goto(`${env.appUrl}/admin`);
      await page.getByLabel('Workspace').fill('acme');
      await page.getByLabel('API key').fill('svc_live_wrong-key');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'workspace slug or API key is wrong' }).waitFor();
      expect(await page.getByLabel('API key').inputValue()).toBe('');
      await env.screenshot(page, `admin-sign-in-error-${scheme}-${device}`);
      await page.getByLabel('API key').fill(env.apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Acme Studio' }).waitFor();
      await page.getByText('Europe/Berlin').waitFor();
      expect(await page.getByText('Full access').count()).toBe(1);
      await env.screenshot(page, `admin-shell-${scheme}-${device}`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await page.context().cookies()).toEqual([]);
      expect(errors).toEqual([]);
      await close();
    }
  }, 60_000);

  test('revoking the linked origin stops bootstrap at once: the host page cannot open the panel any more', async () => {
    const origins = (await (await fetch(`${env.appUrl}/api/v1/workspaces/acme/panel/origins`, { headers: { 'x-svc-api-key': env.apiKey } })).json()) as {
      origins: { id: string }[];
    };
    const revoked = await fetch(`${env.appUrl}/api/v1/workspaces/acme/panel/origins/${origins.origins[0]!.id}`, {
      method: 'DELETE',
      headers: { 'x-svc-api-key': env.apiKey },
    });
    expect(revoked.status).toBe(200);
    const { page, close } = await env.open();
    await page.goto(`${env.hostUrl}/mount`);
    await page.getByRole('alert').filter({ hasText: 'The admin panel could not be opened' }).waitFor();
    expect((await page.evaluate(() => (window as any).hostEvents))[0]).toMatch(/^error: bootstrap at \/bootstrap failed \(401\)/);
    await close();
  }, 60_000);

  test("no code, credential, key or session token of this run appears in svc's log, in a URL or in a cookie", () => {
    expect(env.secrets.size).toBeGreaterThan(10);
    expect(env.logLines.length).toBeGreaterThan(50);
    const log = env.logLines.join('\n');
    const traffic = env.requested.join('\n');
    const leaks = [...env.secrets].filter((secret) => log.includes(secret) || traffic.includes(secret));
    expect(leaks).toEqual([]);
  });
});
