import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chromiumAvailable, startBrowserEnv, type BrowserEnv } from '../widget/browser-env.ts';
import { acmeApi, seedCatalogue, type Catalogue } from '../widget/catalogue.ts';
import { axeViolations } from '../widget/drive.ts';

/*
 * The manage page of an occurrence of a weekly series (docs/contract/series.md §3) in Chromium, with JavaScript on
 * and off: "Cancel this and later dates" asks first, then cancels that date and the later ones, not the earlier.
 */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const PHONE = { width: 375, height: 800 };
const DAY_MS = 86_400_000;
const berlinDay = (days: number) => new Date(Date.now() + days * DAY_MS).toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });

describeBrowser('the manage page of a series occurrence', () => {
  let env: BrowserEnv;
  let catalogue: Catalogue;
  beforeAll(async () => {
    env = await startBrowserEnv();
    catalogue = await seedCatalogue(env);
  }, 30_000);
  afterAll(() => env?.close());

  /** A series of four weekly consultations with Alex on the first time from `days` ahead that is free all four weeks. */
  async function bookSeries(days: number, name: string) {
    for (let day = days; day < days + 14; day++) {
      const date = berlinDay(day);
      const { slots } = await acmeApi<{ slots: string[] }>(
        env,
        'GET',
        `/availability?serviceId=${catalogue.consultationId}&providerId=${catalogue.alexId}&date=${date}`,
      );
      for (const slot of slots.slice(0, 3)) {
        const start = Temporal.PlainDateTime.from(`${date}T${slot}`).toZonedDateTime('Europe/Berlin').toInstant().toString();
        const response = await fetch(`${env.appUrl}/api/v1/workspaces/acme/bookings`, {
          method: 'POST',
          headers: { 'x-svc-api-key': env.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({
            serviceId: catalogue.consultationId,
            providerId: catalogue.alexId,
            email: 'lea@example.com',
            name,
            date: start,
            customFields: { allergies: 'none' },
            repeat: { frequency: 'weekly', interval: 1, count: 4 },
          }),
        });
        if (response.status === 200) return (await response.json()) as { series: { id: string; bookings: { id: string }[] }; manageUrl: string };
      }
    }
    throw new Error('no time free four weeks in a row');
  }

  async function statuses(ids: string[]) {
    return Promise.all(ids.map(async (id) => (await acmeApi(env, 'GET', `/bookings/${id}`)).booking.status as string));
  }

  for (const javaScriptEnabled of [false, true]) {
    test(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}: "Cancel this and later dates" asks, then cancels every date from this one on`, async () => {
      const created = await bookSeries(javaScriptEnabled ? 10 : 3, javaScriptEnabled ? 'Lea Script' : 'Lea Plain');
      const ids = created.series.bookings.map((booking) => booking.id);
      // with JavaScript, bypassCSP only lets the test inject axe-core (the page's CSP allows no inline script)
      const { context, page, errors } = await env.open({ viewport: PHONE, javaScriptEnabled, bypassCSP: javaScriptEnabled });
      const axeClean = async () => {
        if (javaScriptEnabled) expect(await axeViolations(page)).toEqual([]);
      };
      await page.goto(created.manageUrl);
      await page.getByText('This date is part of a weekly series.').waitFor();
      expect(await page.getByRole('button', { name: 'Cancel this date only' }).count()).toBe(1);
      await axeClean();
      await page.getByRole('button', { name: 'Cancel this and later dates' }).click();
      await page.getByRole('heading', { level: 2, name: 'Cancel this and every later date?' }).waitFor();
      // only asked: nothing is cancelled yet
      expect(await statuses(ids)).toEqual(['CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'CONFIRMED']);
      await axeClean();
      await page.getByLabel('Reason (optional)').fill('new job');
      await page.getByRole('button', { name: 'Yes, cancel these dates' }).click();
      await page.getByRole('status').filter({ hasText: 'This date and the later ones are cancelled.' }).waitFor();
      expect(await statuses(ids)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED', 'CANCELLED']);
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);
  }

  test('"Cancel this date only" cancels that date and leaves the later ones', async () => {
    const created = await bookSeries(17, 'Lea Single');
    const ids = created.series.bookings.map((booking) => booking.id);
    const { context, page } = await env.open({ viewport: PHONE, javaScriptEnabled: false });
    await page.goto(created.manageUrl);
    await page.getByRole('button', { name: 'Cancel this date only' }).click();
    await page.getByRole('heading', { level: 2, name: 'Cancel this booking?' }).waitFor();
    await page.getByRole('button', { name: 'Yes, cancel booking' }).click();
    await page.getByRole('status').filter({ hasText: 'Your booking is cancelled.' }).waitFor();
    expect(await statuses(ids)).toEqual(['CANCELLED', 'CONFIRMED', 'CONFIRMED', 'CONFIRMED']);
    await context.close();
  }, 60_000);
});
