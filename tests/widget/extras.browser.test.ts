import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { calendarUid } from '../../src/features/mail/calendar.ts';
import { chromiumAvailable, startBrowserEnv, widgetPage, type BrowserEnv } from './browser-env.ts';
import { acmeApi, seedCatalogue, type Catalogue } from './catalogue.ts';
import { axeViolations, bookFirstFreeTime, chooseFirstDay, chooseService, chooseTime, fillDetails, heading, instantIn, submit, widgetOf } from './drive.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/** RFC 5545 lines, unfolded, as [name with parameters, value]; checks the CRLF line ends and the 75-octet limit. */
function icsLines(text: string): [string, string][] {
  expect(text.endsWith('\r\n')).toBe(true);
  const physical = text.slice(0, -2).split('\r\n');
  expect(physical.filter((line) => line.includes('\n') || line.includes('\r'))).toEqual([]);
  expect(physical.filter((line) => new TextEncoder().encode(line).length > 75)).toEqual([]);
  const logical: string[] = [];
  for (const line of physical) {
    if (line.startsWith(' ')) logical[logical.length - 1] += line.slice(1);
    else logical.push(line);
  }
  return logical.map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon), line.slice(colon + 1)];
  });
}

/** 2026-03-30T07:00:00.000Z -> 20260330T070000Z */
const icsUtc = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

describeBrowser('booking widget in Chromium: .ics download, floating dialog, attributes', () => {
  let env: BrowserEnv;
  let catalogue: Catalogue;
  beforeAll(async () => {
    env = await startBrowserEnv();
    catalogue = await seedCatalogue(env);
  });
  afterAll(() => env?.close());

  test('without a captcha the widget requests nothing but svc; the confirmation downloads an .ics of the booking at the exact instant, with the UID of the mails', async () => {
    env.hostPage('/ics', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline' }) });
    const { context, page, errors } = await env.open();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${env.hostUrl}/ics`);
    const widget = widgetOf(page);
    await heading(widget, 'Choose a service');
    await chooseService(widget, 'Haircut');
    const { day, time } = await bookFirstFreeTime(widget, { name: 'Ida Calendar', email: 'ida@example.com', allergies: 'none' });

    const start = instantIn(day, time, 'Europe/Berlin');
    const [booking] = await env.deps.storage.listBookings(env.workspace.id, { limit: 10, from: Date.parse(start), to: Date.parse(start) + 1 });
    expect(booking?.customerEmail).toBe('ida@example.com');
    expect(booking?.serviceId).toBe(catalogue.haircutId);

    const download = page.waitForEvent('download');
    await widget.getByRole('link', { name: 'Add to calendar' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`booking-${booking!.id}.ics`);
    const lines = icsLines(readFileSync((await file.path())!, 'utf8'));
    expect(lines[0]).toEqual(['BEGIN', 'VCALENDAR']);
    expect(lines.at(-1)).toEqual(['END', 'VCALENDAR']);
    expect(lines.filter(([name, value]) => name === 'BEGIN' && value === 'VEVENT')).toHaveLength(1);
    const event = new Map(lines.slice(lines.findIndex(([name, value]) => name === 'BEGIN' && value === 'VEVENT')));
    expect(new Map(lines).get('VERSION')).toBe('2.0');
    expect(new Map(lines).get('PRODID')).toBeTruthy();
    expect(event.get('DTSTART')).toBe(icsUtc(start));
    expect(event.get('DTEND')).toBe(icsUtc(new Date(Date.parse(start) + 30 * 60_000).toISOString()));
    expect(event.get('DTSTAMP')).toMatch(/^\d{8}T\d{6}Z$/);
    expect(event.get('SUMMARY')).toBe('Haircut · Acme Studio');
    expect(event.get('STATUS')).toBe('CONFIRMED');
    // the same UID as the invite in the confirmation mail, so a calendar holds one entry for the booking
    expect(event.get('UID')).toBe(calendarUid(booking!.id, env.appUrl));

    const foreign = requests.filter((url) => ![env.appUrl, env.hostUrl].includes(new URL(url).origin) && !url.startsWith('blob:'));
    expect(foreign).toEqual([]);
    expect(requests.filter((url) => url.startsWith(env.appUrl)).length).toBeGreaterThan(3);
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`floating dialog, ${theme} theme: axe-core finds no violation on the launcher, at any step, with field errors, or on the confirmation`, async () => {
      env.hostPage(`/floating-axe-${theme}`, { html: widgetPage(env.appUrl, { slug: 'acme', theme }) });
      const { context, page, errors } = await env.open({ colorScheme: theme, viewport: { width: 1024, height: 800 } });
      await page.goto(`${env.hostUrl}/floating-axe-${theme}`);
      const widget = widgetOf(page);
      const violations: unknown[] = [];
      const check = async (step: string) => {
        violations.push(...(await axeViolations(page)).map((violation) => ({ step, ...violation })));
        await env.screenshot(page, `floating-axe-${theme}-${step}`);
      };
      await widget.locator('button.launcher').waitFor();
      await check('0-launcher');
      await widget.locator('button.launcher').click();
      await heading(widget, 'Choose a service');
      // the checks run on the open modal dialog, not the page behind it
      expect(await widget.locator('dialog[aria-modal=true]').evaluate((dialog) => (dialog as HTMLDialogElement).open)).toBe(true);
      await check('1-service');
      await chooseService(widget, 'Consultation');
      await widget.locator('button.day.open').first().waitFor();
      await check('2-day');
      await chooseFirstDay(widget);
      await widget.locator('button.time').first().waitFor();
      await check('3-time');
      await chooseTime(widget);
      await check('4-details');
      await submit(widget);
      await widget.locator('#svc-name-error').waitFor();
      await check('4-details-errors');
      await fillDetails(widget, { name: `Axe ${theme}`, email: `axe-${theme}@example.com`, allergies: 'none' });
      await submit(widget);
      await heading(widget, 'Booking confirmed');
      await check('5-confirmation');
      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  test("data-provider: only that provider's services are offered, days and times are hers, and the booking is with her", async () => {
    // a service only Alex offers must not be offered on Sam's widget
    await acmeApi(env, 'POST', '/services', { name: 'Beard trim', duration: 20, price: 0, currency: 'EUR', providerIds: [catalogue.alexId], order: 3 });
    env.hostPage('/provider', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', provider: catalogue.samId }) });
    const { context, page, errors } = await env.open();
    const availability: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/availability')) availability.push(request.url());
    });
    await page.goto(`${env.hostUrl}/provider`);
    const widget = widgetOf(page);
    await heading(widget, 'Choose a service');
    const offered = await widget.locator('button.choice .choice-top > span:first-child').allTextContents();
    expect(offered).toEqual(['Haircut', 'Colour & cut', 'Consultation']);
    await chooseService(widget, 'Consultation');
    const day = await chooseFirstDay(widget);
    const time = await chooseTime(widget);
    expect(await widget.locator('.chosen').textContent()).toContain('Sam Richter');
    await fillDetails(widget, { name: 'Sam Fan', email: 'samfan@example.com', allergies: 'none' });
    await submit(widget);
    await heading(widget, 'Booking confirmed');
    expect(await widget.locator('dl').textContent()).toContain('Sam Richter');
    expect(availability.length).toBeGreaterThanOrEqual(2);
    expect(availability.filter((url) => new URL(url).searchParams.get('providerId') !== catalogue.samId)).toEqual([]);
    const start = Date.parse(instantIn(day, time, 'Europe/Berlin'));
    const stored = await env.deps.storage.listBookings(env.workspace.id, { limit: 10, from: start, to: start + 1 });
    expect(stored.filter((booking) => booking.customerEmail === 'samfan@example.com').map((booking) => booking.providerId)).toEqual([catalogue.samId]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('data-target: an inline widget renders into the element it names, wherever that is in the page; a floating one ignores it', async () => {
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Target page</title>
<script src="${env.appUrl}/svc-widget.min.js" data-slug="acme" data-position="inline" data-target="#booking-slot" async></script></head>
<body><main><h1>Book with us</h1><section id="intro"><p>Intro text.</p></section>
<script src="${env.appUrl}/svc-widget.min.js" data-slug="acme" data-position="inline" data-target=".later .slot" data-language="de" async></script>
<p>Between.</p><div id="booking-slot"></div>
<aside class="later"><div class="slot"></div></aside>
<script src="${env.appUrl}/svc-widget.min.js" data-slug="acme" data-target="#booking-slot" async></script>
</main></body></html>`;
    env.hostPage('/target', { html });
    const { context, page, errors } = await env.open();
    await page.goto(`${env.hostUrl}/target`);
    await heading(widgetOf(page, 0), /Choose a service|Leistung wählen/);
    await page.waitForFunction(() => document.querySelectorAll('svc-booking').length === 3);
    const placed = await page.evaluate(() =>
      [...document.querySelectorAll('svc-booking')].map((element) => ({
        position: element.getAttribute('position'),
        parent: element.parentElement!.id || element.parentElement!.className || element.parentElement!.tagName.toLowerCase(),
      })),
    );
    expect(placed).toEqual([
      { position: 'inline', parent: 'booking-slot' },
      { position: 'inline', parent: 'slot' },
      { position: 'bottom-right', parent: 'body' },
    ]);
    expect(await page.locator('#booking-slot svc-booking').count()).toBe(1);
    await heading(page.locator('.later .slot svc-booking'), 'Leistung wählen');
    await heading(page.locator('#booking-slot svc-booking'), 'Choose a service');
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 740 },
  ]) {
    test(`data-position bottom-left at ${viewport.width} px: the launcher sits in the bottom-left corner, mirroring bottom-right`, async () => {
      env.hostPage('/corners', {
        html: widgetPage(
          env.appUrl,
          { slug: 'acme', position: 'bottom-left', label: 'Left' },
          `<script src="${env.appUrl}/svc-widget.min.js" data-slug="acme" data-label="Right" async></script>`,
        ),
      });
      const { context, page, errors } = await env.open({ viewport });
      await page.goto(`${env.hostUrl}/corners`);
      const left = page.getByRole('button', { name: 'Left' });
      const right = page.getByRole('button', { name: 'Right' });
      await left.waitFor();
      await right.waitFor();
      const leftBox = (await left.boundingBox())!;
      const rightBox = (await right.boundingBox())!;
      expect(leftBox.x).toBeGreaterThan(0);
      expect(leftBox.x).toBeLessThanOrEqual(24);
      expect(leftBox.x + leftBox.width).toBeLessThan(viewport.width / 2);
      const leftBottom = viewport.height - (leftBox.y + leftBox.height);
      expect(leftBottom).toBeGreaterThan(0);
      expect(leftBottom).toBeLessThanOrEqual(24);
      // the same margins as bottom-right, mirrored
      expect(viewport.width - (rightBox.x + rightBox.width)).toBeCloseTo(leftBox.x, 0);
      expect(viewport.height - (rightBox.y + rightBox.height)).toBeCloseTo(leftBottom, 0);
      // fixed: scrolling the host page does not move it
      await page.evaluate(() => {
        document.body.style.height = '5000px';
        window.scrollTo(0, 2000);
      });
      await page.waitForFunction(() => window.scrollY === 2000);
      expect((await left.boundingBox())!.y).toBeCloseTo(leftBox.y, 0);
      await left.click();
      await heading(widgetOf(page, 0), 'Choose a service');
      await env.screenshot(page, `bottom-left-${viewport.width}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
