import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chromiumAvailable, startBrowserEnv, widgetPage, type BrowserEnv } from './browser-env.ts';
import { acmeApi, seedCatalogue, type Catalogue } from './catalogue.ts';
import { axeViolations, chooseFirstDay, chooseService, chooseTime, fillDetails, heading, instantIn, submit, widgetOf } from './drive.ts';

/* "Repeat weekly" in the widget (docs/contract/series.md §5): offered on repeatable services only, books a series. */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

describeBrowser('booking widget in Chromium: repeat weekly', () => {
  let env: BrowserEnv;
  let catalogue: Catalogue;
  beforeAll(async () => {
    env = await startBrowserEnv();
    catalogue = await seedCatalogue(env);
    await acmeApi(env, 'PATCH', `/services/${catalogue.haircutId}`, { repeatable: true });
  });
  afterAll(() => env?.close());

  for (const language of ['en', 'de'] as const) {
    test(`${language}: a repeatable service offers "Repeat weekly"; every 2 weeks, 3 dates -> one series of 3 at the same local time`, async () => {
      env.hostPage(`/repeat-${language}`, { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', language }) });
      const { context, page, errors } = await env.open({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${env.hostUrl}/repeat-${language}`);
      const widget = widgetOf(page);
      const words =
        language === 'en'
          ? {
              choose: 'Choose a service',
              repeat: 'Repeat weekly',
              every: 'Every',
              count: 'Number of dates (2–52)',
              weeks: '2 weeks',
              done: 'Booking confirmed',
              colour: 'Colour',
            }
          : {
              choose: 'Leistung wählen',
              repeat: 'Wöchentlich wiederholen',
              every: 'Alle',
              count: 'Anzahl der Termine (2–52)',
              weeks: '2 Wochen',
              done: 'Buchung bestätigt',
              colour: 'Colour',
            };
      await heading(widget, new RegExp(words.choose));
      await chooseService(widget, 'Haircut');
      const day = await chooseFirstDay(widget);
      const time = await chooseTime(widget);
      await fillDetails(widget, { name: `Mia ${language}`, email: `mia-${language}@example.com`, allergies: 'none' });
      await widget.getByLabel(words.repeat).check();
      await widget.getByLabel(words.every, { exact: true }).selectOption({ label: words.weeks });
      await widget.getByLabel(words.count).fill('3');
      expect(await axeViolations(page)).toEqual([]);
      await submit(widget);
      await heading(widget, new RegExp(words.done));
      const first = instantIn(day, time, 'Europe/Berlin');
      const [booking] = await env.deps.storage.listBookings(env.workspace.id, {
        limit: 1,
        serviceId: catalogue.haircutId,
        from: Date.parse(first),
        to: Date.parse(first) + 1,
      });
      expect(booking?.seriesId).toMatch(/^ser_/);
      const series = await env.deps.storage.listSeries(env.workspace.id, booking!.seriesId!);
      const local = (at: number) => Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO('Europe/Berlin');
      expect(series.map((occurrence) => local(occurrence.startTime).toPlainTime().toString())).toEqual(Array(3).fill(`${time}:00`));
      expect(series.map((occurrence) => local(occurrence.startTime).toPlainDate().toString())).toEqual([
        day,
        Temporal.PlainDate.from(day).add({ weeks: 2 }).toString(),
        Temporal.PlainDate.from(day).add({ weeks: 4 }).toString(),
      ]);
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);
  }

  test('a service that is not repeatable offers no repeat', async () => {
    env.hostPage('/no-repeat', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline' }) });
    const { context, page } = await env.open({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${env.hostUrl}/no-repeat`);
    const widget = widgetOf(page);
    await chooseService(widget, 'Consultation');
    await chooseFirstDay(widget);
    await chooseTime(widget);
    await widget.getByLabel('Name').waitFor();
    expect(await widget.getByLabel('Repeat weekly').count()).toBe(0);
    await context.close();
  }, 60_000);
});
