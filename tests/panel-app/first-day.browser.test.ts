import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { axeViolations } from '../widget/drive.ts';
import { api, berlin, freeDay, go, signIn, until } from './support.ts';

/*
 * The owner's first day in the standalone admin (docs/contract/first-day.md): a new workspace's first steps, a
 * service never left unbookable in silence, working hours that say what is wrong and keep every edit, a booking
 * awaiting payment that is marked paid (never confirmed), an address per section and booking that survives a
 * reload and Back, a calendar whose bookings open, and the panel saying things in words. The tests run in order
 * on one new workspace, as an owner would.
 */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const SHOTS = '/tmp/panelday-shots';

describeBrowser("the owner's first day in the standalone admin, in Chromium", () => {
  let env: PanelBrowserEnv;
  const ids: { haircut?: string; anna?: string; awaiting?: string; requested?: string } = {};
  beforeAll(async () => {
    env = await startPanelBrowserEnv({ config: { SVC_RATE_LIMIT: 5000 }, payments: 'test' });
    // a new workspace: no services, no providers; the linked test host's domain is taken away again
    expect((await api(env, 'PUT', '/domains', { domains: [] })).status).toBe(200);
    mkdirSync(SHOTS, { recursive: true });
  }, 30_000);
  afterAll(() => env?.close());

  const openPage = async (options?: Parameters<PanelBrowserEnv['open']>[0]) => {
    const opened = await env.open({ bypassCSP: true, ...options });
    opened.page.setDefaultTimeout(10_000);
    await opened.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.appUrl });
    return opened;
  };
  const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

  test('a new workspace: the dashboard lists the first steps with the booking page and the snippet to copy; the calendar and a new provider say what is missing', async () => {
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    const steps = page.getByRole('region', { name: 'First steps' });
    await steps.waitFor();
    expect(
      await steps
        .locator('.step')
        .evaluateAll((items) => items.map((item) => [item.querySelector('.step-title')?.textContent, item.getAttribute('data-done')])),
    ).toEqual([
      ['Set your working hours', 'true'],
      ['Create a service that someone offers', 'false'],
      ['Allow your website to take bookings', 'false'],
      ['Choose where svc tells you about new bookings', 'false'],
    ]);
    await steps.getByText(`${env.appUrl}/book/acme`).waitFor();
    await steps.getByRole('button', { name: 'Copy the address' }).click();
    await steps.getByText('Copied.').first().waitFor();
    expect(await clipboard(page)).toBe(`${env.appUrl}/book/acme`);
    await steps.getByRole('button', { name: 'Copy the snippet' }).click();
    expect(await clipboard(page)).toBe(`<script src="${env.appUrl}/svc-widget.min.js" data-slug="acme" async></script>`);

    // the calendar without providers says so, and leads to them
    await go(page, 'Calendar');
    await page.getByText('Add a provider first').waitFor();
    expect(await page.locator('.week-grid').count()).toBe(0);
    await page.getByRole('button', { name: 'Go to Providers' }).click();
    await page.getByRole('heading', { level: 2, name: 'Providers' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/providers');
    await page.getByRole('button', { name: 'New provider' }).click();
    await page.getByText('There are no services yet. Create one under Services and tick this provider there.').waitFor();
    await page.getByRole('button', { name: 'Go to Services' }).click();
    await page.getByRole('heading', { level: 2, name: 'Services' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/services');
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  test('a new service offers a provider made on the spot; a service nobody offers, or whose only provider has no hours, says why it cannot be booked', async () => {
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Services');
    await page.getByRole('button', { name: 'New service' }).click();
    await page.getByText('Nobody offers services yet.', { exact: false }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Haircut');
    await page.getByLabel('Price').fill('35');
    await page.getByLabel('Add a provider').fill('Anna Schmidt');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit: Haircut' }).waitFor();
    const anna = (await api(env, 'GET', '/providers')).body.providers.find((provider: { name: string }) => provider.name === 'Anna Schmidt');
    const haircut = (await api(env, 'GET', '/services')).body.services.find((service: { name: string }) => service.name === 'Haircut');
    expect(haircut).toMatchObject({ price: 35, providerIds: [anna.id] });
    ids.haircut = haircut.id;
    ids.anna = anna.id;

    // the same form with a provider preselected; nobody ticked: the list says why it cannot be booked
    await page.getByRole('button', { name: 'New service' }).click();
    expect(await page.getByRole('checkbox', { name: 'Anna Schmidt' }).isChecked()).toBe(true);
    await page.getByLabel('Name', { exact: true }).fill('Colour');
    await page.getByRole('checkbox', { name: 'Anna Schmidt' }).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    const colour = page.locator('.items li').filter({ hasText: 'Colour' });
    await colour.getByText('Cannot be booked: nobody offers it.', { exact: false }).waitFor();

    // a provider without any working hours is no help either
    const ben = await api(env, 'POST', '/providers', { name: 'Ben Wagner' });
    const closed = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
    expect((await api(env, 'PUT', `/providers/${ben.body.provider.id}/schedule`, { weekly: closed, exceptions: [] })).status).toBe(200);
    expect(
      (await api(env, 'POST', '/services', { name: 'Massage', duration: 60, price: 0, currency: 'EUR', providerIds: [ben.body.provider.id] })).status,
    ).toBe(200);
    await go(page, 'Providers');
    await go(page, 'Services');
    await page.locator('.items li').filter({ hasText: 'Massage' }).getByText('Cannot be booked: the providers who offer it have no working hours.').waitFor();
    expect(await page.locator('.items li').filter({ hasText: 'Haircut' }).locator('.unbookable').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  test('working hours: "+" adds a valid range, a wrong one is said next to it and nothing is lost; leaving with unsaved edits asks first', async () => {
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Working hours');
    // a 24-hour workspace shows 24-hour times, never "09:00 AM"
    expect(await page.getByLabel('Monday from').inputValue()).toBe('09:00');
    expect(await page.getByLabel('Monday from').getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Add hours: Saturday' }).click();
    expect([await page.getByLabel('Saturday from').inputValue(), await page.getByLabel('Saturday to').inputValue()]).toEqual(['09:00', '17:00']);
    await page.getByRole('button', { name: 'Add hours: Monday' }).click();
    const monday = page.getByRole('row', { name: /Monday/ });
    expect(await monday.getByLabel('Monday from').nth(1).inputValue()).toBe('18:00');
    expect(await monday.getByLabel('Monday to').nth(1).inputValue()).toBe('20:00');
    expect(await page.locator('.interval.invalid').count()).toBe(0);
    // an end before its start: said in words next to it, the save refused, every edit kept
    await monday.getByLabel('Monday to').nth(1).fill('17:30');
    await monday.getByText('The end must be after the start.').waitFor();
    expect(await monday.getByLabel('Monday to').nth(1).getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Some hours are not right yet' }).waitFor();
    expect((await api(env, 'GET', '/schedule')).body.schedule.weekly.sat).toEqual([]);
    expect(await page.getByLabel('Saturday from').inputValue()).toBe('09:00');
    expect(await page.content()).not.toContain('weekly.mon');
    // leaving asks; "stay" keeps the section and the edits
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await page.getByRole('navigation').getByRole('button', { name: 'Services', exact: true }).click();
    await until('the question', () => asked !== '');
    expect(asked).toBe('You have changes that are not saved. Leave without saving them?');
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe('Working hours');
    expect(new URL(page.url()).pathname).toBe('/admin/hours');
    await monday.getByLabel('Monday to').nth(1).fill('20:00');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const weekly = (await api(env, 'GET', '/schedule')).body.schedule.weekly;
    expect({ mon: weekly.mon, sat: weekly.sat }).toEqual({
      mon: [
        { start: '09:00', end: '17:00' },
        { start: '18:00', end: '20:00' },
      ],
      sat: [{ start: '09:00', end: '17:00' }],
    });
    // saved: nothing to ask about
    await go(page, 'Services');
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  test('a booking awaiting payment says so, offers Mark as paid and no Confirm; one awaiting confirmation offers Confirm and Decline', async () => {
    const { day, slots } = await freeDay(env, ids.haircut!);
    const awaiting = await api(env, 'POST', '/bookings', { serviceId: ids.haircut, email: 'mia@example.com', name: 'Mia Weber', date: berlin(day, slots[0]!) });
    expect(awaiting.body.booking).toMatchObject({ status: 'PENDING', awaitingPayment: true });
    ids.awaiting = awaiting.body.booking.id;
    const free = await api(env, 'POST', '/services', { name: 'Consultation', duration: 30, price: 0, currency: 'EUR', providerIds: [ids.anna] });
    // a keyless booking of a free service from an allowed site waits for confirmation
    expect((await api(env, 'PUT', '/domains', { domains: [new URL(env.hostUrl).hostname] })).status).toBe(200);
    expect((await api(env, 'PATCH', '', { requiresConfirmation: true })).status).toBe(200);
    const requested = await api(
      env,
      'POST',
      '/bookings',
      { serviceId: free.body.service.id, email: 'leo@example.com', name: 'Leo Fischer', date: berlin(day, slots[2]!) },
      {
        'x-svc-api-key': '',
        origin: env.hostUrl,
      },
    );
    expect(requested.body.booking).toMatchObject({ status: 'PENDING', awaitingPayment: false });
    ids.requested = requested.body.booking.id;
    expect((await api(env, 'PATCH', '', { requiresConfirmation: false })).status).toBe(200);

    const { page, errors, close } = await openPage();
    await signIn(env, page);
    const mia = page.locator('section[aria-labelledby=pending-title] li').filter({ hasText: 'Mia Weber' });
    await mia.getByText('Awaiting payment').waitFor();
    expect(await mia.getByText('Waiting for confirmation').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Confirm: Mia Weber' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Decline: Leo Fischer' }).waitFor();
    await page.getByRole('button', { name: 'Mark as paid: Mia Weber' }).click();
    await page.getByRole('status').filter({ hasText: 'Booking of Mia Weber marked as paid and confirmed.' }).waitFor();
    expect((await api(env, 'GET', `/bookings/${ids.awaiting}`)).body.booking).toMatchObject({ status: 'CONFIRMED', awaitingPayment: false });

    await page.getByRole('button', { name: 'Decline: Leo Fischer' }).click();
    await page.getByText('Decline the booking of Leo Fischer?', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Yes, decline' }).click();
    await page.getByRole('status').filter({ hasText: 'Booking of Leo Fischer declined.' }).waitFor();
    expect((await api(env, 'GET', `/bookings/${ids.requested}`)).body.booking.status).toBe('CANCELLED');
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  test('every section and booking has an address; reload and Back keep the owner signed in; no API key or token is kept where it must not be', async () => {
    const { day, slots } = await freeDay(env, ids.haircut!, 2);
    const unpaid = await api(env, 'POST', '/bookings', { serviceId: ids.haircut, email: 'ida@example.com', name: 'Ida Braun', date: berlin(day, slots[1]!) });
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Bookings');
    expect(new URL(page.url()).pathname).toBe('/admin/bookings');
    await page.getByRole('button', { name: /^Booking details: .*Ida Braun/ }).click();
    await page.getByRole('heading', { name: "Details of Ida Braun's booking" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/bookings/${unpaid.body.booking.id}`);
    // awaiting payment in the details too: Mark as paid, no Confirm
    await page.locator('.details').getByText('Awaiting payment').waitFor();
    expect(await page.getByRole('button', { name: 'Confirm', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Mark as paid', exact: true }).count()).toBe(1);

    await page.reload();
    await page.getByRole('heading', { name: "Details of Ida Braun's booking" }).waitFor();
    expect(await page.getByLabel('API key').count()).toBe(0);
    await page.goBack();
    await page.getByRole('heading', { level: 2, name: 'Bookings' }).waitFor();
    await page.getByRole('button', { name: /^Booking details: .*Ida Braun/ }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 2, name: 'Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');
    await page.goForward();
    await page.getByRole('heading', { level: 2, name: 'Bookings' }).waitFor();
    // a section's address opened directly
    await page.goto(`${env.appUrl}/admin/services`);
    await page.getByRole('heading', { level: 2, name: 'Services' }).waitFor();

    const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + document.cookie);
    expect(stored).not.toContain(env.apiKey);
    expect(env.requested.filter((url) => [...env.secrets].some((secret) => url.includes(secret)))).toEqual([]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.reload();
    await page.getByLabel('API key').waitFor();
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  test('calendar: a 20-minute booking shows its full text in its title and name and opens the booking; on a phone the week opens on today', async () => {
    const quick = await api(env, 'POST', '/services', { name: 'Quick check', duration: 20, price: 0, currency: 'EUR', providerIds: [ids.anna] });
    const { day, slots } = await freeDay(env, quick.body.service.id, 1);
    const booked = await api(env, 'POST', '/bookings', {
      serviceId: quick.body.service.id,
      email: 'tom@example.com',
      name: 'Tom Becker',
      date: berlin(day, slots[0]!),
    });
    expect(booked.status).toBe(200);
    const { page, errors, close } = await openPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(env, page);
    await go(page, 'Calendar');
    const grid = page.locator('.week-grid');
    await grid.waitFor();
    // today's column is in view, not Monday's
    const inView = await page.evaluate(() => {
      const box = document.querySelector('.week-grid')!.getBoundingClientRect();
      const today = document.querySelector('.day-column.is-today')!.getBoundingClientRect();
      return today.left >= box.left + 40 && today.left < box.right;
    });
    expect(inView).toBe(true);
    const name = new RegExp(`^Booking details: ${slots[0]} – \\d\\d:\\d\\d Tom Becker · Quick check$`);
    // forward to the booking's week (Mondays of Berlin days, taken at noon UTC)
    const monday = (date: string) => {
      const noon = new Date(`${date}T12:00:00Z`);
      return noon.getTime() - ((noon.getUTCDay() + 6) % 7) * 86_400_000;
    };
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(Date.now());
    for (let week = 0; week < Math.round((monday(day) - monday(today)) / (7 * 86_400_000)); week++) {
      const shown = await page.locator('.calendar-bar .zone').textContent();
      await page.getByRole('button', { name: 'Next week' }).click();
      await until('the next week', async () => (await page.locator('.calendar-bar .zone').textContent()) !== shown);
    }
    const placed = page.getByRole('button', { name });
    expect(await placed.getAttribute('title')).toMatch(/Tom Becker · Quick check$/);
    await placed.click();
    await page.getByRole('heading', { name: "Details of Tom Becker's booking" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/bookings/${booked.body.booking.id}`);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  test('in words: a booking by hand needs a name, a domain with a port, a private webhook, a repeated webhook; secrets copy; the accent is the workspace colour; the key of a question', async () => {
    expect((await api(env, 'PATCH', '', { primaryColor: '#0f766e' })).status).toBe(200);
    const { page, errors, close } = await openPage({ viewport: { width: 1280, height: 1400 } });
    await signIn(env, page);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim())).toBe('#0f766e');

    await go(page, 'Bookings');
    await page.getByRole('button', { name: 'New booking' }).click();
    const form = page.locator('.new-booking');
    await form.getByLabel('Service').selectOption({ label: 'Haircut' });
    await form.getByLabel('Email').fill('noname@example.com');
    const { day } = await freeDay(env, ids.haircut!, 3);
    await form.getByLabel('Day', { exact: true }).fill(day);
    await form.locator('.slots button').first().click();
    await form.getByRole('button', { name: 'Book', exact: true }).click();
    await form.locator('.field.invalid').filter({ hasText: 'Name' }).getByText('Please give the customer’s name.').waitFor();
    expect(
      (await api(env, 'GET', '/bookings?limit=100')).body.bookings.some((booking: { customerEmail: string }) => booking.customerEmail === 'noname@example.com'),
    ).toBe(false);

    await go(page, 'Settings');
    const domains = page.locator('form', { has: page.getByRole('heading', { name: 'Websites that may take bookings' }) });
    await domains.getByLabel('Website addresses').fill('shop.example.com:8080');
    await domains.getByRole('button', { name: 'Save' }).click();
    await domains.getByText('Write the domain without the port :8080: shop.example.com').first().waitFor();
    expect(await page.content()).not.toContain('domains[0]');

    const hooks = page.locator('section', { has: page.getByRole('heading', { name: 'Webhooks' }) });
    await hooks.getByLabel('Address (https://…)').fill('http://127.0.0.1:9/hook');
    await hooks.getByRole('button', { name: 'Add' }).click();
    await hooks.getByText('This address is in a private network', { exact: false }).first().waitFor();
    expect(await page.content()).not.toContain('SVC_WEBHOOK_ALLOW_PRIVATE');
    await hooks.getByLabel('Address (https://…)').fill('https://hooks.example.com/svc');
    await hooks.getByRole('button', { name: 'Add' }).click();
    const secret = await hooks.locator('.shown-once code').textContent();
    await hooks.getByRole('button', { name: 'Copy the secret' }).click();
    expect(await clipboard(page)).toBe(secret!);
    await hooks.getByLabel('Address (https://…)').fill('https://hooks.example.com/svc');
    await hooks.getByRole('button', { name: 'Add' }).click();
    await hooks.getByText('A webhook with this address exists already.', { exact: false }).first().waitFor();
    expect((await api(env, 'GET', '/webhooks')).body.webhooks).toHaveLength(1);

    await go(page, 'Custom fields');
    await page.getByRole('button', { name: 'New question' }).click();
    await page.getByLabel('Name in the data (optional)').waitFor();
    expect(await page.getByText('a–z, 0–9').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  for (const width of [1280, 390]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      test(`${width} px, ${colorScheme}: no axe violation in any section or a booking's details; screenshots saved`, async () => {
        const { page, errors, close } = await openPage({ viewport: { width, height: 900 }, colorScheme });
        await signIn(env, page);
        const violations: unknown[] = [];
        for (const title of ['Dashboard', 'Bookings', 'Calendar', 'Services', 'Providers', 'Working hours', 'Custom fields', 'Settings']) {
          await go(page, title);
          violations.push(...(await axeViolations(page)).map((violation) => ({ section: title, ...violation })));
          await page.screenshot({ path: join(SHOTS, `${title.toLowerCase().replace(/ /g, '-')}-${width}-${colorScheme}.png`), fullPage: true });
        }
        await page.goto(`${env.appUrl}/admin/bookings/${ids.awaiting}`);
        await page.getByRole('heading', { name: "Details of Mia Weber's booking" }).waitFor();
        violations.push(...(await axeViolations(page)).map((violation) => ({ section: 'details', ...violation })));
        await page.screenshot({ path: join(SHOTS, `details-${width}-${colorScheme}.png`), fullPage: true });
        expect(violations).toEqual([]);
        expect(errors).toEqual([]);
        await close();
      }, 120_000);
    }
  }
});
