import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { axeViolations } from '../widget/drive.ts';
import { api, berlin, freeDay, go, longDay, showWeekOf, signIn, until } from './support.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/*
 * A class's attendees and waiting list in the panel (docs/contract/classes.md §1–§3): a class of three booked to
 * full, two on its waiting list, one place freed (its offer held for the first in line). Opening any booking of
 * that time, from the bookings list or the calendar, shows who booked with "N of 3 places taken" and the waiting
 * list; an entry is removed after a confirmation, and its held place passes to the next in line.
 */
describeBrowser('a class in the panel: attendees and waiting list', () => {
  let env: PanelBrowserEnv;
  let day = '';
  let start = '';
  const entries: string[] = [];
  let cancelled = '';
  beforeAll(async () => {
    env = await startPanelBrowserEnv({ config: { SVC_RATE_LIMIT: 2000 } });
    const yoga = await api(env, 'POST', '/services', { name: 'Yoga', duration: 60, price: 0, currency: 'EUR', capacity: 3, waitlist: true });
    expect(yoga.status).toBe(200);
    const anna = await api(env, 'POST', '/providers', { name: 'Anna Schmidt', serviceIds: [yoga.body.service.id] });
    expect(anna.status).toBe(200);
    const free = await freeDay(env, yoga.body.service.id, 2);
    day = free.day;
    start = berlin(day, free.slots[0]!);
    const body = (email: string, name: string) => ({ serviceId: yoga.body.service.id, date: start, email, name });
    const booked: string[] = [];
    for (const [email, name] of [
      ['mia@example.com', 'Mia Weber'],
      ['leo@example.com', 'Leo Fischer'],
      ['ada@example.com', 'Ada Lovelace'],
    ] as const) {
      const made = await api(env, 'POST', '/bookings', body(email, name));
      expect(made.status).toBe(200);
      booked.push(made.body.booking.id);
    }
    // full: a fourth is refused, and joins the waiting list instead (keyless, from the linked site, as the widget does)
    expect((await api(env, 'POST', '/bookings', body('late@example.com', 'Late'))).body.code).toBe('SLOT_UNAVAILABLE');
    for (const [email, name] of [
      ['wanda@example.com', 'Wanda Wait'],
      ['otto@example.com', 'Otto Next'],
    ] as const) {
      const joined = await api(env, 'POST', '/waitlist', body(email, name), { 'x-svc-api-key': '', origin: env.hostUrl });
      expect(joined.status).toBe(200);
      entries.push(joined.body.entry.id);
      // joined one after the other
      env.advanceClock(1000);
    }
    // Ada cancels: her place is held for Wanda, the first in line
    cancelled = booked[2]!;
    expect((await api(env, 'POST', `/bookings/${cancelled}/cancel`, {})).status).toBe(200);
    const listed = await api(env, 'GET', `/waitlist?serviceId=${yoga.body.service.id}&date=${day}`);
    expect(listed.body.entries.map((entry: { status: string }) => entry.status)).toEqual(['OFFERED', 'WAITING']);
  }, 60_000);
  afterAll(() => env?.close());

  const openPage = async () => {
    // bypassCSP only lets a test inject axe-core: the page's own CSP forbids inline scripts
    const opened = await env.open({ viewport: { width: 1280, height: 1400 }, bypassCSP: true });
    opened.page.setDefaultTimeout(10_000);
    return opened;
  };
  const rosterOf = (page: Page) => page.getByRole('region', { name: 'This class' });

  test('from the bookings list: attendees with "2 of 3 places taken", the waiting list in order; Remove asks first, then removes and the place passes on; axe-clean', async () => {
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Bookings');
    await page.getByRole('button', { name: /^Booking details: .*Mia Weber/ }).click();
    const roster = rosterOf(page);
    await roster.locator('[data-places]').waitFor();
    expect(await roster.locator('[data-places]').textContent()).toBe('2 of 3 places taken. 1 more is held for the waiting list.');

    const attendees = roster.getByRole('list', { name: 'Booked' }).getByRole('listitem');
    expect(await attendees.allInnerTexts()).toHaveLength(3);
    const attendee = async (email: string) => (await attendees.filter({ hasText: email }).innerText()).replace(/\s+/g, ' ');
    expect(await attendee('mia@example.com')).toBe('Mia Weber mia@example.com Confirmed');
    expect(await attendee('leo@example.com')).toBe('Leo Fischer leo@example.com Confirmed');
    expect(await attendee('ada@example.com')).toBe('Ada Lovelace ada@example.com Cancelled');

    const waitlist = roster.getByRole('list', { name: 'Waiting list' });
    const items = waitlist.getByRole('listitem');
    expect(await items.count()).toBe(2);
    const first = (await items.nth(0).innerText()).replace(/\s+/g, ' ');
    expect(first).toStartWith('No. 1 wanda@example.com Wanda Wait joined ');
    expect(first).toContain(' · place held until ');
    expect(first).toContain('place held Remove');
    const second = (await items.nth(1).innerText()).replace(/\s+/g, ' ');
    expect(second).toStartWith('No. 2 otto@example.com Otto Next joined ');
    expect(second).not.toContain('held until');
    expect(second).toContain('waiting Remove');
    expect(await axeViolations(page)).toEqual([]);

    // Remove asks first; "Keep it" sends nothing
    await waitlist.getByRole('button', { name: 'Remove: wanda@example.com' }).click();
    const ask = roster.getByRole('group', { name: 'Remove Wanda Wait from the waiting list?' });
    await ask.waitFor();
    expect(await ask.innerText()).toContain('The place held for this entry goes to the next in line.');
    expect(await axeViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Keep it' }).click();
    await ask.waitFor({ state: 'detached' });
    expect((await api(env, 'GET', `/waitlist?date=${day}`)).body.entries).toHaveLength(2);

    await waitlist.getByRole('button', { name: 'Remove: wanda@example.com' }).click();
    await ask.getByRole('button', { name: 'Remove from the list' }).click();
    await roster.getByRole('status').filter({ hasText: 'Wanda Wait removed from the waiting list.' }).waitFor();
    // gone from the list; Otto, next in line, now holds the place
    await until('the list read again', async () => (await items.count()) === 1);
    const left = (await items.nth(0).innerText()).replace(/\s+/g, ' ');
    expect(left).toStartWith('No. 1 otto@example.com Otto Next joined ');
    expect(left).toContain('place held until');
    const stored = (await api(env, 'GET', `/waitlist?date=${day}`)).body.entries;
    expect(stored.map((entry: { id: string; status: string }) => [entry.id, entry.status])).toEqual([[entries[1], 'OFFERED']]);
    expect(await axeViolations(page)).toEqual([]);
    await env.screenshot(page, 'panel-class-roster');
    expect(errors).toEqual([]);
    await close();
  }, 90_000);

  test('from the calendar: the class booking opens with the same attendees and waiting list', async () => {
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Calendar');
    await showWeekOf(page, day);
    const column = page.getByRole('region', { name: longDay(day), exact: true });
    await column.getByRole('button', { name: /Leo Fischer/ }).click();
    const roster = rosterOf(page);
    await roster.locator('[data-places]').waitFor();
    expect(await roster.locator('[data-places]').textContent()).toBe('2 of 3 places taken. 1 more is held for the waiting list.');
    expect(await roster.getByRole('list', { name: 'Booked' }).getByRole('listitem').count()).toBe(3);
    expect(await roster.getByRole('list', { name: 'Waiting list' }).getByRole('listitem').count()).toBe(1);
    expect(new Date((await api(env, 'GET', `/bookings/${cancelled}`)).body.booking.startTime).getTime()).toBe(Date.parse(start));
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 90_000);
});
