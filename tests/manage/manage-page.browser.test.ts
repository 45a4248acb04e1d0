import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chromiumAvailable, startBrowserEnv, type BrowserEnv } from '../widget/browser-env.ts';
import { acmeApi, seedCatalogue, type Catalogue } from '../widget/catalogue.ts';
import { axeViolations } from '../widget/drive.ts';

/*
 * The customer's manage page (docs/contract/notifications.md) as a customer on a phone meets it, in Chromium with
 * JavaScript off: the booking, a move to a free time of another day, a cancel with a reason, and a booking
 * inside the cancellation window that only explains. axe-core and screenshots in both colour schemes.
 */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const PHONE = { width: 375, height: 800 };
const DAY_MS = 86_400_000;

/** The Berlin date `days` from now, as YYYY-MM-DD. */
const berlinDay = (days: number) => new Date(Date.now() + days * DAY_MS).toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });

describeBrowser('the manage page with mail configured', () => {
  let env: BrowserEnv;
  let catalogue: Catalogue;
  beforeAll(async () => {
    env = await startBrowserEnv({ config: { SVC_SMTP_URL: 'smtp://127.0.0.1:2525', SVC_MAIL_FROM: 'bookings@acme.example' } });
    catalogue = await seedCatalogue(env);
  }, 30_000);
  afterAll(() => env?.close());

  test('after a confirmed cancel the page says an email follows', async () => {
    const date = berlinDay(3);
    const { slots } = await acmeApi<{ slots: string[] }>(
      env,
      'GET',
      `/availability?serviceId=${catalogue.consultationId}&providerId=${catalogue.alexId}&date=${date}`,
    );
    const start = Temporal.PlainDateTime.from(`${date}T${slots[0]}`).toZonedDateTime('Europe/Berlin').toInstant().toString();
    const created = await acmeApi(env, 'POST', '/bookings', {
      serviceId: catalogue.consultationId,
      providerId: catalogue.alexId,
      email: 'nora@example.com',
      name: 'Nora Lang',
      date: start,
      customFields: { allergies: 'none' },
    });
    const { context, page } = await env.open({ viewport: PHONE, javaScriptEnabled: false });
    await page.goto(created.manageUrl);
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('button', { name: 'Yes, cancel booking' }).click();
    await page.getByRole('status').filter({ hasText: 'Your booking is cancelled.' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe('Your booking is cancelled. You will get an email.');
    await context.close();
  });
});

describeBrowser('the manage page in Chromium, JavaScript off, at phone width', () => {
  let env: BrowserEnv;
  let catalogue: Catalogue;
  beforeAll(async () => {
    env = await startBrowserEnv();
    catalogue = await seedCatalogue(env);
  }, 30_000);
  afterAll(() => env?.close());

  /** A booking of the consultation with Alex on the first free time `days` from now or later; its manage link. */
  async function book(days: number, name: string): Promise<{ id: string; manageUrl: string; startTime: string }> {
    for (let day = days; day < days + 14; day++) {
      const date = berlinDay(day);
      const { slots } = await acmeApi<{ slots: string[] }>(
        env,
        'GET',
        `/availability?serviceId=${catalogue.consultationId}&providerId=${catalogue.alexId}&date=${date}`,
      );
      if (slots.length === 0) continue;
      const start = Temporal.PlainDateTime.from(`${date}T${slots[0]}`).toZonedDateTime('Europe/Berlin').toInstant().toString();
      const created = await acmeApi(env, 'POST', '/bookings', {
        serviceId: catalogue.consultationId,
        providerId: catalogue.alexId,
        email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
        name,
        date: start,
        customFields: { allergies: 'none' },
      });
      return { id: created.booking.id, manageUrl: created.manageUrl, startTime: created.booking.startTime };
    }
    throw new Error('no free time in two weeks');
  }

  test('move to a free time of another day, then cancel with a reason: the API follows each step', async () => {
    const booking = await book(3, 'Mia Schneider');
    const { context, page, errors } = await env.open({ viewport: PHONE, javaScriptEnabled: false });
    await page.goto(booking.manageUrl);
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    expect(await page.locator('dd').filter({ hasText: 'Consultation' }).count()).toBe(1);
    expect(await page.locator('dd').filter({ hasText: 'Confirmed' }).count()).toBe(1);
    await env.screenshot(page, 'manage-page-light-phone');

    // another day's free times, by the form (no script)
    const otherDay = berlinDay(5);
    await page.getByLabel('Day', { exact: true }).fill(otherDay);
    await page.getByRole('button', { name: 'Show free times' }).click();
    await page.waitForURL((url) => url.searchParams.get('day') === otherDay);
    await page.getByText('Times in Europe/Berlin.').waitFor();
    const times = page.locator('.times button');
    expect(await times.count()).toBeGreaterThan(0);
    const chosen = (await times.first().textContent())!;
    await times.first().click();
    // a tap on a time only asks; the booking moves on the confirmation
    await page.getByRole('heading', { level: 2, name: 'Move your booking?' }).waitFor();
    expect((await acmeApi(env, 'GET', `/bookings/${booking.id}`)).booking.startTime).toBe(booking.startTime);
    await env.screenshot(page, 'manage-page-confirm-move-light-phone');
    await page.getByRole('button', { name: 'Move booking' }).click();
    await page.getByRole('status').filter({ hasText: 'Your booking has a new time.' }).waitFor();
    // no mail is configured: none is promised
    expect(await page.getByRole('status').textContent()).toBe('Your booking has a new time.');
    const moved = (await acmeApi(env, 'GET', `/bookings/${booking.id}`)).booking;
    expect(Date.parse(moved.startTime)).toBe(Temporal.PlainDateTime.from(`${otherDay}T${chosen}`).toZonedDateTime('Europe/Berlin').epochMilliseconds);
    expect(moved.status).toBe('CONFIRMED');

    // Cancel asks first; "Keep my booking" leaves it as it is
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('heading', { level: 2, name: 'Cancel this booking?' }).waitFor();
    expect((await acmeApi(env, 'GET', `/bookings/${booking.id}`)).booking.status).toBe('CONFIRMED');
    await page.getByRole('link', { name: 'Keep my booking' }).click();
    await page.getByRole('heading', { level: 2, name: 'Move to another time' }).waitFor();
    expect((await acmeApi(env, 'GET', `/bookings/${booking.id}`)).booking.status).toBe('CONFIRMED');
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByLabel('Reason (optional)').fill('I am ill');
    await env.screenshot(page, 'manage-page-confirm-cancel-light-phone');
    await page.getByRole('button', { name: 'Yes, cancel booking' }).click();
    await page.getByRole('status').filter({ hasText: 'Your booking is cancelled.' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe('Your booking is cancelled.');
    const cancelled = (await acmeApi(env, 'GET', `/bookings/${booking.id}`)).booking;
    expect({ status: cancelled.status, reason: cancelled.cancelReason }).toEqual({ status: 'CANCELLED', reason: 'I am ill' });
    // nothing left to change: no forms
    expect(await page.locator('form').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('inside the cancellation window the page explains instead of offering forms', async () => {
    await acmeApi(env, 'PATCH', '', { cancellationHours: 24 * 30 });
    try {
      const booking = await book(2, 'Leo Fischer');
      const { context, page } = await env.open({ viewport: PHONE, javaScriptEnabled: false });
      await page.goto(booking.manageUrl);
      await page.getByText('Bookings can be cancelled or moved online until 720 hours before the start.').waitFor();
      expect(await page.locator('form').count()).toBe(0);
      // without contact details the page can only name the business
      await page.getByText('Please contact Acme Studio directly.').waitFor();
      await context.close();
    } finally {
      await acmeApi(env, 'PATCH', '', { cancellationHours: 24 });
    }
  });

  test("inside the cancellation window the page names the workspace's contact email and phone, as links", async () => {
    await acmeApi(env, 'PATCH', '', { cancellationHours: 24 * 30, contactEmail: 'hello@acme.example', contactPhone: '+49 30 1234567' });
    try {
      const booking = await book(2, 'Ben Kaiser');
      const { context, page } = await env.open({ viewport: PHONE, javaScriptEnabled: false });
      await page.goto(booking.manageUrl);
      await page.getByText('To change or cancel it now, contact Acme Studio:').waitFor();
      expect(await page.getByRole('link', { name: 'hello@acme.example' }).getAttribute('href')).toBe('mailto:hello@acme.example');
      expect(await page.getByRole('link', { name: '+49 30 1234567' }).getAttribute('href')).toBe('tel:+49301234567');
      await env.screenshot(page, 'manage-page-too-late-contact-light-phone');
      await context.close();
    } finally {
      await acmeApi(env, 'PATCH', '', { cancellationHours: 24, contactEmail: null, contactPhone: null });
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`${colorScheme}: no axe violation, no horizontal scrolling at 375 px; screenshot saved`, async () => {
      const booking = await book(4, 'Ida Wolf');
      // bypassCSP only lets the test inject axe-core: the page's own CSP allows no inline script
      const { context, page } = await env.open({ viewport: PHONE, colorScheme, bypassCSP: true });
      await page.goto(booking.manageUrl);
      await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await env.screenshot(page, `manage-page-${colorScheme}-phone-axe`);
      expect(await axeViolations(page)).toEqual([]);
      // the two confirmation steps, too
      await page.locator('.times button').first().click();
      await page.getByRole('heading', { level: 2, name: 'Move your booking?' }).waitFor();
      await env.screenshot(page, `manage-page-${colorScheme}-phone-confirm-move`);
      expect(await axeViolations(page)).toEqual([]);
      await page.goto(`${booking.manageUrl}?confirm=cancel`);
      await page.getByRole('heading', { level: 2, name: 'Cancel this booking?' }).waitFor();
      await env.screenshot(page, `manage-page-${colorScheme}-phone-confirm-cancel`);
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    });
  }
});
