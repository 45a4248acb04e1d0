import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { axeViolations } from '../widget/drive.ts';
import { go, seed, signIn, type Seeded } from './support.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const SCREENSHOTS = join(import.meta.dir, '..', '..', 'test-output', 'screenshots', 'panel');

describeBrowser("the providers section offers a provider's calendar feed (docs/contract/notifications.md)", () => {
  let env: PanelBrowserEnv;
  let data: Seeded;
  beforeAll(async () => {
    env = await startPanelBrowserEnv();
    data = await seed(env);
  }, 30_000);
  afterAll(() => env?.close());

  test('standalone: "Make a calendar address" shows the feed address once; it serves the provider\'s bookings; a new one replaces it', async () => {
    const { page, errors, close } = await env.open({ bypassCSP: true });
    page.setDefaultTimeout(10_000);
    await signIn(env, page);
    await go(page, 'Providers');
    await page.getByRole('button', { name: 'Edit: Anna Schmidt' }).click();
    const feed = page.getByRole('region', { name: 'Calendar subscription: Anna Schmidt' });
    await feed.getByRole('button', { name: 'Make a calendar address' }).click();
    const shown = feed.locator('.shown-once');
    await shown.waitFor();
    const first = (await shown.locator('code').textContent())!;
    expect(first).toMatch(new RegExp(`^${env.appUrl}/ics/[A-Za-z0-9_-]{43}\\.ics$`));
    expect(await axeViolations(page)).toEqual([]);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'providers-calendar-feed-1280-light.png'), fullPage: true });

    const calendar = await fetch(first);
    expect(calendar.status).toBe(200);
    expect(calendar.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const text = await calendar.text();
    expect(text).toContain(`UID:${data.pending}@`);
    expect(text).toContain(`UID:${data.confirmed}@`);

    await feed.getByRole('button', { name: 'Make a calendar address' }).click();
    await page.waitForFunction((previous) => document.querySelector('.shown-once code')?.textContent !== previous, first);
    expect((await fetch(first)).status).toBe(404);
    expect(errors).toEqual([]);
    await close();
  });
});
