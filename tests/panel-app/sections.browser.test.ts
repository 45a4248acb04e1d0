import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { api, berlin, freeDay, go, hostEvents, hostPage, seed, signIn, until, type Seeded } from './support.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

describeBrowser("the admin panel's sections in Chromium: embedded across origins and standalone at /admin", () => {
  let env: PanelBrowserEnv;
  let data: Seeded;
  let receiver: ReturnType<typeof Bun.serve>;
  const received: string[] = [];
  beforeAll(async () => {
    env = await startPanelBrowserEnv({ config: { SVC_WEBHOOK_ALLOW_PRIVATE: true, SVC_RATE_LIMIT: 2000 }, background: true });
    receiver = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: async (request) => {
        received.push(await request.text());
        return new Response('ok');
      },
    });
    data = await seed(env);
    env.hostPage('/dashboard', hostPage(env.appUrl, 'dashboard'));
    env.hostPage('/bookings', hostPage(env.appUrl, 'bookings'));
    env.hostPage('/settings', hostPage(env.appUrl, 'settings'));
  }, 30_000);
  /** a page whose waits give up well inside the test's time, so a failure names what it waited for */
  const openPage = async (options?: Parameters<PanelBrowserEnv['open']>[0]) => {
    const opened = await env.open(options);
    opened.page.setDefaultTimeout(10_000);
    return opened;
  };
  afterAll(async () => {
    receiver?.stop(true);
    await env?.close();
  });

  test('dashboard, embedded: the PENDING booking is confirmed in one click; the API shows it CONFIRMED and the host hears `changed`', async () => {
    const { page, errors, close } = await openPage();
    await page.goto(`${env.hostUrl}/dashboard`);
    const panel = page.frameLocator('iframe');
    await panel.getByRole('heading', { level: 2, name: 'Dashboard' }).waitFor();
    await panel.getByText('Times in Europe/Berlin').waitFor();
    expect(await panel.locator('[data-count=pending]').textContent()).toBe('1');
    expect(await panel.locator('[data-count=week]').textContent()).toBe('2');
    await panel.getByRole('button', { name: 'Confirm: Mia Weber' }).click();
    await panel.getByRole('status').filter({ hasText: 'Booking of Mia Weber confirmed.' }).waitFor();
    expect((await api(env, 'GET', `/bookings/${data.pending}`)).body.booking.status).toBe('CONFIRMED');
    await until('the host to hear changed', async () => (await hostEvents(page)).includes('changed'));
    expect(await panel.locator('[data-count=pending]').textContent()).toBe('0');
    await panel.getByText('Nothing is waiting for confirmation.').waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  test('bookings, embedded: details with the answers, focus mode at the host, and a move to a free time', async () => {
    const { page, errors, close } = await openPage();
    await page.goto(`${env.hostUrl}/bookings`);
    const panel = page.frameLocator('iframe');
    await panel.getByRole('heading', { level: 2, name: 'Bookings' }).waitFor();
    await panel.getByRole('button', { name: /^Booking details: .*Leo Fischer/ }).click();
    await panel.getByRole('heading', { name: "Details of Leo Fischer's booking" }).waitFor();
    await panel.getByText('+49 30 1234567').waitFor();
    // it has not started yet: it can be moved or cancelled, not marked completed
    expect(await panel.getByRole('button', { name: 'Move to another time' }).count()).toBe(1);
    expect(await panel.getByRole('button', { name: 'Mark as completed' }).count()).toBe(0);
    // the custom-field answer under the field's label
    expect(await panel.locator('.facts-list div').filter({ hasText: 'Any allergies?' }).locator('dd').textContent()).toBe('Lavender oil');
    await panel
      .getByText('35,00 €', { exact: true })
      .or(panel.getByText('€35.00', { exact: true }))
      .waitFor();
    await until('focus mode on', async () => (await hostEvents(page)).includes('focus-mode:true'));
    const { day, slots } = await freeDay(env, data.haircut, 2);
    await panel.getByRole('button', { name: 'Move to another time' }).click();
    await panel.getByLabel('Day', { exact: true }).fill(day);
    const target = slots.at(-1)!;
    await panel.getByRole('button', { name: target, exact: true }).click();
    await panel.getByRole('button', { name: 'Move', exact: true }).click();
    await panel.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const moved = (await api(env, 'GET', `/bookings/${data.confirmed}`)).body.booking;
    expect(moved.startTime).toBe(new Date(berlin(day, target)).toISOString());
    expect(moved.status).toBe('CONFIRMED');
    await until('the host to hear changed', async () => (await hostEvents(page)).includes('changed'));
    await panel.getByRole('button', { name: 'Close' }).click();
    await until('focus mode off', async () => (await hostEvents(page)).includes('focus-mode:false'));
    expect(errors).toEqual([]);
    await close();
  });

  test('bookings, standalone: a booking made by hand for a customer on the phone, then cancelled with a reason', async () => {
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Bookings');
    await page.getByRole('button', { name: 'New booking' }).click();
    const form = page.getByRole('region', { name: 'New booking' });
    await form.getByLabel('Service').selectOption({ label: 'Haircut' });
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByLabel('Name').fill('Nora Klein');
    const { day, slots } = await freeDay(env, data.haircut, 3);
    await form.getByLabel('Day', { exact: true }).fill(day);
    await form.getByRole('button', { name: slots[1]!, exact: true }).click();
    await form.getByRole('button', { name: 'Book', exact: true }).click();
    // the API's validation error shows next to the field, and what was typed stays
    await form.locator('.field.invalid').filter({ hasText: 'Email' }).waitFor();
    expect(await form.getByLabel('Name').inputValue()).toBe('Nora Klein');
    await form.getByLabel('Email').fill('nora@example.com');
    await form.getByRole('button', { name: slots[1]!, exact: true }).click();
    await form.getByRole('button', { name: 'Book', exact: true }).click();
    await page.getByRole('button', { name: /^Booking details: .*Nora Klein/ }).waitFor();
    const listed = (await api(env, 'GET', `/bookings?from=${day}T00:00:00%2B01:00&to=${day}T23:59:00%2B01:00`)).body.bookings as any[];
    const nora = listed.find((booking) => booking.customerEmail === 'nora@example.com');
    expect(nora).toMatchObject({ status: 'CONFIRMED', customerName: 'Nora Klein', startTime: new Date(berlin(day, slots[1]!)).toISOString() });
    await page.getByRole('button', { name: /^Booking details: .*Nora Klein/ }).click();
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByLabel('Reason for the customer (optional)').fill('Stylist ill');
    await page.getByRole('button', { name: 'Cancel this booking' }).click();
    await page.locator('.badge').filter({ hasText: 'Cancelled' }).waitFor();
    expect((await api(env, 'GET', `/bookings/${nora.id}`)).body.booking).toMatchObject({ status: 'CANCELLED', cancelReason: 'Stylist ill' });
    // the reason stays with the booking, in its details
    await page.locator('.facts-list div').filter({ hasText: 'Reason for cancelling' }).locator('dd').filter({ hasText: 'Stylist ill' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  test('services, standalone: a field error is shown under its field without losing input; a new service appears in the widget config', async () => {
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Services');
    await page.getByRole('button', { name: 'New service' }).click();
    await page.getByLabel('Name').fill('Beard trim');
    await page.getByLabel('Duration (minutes)').fill('2');
    await page.getByRole('button', { name: 'Save' }).click();
    const durationError = page.locator('.field.invalid').filter({ hasText: 'Duration (minutes)' }).locator('.field-error');
    await durationError.waitFor();
    expect((await durationError.textContent())!.length).toBeGreaterThan(3);
    expect(await page.getByLabel('Name').inputValue()).toBe('Beard trim');
    await page.getByLabel('Duration (minutes)').fill('20');
    await page.getByLabel('Price').fill('15');
    await page.getByRole('checkbox', { name: 'Anna Schmidt' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit: Beard trim' }).waitFor();
    const config = (await (await fetch(`${env.appUrl}/api/v1/workspaces/acme/config`)).json()) as {
      services: { name: string; duration: number; price: number; providerIds: string[] }[];
    };
    expect(config.services.find((service) => service.name === 'Beard trim')).toMatchObject({ duration: 20, price: 15, providerIds: [data.anna] });
    expect(errors).toEqual([]);
    await close();
  });

  test('hours, standalone: opening Saturdays 10:00–12:00 makes Saturday bookable at exactly those times', async () => {
    const saturday = (() => {
      for (let days = 1; ; days++) {
        const candidate = new Date(Date.now() + days * 86_400_000);
        if (candidate.getUTCDay() === 6) return candidate.toISOString().slice(0, 10);
      }
    })();
    const before = await api(env, 'GET', `/availability?serviceId=${data.haircut}&date=${saturday}`);
    expect(before.body.slots).toEqual([]);
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Working hours');
    await page.getByRole('button', { name: 'Add hours: Saturday' }).click();
    await page.getByLabel('Saturday from').fill('10:00');
    await page.getByLabel('Saturday to').fill('12:00');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await api(env, 'GET', '/schedule')).body.schedule.weekly.sat).toEqual([{ start: '10:00', end: '12:00' }]);
    await until(
      'availability to follow',
      async () => {
        const after = await api(env, 'GET', `/availability?serviceId=${data.haircut}&date=${saturday}`);
        return JSON.stringify(after.body.slots) === JSON.stringify(['10:00', '10:30', '11:00', '11:30']);
      },
      5000,
    );
    expect(errors).toEqual([]);
    await close();
  });

  test('settings, embedded: a webhook is created with its secret shown once, a test send shows its delivery row; an API key is created and revoked', async () => {
    const { page, errors, close } = await openPage({ viewport: { width: 1280, height: 1400 } });
    await page.goto(`${env.hostUrl}/settings`);
    const panel = page.frameLocator('iframe');
    await panel.getByRole('heading', { level: 2, name: 'Settings' }).waitFor();
    const hooks = panel.locator('section', { has: panel.getByRole('heading', { name: 'Webhooks' }) });
    await hooks.getByText('No webhooks.').waitFor();
    await hooks.getByLabel('Address (https://…)').fill(`http://127.0.0.1:${receiver.port}/hook`);
    await hooks.getByRole('checkbox', { name: 'booking.confirmed' }).check();
    await hooks.getByRole('button', { name: 'Add' }).click();
    const secret = await hooks.locator('.shown-once code').textContent();
    expect(secret).toMatch(/^whsec_/);
    expect((await api(env, 'GET', '/webhooks')).body.webhooks).toMatchObject([
      { url: `http://127.0.0.1:${receiver.port}/hook`, events: ['booking.confirmed'], isActive: true },
    ]);
    await hooks.getByRole('button', { name: 'Send test' }).click();
    await hooks.locator('tr[data-event="webhook.test"]').filter({ hasText: 'Delivered (200)' }).waitFor({ timeout: 15_000 });
    expect(received.some((body) => body.includes('"webhook.test"'))).toBe(true);

    const keys = panel.locator('section', { has: panel.getByRole('heading', { name: 'API keys' }) });
    await keys.getByLabel('Key name').fill('Front desk tablet');
    await keys.getByRole('button', { name: 'Create' }).click();
    const key = (await keys.locator('.shown-once code').textContent())!;
    expect(key).toMatch(/^svc_live_/);
    expect((await fetch(`${env.appUrl}/api/v1/workspaces/acme/services`, { headers: { 'x-svc-api-key': key } })).status).toBe(200);
    await keys.getByRole('button', { name: 'Revoke: Front desk tablet' }).click();
    await keys.locator('.confirm-row').filter({ hasText: 'Revoke the key Front desk tablet?' }).getByRole('button', { name: 'Revoke' }).click();
    await keys.getByText('Front desk tablet').waitFor({ state: 'detached' });
    expect((await fetch(`${env.appUrl}/api/v1/workspaces/acme/services`, { headers: { 'x-svc-api-key': key } })).status).toBe(401);
    await until('changed at the host', async () => (await hostEvents(page)).filter((event) => event === 'changed').length >= 2);
    expect(errors).toEqual([]);
    await close();
  }, 40_000);

  test('settings, embedded: "Choose logo" asks the host, and the URL it answers is saved as logoUrl', async () => {
    const { page, close } = await openPage();
    await page.goto(`${env.hostUrl}/settings`);
    const panel = page.frameLocator('iframe');
    await panel.getByRole('button', { name: 'Choose logo' }).click();
    await until('logoUrl saved', async () => (await api(env, 'GET', '')).body.workspace.logoUrl === 'https://cdn.example.com/logo.png');
    expect(await hostEvents(page)).toContain('select-logo');
    await close();
  });

  test('"Open full admin", embedded: the host is handed /admin for the same workspace, whose sign-in comes with the slug filled in', async () => {
    const { page, errors, close } = await openPage();
    await page.goto(`${env.hostUrl}/dashboard`);
    const panel = page.frameLocator('iframe');
    await panel.getByRole('button', { name: 'Open full admin' }).click();
    await until('the host to hear open-admin', async () => (await hostEvents(page)).some((event) => event.startsWith('open-admin:')));
    const url = (await hostEvents(page)).find((event) => event.startsWith('open-admin:'))!.slice('open-admin:'.length);
    expect(url).toBe(`${env.appUrl}/admin?workspace=acme`);
    await page.goto(url);
    expect(await page.getByLabel('Workspace').inputValue()).toBe('acme');
    // the key field has the focus: the owner only types the key
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('key');
    await page.keyboard.type(env.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Studio' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  test('in German: a workspace whose language is `de` gets the panel in German, times named in its zone', async () => {
    expect((await api(env, 'PATCH', '', { language: 'de' })).status).toBe(200);
    try {
      const { page, errors, close } = await openPage();
      await signIn(env, page);
      await page.getByRole('navigation').getByRole('button', { name: 'Übersicht' }).waitFor();
      await page.getByText('Zeiten in Europe/Berlin').waitFor();
      await page.getByRole('navigation').getByRole('button', { name: 'Leistungen' }).click();
      await page.getByRole('button', { name: 'Neue Leistung' }).waitFor();
      expect(errors).toEqual([]);
      await close();
    } finally {
      await api(env, 'PATCH', '', { language: 'en' });
    }
  });

  test('a read-only session (no capability) offers no write control in any section, and the views still load', async () => {
    env.hostPage('/read-only', hostPage(env.appUrl, 'dashboard', ''));
    const { page, errors, close } = await openPage({ viewport: { width: 1280, height: 1200 } });
    await page.goto(`${env.hostUrl}/read-only`);
    const panel = page.frameLocator('iframe');
    await panel.getByText('Read only').waitFor();
    const writeNames =
      /^(Confirm|New booking|New service|New provider|New question|Save|Add|Create|Revoke|Send test|Disable|Enable|Deactivate|Move|Book|Cancel booking|Choose logo|New pairing code|Edit|Mark as completed|\+|×|↑|↓)/;
    for (const title of ['Dashboard', 'Bookings', 'Calendar', 'Services', 'Providers', 'Working hours', 'Custom fields', 'Settings']) {
      await go(panel, title);
      const names = await panel
        .locator('main button:not([disabled]), main input:not([disabled]):not([readonly]), main select:not([disabled]), main textarea:not([readonly])')
        .evaluateAll((elements) =>
          elements
            .filter(
              (element) =>
                !element.closest('fieldset[disabled]')
                && !element.closest('.filters')
                && !element.closest('.calendar-bar')
                && !element.closest('ul.bookings')
                // the calendar's bookings open their details
                && !element.closest('.week-grid'),
            )
            .map((element) => element.getAttribute('aria-label') ?? element.textContent ?? (element as HTMLInputElement).name),
        );
      expect({ title, writable: names.filter((name) => writeNames.test(name.trim())) }).toEqual({ title, writable: [] });
      expect(await panel.getByRole('alert').count()).toBe(0);
    }
    expect(errors).toEqual([]);
    await close();
  }, 60_000);
});
