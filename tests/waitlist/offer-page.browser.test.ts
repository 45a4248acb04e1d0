import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openWaitlistToken } from '../../src/features/bookings/index.ts';
import { chromiumAvailable, startBrowserEnv, type BrowserEnv } from '../widget/browser-env.ts';
import { acmeApi } from '../widget/catalogue.ts';
import { axeViolations } from '../widget/drive.ts';

/*
 * The waiting-list offer page with the service's questions (docs/contract/classes.md §3), as a customer on a
 * phone meets it: with JavaScript off the form asks the questions and books the held place with the answers; a
 * post whose answers are refused shows the form again with the problems at the fields. axe-core in both colour
 * schemes, on the form and on the refused form.
 */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const PHONE = { width: 375, height: 800 };

describeBrowser('the offer page asks the custom fields, in Chromium', () => {
  let env: BrowserEnv;
  let serviceId = '';
  let times: string[] = [];
  beforeAll(async () => {
    env = await startBrowserEnv();
    const robin = await acmeApi(env, 'POST', '/providers', { name: 'Robin Berg' });
    serviceId = (
      await acmeApi(env, 'POST', '/services', {
        name: 'Yoga',
        duration: 60,
        price: 0,
        currency: 'EUR',
        capacity: 1,
        waitlist: true,
        providerIds: [robin.provider.id],
      })
    ).service.id;
    await acmeApi(env, 'POST', '/custom-fields', {
      key: 'level',
      label: 'Your level',
      type: 'select',
      options: ['Beginner', 'Advanced'],
      required: true,
      serviceIds: [serviceId],
    });
    await acmeApi(env, 'POST', '/custom-fields', { key: 'mat', label: 'I bring my own mat', type: 'checkbox', required: true, serviceIds: [serviceId] });
    await acmeApi(env, 'POST', '/custom-fields', { key: 'injuries', label: 'Any injuries?', type: 'textarea', serviceIds: [serviceId] });
    const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const day = (await acmeApi(env, 'GET', `/availability/days?serviceId=${serviceId}&from=${from}&to=${to}`)).days[0] as string;
    const slots = (await acmeApi(env, 'GET', `/availability?serviceId=${serviceId}&date=${day}`)).slots as string[];
    times = slots.map((time) => Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime('Europe/Berlin').toInstant().toString());
  }, 30_000);
  afterAll(() => env?.close());

  /** A class time booked full, `email` on its waiting list, the booking cancelled: the offer's link and entry id. */
  let used = 0;
  async function offer(email: string): Promise<{ link: string; entryId: string }> {
    const date = times[used++]!;
    const seat = await acmeApi(env, 'POST', '/bookings', {
      serviceId,
      date,
      email: 'first@example.com',
      customFields: { level: 'Beginner', mat: true },
    });
    const joined = await acmeApi(env, 'POST', '/waitlist', { serviceId, date, email, name: 'Wanda Wait' });
    await acmeApi(env, 'POST', `/bookings/${seat.booking.id}/cancel`, {});
    const entry = (await env.deps.storage.getWaitlistEntry(env.workspace.id, joined.entry.id))!;
    expect(entry.status).toBe('OFFERED');
    return { link: `${env.appUrl}/waitlist/${await openWaitlistToken(entry, env.deps.config.SVC_SECRET)}`, entryId: entry.id };
  }
  const entryOf = async (id: string) => (await env.deps.storage.getWaitlistEntry(env.workspace.id, id))!;

  test('JavaScript off: the required questions must be answered before the form sends; answered, the place is booked with the answers', async () => {
    const { link, entryId } = await offer('wanda@example.com');
    const { context, page, errors } = await env.open({ viewport: PHONE, javaScriptEnabled: false });
    await page.goto(link);
    await page.getByText('Please answer these questions to book the place.').waitFor();
    // the browser keeps an unanswered required question from being sent
    await page.getByRole('button', { name: 'Book this place' }).click();
    expect(new URL(page.url()).pathname).toBe(new URL(link).pathname);
    expect((await entryOf(entryId)).status).toBe('OFFERED');

    await page.getByLabel('Your level').selectOption('Advanced');
    await page.getByLabel('I bring my own mat').check();
    await page.getByLabel('Any injuries? (optional)').fill('left knee');
    await page.getByRole('button', { name: 'Book this place' }).click();
    await page.waitForURL(/\/manage\//);
    const entry = await entryOf(entryId);
    expect(entry.status).toBe('BOOKED');
    const booking = (await acmeApi(env, 'GET', `/bookings/${entry.bookingId}`)).booking;
    expect(booking).toMatchObject({
      status: 'CONFIRMED',
      customerEmail: 'wanda@example.com',
      customFields: { level: 'Advanced', mat: true, injuries: 'left knee' },
    });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`${colorScheme}: the form and the refused form have no axe violation and no sideways scrolling at 375 px`, async () => {
      const { link, entryId } = await offer(`${colorScheme}@example.com`);
      // bypassCSP only lets the test inject axe-core and skip the browser's own check of required fields
      const { context, page } = await env.open({ viewport: PHONE, colorScheme, bypassCSP: true });
      await page.goto(link);
      await page.getByLabel('Your level').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.evaluate(() => {
        for (const element of document.querySelectorAll('[required]')) element.removeAttribute('required');
      });
      await page.getByLabel('Any injuries? (optional)').fill('none');
      await page.getByRole('button', { name: 'Book this place' }).click();
      await page.getByRole('alert').filter({ hasText: 'Some answers are missing or not right' }).waitFor();
      const level = page.getByLabel('Your level');
      expect(await level.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#field-level-problem').textContent()).toBe('Please answer this question.');
      expect(await page.getByLabel('Any injuries? (optional)').inputValue()).toBe('none');
      expect((await entryOf(entryId)).status).toBe('OFFERED');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await env.screenshot(page, `waitlist-offer-answers-${colorScheme}-phone`);
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    }, 60_000);
  }
});
