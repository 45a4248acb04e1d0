import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chromiumAvailable, startBrowserEnv, widgetPage, type BrowserEnv } from './browser-env.ts';
import { seedCatalogue } from './catalogue.ts';
import { axeViolations, bookFirstFreeTime, chooseFirstDay, chooseService, chooseTime, fillDetails, heading, submit, widgetOf } from './drive.ts';

/*
 * What a customer meets on the widget's first day (docs/contract/first-day.md): on an install without mail the
 * confirmation is the only place the manage link appears, so it is offered there.
 */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

describeBrowser('the widget on a first day, in Chromium', () => {
  let env: BrowserEnv;
  beforeAll(async () => {
    env = await startBrowserEnv();
    await seedCatalogue(env);
  }, 30_000);
  afterAll(() => env?.close());

  test('the confirmation offers "Manage booking", a link that opens the booking\'s manage page', async () => {
    env.hostPage('/manage-link', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline' }) });
    const { context, page, errors } = await env.open();
    await page.goto(`${env.hostUrl}/manage-link`);
    const widget = widgetOf(page);
    await chooseService(widget, 'Consultation');
    await bookFirstFreeTime(widget, { name: 'Mia Schneider', email: 'mia@example.com', allergies: 'none' });
    const link = widget.getByRole('link', { name: 'Manage booking' });
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(new RegExp(`^${env.appUrl}/manage/[A-Za-z0-9_-]{43}$`));
    expect(await axeViolations(page)).toEqual([]);
    const manage = await context.newPage();
    await manage.goto(href);
    await manage.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    expect(await manage.locator('dd').filter({ hasText: 'Consultation' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describeBrowser('the test checkout on a first day, in Chromium', () => {
  let env: BrowserEnv;
  let colourId: string;
  beforeAll(async () => {
    env = await startBrowserEnv({ payments: 'test' });
    colourId = (await seedCatalogue(env)).colourId;
  }, 30_000);
  afterAll(() => env?.close());

  test('after paying, the success page offers "Manage booking", which opens the booking', async () => {
    env.hostPage('/pay', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', service: colourId }) });
    const { context, page, errors } = await env.open();
    await page.goto(`${env.hostUrl}/pay`);
    const widget = widgetOf(page);
    await heading(widget, 'Choose a day');
    await chooseFirstDay(widget);
    await chooseTime(widget);
    await fillDetails(widget, { name: 'Ida Wolf', email: 'ida@example.com', allergies: 'none' });
    await submit(widget);
    await page.waitForURL(/\/checkout\/chk_/);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { level: 1, name: 'Booking confirmed' }).waitFor();
    await page.getByRole('link', { name: 'Manage booking' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    expect(await page.locator('dd').filter({ hasText: 'Colour & cut' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
