import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import type { Server } from 'bun';
import type { Page } from 'playwright-core';
import { ALLOWED_HOST, chromiumAvailable, startBrowserEnv, widgetPage, type BrowserEnv } from './browser-env.ts';
import { seedCatalogue, takeTimeOnEveryProvider, type Catalogue } from './catalogue.ts';
import { chooseFirstDay, chooseTime, fillDetails, heading, instantIn, submit, widgetOf, reachDays } from './drive.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/*
 * docs/contract/widget.md §13: with SVC_CAPTCHA_PROVIDER and SVC_CAPTCHA_SITE_KEY set, `config.booking.captcha` names
 * the provider and the widget loads that provider's script (the one request to another origin it may make) and
 * sends the solved token as `recaptchaToken`, which the server checks at SVC_CAPTCHA_VERIFY_URL. The provider's
 * real script is on the internet: Playwright answers its URL with a stand-in that implements the explicit-render
 * API the widget uses (render with a callback, reset), and a siteverify stand-in on loopback accepts each token
 * it issued once, as the real services do.
 */

/** Each provider's script and the global it defines (web/widget/captcha.ts), as the real ones do. */
const PROVIDERS = [
  { provider: 'turnstile', script: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit', global: 'turnstile' },
  { provider: 'recaptcha', script: 'https://www.google.com/recaptcha/api.js?render=explicit', global: 'grecaptcha' },
  { provider: 'hcaptcha', script: 'https://js.hcaptcha.com/1/api.js?render=explicit', global: 'hcaptcha' },
] as const;
const SITE_KEY = '0x4AAAAAAAtestsitekey';
const SECRET = 'captcha-secret';

/** The stand-in provider under `global`: a "Verify" button per render; each click solves with a new token. */
const fakeProvider = (global: string) => `
(() => {
  let issued = 0;
  const log = { renders: [], resets: [], tokens: [] };
  window.captchaLog = log;
  window[${JSON.stringify(global)}] = {
    render(element, options) {
      const id = 'widget-' + log.renders.length;
      log.renders.push({ sitekey: options.sitekey, theme: options.theme, inLightDom: element.getRootNode() === document });
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Verify you are human';
      button.addEventListener('click', () => {
        const token = 'fake-token-' + ++issued;
        log.tokens.push(token);
        options.callback(token);
      });
      element.appendChild(button);
      return id;
    },
    reset(id) {
      log.resets.push(id);
    },
  };
})();
`;

/** siteverify: success for a token the stand-in issued, once, with the right secret; records every form. */
let verifier: Server<undefined>;
const verified: { secret: string; response: string; success: boolean }[] = [];
beforeAll(() => {
  verifier = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const form = Object.fromEntries(new URLSearchParams(await request.text()));
      const spent = verified.some((one) => one.success && one.response === form.response);
      const success = form.secret === SECRET && /^fake-token-\d+$/.test(form.response ?? '') && !spent;
      verified.push({ secret: form.secret ?? '', response: form.response ?? '', success });
      // As the real services do, the answer names the page the captcha was solved on: the widget's host page.
      return Response.json({ success, hostname: ALLOWED_HOST });
    },
  });
});
afterAll(() => verifier.stop(true));

async function fakeProviderLog(
  page: Page,
): Promise<{ renders: { sitekey: string; theme: string; inLightDom: boolean }[]; resets: unknown[]; tokens: string[] }> {
  return page.evaluate(() => (window as any).captchaLog);
}

for (const { provider, script, global } of PROVIDERS) {
  describeBrowser(`booking widget in Chromium: captcha (${provider})`, () => {
    let env: BrowserEnv;
    let catalogue: Catalogue;
    beforeAll(async () => {
      env = await startBrowserEnv({
        config: {
          SVC_CAPTCHA_PROVIDER: provider,
          SVC_CAPTCHA_SITE_KEY: SITE_KEY,
          SVC_CAPTCHA_SECRET: SECRET,
          SVC_CAPTCHA_VERIFY_URL: `http://127.0.0.1:${verifier.port}/siteverify`,
        },
      });
      catalogue = await seedCatalogue(env);
    });
    afterAll(() => env?.close());
    beforeEach(() => {
      verified.length = 0;
    });

    /** A page with the widget inline at the consultation; every request and every booking POST body recorded. */
    async function openWidget(path: string, colorScheme: 'light' | 'dark' = 'light') {
      // theme system: the captcha's theme follows the widget's, which here follows the emulated colour scheme
      env.hostPage(path, { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', service: catalogue.consultationId, theme: 'system' }) });
      const opened = await env.open({ colorScheme });
      const requests: string[] = [];
      const bookingBodies: Record<string, unknown>[] = [];
      opened.page.on('request', (request) => {
        requests.push(request.url());
        if (request.method() === 'POST' && request.url().endsWith('/api/v1/workspaces/acme/bookings')) bookingBodies.push(request.postDataJSON());
      });
      await opened.page.route(script, (route) => route.fulfill({ contentType: 'application/javascript', body: fakeProvider(global) }));
      await opened.page.goto(`${env.hostUrl}${path}`);
      return { ...opened, widget: widgetOf(opened.page), requests, bookingBodies };
    }

    test('config names the provider; its script is requested once, only on the details step; the solved token reaches createBooking and the verifier', async () => {
      const config = await fetch(`${env.appUrl}/api/v1/workspaces/acme/config`).then((response) => response.json());
      expect(config.booking).toEqual({ allowed: true, captcha: { provider, siteKey: SITE_KEY }, onlinePayment: false });

      const { context, page, widget, requests, bookingBodies, errors } = await openWidget('/captcha', 'dark');
      await reachDays(widget);
      const day = await chooseFirstDay(widget);
      expect(requests.filter((url) => url === script)).toEqual([]);
      const time = await chooseTime(widget);
      await fillDetails(widget, { name: 'Human Hannah', email: 'hannah@example.com', allergies: 'none' });
      const verify = page.getByRole('button', { name: 'Verify you are human' });
      await verify.waitFor();
      expect(requests.filter((url) => url === script)).toEqual([script]);
      // the widget's only requests: the host page, svc, and the provider's script
      const origins = new Set(requests.map((url) => new URL(url).origin));
      expect([...origins].sort()).toEqual([env.appUrl, env.hostUrl, new URL(script).origin].sort());
      expect((await fakeProviderLog(page)).renders).toEqual([{ sitekey: SITE_KEY, theme: 'dark', inLightDom: true }]);

      // unsolved: the widget asks for the check and sends nothing
      await submit(widget);
      await widget.getByRole('alert').filter({ hasText: 'Please complete the check below.' }).waitFor();
      expect(bookingBodies).toEqual([]);

      await verify.click();
      await submit(widget);
      await heading(widget, 'Booking confirmed');
      const { tokens } = await fakeProviderLog(page);
      expect(tokens).toEqual(['fake-token-1']);
      expect(bookingBodies).toHaveLength(1);
      expect(bookingBodies[0]!.recaptchaToken).toBe('fake-token-1');
      expect(verified).toEqual([{ secret: SECRET, response: 'fake-token-1', success: true }]);
      const at = Date.parse(instantIn(day, time, 'Europe/Berlin'));
      const stored = await env.deps.storage.listBookings(env.workspace.id, { limit: 10, from: at, to: at + 1 });
      expect(stored.map((booking) => booking.customerEmail)).toContain('hannah@example.com');
      // a token is single-use: after the booking the captcha is reset for the next one
      expect((await fakeProviderLog(page)).resets).toEqual(['widget-0']);
      expect(requests.filter((url) => url === script)).toHaveLength(1);
      expect(errors).toEqual([]);
      await context.close();
    });

    // the reset is the widget's, the same for every provider: checked once
    if (provider === 'turnstile')
      test('a refused booking (409 after the token was verified) resets the captcha: the retry asks for a new check and books with a fresh token', async () => {
        const { context, page, widget, bookingBodies } = await openWidget('/captcha-conflict');
        await reachDays(widget);
        // not today: late in the day its one time left would be the one taken, and no other would remain to choose
        const day = await chooseFirstDay(widget, Temporal.Now.plainDateISO('Europe/Berlin').add({ days: 1 }).toString());
        const time = await chooseTime(widget);
        await fillDetails(widget, { name: 'Second Try', email: 'second@example.com', allergies: 'none' });
        const date = instantIn(day, time, 'Europe/Berlin');
        await takeTimeOnEveryProvider(env, catalogue, date);
        const verify = page.getByRole('button', { name: 'Verify you are human' });
        await verify.click();
        await submit(widget);
        await widget.getByRole('alert').filter({ hasText: 'That time was just taken' }).waitFor();
        // the server verified (and so spent) the first token before it found the time taken
        expect(verified).toEqual([{ secret: SECRET, response: 'fake-token-1', success: true }]);
        expect((await fakeProviderLog(page)).resets).toEqual(['widget-0']);

        await chooseTime(widget);
        await submit(widget);
        await widget.getByRole('alert').filter({ hasText: 'Please complete the check below.' }).waitFor();
        expect(bookingBodies.map((body) => body.recaptchaToken)).toEqual(['fake-token-1']);
        await verify.click();
        await submit(widget);
        await heading(widget, 'Booking confirmed');
        expect(bookingBodies.map((body) => body.recaptchaToken)).toEqual(['fake-token-1', 'fake-token-2']);
        expect(verified.map((one) => one.success)).toEqual([true, true]);
        await context.close();
      });
  });
}
