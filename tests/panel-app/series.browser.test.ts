import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { api, berlin, freeDay, go, seed, signIn, type Seeded } from './support.ts';

/* The service form's `repeatable` (docs/contract/series.md §5): ticked in the panel, offered by the widget's config. */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

describeBrowser('the panel and weekly series', () => {
  let env: PanelBrowserEnv;
  let data: Seeded;
  beforeAll(async () => {
    env = await startPanelBrowserEnv({ config: { SVC_RATE_LIMIT: 2000 } });
    data = await seed(env);
  }, 30_000);
  afterAll(() => env?.close());

  test('a new service ticked "Customers may repeat it weekly" is repeatable in the API and the widget config; unticking it undoes that', async () => {
    const { page, errors, close } = await env.open();
    page.setDefaultTimeout(10_000);
    await signIn(env, page);
    await go(page, 'Services');
    await page.getByRole('button', { name: 'New service' }).click();
    await page.getByLabel('Name').fill('Weekly lesson');
    await page.getByLabel('Duration (minutes)').fill('45');
    await page.getByRole('checkbox', { name: 'Anna Schmidt' }).check();
    await page.getByRole('checkbox', { name: 'Customers may repeat it weekly in the widget' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit: Weekly lesson' }).waitFor();
    const repeatableOf = async () => {
      const config = (await (await fetch(`${env.appUrl}/api/v1/workspaces/acme/config`)).json()) as { services: { name: string; repeatable: boolean }[] };
      return config.services.find((service) => service.name === 'Weekly lesson')?.repeatable;
    };
    expect(await repeatableOf()).toBe(true);
    await page.getByRole('button', { name: 'Edit: Weekly lesson' }).click();
    const box = page.getByRole('checkbox', { name: 'Customers may repeat it weekly in the widget' });
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit: Weekly lesson' }).waitFor();
    expect(await repeatableOf()).toBe(false);
    expect(data.anna).toMatch(/^prv_/);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);

  test('booking details of a series occurrence offer "Cancel this and later dates of the series", which cancels them through the series route', async () => {
    const { day, slots } = await freeDay(env, data.haircut);
    const created = await api(env, 'POST', '/bookings', {
      serviceId: data.haircut,
      email: 'sara@example.com',
      name: 'Sara Series',
      date: berlin(day, slots[slots.length - 1]!),
      customFields: {},
      repeat: { frequency: 'weekly', interval: 1, count: 3 },
    });
    expect(created.status).toBe(200);
    const ids: string[] = created.body.series.bookings.map((booking: { id: string }) => booking.id);
    const { page, errors, close } = await env.open();
    page.setDefaultTimeout(10_000);
    await signIn(env, page);
    await go(page, 'Bookings');
    await page
      .getByRole('button', { name: /^Booking details: .*Sara Series/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    // "this one" stays offered beside it
    await page.getByRole('button', { name: 'Cancel this booking' }).waitFor();
    await page.getByRole('button', { name: 'Cancel this and later dates of the series' }).click();
    await page.locator('.details .badge').filter({ hasText: 'Cancelled' }).waitFor();
    const statuses = await Promise.all(ids.map(async (id) => (await api(env, 'GET', `/bookings/${id}`)).body.booking.status));
    expect(statuses).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED']);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);
});
