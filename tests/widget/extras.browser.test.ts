import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { calendarUid } from '../../src/mail/calendar.ts';
import { chromiumAvailable, startBrowserEnv, widgetPage, type BrowserEnv } from './browser-env.ts';
import { seedCatalogue, type Catalogue } from './catalogue.ts';
import { axeViolations, chooseFirstDay, chooseService, chooseTime, fillDetails, heading, instantIn, submit, widgetOf } from './drive.ts';

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
    await widget.getByRole('button', { name: /^Haircut/ }).click();
    const day = await chooseFirstDay(widget);
    const time = await chooseTime(widget);
    await fillDetails(widget, { name: 'Ida Calendar', email: 'ida@example.com', allergies: 'none' });
    await submit(widget);
    await heading(widget, 'Booking confirmed');

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
});
