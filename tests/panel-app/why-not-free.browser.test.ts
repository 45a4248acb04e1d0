import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { axeViolations } from '../widget/drive.ts';
import { addDays, dayIn } from '../../web/panel/format.ts';
import { weekday } from '../../web/widget/time.ts';
import { api, berlin, go, seed, signIn, type Seeded } from './support.ts';

/*
 * "Why not free?" in the panel (docs/contract/calendars.md §11, §12): Anna's connected iCalendar "Work" (served
 * here) has a private appointment; on the calendar screen a click on that empty hour of her week says it is busy in
 * calendar "Work", never the appointment's title; the form under the week asks the same from the keyboard (a time
 * outside her hours, a booked time); German says it in German; a manual booking refused because the time was
 * taken meanwhile names the reason too. Axe-clean.
 */

const describeBrowser = chromiumAvailable() ? describe : describe.skip;
const SECRET_TITLE = 'Dentist: root canal';

describeBrowser('why a time is not free, in the panel', () => {
  let env: PanelBrowserEnv;
  let data: Seeded;
  let feed: ReturnType<typeof Bun.serve>;
  /** the busy hour of the calendar event, HH */
  let busyHour: string;
  /** the confirmed booking's time, HH:mm */
  let bookedTime: string;

  beforeAll(async () => {
    env = await startPanelBrowserEnv({ config: { SVC_CALENDAR_ALLOW_PRIVATE: true } });
    data = await seed(env);
    const slots = (await api<{ slots: string[] }>(env, 'GET', `/availability?serviceId=${data.haircut}&date=${data.day}`)).body.slots;
    // a whole free hour late in the day (the seeded bookings sit at its first and fifth times)
    busyHour = slots
      .filter((slot) => slot.endsWith(':00') && slots.includes(`${slot.slice(0, 2)}:30`))
      .at(-1)!
      .slice(0, 2);
    const booking = await api(env, 'GET', `/bookings/${data.confirmed}`);
    bookedTime = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(booking.body.booking.startTime),
    );
    const stamp = data.day.replaceAll('-', '');
    // floating times: the workspace's zone (Europe/Berlin)
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//test//why-not-free//EN',
      'X-WR-CALNAME:Work',
      'BEGIN:VEVENT',
      'UID:private-1@example.com',
      'DTSTAMP:20260101T000000Z',
      `DTSTART:${stamp}T${busyHour}0000`,
      `DTEND:${stamp}T${busyHour}5900`,
      `SUMMARY:${SECRET_TITLE}`,
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    feed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(ics, { headers: { 'content-type': 'text/calendar' } }) });
    const connected = await api(env, 'POST', `/providers/${data.anna}/calendars`, { kind: 'ics', url: `http://127.0.0.1:${feed.port}/work.ics` });
    expect(connected.status).toBe(200);
    expect(connected.body.connection).toMatchObject({ status: 'ok', name: 'Work' });
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    feed?.stop(true);
  });

  /** The calendar screen on the week of the seeded day; that day's column. */
  const openWeek = async (page: Page, section = 'Calendar', next = 'Next week') => {
    await go(page, section);
    const thisMonday = addDays(dayIn('Europe/Berlin', Date.now()), 1 - weekday(dayIn('Europe/Berlin', Date.now())));
    const weeks = Math.round((Date.parse(addDays(data.day, 1 - weekday(data.day))) - Date.parse(thisMonday)) / (7 * 86_400_000));
    for (let week = 0; week < weeks; week++) await page.getByRole('button', { name: next }).click();
    const column = page.locator(`.day-column[data-day="${data.day}"]`);
    await column.waitFor();
    return column;
  };

  test('a click on an empty hour held by a calendar event names the calendar, not the event; the form asks from the keyboard; axe-clean', async () => {
    // the API agrees first: the hour is held by the calendar, named
    const explained = await api(env, 'GET', `/availability/explain?serviceId=${data.haircut}&date=${data.day}&providerId=${data.anna}`);
    expect(explained.body.times.find((entry: { time: string }) => entry.time === `${busyHour}:00`)).toMatchObject({
      free: false,
      reasons: [{ code: 'CALENDAR_BUSY', calendarName: 'Work' }],
    });

    const { page, errors, close } = await env.open({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    await signIn(env, page);
    const column = await openWeek(page);
    const why = page.getByRole('region', { name: 'Why not free?' });
    // the mouse's way: the top of the hour's cell asks of its full hour
    await column.getByRole('button', { name: new RegExp(`^Why not free\\? .*, ${busyHour}:00$`) }).click({ position: { x: 20, y: 4 } });
    const answer = why.locator('.why-answer');
    await answer.getByText('Busy in calendar “Work”').waitFor();
    expect(await answer.textContent()).toContain(`${busyHour}:00`);
    expect(await answer.textContent()).toContain('Anna Schmidt');
    expect(await page.locator('body').textContent()).not.toContain('Dentist');
    expect(await axeViolations(page)).toEqual([]);
    await env.screenshot(page, 'calendar-why-not-free');

    // the keyboard's way: the form under the week, submitted with Enter
    await why.getByLabel('Day').selectOption(data.day);
    await why.getByLabel('Day').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('time');
    await why.getByLabel('Time').fill('06:00');
    await why.getByLabel('Time').press('Enter');
    await answer.getByText('Outside working hours').waitFor();
    expect(await answer.textContent()).not.toContain('Busy in calendar');
    await why.getByLabel('Time').fill(bookedTime);
    await why.getByRole('button', { name: 'Ask' }).press('Enter');
    await answer.getByText('Another booking').waitFor();
    // a free time says so
    const free = (await api<{ slots: string[] }>(env, 'GET', `/availability?serviceId=${data.haircut}&date=${data.day}&providerId=${data.anna}`)).body
      .slots[0]!;
    await why.getByLabel('Time').fill(free);
    await why.getByLabel('Time').press('Enter');
    await answer.getByText('Free: this time can be booked.').waitFor();
    expect(await page.locator('body').textContent()).not.toContain('Dentist');
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 90_000);

  test('in German, on a phone in dark mode: „Belegt im Kalender „Work““', async () => {
    expect((await api(env, 'PATCH', '', { language: 'de' })).status).toBe(200);
    try {
      const { page, errors, close } = await env.open({
        bypassCSP: true,
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        colorScheme: 'dark',
      });
      page.setDefaultTimeout(15_000);
      await signIn(env, page);
      await page.getByRole('navigation').getByRole('button', { name: 'Übersicht' }).waitFor();
      const column = await openWeek(page, 'Kalender', 'Nächste Woche');
      await column.getByRole('button', { name: new RegExp(`^Warum nicht frei\\? .*, ${busyHour}:00$`) }).click({ position: { x: 20, y: 4 } });
      await page.getByRole('region', { name: 'Warum nicht frei?' }).getByText('Belegt im Kalender „Work“').waitFor();
      await env.screenshot(page, 'calendar-why-not-free-de-390-dark');
      expect(await page.locator('body').textContent()).not.toContain('Dentist');
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await close();
    } finally {
      await api(env, 'PATCH', '', { language: 'en' });
    }
  }, 60_000);

  test('a manual booking refused because its time was taken meanwhile says why, in the same words', async () => {
    const { page, errors, close } = await env.open({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    await signIn(env, page);
    await go(page, 'Bookings');
    await page.getByRole('button', { name: 'New booking' }).click();
    const form = page.getByRole('region', { name: 'New booking' });
    await form.getByLabel('Service').selectOption(data.haircut);
    await form.getByLabel('Provider').selectOption(data.anna);
    await form.getByLabel('Name').fill('Tom Berger');
    await form.getByLabel('Email').fill('tom@example.com');
    await form.getByLabel('Day').fill(data.day);
    const slots = (await api<{ slots: string[] }>(env, 'GET', `/availability?serviceId=${data.haircut}&date=${data.day}&providerId=${data.anna}`)).body.slots;
    const time = slots[1]!;
    const choice = form.getByRole('button', { name: time, exact: true });
    await choice.waitFor();
    // someone else takes the time while the owner is on the phone
    const taken = await api(env, 'POST', '/bookings', {
      serviceId: data.haircut,
      providerId: data.anna,
      email: 'eva@example.com',
      name: 'Eva Roth',
      date: berlin(data.day, time),
    });
    expect(taken.status).toBe(200);
    await choice.click();
    await form.getByRole('button', { name: 'Book', exact: true }).click();
    await form.getByRole('button', { name: 'Why not free?' }).click();
    await form.getByText('Anna Schmidt: Another booking').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 60_000);
});
