import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { api, freeDay, go, hostEvents, hostPage, longDay, seed, showWeekOf, signIn, until, type Seeded } from './support.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/**
 * The sections' jobs sections.browser.test.ts leaves out: the calendar, providers with their own hours, holidays,
 * custom fields, the settings forms, the host's navigate and the two one-capability sessions. One svc and one
 * seeded workspace for the file; each test leaves the workspace settings as it found them.
 */
describeBrowser("the admin panel's other jobs in Chromium", () => {
  let env: PanelBrowserEnv;
  let data: Seeded;
  beforeAll(async () => {
    env = await startPanelBrowserEnv({ config: { SVC_RATE_LIMIT: 2000 } });
    data = await seed(env);
    env.hostPage('/calendar', hostPage(env.appUrl, 'calendar'));
    env.hostPage('/dashboard', hostPage(env.appUrl, 'dashboard'));
    env.hostPage('/operations-only', hostPage(env.appUrl, 'settings', 'svc_manage_operations'));
    env.hostPage('/settings-only', hostPage(env.appUrl, 'settings', 'svc_manage_settings'));
  }, 30_000);
  afterAll(() => env?.close());
  const openPage = async (options?: Parameters<PanelBrowserEnv['open']>[0]) => {
    const opened = await env.open({ viewport: { width: 1280, height: 1400 }, ...options });
    opened.page.setDefaultTimeout(10_000);
    return opened;
  };

  test("calendar, embedded in a browser in New York: Leo's booking sits at its Berlin time; focus mode on while it is open, off after", async () => {
    const { page, errors, close } = await openPage({ timezoneId: 'America/New_York' });
    await page.goto(`${env.hostUrl}/calendar`);
    const panel = page.frameLocator('iframe');
    await panel.getByRole('heading', { level: 2, name: 'Calendar' }).waitFor();
    await until('focus mode on', async () => (await hostEvents(page)).includes('focus-mode:true'));
    const leo = (await api(env, 'GET', `/bookings/${data.confirmed}`)).body.booking;
    const wall = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(leo.startTime),
    );
    await showWeekOf(panel, data.day);
    const column = panel.getByRole('region', { name: longDay(data.day), exact: true });
    const placed = column.locator('li.placed').filter({ hasText: 'Leo Fischer' });
    await placed.waitFor();
    expect(await placed.locator('strong').textContent()).toBe(wall);
    // placed from 08:00 (the grid's first hour) at 64 px an hour
    const [hour, minute] = wall.split(':').map(Number) as [number, number];
    expect(await placed.evaluate((element) => (element as HTMLElement).style.top)).toBe(`${(((hour - 8) * 60 + minute) / 60) * 64}px`);
    await panel.getByRole('navigation').getByRole('button', { name: 'Dashboard', exact: true }).click();
    await until('focus mode off', async () => (await hostEvents(page)).includes('focus-mode:false'));
    expect(errors).toEqual([]);
    await close();
  });

  test("the host's navigate(section) switches the panel's section; an unknown one opens the dashboard", async () => {
    const { page, errors, close } = await openPage();
    await page.goto(`${env.hostUrl}/dashboard`);
    const panel = page.frameLocator('iframe');
    await panel.getByRole('heading', { level: 2, name: 'Dashboard' }).waitFor();
    await page.evaluate(() => (window as any).panel.navigate('hours'));
    await panel.getByRole('heading', { level: 2, name: 'Working hours' }).waitFor();
    expect(await panel.getByRole('navigation').getByRole('button', { name: 'Working hours' }).getAttribute('aria-current')).toBe('page');
    await page.evaluate(() => (window as any).panel.navigate('fields'));
    await panel.getByRole('heading', { level: 2, name: 'Custom fields' }).waitFor();
    await page.evaluate(() => (window as any).panel.navigate('no-such-section'));
    await panel.getByRole('heading', { level: 2, name: 'Dashboard' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  test('providers, standalone: a new provider offering Haircut, then edited, with own Saturday hours the API keeps', async () => {
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Providers');
    await page.getByRole('button', { name: 'New provider' }).click();
    await page.getByLabel('Name').fill('Carla Berg');
    await page.getByRole('checkbox', { name: 'Haircut' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit: Carla Berg' }).click();
    const listed = (await api(env, 'GET', '/providers')).body.providers.find((provider: { name: string }) => provider.name === 'Carla Berg');
    expect(listed).toMatchObject({ email: null, active: true, serviceIds: [data.haircut] });

    await page.getByLabel('Email (optional)').fill('carla@example.com');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await page.getByRole('button', { name: 'Edit: Carla Berg' }).click();
    expect((await api(env, 'GET', `/providers/${listed.id}`)).body.provider).toMatchObject({ name: 'Carla Berg', email: 'carla@example.com' });

    const own = page.getByRole('region', { name: 'Own working hours: Carla Berg' });
    await own.getByText('Uses the business hours.').waitFor();
    await own.getByRole('button', { name: 'Add hours: Saturday' }).click();
    await own.getByLabel('Saturday from').fill('09:00');
    await own.getByLabel('Saturday to').fill('11:00');
    await own.getByRole('button', { name: 'Save' }).click();
    await own.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const schedule = (await api(env, 'GET', `/providers/${listed.id}/schedule`)).body;
    expect(schedule.inherited).toBe(false);
    expect(schedule.schedule.weekly.sat).toEqual([{ start: '09:00', end: '11:00' }]);
    expect(errors).toEqual([]);
    await close();
  });

  test('hours, standalone: a holiday on a working day closes it; availability follows', async () => {
    const { day, slots } = await freeDay(env, data.consultation, 5);
    expect(slots.length).toBeGreaterThan(0);
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Working hours');
    await page.getByLabel('Day', { exact: true }).fill(day);
    await page.getByRole('button', { name: 'Add exception' }).click();
    await page
      .getByRole('row', { name: new RegExp(longDay(day)) })
      .getByText('Closed')
      .waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await api(env, 'GET', '/schedule')).body.schedule.exceptions).toEqual([{ date: day, intervals: [] }]);
    await until(
      'availability to follow',
      async () => (await api(env, 'GET', `/availability?serviceId=${data.consultation}&date=${day}`)).body.slots.length === 0,
      5000,
    );
    expect(errors).toEqual([]);
    await close();
  });

  test('fields, standalone: a question asked only for Haircut, moved above the first one; the widget config shows both in that order', async () => {
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Custom fields');
    await page.getByRole('button', { name: 'New question' }).click();
    await page.getByLabel('Question').fill('Preferred stylist');
    await page.getByRole('checkbox', { name: 'Haircut' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Move up: Preferred stylist' }).click();
    await until('the new order', async () => (await page.locator('ol.items > li strong').allTextContents()).join('|') === 'Preferred stylist|Any allergies?');
    const config = (await (await fetch(`${env.appUrl}/api/v1/workspaces/acme/config`)).json()) as {
      customFields: { key: string; label: string; serviceIds: string[] }[];
    };
    expect(config.customFields.map(({ key, label, serviceIds }) => ({ key, label, serviceIds }))).toEqual([
      { key: 'preferred_stylist', label: 'Preferred stylist', serviceIds: [data.haircut] },
      { key: 'allergies', label: 'Any allergies?', serviceIds: [] },
    ]);
    expect(errors).toEqual([]);
    await close();
  });

  test('settings, standalone: zone, time format, cancellation hours and manual confirmation saved from the form; widget domains saved', async () => {
    const before = (await api(env, 'GET', '')).body.workspace;
    const { page, errors, close } = await openPage();
    try {
      await signIn(env, page);
      await go(page, 'Settings');
      const business = page.getByRole('form', { name: 'Business' });
      await business.getByLabel('Time zone').selectOption('Europe/London');
      await business.getByLabel('Time format').selectOption({ label: '2:30 PM' });
      await business.getByLabel('Customers may cancel up to (hours before)').fill('48');
      await business.getByRole('checkbox', { name: 'Confirm every booking by hand' }).check();
      await business.getByRole('button', { name: 'Save' }).click();
      await business.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect((await api(env, 'GET', '')).body.workspace).toMatchObject({
        timezone: 'Europe/London',
        timeFormat: '12h',
        cancellationHours: 48,
        requiresConfirmation: true,
        name: 'Acme Studio',
      });

      const domains = page.getByRole('form', { name: 'Websites that may take bookings' });
      const text = domains.getByLabel('Website addresses');
      await until('the domains to load', async () => (await text.inputValue()).length > 0);
      await text.fill(`${await text.inputValue()}\nshop.example.org`);
      await domains.getByRole('button', { name: 'Save' }).click();
      await domains.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect((await api(env, 'GET', '/domains')).body.domains).toEqual(['127.0.0.2', 'shop.example.org']);
      expect(errors).toEqual([]);
    } finally {
      await api(env, 'PATCH', '', {
        timezone: before.timezone,
        timeFormat: before.timeFormat,
        cancellationHours: before.cancellationHours,
        requiresConfirmation: before.requiresConfirmation,
      });
      await close();
    }
  });

  test('settings, standalone: a webhook disabled and enabled again; a new pairing code links a site, whose link is then revoked', async () => {
    const hook = await api(env, 'POST', '/webhooks', { url: 'https://hooks.example.com/acme' });
    expect(hook.status).toBe(200);
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Settings');
    const hooks = page.locator('section', { has: page.getByRole('heading', { name: 'Webhooks' }) });
    await hooks.getByRole('button', { name: 'Disable' }).click();
    await hooks.getByRole('button', { name: 'Enable' }).waitFor();
    expect((await api(env, 'GET', '/webhooks')).body.webhooks).toMatchObject([{ id: hook.body.webhook.id, isActive: false }]);
    await hooks.getByRole('button', { name: 'Enable' }).click();
    await hooks.getByRole('button', { name: 'Disable' }).waitFor();
    expect((await api(env, 'GET', '/webhooks')).body.webhooks).toMatchObject([{ id: hook.body.webhook.id, isActive: true }]);

    const sites = page.locator('section', { has: page.getByRole('heading', { name: 'Linked sites' }) });
    await sites.getByRole('button', { name: 'New pairing code' }).click();
    const code = (await sites.locator('.shown-once code').textContent())!;
    const shop = 'https://shop.example.net';
    const linked = await fetch(`${env.appUrl}/api/integrations/hostplatform/panel/origin`, {
      method: 'PUT',
      headers: { authorization: `SvcPair ${code}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 1, workspaceSlug: 'acme', origin: shop }),
    });
    expect(linked.ok).toBe(true);
    const { hostCredential } = (await linked.json()) as { hostCredential: string };
    // the list shows the new site once it is read again
    await go(page, 'Dashboard');
    await go(page, 'Settings');
    await sites.getByRole('button', { name: `Revoke: ${shop}` }).click();
    await sites.getByText(shop).waitFor({ state: 'detached' });
    expect((await api(env, 'GET', '/panel/origins')).body.origins.map((origin: { origin: string }) => origin.origin)).toEqual([env.hostUrl]);
    const refused = await fetch(`${env.appUrl}/api/integrations/hostplatform/panel/bootstrap`, {
      method: 'POST',
      headers: { authorization: `SvcHost ${hostCredential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 1, workspaceSlug: 'acme', origin: shop, subject: 'u1', role: 'ADMIN', capabilities: [] }),
    });
    expect(refused.status).toBe(401);
    expect(errors).toEqual([]);
    await close();
  }, 30_000);

  test('a session with svc_manage_operations only: settings are read only, bookings writable', async () => {
    const { page, errors, close } = await openPage();
    await page.goto(`${env.hostUrl}/operations-only`);
    const panel = page.frameLocator('iframe');
    await panel.getByRole('heading', { level: 2, name: 'Settings' }).waitFor();
    await panel.getByText('You can look, but this session cannot change these settings.').waitFor();
    await panel.getByRole('form', { name: 'Business' }).getByLabel('Business name').waitFor();
    expect(await panel.getByRole('form', { name: 'Business' }).getByLabel('Business name').isDisabled()).toBe(true);
    for (const name of ['Save', 'Add', 'Create', 'New pairing code', 'Choose logo'])
      expect(await panel.locator('main').getByRole('button', { name, exact: true }).count()).toBe(0);
    await go(panel, 'Bookings');
    expect(await panel.getByText('You can look, but this session cannot change bookings or the catalogue.').count()).toBe(0);
    await panel.getByRole('button', { name: 'New booking' }).waitFor();
    await panel.getByRole('button', { name: /^Booking details: .*Leo Fischer/ }).click();
    await panel.getByRole('button', { name: 'Cancel booking' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  test('a session with svc_manage_settings only: settings writable but no credential minted or revoked, bookings read only', async () => {
    const { page, errors, close } = await openPage();
    await page.goto(`${env.hostUrl}/settings-only`);
    const panel = page.frameLocator('iframe');
    await panel.getByRole('heading', { level: 2, name: 'Settings' }).waitFor();
    await panel.getByRole('form', { name: 'Business' }).getByRole('button', { name: 'Save' }).waitFor();
    expect(await panel.getByText('You can look, but this session cannot change these settings.').count()).toBe(0);
    // minting or revoking a credential needs both capabilities: the controls are not offered, and the panel says why
    await panel.getByText('API keys and pairing codes are made by sessions with full access: this one can look at them, not create or revoke them.').waitFor();
    await panel.getByRole('heading', { name: 'API keys' }).waitFor();
    for (const name of ['New pairing code', 'Create']) expect(await panel.getByRole('button', { name, exact: true }).count()).toBe(0);
    // no key offers Revoke; a linked site still does (unlinking is a settings write)
    await panel.locator('li[data-key]').first().waitFor();
    expect(
      await panel
        .locator('li[data-key]')
        .getByRole('button', { name: /^Revoke/ })
        .count(),
    ).toBe(0);
    expect(await panel.getByRole('button', { name: /^Revoke: http/ }).count()).toBe(1);
    await go(panel, 'Bookings');
    await panel.getByText('You can look, but this session cannot change bookings or the catalogue.').waitFor();
    expect(await panel.getByRole('button', { name: 'New booking' }).count()).toBe(0);
    await panel.getByRole('button', { name: /^Booking details: .*Leo Fischer/ }).click();
    await panel.getByRole('heading', { name: "Details of Leo Fischer's booking" }).waitFor();
    for (const name of ['Confirm', 'Mark as completed', 'Move to another time', 'Cancel booking']) {
      expect(await panel.getByRole('button', { name, exact: true }).count()).toBe(0);
    }
    expect(errors).toEqual([]);
    await close();
  });
});
