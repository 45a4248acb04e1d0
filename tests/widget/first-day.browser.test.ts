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

describeBrowser('the widget theme follows the host page', () => {
  let env: BrowserEnv;
  beforeAll(async () => {
    env = await startBrowserEnv();
    await seedCatalogue(env);
  }, 30_000);
  afterAll(() => env?.close());

  /** The widget's background token and the radius of its first service card, once it shows the services. */
  async function look(path: string, html: string, colorScheme: 'light' | 'dark') {
    env.hostPage(path, { html });
    const { context, page } = await env.open({ colorScheme });
    await page.goto(`${env.hostUrl}${path}`);
    const widget = widgetOf(page);
    await heading(widget, 'Choose a service');
    const background = await widget.evaluate((element) => getComputedStyle(element).getPropertyValue('--svc-color-bg').trim());
    const radius = await widget
      .locator('button.choice')
      .first()
      .evaluate((element) => getComputedStyle(element).borderTopLeftRadius);
    await context.close();
    return { background, radius };
  }
  const darkHost = (attributes: Record<string, string>, style = '') =>
    widgetPage(env.appUrl, attributes).replace('<body>', `<body style="background:#121417;color:#eee${style}">`);

  test('auto (the default): a dark host page gets the dark widget on a light system, a light page the light one on a dark system', async () => {
    expect((await look('/auto-dark', darkHost({ slug: 'acme', position: 'inline' }), 'light')).background).toBe('#16181d');
    expect((await look('/auto-light', widgetPage(env.appUrl, { slug: 'acme', position: 'inline' }), 'dark')).background).toBe('#ffffff');
  });

  test('data-theme="system" keeps following the visitor\'s system', async () => {
    expect((await look('/system', widgetPage(env.appUrl, { slug: 'acme', position: 'inline', theme: 'system' }), 'dark')).background).toBe('#16181d');
    expect((await look('/system-light', darkHost({ slug: 'acme', position: 'inline', theme: 'system' }), 'light')).background).toBe('#ffffff');
  });

  test('--svc-radius reaches the cards inside the widget', async () => {
    const square = widgetPage(env.appUrl, { slug: 'acme', position: 'inline' }).replace('</head>', '<style>svc-booking{--svc-radius:0px}</style></head>');
    expect((await look('/square', square, 'light')).radius).toBe('0px');
    const round = widgetPage(env.appUrl, { slug: 'acme', position: 'inline' }).replace('</head>', '<style>svc-booking{--svc-radius:24px}</style></head>');
    expect((await look('/round', round, 'light')).radius).toBe('20px');
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
