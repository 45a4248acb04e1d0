import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { chromiumAvailable, startBrowserEnv, widgetPage, type BrowserEnv } from './browser-env.ts';
import { waitFor } from '../support/wait.ts';
import { seedCatalogue, takeTimeOnEveryProvider, type Catalogue } from './catalogue.ts';
import {
  bookFirstFreeTime,
  chooseDay,
  chooseFirstDay,
  chooseService,
  chooseTime,
  fillDetails,
  heading,
  instantIn,
  submit,
  widgetOf,
  reachDays,
} from './drive.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/** The element focused inside the widgets' shadow roots, described as tag.class[data-day] (or the page's). */
/** The focused element once it contains `expected` (a re-render may move focus a moment after the key press), else the last seen. */
async function focusedOnceItHas(page: Page, expected: string): Promise<string> {
  let seen = '';
  // A timeout is left to the caller's expect, which then shows what had focus.
  await waitFor(async () => (seen = await focused(page)).includes(expected), { timeoutMs: 3_000 }).catch(() => {});
  return seen;
}

async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    if (!active) return 'none';
    const day = active.getAttribute('data-day');
    return `${active.tagName.toLowerCase()}${active.className ? `.${String(active.className).split(' ').join('.')}` : ''}${day ? `[${day}]` : ''}`;
  });
}

async function bookingsAt(env: BrowserEnv, instant: string) {
  const at = Date.parse(instant);
  return env.deps.storage.listBookings(env.workspace.id, { limit: 10, from: at, to: at + 1 });
}

describeBrowser('booking widget in Chromium: modes, keyboard, errors, host API, time zones', () => {
  let env: BrowserEnv;
  let catalogue: Catalogue;
  beforeAll(async () => {
    env = await startBrowserEnv({ payments: 'test' });
    catalogue = await seedCatalogue(env);
  });
  afterAll(() => env?.close());

  for (const [colorScheme, viewport, device] of [
    ['dark', { width: 1280, height: 900 }, 'desktop'],
    ['light', { width: 375, height: 740 }, 'phone'],
  ] as const) {
    test(`floating, ${colorScheme} theme, ${device}, keyboard only: Tab/Enter/arrows/Esc, focus trapped in the dialog and returned to the launcher`, async () => {
      env.hostPage(`/floating-${colorScheme}`, { html: widgetPage(env.appUrl, { slug: 'acme', theme: colorScheme }) });
      const { context, page, errors } = await env.open({ colorScheme, viewport });
      const shot = (step: string) => env.screenshot(page, `floating-${colorScheme}-${device}-${step}`);
      await page.goto(`${env.hostUrl}/floating-${colorScheme}`);
      const widget = widgetOf(page);
      await widget.locator('button.launcher').waitFor();
      await shot('0-launcher');
      await page.keyboard.press('Tab');
      expect(await focusedOnceItHas(page, 'button.launcher')).toBe('button.launcher');
      await page.keyboard.press('Enter');
      await heading(widget, 'Choose a service');
      expect(await widget.locator('dialog[aria-modal=true]').getAttribute('open')).toBe('');
      expect(await focusedOnceItHas(page, 'h2')).toBe('h2');
      await shot('1-service');

      // Shift+Tab from the first control wraps to the last one, Tab from the last back to the first: focus stays inside
      await page.keyboard.press('Tab');
      expect(await focusedOnceItHas(page, 'button.icon-btn')).toBe('button.icon-btn');
      await page.keyboard.press('Shift+Tab');
      expect(await focusedOnceItHas(page, 'button.choice')).toBe('button.choice');
      await page.keyboard.press('Tab');
      expect(await focusedOnceItHas(page, 'button.icon-btn')).toBe('button.icon-btn');

      // to the free consultation: close, Haircut, Colour, Consultation
      for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      // two stylists give it: who, "Any available" checked; arrows move the choice, Tab reaches Continue
      await heading(widget, 'Choose a person');
      let guard = 0;
      while ((await focused(page)) !== 'input' && guard++ < 10) await page.keyboard.press('Tab');
      const any = widget.getByRole('radio', { name: 'Any available' });
      expect(await any.isChecked()).toBe(true);
      await page.keyboard.press('ArrowDown');
      await waitFor(() => widget.getByRole('radio', { name: 'Alex Hoffmann' }).isChecked(), { timeoutMs: 3_000 }).catch(() => {});
      expect(await widget.getByRole('radio', { name: 'Alex Hoffmann' }).isChecked()).toBe(true);
      await page.keyboard.press('ArrowUp');
      await waitFor(() => any.isChecked(), { timeoutMs: 3_000 }).catch(() => {});
      expect(await any.isChecked()).toBe(true);
      await shot('1b-provider');
      await page.keyboard.press('Tab');
      expect(await focusedOnceItHas(page, 'button.btn.wide')).toBe('button.btn.wide');
      await page.keyboard.press('Enter');
      await heading(widget, 'Choose a day');
      await widget.locator('button.day.open').first().waitFor();
      guard = 0;
      while (!(await focused(page)).startsWith('button.day') && guard++ < 10) await page.keyboard.press('Tab');
      const start = (await focused(page)).match(/\[(.*)\]/)![1]!;
      await page.keyboard.press('ArrowRight');
      const right = Temporal.PlainDate.from(start).add({ days: 1 }).toString();
      await page.waitForFunction(() => true);
      expect(await focusedOnceItHas(page, `[${right}]`)).toContain(`[${right}]`);
      await page.keyboard.press('ArrowDown');
      expect(await focusedOnceItHas(page, `[${Temporal.PlainDate.from(right).add({ days: 7 }).toString()}]`)).toContain(
        `[${Temporal.PlainDate.from(right).add({ days: 7 }).toString()}]`,
      );
      await page.keyboard.press('ArrowUp');
      expect(await focusedOnceItHas(page, `[${right}]`)).toContain(`[${right}]`);
      await page.keyboard.press('ArrowLeft');
      expect(await focusedOnceItHas(page, `[${start}]`)).toContain(`[${start}]`);
      await shot('2-day');
      await page.keyboard.press('Enter');
      await heading(widget, 'Choose a time');
      await widget.locator('button.time').first().waitFor();
      guard = 0;
      while ((await focused(page)) !== 'button.time' && guard++ < 10) await page.keyboard.press('Tab');
      await shot('3-time');
      await page.keyboard.press('Enter');
      await heading(widget, 'Your details');
      guard = 0;
      while ((await focused(page)) !== 'input' && guard++ < 10) await page.keyboard.press('Tab');
      await page.keyboard.type('Kim Keyboard');
      await page.keyboard.press('Tab');
      await page.keyboard.type('kim@example.com');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.type('pollen');
      await shot('4-details');
      await page.keyboard.press('Enter');
      await heading(widget, 'Booking confirmed');
      await shot('5-confirmation');
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('svc-booking')!.shadowRoot!.querySelector('dialog')!.open);
      expect(await focusedOnceItHas(page, 'button.launcher')).toBe('button.launcher');
      const [booking] = (await env.deps.storage.listBookings(env.workspace.id, { limit: 100 })).filter((one) => one.customerEmail === 'kim@example.com');
      expect(booking?.customFields).toEqual({ allergies: 'pollen' });
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  test('a page with a strict CSP (svc only in script-src and connect-src, no unsafe-inline) renders and books', async () => {
    const csp = `default-src 'none'; script-src ${env.appUrl}; connect-src ${env.appUrl}; style-src 'self'; img-src 'self'`;
    env.hostPage('/strict', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', service: catalogue.consultationId }), csp });
    const { context, page, errors } = await env.open();
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) => (window as any).reportViolation(`${event.violatedDirective} ${event.blockedURI}`)),
    );
    await page.goto(`${env.hostUrl}/strict`);
    const widget = widgetOf(page);
    // data-service skips the service step
    await reachDays(widget);
    await bookFirstFreeTime(widget, { name: 'Strict', email: 'strict@example.com', allergies: 'none' });
    await env.screenshot(page, 'strict-csp-confirmation');
    const background = await widget.locator('section.panel').evaluate((element) => getComputedStyle(element).borderTopLeftRadius);
    expect(background).toBe('14px');
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('two widgets on one page work independently (one English, one German)', async () => {
    const second = `<h2>Zweites Widget</h2><script src="${env.appUrl}/svc-widget.min.js" data-slug="acme" data-position="inline" data-language="de" async></script>`;
    env.hostPage('/two', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline' }, second) });
    const { context, page, errors } = await env.open();
    await page.goto(`${env.hostUrl}/two`);
    const first = widgetOf(page, 0);
    const german = widgetOf(page, 1);
    await heading(first, 'Choose a service');
    await heading(german, 'Leistung wählen');
    await chooseService(german, 'Consultation');
    await chooseFirstDay(german);
    await chooseTime(german);
    await fillDetails(german, { name: 'Zweite', email: 'zweite@example.com', allergies: 'keine' });
    await submit(german);
    await heading(german, 'Buchung bestätigt');
    await env.screenshot(page, 'two-widgets-de-confirmation');
    await heading(first, 'Choose a service');
    expect(await page.evaluate(() => typeof (window as any).SvcWidget.open)).toBe('function');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('409: the time was just taken -> message, times reloaded without it, typed data kept', async () => {
    env.hostPage('/conflict', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', service: catalogue.consultationId }) });
    const { context, page } = await env.open();
    await page.goto(`${env.hostUrl}/conflict`);
    const widget = widgetOf(page);
    await reachDays(widget);
    // not today: late in the day its one time left would be the one taken, and no other would remain to choose
    const tomorrow = Temporal.Now.plainDateISO('Europe/Berlin').add({ days: 1 }).toString();
    const day = await chooseFirstDay(widget, tomorrow);
    const time = await chooseTime(widget, undefined);
    await fillDetails(widget, { name: 'Late Comer', email: 'late@example.com', allergies: 'none' });
    const date = instantIn(day, time, 'Europe/Berlin');
    await takeTimeOnEveryProvider(env, catalogue, date);
    await submit(widget);
    await widget.getByRole('alert').filter({ hasText: 'That time was just taken' }).waitFor();
    await heading(widget, 'Choose a time');
    await widget.locator('button.time').first().waitFor();
    // the times are asked again after the 409: wait for the taken one to go rather than read a list still on its way
    await widget
      .locator('button.time', { hasText: new RegExp(`^${time}$`) })
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => {});
    expect(await widget.locator('button.time', { hasText: new RegExp(`^${time}$`) }).count()).toBe(0);
    await env.screenshot(page, 'conflict-409');
    await chooseTime(widget);
    expect(await widget.getByLabel(/^Name/).inputValue()).toBe('Late Comer');
    expect((await bookingsAt(env, date)).map((booking) => booking.customerEmail)).toEqual(['phone@example.com', 'phone@example.com']);
    await context.close();
  });

  test('403: on a site that is not an allowed domain the widget says so and offers no booking', async () => {
    env.hostPage('/not-allowed', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline' }) });
    const { context, page } = await env.open();
    await page.goto(`${env.otherHostUrl}/not-allowed`);
    const widget = widgetOf(page);
    await heading(widget, 'Booking is not available here');
    await widget.getByRole('alert').filter({ hasText: 'This website is not allowed to take bookings for Acme Studio' }).waitFor();
    expect(await widget.locator('button.choice').count()).toBe(0);
    await env.screenshot(page, 'not-allowed-403');
    await context.close();
  });

  test('field errors: required fields are flagged before sending, and a server 400 message lands next to its field', async () => {
    env.hostPage('/fields', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', service: catalogue.consultationId }) });
    const { context, page } = await env.open();
    const posts: string[] = [];
    page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()));
    await page.goto(`${env.hostUrl}/fields`);
    const widget = widgetOf(page);
    await reachDays(widget);
    await chooseFirstDay(widget);
    await chooseTime(widget);
    await submit(widget);
    const name = widget.getByLabel(/^Name/);
    await widget.locator('#svc-name-error').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.getAttribute('aria-describedby')).toBe('svc-name-error');
    expect(await widget.locator('#svc-name-error').textContent()).toBe('This field is required.');
    expect(await widget.locator('#svc-cf-allergies-error').textContent()).toBe('This field is required.');
    expect(await focusedOnceItHas(page, 'input')).toBe('input');
    expect(posts).toEqual([]);
    await env.screenshot(page, 'field-errors-client');
    await fillDetails(widget, { name: 'Phone Long', email: 'long@example.com', allergies: 'none' });
    await widget.getByLabel(/^Phone/).fill('0'.repeat(41));
    await submit(widget);
    await widget.locator('#svc-phone-error').waitFor();
    expect(await widget.getByLabel(/^Phone/).getAttribute('aria-describedby')).toBe('svc-phone-error');
    expect(await widget.locator('#svc-phone-error').textContent()).toContain('phone');
    expect(posts).toHaveLength(1);
    await env.screenshot(page, 'field-errors-server');
    await context.close();
  });

  test('network failure: a retry message, everything typed is kept, and the retry books', async () => {
    env.hostPage('/offline', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', service: catalogue.consultationId }) });
    const { context, page } = await env.open();
    await page.goto(`${env.hostUrl}/offline`);
    const widget = widgetOf(page);
    await reachDays(widget);
    await chooseFirstDay(widget);
    await chooseTime(widget);
    await fillDetails(widget, { name: 'Offline Olga', email: 'olga@example.com', allergies: 'dust' });
    await widget.getByLabel(/^Notes/).fill('Window seat please');
    await page.route('**/api/v1/workspaces/acme/bookings', (route) => route.abort('internetdisconnected'));
    await submit(widget);
    await widget.getByRole('alert').filter({ hasText: 'We could not reach the booking service' }).waitFor();
    await env.screenshot(page, 'network-failure');
    expect(await widget.getByLabel(/^Name/).inputValue()).toBe('Offline Olga');
    expect(await widget.getByLabel(/^Notes/).inputValue()).toBe('Window seat please');
    await page.unroute('**/api/v1/workspaces/acme/bookings');
    await submit(widget);
    await heading(widget, 'Booking confirmed');
    await context.close();
  });

  test('a service with a price sends the visitor to checkoutUrl (SVC_PAYMENTS=test)', async () => {
    env.hostPage('/pay', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', service: catalogue.colourId }) });
    const { context, page } = await env.open();
    await page.goto(`${env.hostUrl}/pay`);
    const widget = widgetOf(page);
    await reachDays(widget);
    await chooseFirstDay(widget);
    await chooseTime(widget);
    await fillDetails(widget, { name: 'Paying Paul', email: 'paul@example.com', allergies: 'none' });
    await submit(widget);
    await page.waitForURL(`${env.appUrl}/checkout/**`);
    const [booking] = (await env.deps.storage.listBookings(env.workspace.id, { limit: 100 })).filter((one) => one.customerEmail === 'paul@example.com');
    expect(booking?.status).toBe('PENDING');
    expect(booking?.amountMinor).toBe(2000);
    await context.close();
  });

  test('host API: prefill, open at a service, and the three events with the booking', async () => {
    const host = `<button id="book">Book a consultation</button>`;
    env.hostPage('/api', { html: widgetPage(env.appUrl, { slug: 'acme', label: 'Termin' }, host) });
    const { context, page } = await env.open();
    await page.addInitScript(() => {
      (window as any).seen = [];
      for (const name of ['svc:widget-open', 'svc:widget-close', 'svc:booking-created']) {
        window.addEventListener(name, (event) => (window as any).seen.push({ name, detail: (event as CustomEvent).detail }));
      }
    });
    await page.goto(`${env.hostUrl}/api`);
    const widget = widgetOf(page);
    await widget.getByRole('button', { name: 'Termin' }).waitFor();
    await page.evaluate((serviceId) => {
      (window as any).SvcWidget.prefill({ name: 'Pre Filled', email: 'pre@example.com', customFields: { allergies: 'cats' } });
      (window as any).SvcWidget.open({ serviceId });
    }, catalogue.consultationId);
    await reachDays(widget);
    await chooseFirstDay(widget);
    await chooseTime(widget);
    expect(await widget.getByLabel(/^Name/).inputValue()).toBe('Pre Filled');
    expect(await widget.getByLabel(/^Allergies/).inputValue()).toBe('cats');
    await submit(widget);
    await heading(widget, 'Booking confirmed');
    await page.evaluate(() => (window as any).SvcWidget.close());
    const seen = await page.evaluate(() => (window as any).seen as { name: string; detail: any }[]);
    expect(seen.map((event) => event.name)).toEqual(['svc:widget-open', 'svc:booking-created', 'svc:widget-close']);
    const created = seen[1]!.detail;
    const stored = await env.deps.storage.getBooking(env.workspace.id, created.booking.id);
    expect(stored?.customerEmail).toBe('pre@example.com');
    expect(created.checkoutUrl).toBeNull();
    expect(created.booking.customerName).toBe('Pre Filled');
    await context.close();
  });

  // 2027-03-28: Berlin moves to summer time that night; New York moved on 14 March; Kolkata never does.
  for (const [zone, shown, zoneName] of [
    ['America/New_York', '03:00', 'Eastern Time'],
    ['Asia/Kolkata', '12:45', 'India Standard Time'],
  ] as const) {
    test(`visitor in ${zone}, workspace in Europe/Berlin, DST day: workspace times, the visitor's time shown, the exact instant stored`, async () => {
      env.hostPage(`/zone-${zone}`, { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', service: catalogue.consultationId }) });
      const { context, page } = await env.open({ timezoneId: zone });
      await page.goto(`${env.hostUrl}/zone-${zone}`);
      const widget = widgetOf(page);
      await reachDays(widget);
      await chooseDay(widget, '2027-03-28');
      const time = zone === 'America/New_York' ? '09:00' : '09:15';
      await chooseTime(widget, time);
      await env.screenshot(page, `zone-${zone.replace('/', '-')}-details`);
      await widget.getByText(`That is Sun, Mar 28, ${shown} your time (${zoneName}).`).waitFor();
      await widget.getByText('Times are in Europe/Berlin.').first().waitFor();
      await env.screenshot(page, `zone-${zone.replace('/', '-')}-details`);
      await fillDetails(widget, { name: 'Far Away', email: `far-${zone.replace('/', '-').toLowerCase()}@example.com`, allergies: 'none' });
      await submit(widget);
      await heading(widget, 'Booking confirmed');
      const instant = instantIn('2027-03-28', time, 'Europe/Berlin');
      expect(instant).toBe(time === '09:00' ? '2027-03-28T07:00:00.000Z' : '2027-03-28T07:15:00.000Z');
      const stored = await bookingsAt(env, instant);
      expect(stored.map((booking) => booking.customerEmail)).toEqual([`far-${zone.replace('/', '-').toLowerCase()}@example.com`]);
      await context.close();
    });
  }
});
