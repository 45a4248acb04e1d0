import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chromiumAvailable, startBrowserEnv, widgetPage, type BrowserEnv } from './browser-env.ts';
import { seedCatalogue, type Catalogue } from './catalogue.ts';
import { axeViolations, chooseFirstDay, chooseService, chooseTime, fillDetails, heading, instantIn, submit, widgetOf } from './drive.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

describeBrowser('booking widget in Chromium: a full booking', () => {
  let env: BrowserEnv;
  let catalogue: Catalogue;
  beforeAll(async () => {
    env = await startBrowserEnv();
    catalogue = await seedCatalogue(env);
  });
  afterAll(() => env?.close());

  const themes = [
    { theme: 'light', colorScheme: 'light', viewport: { width: 1280, height: 900 }, device: 'desktop' },
    { theme: 'system', colorScheme: 'dark', viewport: { width: 375, height: 740 }, device: 'phone' },
  ] as const;

  for (const { theme, colorScheme, viewport, device } of themes) {
    test(`inline, theme ${theme} (${colorScheme}), ${device}: service → day → time → details → confirmation, stored at the exact instant`, async () => {
      env.hostPage(`/inline-${theme}`, { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', theme }) });
      const { context, page, errors } = await env.open({ colorScheme, viewport });
      await page.goto(`${env.hostUrl}/inline-${theme}`);
      const widget = widgetOf(page);
      const violations: unknown[] = [];
      // every step is checked with axe-core in this theme, then saved as a screenshot
      const shot = async (step: string) => {
        violations.push(...(await axeViolations(page)).map((violation) => ({ step, ...violation })));
        await env.screenshot(page, `inline-${colorScheme}-${device}-${step}`);
      };

      await heading(widget, 'Choose a service');
      await shot('1-service');
      await chooseService(widget, 'Haircut');
      await shot('2-day');
      const day = await chooseFirstDay(widget);
      await shot('3-time');
      const time = await chooseTime(widget);
      await fillDetails(widget, { name: 'Mia Schneider', email: 'mia@example.com', allergies: 'none' });
      await shot('4-details');
      await submit(widget);
      await heading(widget, 'Booking confirmed');
      await shot('5-confirmation');

      const [booking] = await env.deps.storage.listBookings(env.workspace.id, {
        limit: 10,
        serviceId: catalogue.haircutId,
        from: Date.parse(instantIn(day, time, 'Europe/Berlin')),
        to: Date.parse(instantIn(day, time, 'Europe/Berlin')) + 1,
      });
      expect(booking).toBeDefined();
      expect(new Date(booking!.startTime).toISOString()).toBe(instantIn(day, time, 'Europe/Berlin'));
      expect(booking!.customerEmail).toBe('mia@example.com');
      expect(booking!.customFields).toEqual({ allergies: 'none' });
      expect(booking!.status).toBe('CONFIRMED');
      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  for (const [colorScheme, viewport, device] of [
    ['light', { width: 375, height: 740 }, 'phone'],
    ['dark', { width: 1280, height: 900 }, 'desktop'],
  ] as const) {
    test(`hosted pages, ${colorScheme}, ${device}: welcome, /book/acme books on svc's own origin, unknown slug 404; no axe violation`, async () => {
      // bypassCSP only lets the test inject axe-core: the pages' own CSP forbids inline scripts
      const { context, page, errors } = await env.open({ colorScheme, viewport, bypassCSP: true });
      await page.goto(`${env.appUrl}/`);
      await page.getByRole('link', { name: 'Try a booking' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await env.screenshot(page, `page-welcome-${colorScheme}-${device}`);
      const response = await page.goto(`${env.appUrl}/book/acme`);
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe('Acme Studio');
      const widget = widgetOf(page);
      await chooseService(widget, 'Consultation');
      const day = await chooseFirstDay(widget);
      const time = await chooseTime(widget);
      await fillDetails(widget, { name: 'Own Origin', email: `own-${device}@example.com`, allergies: 'none' });
      expect(await axeViolations(page)).toEqual([]);
      await env.screenshot(page, `page-book-${colorScheme}-${device}-details`);
      await submit(widget);
      await heading(widget, 'Booking confirmed');
      await env.screenshot(page, `page-book-${colorScheme}-${device}-confirmation`);
      const stored = await env.deps.storage.listBookings(env.workspace.id, {
        limit: 10,
        from: Date.parse(instantIn(day, time, 'Europe/Berlin')),
        to: Date.parse(instantIn(day, time, 'Europe/Berlin')) + 1,
      });
      expect(stored.map((booking) => booking.customerEmail)).toContain(`own-${device}@example.com`);
      const missing = await page.goto(`${env.appUrl}/book/nobody`);
      expect(missing?.status()).toBe(404);
      await page.getByRole('heading', { name: 'This booking page does not exist' }).waitFor();
      await env.screenshot(page, `page-404-${colorScheme}-${device}`);
      expect(errors.filter((error) => !error.includes('404'))).toEqual([]);
      await context.close();
    });
  }
});
