import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type CalDavServer, RADICALE, startRadicale } from '../support/caldav-server.ts';
import { type OAuthStandIn, startOAuthStandIn } from '../support/oauth-calendars.ts';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { axeViolations } from '../widget/drive.ts';
import { go, seed, signIn, type Seeded } from './support.ts';

/*
 * The providers section connects calendars (docs/contract/calendars.md): a radicale account through the form, its
 * calendars listed with the choices of blocking and receiving bookings, Sync now, Disconnect with a confirmation;
 * Google and Microsoft through their consent pages in a new window, the list refreshed when it closes; and the dashboard naming a
 * connection that stopped working. Axe-clean; screenshots at 1280 and 390 px, light and dark.
 */

const describeBrowser = chromiumAvailable() && existsSync(RADICALE) ? describe : describe.skip;
const SHOTS = join(import.meta.dir, '..', '..', 'screenshots-tmp');

describeBrowser('connecting calendars in the panel', () => {
  let env: PanelBrowserEnv;
  let data: Seeded;
  let radicale: CalDavServer;
  let google: OAuthStandIn;
  let microsoft: OAuthStandIn;
  beforeAll(async () => {
    radicale = await startRadicale();
    await radicale.makeCalendar('work', 'Work');
    await radicale.makeCalendar('home', 'Home');
    google = startOAuthStandIn('google');
    microsoft = startOAuthStandIn('microsoft');
    env = await startPanelBrowserEnv({
      config: {
        SVC_CALENDAR_ALLOW_PRIVATE: true,
        SVC_GOOGLE_CLIENT_ID: google.clientId,
        SVC_GOOGLE_CLIENT_SECRET: google.clientSecret,
        SVC_GOOGLE_OAUTH_URL: google.url,
        SVC_GOOGLE_API_URL: google.url,
        SVC_MICROSOFT_CLIENT_ID: microsoft.clientId,
        SVC_MICROSOFT_CLIENT_SECRET: microsoft.clientSecret,
        SVC_MICROSOFT_LOGIN_URL: microsoft.url,
        SVC_MICROSOFT_GRAPH_URL: microsoft.url,
      },
      calendars: {
        google: { clientId: google.clientId, clientSecret: google.clientSecret, oauthUrl: google.url, apiUrl: google.url },
        microsoft: { clientId: microsoft.clientId, clientSecret: microsoft.clientSecret, tenant: 'common', loginUrl: microsoft.url, graphUrl: microsoft.url },
      },
    });
    data = await seed(env);
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    google?.stop();
    microsoft?.stop();
    await radicale?.stop();
  });

  const annasCalendars = async (page: Page) => {
    await go(page, 'Providers');
    await page.getByRole('button', { name: 'Edit: Anna Schmidt' }).click();
    return page.getByRole('region', { name: 'Connected calendars' });
  };

  test('a CalDAV account: connected from the form, its calendars listed; a write calendar chosen; synced; axe-clean in light and dark at 1280 and 390 px', async () => {
    const { page, errors, close } = await env.open({ bypassCSP: true });
    page.setDefaultTimeout(15_000);
    await signIn(env, page);
    const section = await annasCalendars(page);
    await section.getByText('No calendar connected yet.').waitFor();
    await section.getByLabel('Address').fill(`${radicale.url}/`);
    await section.getByLabel('Username (optional)').fill(radicale.username);
    await section.getByLabel('Password (optional)').fill(radicale.password);
    await section.getByRole('button', { name: 'Connect', exact: true }).click();
    await section
      .getByRole('status')
      .filter({ hasText: `${new URL(radicale.url).host} connected.` })
      .waitFor();
    const connection = section.locator('.connection');
    await connection.getByText('Working').waitFor();
    expect(await connection.locator('tbody th').allTextContents()).toEqual(expect.arrayContaining(['Work', 'Home']));
    expect(await connection.getByRole('checkbox', { name: 'Blocks times: Work' }).isChecked()).toBe(true);

    await connection.getByRole('checkbox', { name: 'Receives bookings: Work' }).check();
    await connection.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const [stored] = await env.deps.storage.listCalendarConnections((await env.deps.storage.getWorkspaceBySlug('acme'))!.id, data.anna);
    expect(stored!.calendars.find((calendar) => calendar.name === 'Work')).toMatchObject({ writes: true, blocks: true });
    await connection.getByRole('checkbox', { name: 'Blocks times: Home' }).uncheck();
    await connection.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await connection.getByRole('checkbox', { name: 'Blocks times: Home' }).isChecked()).toBe(false);

    await connection.getByRole('button', { name: `Sync now: ${new URL(radicale.url).host}` }).click();
    await connection.getByRole('status').filter({ hasText: 'read again.' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();

    for (const width of [1280, 390]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const shot = await env.open({
          bypassCSP: true,
          viewport: { width, height: 900 },
          colorScheme,
          ...(width === 390 ? { isMobile: true, hasTouch: true } : {}),
        });
        shot.page.setDefaultTimeout(15_000);
        await signIn(env, shot.page);
        const shown = await annasCalendars(shot.page);
        await shown.locator('.connection').getByText('Working').waitFor();
        expect(await axeViolations(shot.page)).toEqual([]);
        await shown.scrollIntoViewIfNeeded();
        await shot.page.screenshot({ path: join(SHOTS, `providers-calendars-${width}-${colorScheme}.png`), fullPage: true });
        expect(shot.errors).toEqual([]);
        await shot.close();
      }
    }
  }, 120_000);

  for (const [kind, button, label] of [
    ['google', 'Connect Google Calendar', 'Google Calendar'],
    ['microsoft', 'Connect Microsoft 365', 'Microsoft 365'],
  ] as const) {
    test(`${label}: the consent opens in a new window; when it closes the list shows the connection working`, async () => {
      const { page, errors, close } = await env.open({ bypassCSP: true });
      page.setDefaultTimeout(15_000);
      await signIn(env, page);
      const section = await annasCalendars(page);
      const opened = page.context().waitForEvent('page');
      await section.getByRole('button', { name: button }).click();
      const consent = await opened;
      await consent.waitForURL(`${env.appUrl}/oauth/${kind}/callback**`);
      expect(await page.evaluate(() => location.href)).not.toContain('/oauth/');
      await section.getByText('Finish in the window that opened.', { exact: false }).waitFor();
      await consent.close();
      const connection = section.locator('.connection').filter({ hasText: label });
      await connection.getByText('Working').waitFor();
      expect(await connection.locator('tbody th').count()).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      await close();
    }, 60_000);
  }

  test('a connection that stopped working shows on the dashboard; Disconnect asks first, then removes it', async () => {
    const workspaceId = (await env.deps.storage.getWorkspaceBySlug('acme'))!.id;
    const caldav = (await env.deps.storage.listCalendarConnections(workspaceId, data.anna)).find((connection) => connection.kind === 'caldav')!;
    await env.deps.storage.updateCalendarConnection(caldav.id, { status: 'error', lastError: 'the server refused the password (401)' }, Date.now());
    // dark first: the light round goes on to disconnect it
    for (const colorScheme of ['dark', 'light'] as const) {
      const { page, errors, close } = await env.open({ bypassCSP: true, colorScheme });
      page.setDefaultTimeout(15_000);
      await signIn(env, page);
      const alert = page.getByRole('alert').filter({ hasText: 'Calendars not working' });
      await alert.getByText(`${caldav.name} of Anna Schmidt`).waitFor();
      expect(await alert.textContent()).toContain('What went wrong: the server refused the password (401)');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `dashboard-broken-calendar-1280-${colorScheme}.png`), fullPage: true });
      if (colorScheme === 'dark') {
        await close();
        continue;
      }
      await alert.getByRole('button', { name: 'Open providers' }).click();
      await page.getByRole('button', { name: 'Edit: Anna Schmidt' }).click();
      const connection = page.getByRole('region', { name: 'Connected calendars' }).locator('.connection').filter({ hasText: caldav.name });
      await connection.getByText('Not working').waitFor();
      await connection.getByRole('button', { name: `Disconnect: ${caldav.name}` }).click();
      await connection.getByText(`Disconnect ${caldav.name}?`, { exact: false }).waitFor();
      expect(await env.deps.storage.getCalendarConnection(workspaceId, data.anna, caldav.id)).not.toBeNull();
      await connection.getByRole('button', { name: 'Disconnect now' }).click();
      await connection.waitFor({ state: 'detached' });
      expect(await env.deps.storage.getCalendarConnection(workspaceId, data.anna, caldav.id)).toBeNull();
      expect(errors).toEqual([]);
      await close();
    }
  }, 60_000);
});
