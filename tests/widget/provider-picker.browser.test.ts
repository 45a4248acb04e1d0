import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Locator, Page } from 'playwright-core';
import { chromiumAvailable, startBrowserEnv, widgetPage, type BrowserEnv } from './browser-env.ts';
import { acmeApi } from './catalogue.ts';
import { axeViolations, chooseDay, chooseProvider, chooseTime, fillDetails, heading, instantIn, submit, widgetOf } from './drive.ts';

/*
 * The provider step (docs/contract/widget.md §4): a service two people give asks who, with "Any available" checked
 * first (svc then assigns fairly, docs/contract/classes.md "Fair assignment"); a named one narrows the days and
 * times to hers and books her. Alex works 09:00–13:00 and Sam 11:00–17:00, so whose times are shown is visible.
 */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

interface Seeded {
  alexId: string;
  samId: string;
  haircutId: string;
}

async function seed(env: BrowserEnv): Promise<Seeded> {
  const alex = (await acmeApi(env, 'POST', '/providers', { name: 'Alex Hoffmann' })).provider.id as string;
  const sam = (await acmeApi(env, 'POST', '/providers', { name: 'Sam Richter' })).provider.id as string;
  const haircut = await acmeApi(env, 'POST', '/services', {
    name: 'Haircut',
    description: 'Wash, cut and style.',
    duration: 30,
    price: 35,
    currency: 'EUR',
    providerIds: [alex, sam],
  });
  await acmeApi(env, 'POST', '/services', { name: 'Beard trim', duration: 20, price: 15, currency: 'EUR', providerIds: [alex], order: 1 });
  const every = (start: string, end: string) => {
    const day = [{ start, end }];
    return { weekly: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day }, exceptions: [] };
  };
  await acmeApi(env, 'PUT', `/providers/${alex}/schedule`, every('09:00', '13:00'));
  await acmeApi(env, 'PUT', `/providers/${sam}/schedule`, every('11:00', '17:00'));
  await acmeApi(env, 'PATCH', '', { primaryColor: '#0f766e' });
  return { alexId: alex, samId: sam, haircutId: haircut.service.id };
}

/** The times the time step shows, as written on their buttons. */
async function shownTimes(widget: Locator): Promise<string[]> {
  await widget.locator('button.time').first().waitFor();
  return (await widget.locator('button.time').allTextContents()).map((text) => text.trim());
}

/** What the public availability route answers for the day, with or without a provider. */
async function freeTimes(env: BrowserEnv, serviceId: string, date: string, providerId?: string): Promise<string[]> {
  const query = new URLSearchParams({ serviceId, date, ...(providerId ? { providerId } : {}) });
  const response = await fetch(`${env.appUrl}/api/v1/workspaces/acme/availability?${query}`);
  return ((await response.json()) as { slots: string[] }).slots;
}

/** Submits the form and returns the createBooking body the widget sent and the booking id it got back. */
async function submitAndCatch(page: Page, widget: Locator): Promise<{ sent: Record<string, unknown>; bookingId: string }> {
  const answer = page.waitForResponse((response) => response.url().endsWith('/bookings') && response.request().method() === 'POST');
  await submit(widget);
  const response = await answer;
  expect(response.ok()).toBe(true);
  return { sent: response.request().postDataJSON(), bookingId: (await response.json()).booking.id };
}

describeBrowser('booking widget in Chromium: choosing who to book with', () => {
  let env: BrowserEnv;
  let ids: Seeded;
  /** two days ahead in the workspace's zone: every hour of it is still to come */
  const day = Temporal.Now.plainDateISO('Europe/Berlin').add({ days: 2 }).toString();
  beforeAll(async () => {
    env = await startBrowserEnv();
    ids = await seed(env);
    // Alex already has a booking that day: fair assignment gives the next one at a time both are free to Sam
    await acmeApi(env, 'POST', '/bookings', {
      serviceId: ids.haircutId,
      providerId: ids.alexId,
      email: 'phone@example.com',
      date: instantIn(day, '09:00', 'Europe/Berlin'),
    });
  });
  afterAll(() => env?.close());

  test('"Any available" is checked first; the times are everyone\'s, and svc assigns the booking fairly', async () => {
    env.hostPage('/any', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline' }) });
    const { context, page, errors } = await env.open();
    await page.goto(`${env.hostUrl}/any`);
    const widget = widgetOf(page);
    await heading(widget, 'Choose a service');
    await widget.getByRole('button', { name: /^Haircut/ }).click();
    await heading(widget, 'Choose a person');
    // a labelled radio group: "Any available" first and checked, then each by name
    const group = widget.getByRole('group', { name: 'Choose a person' });
    expect(await group.getByRole('radio').count()).toBe(3);
    expect(await group.locator('.pick-name').allTextContents()).toEqual(['Any available', 'Alex Hoffmann', 'Sam Richter']);
    expect(await group.getByRole('radio', { name: 'Any available', exact: true }).isChecked()).toBe(true);
    expect(await group.getByRole('radio', { name: 'Alex Hoffmann', exact: true }).isChecked()).toBe(false);
    expect(await widget.getByText('Whoever is free at the time you choose').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await chooseProvider(widget);
    await chooseDay(widget, day);
    const times = await shownTimes(widget);
    expect(times).toEqual(await freeTimes(env, ids.haircutId, day));
    // Alex's morning and Sam's afternoon both
    expect(times).toContain('09:30');
    expect(times).toContain('16:00');
    await chooseTime(widget, '11:00');
    await fillDetails(widget, { name: 'Ida Any', email: 'ida@example.com' });
    const { sent, bookingId } = await submitAndCatch(page, widget);
    await heading(widget, 'Booking confirmed');
    expect(sent.providerId).toBeUndefined();
    const { booking } = await acmeApi(env, 'GET', `/bookings/${bookingId}`);
    expect(booking).toMatchObject({ providerId: ids.samId, startTime: instantIn(day, '11:00', 'Europe/Berlin') });
    // the confirmation names who svc assigned
    expect(await widget.locator('dt', { hasText: 'With' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe('Sam Richter');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a named provider: only her days and times, her name in the summary, and the booking is hers', async () => {
    env.hostPage('/named', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', service: ids.haircutId }) });
    const { context, page, errors } = await env.open();
    const days: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/availability')) days.push(new URL(request.url()).searchParams.get('providerId') ?? 'any');
    });
    await page.goto(`${env.hostUrl}/named`);
    const widget = widgetOf(page);
    // data-service of a service two people give starts at the provider step
    await chooseProvider(widget, 'Alex Hoffmann');
    expect(await widget.locator('.chosen').textContent()).toContain('With Alex Hoffmann');
    await chooseDay(widget, day);
    const alexTimes = await shownTimes(widget);
    expect(alexTimes).toEqual(await freeTimes(env, ids.haircutId, day, ids.alexId));
    expect(alexTimes.length).toBeGreaterThan(0);
    expect(alexTimes.every((time) => time >= '09:00' && time < '13:00')).toBe(true);

    // back to the provider step: the pick is kept; Sam instead
    await widget.getByRole('button', { name: 'Back' }).click();
    await heading(widget, 'Choose a day');
    await widget.getByRole('button', { name: 'Back' }).click();
    await heading(widget, 'Choose a person');
    expect(await widget.getByRole('radio', { name: 'Alex Hoffmann' }).isChecked()).toBe(true);
    await chooseProvider(widget, 'Sam Richter');
    await chooseDay(widget, day);
    const samTimes = await shownTimes(widget);
    expect(samTimes).toEqual(await freeTimes(env, ids.haircutId, day, ids.samId));
    expect(samTimes.every((time) => time >= '11:00' && time < '17:00')).toBe(true);
    expect(samTimes).not.toContain('09:30');
    expect(days.filter((provider) => provider === 'any')).toEqual([]);

    // 11:30: both are free and Alex's last booking is the older one, so fair assignment would give it to Alex
    await chooseTime(widget, '11:30');
    expect(await widget.locator('.chosen').textContent()).toContain('With Sam Richter');
    await fillDetails(widget, { name: 'Ole Named', email: 'ole@example.com' });
    const { sent, bookingId } = await submitAndCatch(page, widget);
    await heading(widget, 'Booking confirmed');
    await env.screenshot(page, 'provider-named-confirmation-1280-light-en');
    expect(sent.providerId).toBe(ids.samId);
    const { booking } = await acmeApi(env, 'GET', `/bookings/${bookingId}`);
    expect(booking).toMatchObject({ providerId: ids.samId, startTime: instantIn(day, '11:30', 'Europe/Berlin') });
    expect(await widget.locator('dt', { hasText: 'With' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe('Sam Richter');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a service one person gives shows no provider step', async () => {
    env.hostPage('/single', { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline' }) });
    const { context, page, errors } = await env.open();
    await page.goto(`${env.hostUrl}/single`);
    const widget = widgetOf(page);
    await heading(widget, 'Choose a service');
    await widget.getByRole('button', { name: /^Beard trim/ }).click();
    await heading(widget, 'Choose a day');
    expect(await widget.getByRole('radio').count()).toBe(0);
    // Back leads straight to the services
    await widget.getByRole('button', { name: 'Back' }).click();
    await heading(widget, 'Choose a service');
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const [width, colorScheme, language] of [
    [390, 'light', 'en'],
    [390, 'dark', 'de'],
    [1280, 'light', 'de'],
    [1280, 'dark', 'en'],
  ] as const) {
    test(`${width} px, ${colorScheme}, ${language}: the provider step is axe-clean, keeps the page's --svc-radius, and is saved as a screenshot`, async () => {
      const path = `/look-${width}-${colorScheme}-${language}`;
      const style = '<style>svc-booking{--svc-radius:20px}</style>';
      env.hostPage(path, { html: widgetPage(env.appUrl, { slug: 'acme', position: 'inline', service: ids.haircutId, theme: colorScheme, language }, style) });
      const { context, page, errors } = await env.open({ colorScheme, viewport: { width, height: 900 } });
      await page.goto(`${env.hostUrl}${path}`);
      const widget = widgetOf(page);
      const words = language === 'en' ? { step: 'Choose a person', any: 'Any available' } : { step: 'Person wählen', any: 'Beliebige Person' };
      await heading(widget, words.step);
      expect(await widget.getByRole('radio', { name: words.any }).isChecked()).toBe(true);
      const pick = widget.locator('label.pick').first();
      expect(await pick.evaluate((element) => getComputedStyle(element).borderTopLeftRadius)).toBe('16px');
      // the checked card is outlined in the accent, the others in the border colour
      const border = (element: Element) => getComputedStyle(element).borderTopColor;
      expect(await pick.evaluate(border)).not.toBe(await widget.locator('label.pick').nth(1).evaluate(border));
      expect(await axeViolations(page)).toEqual([]);
      await env.screenshot(page, `provider-step-${width}-${colorScheme}-${language}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
