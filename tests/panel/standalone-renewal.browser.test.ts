import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { waitFor } from '../support/wait.ts';
import { SESSION_SECONDS, startPanelBrowserEnv, type PanelBrowserEnv } from './panel-browser-env.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/*
 * Decisions section 12: standalone sessions renew at POST /api/panel/session/refresh with the current token.
 * With SVC_PANEL_SESSION_SECONDS at 12 (the env's setting) the /admin page renews after 9 s; past the first
 * session's expiry it keeps working, with the renewed token.
 */

interface Issued {
  token: string;
  expiresAt: string;
}

describeBrowser('standalone /admin in Chromium: session renewal', () => {
  let env: PanelBrowserEnv;
  beforeAll(async () => {
    env = await startPanelBrowserEnv();
  });
  afterAll(() => env?.close());

  test(`the /admin page renews its ${SESSION_SECONDS} s session before expiry and keeps working after the first one has expired, with the new token`, async () => {
    const { page, errors, close } = await env.open();
    const signIns: Issued[] = [];
    const renewals: Issued[] = [];
    page.on('response', async (response) => {
      const path = new URL(response.url()).pathname;
      if (response.status() !== 201 || !path.startsWith('/api/panel/session')) return;
      const body = (await response.json()) as Issued;
      (path === '/api/panel/session/refresh' ? renewals : signIns).push(body);
    });
    await page.goto(`${env.appUrl}/admin`);
    await page.getByLabel('Workspace').fill('acme');
    await page.getByLabel('API key').fill(env.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Studio' }).waitFor();
    const first = await waitFor(() => signIns[0], { what: 'the sign-in session' });

    const renewed = await waitFor(() => renewals[0], { timeoutMs: SESSION_SECONDS * 1000 + 5_000, what: 'a renewal' });
    expect(renewed.token).toMatch(/^svc_sess_[A-Za-z0-9_-]{43}$/);
    expect(renewed.token).not.toBe(first.token);
    // renewed before the first session ran out
    expect(Date.now()).toBeLessThan(Date.parse(first.expiresAt));
    expect(Date.parse(renewed.expiresAt)).toBeGreaterThan(Date.parse(first.expiresAt));

    // past the first session's expiry the panel still reads and shows data, with a renewed token
    await waitFor(() => Date.now() > Date.parse(first.expiresAt) + 250, { timeoutMs: SESSION_SECONDS * 1000, what: 'the first session to expire' });
    const request = page.waitForRequest((sent) => /\/api\/v1\/workspaces\/acme$/.test(sent.url()));
    const response = page.waitForResponse((received) => /\/api\/v1\/workspaces\/acme$/.test(received.url()));
    await page.getByRole('button', { name: 'Settings' }).click();
    expect((await response).status()).toBe(200);
    const bearer = (await request).headers().authorization?.replace(/^Bearer /, '');
    expect(renewals.map((one) => one.token)).toContain(bearer!);
    expect(bearer).not.toBe(first.token);
    await page.getByRole('heading', { level: 2, name: 'Settings' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);

    // the first token is dead: svc refuses it, so the call above could only have worked with a renewed one
    const withFirst = await fetch(`${env.appUrl}/api/v1/workspaces/acme`, { headers: { authorization: `Bearer ${first.token}` } });
    expect(withFirst.status).toBe(401);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);
});
