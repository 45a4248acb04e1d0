import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chromiumAvailable, startBrowserEnv, widgetPage, type BrowserEnv } from './browser-env.ts';
import { acmeApi, seedCatalogue } from './catalogue.ts';
import { axeViolations, bookFirstFreeTime, chooseFirstDay, chooseService, chooseTime, fillDetails, heading, submit, widgetOf, reachDays } from './drive.ts';

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

describeBrowser('the widget on a first day: what the customer reads', () => {
  let env: BrowserEnv;
  beforeAll(async () => {
    env = await startBrowserEnv();
    await seedCatalogue(env);
  }, 30_000);
  afterAll(() => env?.close());

  const inline = (path: string, extra: Record<string, string> = {}) => {
    env.hostPage(path, { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', ...extra }) });
    return `${env.hostUrl}${path}`;
  };

  test('a PENDING booking gets no tick and no "Add to calendar": it says it is not confirmed yet', async () => {
    await acmeApi(env, 'PATCH', '', { requiresConfirmation: true });
    try {
      const { context, page } = await env.open();
      await page.goto(inline('/pending'));
      const widget = widgetOf(page);
      await chooseService(widget, 'Consultation');
      await chooseFirstDay(widget);
      await chooseTime(widget);
      await fillDetails(widget, { name: 'Pia Roth', email: 'pia@example.com', allergies: 'none' });
      await submit(widget);
      await heading(widget, 'Booking received');
      await widget.getByText('Not confirmed yet').waitFor();
      expect(await widget.locator('.done-mark.pending').count()).toBe(1);
      expect(await widget.getByRole('link', { name: /Add to calendar/ }).count()).toBe(0);
      expect(await widget.getByRole('link', { name: 'Manage booking' }).count()).toBe(1);
      await env.screenshot(page, 'widget-pending-light-1280');
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    } finally {
      await acmeApi(env, 'PATCH', '', { requiresConfirmation: false });
    }
  });

  test('"Please check the highlighted fields" goes once the fields are fixed', async () => {
    const { context, page } = await env.open();
    await page.goto(inline('/fix'));
    const widget = widgetOf(page);
    await chooseService(widget, 'Consultation');
    await chooseFirstDay(widget);
    await chooseTime(widget);
    await submit(widget);
    const notice = widget.getByText('Please check the highlighted fields.');
    await notice.waitFor();
    await fillDetails(widget, { name: 'Lea Berg', email: 'lea@example.com' });
    expect(await notice.count()).toBe(1);
    await fillDetails(widget, { allergies: 'none' });
    await notice.waitFor({ state: 'detached' });
    await context.close();
  });

  test("a visitor in another zone reads, beside the days and the times, how far their clock is from the workspace's; the zone is written one way", async () => {
    const { context, page } = await env.open({ timezoneId: 'Asia/Kolkata' });
    await page.goto(inline('/kolkata'));
    const widget = widgetOf(page);
    await chooseService(widget, 'Consultation');
    const note = /^Your time zone \(India Standard Time\) is (4 h 30 min|3 h 30 min) ahead of these times\.$/;
    await widget.getByText(note).waitFor();
    await chooseFirstDay(widget);
    await widget.getByText(note).waitFor();
    await env.screenshot(page, 'widget-zone-kolkata-time-light-1280');
    await chooseTime(widget);
    await fillDetails(widget, { name: 'Ravi Iyer', email: 'ravi@example.com', allergies: 'none' });
    await submit(widget);
    await heading(widget, 'Booking confirmed');
    await widget.getByText('Times are in Europe/Berlin.').waitFor();
    expect(await widget.getByText('(Europe/Berlin)').count()).toBe(0);
    await context.close();
  });

  test("dates follow the workspace's locale: en-GB writes the day before the month", async () => {
    await acmeApi(env, 'PATCH', '', { locale: 'en-GB' });
    try {
      const { context, page } = await env.open();
      await page.goto(inline('/gb'));
      const widget = widgetOf(page);
      await chooseService(widget, 'Consultation');
      await chooseFirstDay(widget);
      const chosen = (await widget.locator('.chosen strong').textContent())!;
      expect(chosen).toMatch(/^Consultation · [A-Z][a-z]+,? \d{1,2} [A-Z][a-z]+ \d{4}$/);
      await context.close();
    } finally {
      await acmeApi(env, 'PATCH', '', { locale: null });
    }
  });

  test('while the config loads the widget shows the shape of what is coming, not an empty box', async () => {
    const { context, page } = await env.open();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/workspaces/acme/config', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(inline('/slow'));
    const widget = widgetOf(page);
    await widget.locator('.skeleton[aria-busy=true] span').first().waitFor();
    expect(await widget.locator('.skeleton span').count()).toBe(3);
    await env.screenshot(page, 'widget-skeleton-light-1280');
    release();
    await heading(widget, 'Choose a service');
    expect(await widget.locator('.skeleton').count()).toBe(0);
    await context.close();
  });

  test('the floating dialog keeps one height from step to step', async () => {
    env.hostPage('/floating', { html: widgetPage(env.appUrl, { slug: 'acme' }) });
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 800 },
    ]) {
      const { context, page } = await env.open({ viewport });
      await page.goto(`${env.hostUrl}/floating`);
      const widget = widgetOf(page);
      await widget.getByRole('button', { name: 'Book now' }).click();
      await heading(widget, 'Choose a service');
      const box = () => widget.locator('dialog .panel').boundingBox();
      const first = (await box())!;
      await chooseService(widget, 'Consultation');
      await widget.locator('button.day.open').first().waitFor();
      expect(await box()).toEqual(first);
      await chooseFirstDay(widget);
      await widget.locator('button.time').first().waitFor();
      expect(await box()).toEqual(first);
      await env.screenshot(page, `widget-floating-time-light-${viewport.width}`);
      await context.close();
    }
  });

  test('the hosted booking page names the business once', async () => {
    const { context, page } = await env.open();
    await page.goto(`${env.appUrl}/book/acme`);
    const widget = widgetOf(page);
    await heading(widget, 'Choose a service');
    expect(await page.getByText('Acme Studio', { exact: true }).count()).toBe(1);
    await context.close();
  });

  test('open and closed days differ by more than a fill: weight, border and a dot', async () => {
    const { context, page } = await env.open();
    await page.goto(inline('/days'));
    const widget = widgetOf(page);
    await chooseService(widget, 'Consultation');
    await widget.locator('button.day.open').first().waitFor();
    const look = (selector: string) =>
      widget
        .locator(selector)
        .first()
        .evaluate((day) => ({
          dot: getComputedStyle(day, '::after').content,
          weight: getComputedStyle(day).fontWeight,
          border: getComputedStyle(day).borderTopColor,
        }));
    const open = await look('button.day.open');
    const closed = await look('button.day[aria-disabled=true]');
    expect(open.dot).not.toBe('none');
    expect(closed.dot).toBe('none');
    expect(open.weight).not.toBe(closed.weight);
    expect(open.border).not.toBe(closed.border);
    await env.screenshot(page, 'widget-days-light-1280');
    await context.close();
  });

  test('the welcome page snippet breaks between attributes, never inside one, at 390 px', async () => {
    const { context, page } = await env.open({ viewport: { width: 390, height: 800 } });
    await page.goto(`${env.appUrl}/`);
    const lines = await page.locator('pre code').evaluate((code) => {
      const range = document.createRange();
      range.selectNodeContents(code);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBe(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await env.screenshot(page, 'welcome-light-390');
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
    await reachDays(widget);
    await chooseFirstDay(widget);
    await chooseTime(widget);
    await fillDetails(widget, { name: 'Ida Wolf', email: 'ida@example.com', allergies: 'none' });
    await submit(widget);
    await page.waitForURL(/\/checkout\/chk_/);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { level: 1, name: 'Booking confirmed' }).waitFor();
    // no dead end: back to the business, and the booking into a calendar
    expect(await page.getByRole('link', { name: 'Back to Acme Studio' }).getAttribute('href')).toBe(`${env.appUrl}/book/acme`);
    const ics = await page.request.get((await page.getByRole('link', { name: 'Add to calendar (.ics)' }).getAttribute('href'))!);
    expect(ics.status()).toBe(200);
    expect(ics.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    expect(await ics.text()).toContain('STATUS:CONFIRMED');
    await env.screenshot(page, 'checkout-paid-light-1280');
    await page.getByRole('link', { name: 'Manage booking' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    expect(await page.locator('dd').filter({ hasText: 'Colour & cut' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('Back from the checkout offers the held booking again: continue to pay, or release it (asked first)', async () => {
    env.hostPage('/held', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', service: colourId }) });
    const { context, page } = await env.open();
    await page.goto(`${env.hostUrl}/held`);
    const widget = widgetOf(page);
    await reachDays(widget);
    await chooseFirstDay(widget);
    await chooseTime(widget);
    await fillDetails(widget, { name: 'Ole Brandt', email: 'ole@example.com', allergies: 'none' });
    await submit(widget);
    await page.waitForURL(/\/checkout\/chk_/);
    const checkoutUrl = page.url();
    await page.goBack();
    await heading(widget, 'Awaiting payment');
    await widget.getByText('This time is held for you until it is paid.', { exact: false }).waitFor();
    expect(await widget.getByRole('link', { name: 'Continue to payment' }).getAttribute('href')).toBe(checkoutUrl);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await env.screenshot(page, `widget-held-${colorScheme}-1280`);
      expect(await axeViolations(page)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await widget.getByRole('link', { name: 'Release this time' }).click();
    await page.getByRole('heading', { level: 2, name: 'Cancel this booking?' }).waitFor();
    await page.getByRole('button', { name: 'Yes, cancel booking' }).click();
    await page.getByRole('status').filter({ hasText: 'Your booking is cancelled.' }).waitFor();
    const stored = (await env.deps.storage.listBookings(env.workspace.id, { limit: 10, serviceId: colourId })).filter(
      (booking) => booking.customerEmail === 'ole@example.com',
    );
    expect(stored.map((booking) => booking.status)).toEqual(['CANCELLED']);
    await context.close();
  });
});
