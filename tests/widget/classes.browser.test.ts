import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chromiumAvailable, startBrowserEnv, widgetPage, type BrowserEnv } from './browser-env.ts';
import { acmeApi } from './catalogue.ts';
import { axeViolations, chooseDay, heading, instantIn, widgetOf } from './drive.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/** The first Monday–Friday at least three days ahead (workspace zone Europe/Berlin), so every time of it lies ahead. */
function nextWorkday(): string {
  let day = Temporal.Now.plainDateISO('Europe/Berlin').add({ days: 3 });
  while (day.dayOfWeek > 5) day = day.add({ days: 1 });
  return day.toString();
}

/*
 * A class in the widget (docs/contract/classes.md §1–2): the places left under each time, a full time shown as
 * full with its waiting list, joining it from the widget; axe finds nothing in the time step or the form.
 */
describeBrowser('booking widget in Chromium: classes and waiting lists', () => {
  let env: BrowserEnv;
  let yogaId: string;
  const day = nextWorkday();
  beforeAll(async () => {
    env = await startBrowserEnv();
    const anna = await acmeApi(env, 'POST', '/providers', { name: 'Anna Berg' });
    const yoga = await acmeApi(env, 'POST', '/services', {
      name: 'Yoga',
      duration: 60,
      price: 0,
      currency: 'EUR',
      capacity: 3,
      waitlist: true,
      providerIds: [anna.provider.id],
    });
    yogaId = yoga.service.id;
    for (const [time, count] of [
      ['10:00', 3],
      ['11:00', 2],
    ] as const) {
      for (let i = 0; i < count; i++) {
        await acmeApi(env, 'POST', '/bookings', {
          serviceId: yogaId,
          date: instantIn(day, time, 'Europe/Berlin'),
          email: `yogi${time.replace(':', '')}-${i}@example.com`,
        });
      }
    }
  });
  afterAll(() => env?.close());

  test('places left are shown, a full time offers its waiting list, and joining it lands an entry; axe clean', async () => {
    env.hostPage('/yoga', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', service: yogaId }) });
    const { context, page, errors } = await env.open();
    await page.goto(`${env.hostUrl}/yoga`);
    const widget = widgetOf(page);
    await heading(widget, 'Choose a day');
    await chooseDay(widget, day);

    await expect(widget.locator('button.time', { hasText: '09:00' }).textContent()).resolves.toContain('3 places left');
    await expect(widget.locator('button.time', { hasText: '11:00' }).textContent()).resolves.toContain('1 place left');
    const full = widget.locator('li.full button.time', { hasText: '10:00' });
    await expect(full.textContent()).resolves.toContain('Full');
    expect(await axeViolations(page)).toEqual([]);

    await full.click();
    const form = widget.locator('form.waitlist');
    await form.waitFor();
    await form.getByRole('button', { name: 'Join the waiting list' }).click();
    await expect(form.getByLabel(/^Email/).getAttribute('aria-invalid')).resolves.toBe('true');
    await form.getByLabel(/^Email/).fill('wanda@example.com');
    await form.getByLabel(/^Name/).fill('Wanda Wait');
    expect(await axeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Join the waiting list' }).click();
    await widget.getByRole('status').filter({ hasText: 'You are on the waiting list for 10:00' }).waitFor();

    const entries = await env.deps.storage.listWaitlistEntries(env.workspace.id, { serviceId: yogaId, limit: 10 });
    expect(entries.map((entry) => [entry.customerEmail, entry.customerName, entry.status, new Date(entry.startTime).toISOString()])).toEqual([
      ['wanda@example.com', 'Wanda Wait', 'WAITING', instantIn(day, '10:00', 'Europe/Berlin')],
    ]);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
