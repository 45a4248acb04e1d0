import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chromium, type Browser } from 'playwright-core';
import { addProvider, V1 } from '../services/catalogue-fixtures.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type OAuthStandIn, startOAuthStandIn } from '../support/oauth-calendars.ts';
import { freePort } from '../support/process.ts';
import { CHROMIUM, chromiumAvailable } from '../widget/browser-env.ts';

/*
 * The Google consent round in Chromium: the browser opens `authorizeUrl`, the stand-in's consent redirects to svc's
 * callback, and the page the owner sees says the calendar is connected (or, in German, that the link expired).
 */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

describeBrowser('the OAuth consent round in a browser', () => {
  let t: TestApp;
  let standIn: OAuthStandIn;
  let server: ReturnType<typeof Bun.serve>;
  let browser: Browser;
  let appUrl: string;

  beforeAll(async () => {
    standIn = startOAuthStandIn('google');
    const port = freePort();
    appUrl = `http://127.0.0.1:${port}`;
    t = await createTestApp('libsql', {
      config: {
        SVC_PUBLIC_URL: appUrl,
        SVC_GOOGLE_CLIENT_ID: standIn.clientId,
        SVC_GOOGLE_CLIENT_SECRET: standIn.clientSecret,
        SVC_GOOGLE_OAUTH_URL: standIn.url,
        SVC_GOOGLE_API_URL: standIn.url,
      },
    });
    server = Bun.serve({ port, hostname: '127.0.0.1', fetch: (request) => t.app.handle(request) });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    server?.stop(true);
    standIn?.stop();
    await t?.close();
  });

  test('consent granted: the callback page says the calendar is connected; opened again, it says the link expired', async () => {
    const providerId = (await addProvider(t)).id;
    const created = await t.request('POST', `${V1}/acme/providers/${providerId}/calendars`, { key: t.apiKey, body: { kind: 'google' } });
    expect(created.status).toBe(200);
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const response = await page.goto(created.body.authorizeUrl);
    expect(page.url().startsWith(`${appUrl}/oauth/google/callback?`)).toBe(true);
    expect(response!.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Calendar connected');
    expect(await page.locator('main').textContent()).toContain(standIn.account);
    const connection = (await t.request('GET', `${V1}/acme/providers/${providerId}/calendars/${created.body.connection.id}`, { key: t.apiKey })).body
      .connection;
    expect(connection.status).toBe('ok');

    const german = await browser.newContext({ locale: 'de-DE' });
    const again = await german.newPage();
    const second = await again.goto(page.url());
    expect(second!.status()).toBe(400);
    await expect(again.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Dieser Link ist abgelaufen');
    await context.close();
    await german.close();
  }, 60_000);
});
