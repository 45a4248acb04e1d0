import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { newId } from '../../src/core/ids.ts';
import { startTestSmtp, type TestSmtp } from '../mail/smtp.ts';
import { startPanelBrowserEnv, type PanelBrowserEnv } from '../panel/panel-browser-env.ts';
import { chromiumAvailable } from '../widget/browser-env.ts';
import { axeViolations } from '../widget/drive.ts';
import { api, berlin, go, seed, signIn, until, type Seeded } from './support.ts';

const describeBrowser = chromiumAvailable() ? describe : describe.skip;

/** `YYYY-MM-DD` of an instant in Europe/Berlin */
const berlinDay = (at: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(at);

describeBrowser('the Bookings section in Chromium', () => {
  let env: PanelBrowserEnv;
  let smtp: TestSmtp;
  let data: Seeded;
  let ben: string;
  let bensBooking: string;
  let started: string;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    env = await startPanelBrowserEnv({
      // a failed mail waits an hour for its next try, so the test sees it waiting; reminders only within the hour
      // (none here), so no reminder takes the one refusal the test arranges for a confirmation
      config: {
        SVC_RATE_LIMIT: 2000,
        SVC_SMTP_URL: smtp.url,
        SVC_MAIL_FROM: 'Acme Studio <bookings@acme.example>',
        SVC_WEBHOOK_RETRY_SCHEDULE: '3600',
        SVC_REMINDER_HOURS: 1,
      },
      background: true,
    });
    data = await seed(env);
    const provider = await api(env, 'POST', '/providers', { name: 'Ben Wagner', serviceIds: [data.haircut] });
    expect(provider.status).toBe(200);
    ben = provider.body.provider.id;
    // More than a page (25) of Anna's bookings come first; Ben's one booking lies after all of them.
    let made = 0;
    let lastDay = data.day;
    for (let after = 1; made < 25; after++) {
      const day = new Date(Date.now() + after * 86_400_000).toISOString().slice(0, 10);
      const free = await api(env, 'GET', `/availability?serviceId=${data.consultation}&date=${day}&providerId=${data.anna}`);
      for (const slot of (free.body.slots as string[]).slice(0, 25 - made)) {
        const booked = await api(env, 'POST', '/bookings', {
          serviceId: data.consultation,
          providerId: data.anna,
          email: `guest${made}@example.com`,
          name: `Guest ${made}`,
          date: berlin(day, slot),
        });
        expect(booked.status).toBe(200);
        made++;
        lastDay = day;
      }
    }
    const later = await api(
      env,
      'GET',
      `/availability/days?serviceId=${data.haircut}&providerId=${ben}&from=${lastDay}&to=${berlinDay(Date.parse(lastDay) + 20 * 86_400_000)}`,
    );
    const benDay = (later.body.days as string[]).find((day) => day > lastDay)!;
    const benSlots = (await api(env, 'GET', `/availability?serviceId=${data.haircut}&date=${benDay}&providerId=${ben}`)).body.slots as string[];
    const booked = await api(env, 'POST', '/bookings', {
      serviceId: data.haircut,
      providerId: ben,
      email: 'otto@example.com',
      name: 'Otto Braun',
      date: berlin(benDay, benSlots[0]!),
    });
    expect(booked.status).toBe(200);
    bensBooking = booked.body.booking.id;

    // A CONFIRMED booking of Ben's that began ten minutes ago: the only kind `complete` accepts.
    const now = Date.now();
    const booking = {
      id: newId('bk', now),
      workspaceId: (await env.deps.storage.getWorkspaceBySlug('acme'))!.id,
      serviceId: data.haircut,
      providerId: ben,
      status: 'CONFIRMED' as const,
      startTime: now - 10 * 60_000,
      endTime: now + 20 * 60_000,
      bufferTime: 0,
      customerName: 'Clara Neumann',
      customerEmail: 'clara@example.com',
      phone: null,
      notes: null,
      customFields: {},
      amountMinor: 3500,
      currency: 'EUR',
      cancelReason: null,
      holdExpiresAt: null,
      createdAt: now - 86_400_000,
      updatedAt: now - 86_400_000,
      revision: 0,
      manageTokenHash: null,
      manageTokenSealed: null,
      priceMinor: null,
      paidMinor: 0,
      refundedMinor: 0,
    };
    const reserved = await env.deps.storage.reserveBooking({ booking, candidates: [ben], margin: 0, fits: () => null, emit: () => [] });
    expect(reserved.ok).toBe(true);
    started = booking.id;
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });
  const openPage = async () => {
    // bypassCSP only lets a test inject axe-core: the page's own CSP forbids inline scripts
    const opened = await env.open({ viewport: { width: 1280, height: 1200 }, bypassCSP: true });
    opened.page.setDefaultTimeout(10_000);
    return opened;
  };

  test('"Show more" pages with the cursor; the provider filter asks the server, so a match beyond the first page shows; Complete completes a started booking', async () => {
    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Bookings');
    const rows = page.locator('ul.bookings > li');
    await until('the first page', async () => (await rows.count()) === 25);
    await page.getByRole('button', { name: 'Show more' }).click();
    await until('the second page', async () => (await rows.count()) > 25);
    const total = await rows.count();
    // 2 seeded, 25 of Anna's, Otto's and (unless it began before midnight) Clara's
    expect(total).toBeGreaterThanOrEqual(28);
    expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);

    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('Provider').selectOption({ label: 'Ben Wagner' });
    await filters.getByRole('button', { name: 'Show' }).click();
    // Otto's row is on the unfiltered list already: wait for the list the filter asked for to replace it
    await until("only Ben Wagner's bookings", async () => {
      const texts = await rows.allTextContents();
      return texts.length > 0 && texts.every((text) => text.includes('Ben Wagner'));
    });
    const shown = await rows.allTextContents();
    expect(shown.some((text) => text.includes('Otto Braun'))).toBe(true);
    expect(shown.some((text) => text.includes('Anna Schmidt'))).toBe(false);
    // with the status filter as well: the PENDING booking is Anna's, so Ben has none
    await filters.getByLabel('Status').selectOption({ label: 'Pending (to confirm or to pay)' });
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No bookings match these filters.').waitFor();
    await filters.getByLabel('Provider').selectOption({ label: 'Any provider' });
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('button', { name: /^Booking details: .*Mia Weber/ }).waitFor();
    expect(await rows.count()).toBe(1);

    // Complete: the CONFIRMED booking of Ben's that has begun
    await filters.getByLabel('Status').selectOption({ label: 'Confirmed' });
    await filters.getByLabel('Provider').selectOption({ label: 'Ben Wagner' });
    await filters.getByLabel('From').fill(berlinDay(Date.now() - 10 * 60_000));
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('button', { name: /^Booking details: .*Clara Neumann/ }).click();
    await page.getByRole('button', { name: 'Mark as completed' }).click();
    await page.locator('.details .badge').filter({ hasText: 'Completed' }).waitFor();
    expect((await api(env, 'GET', `/bookings/${started}`)).body.booking.status).toBe('COMPLETED');
    expect((await api(env, 'GET', `/bookings/${bensBooking}`)).body.booking.status).toBe('CONFIRMED');
    expect(errors).toEqual([]);
    await close();
  }, 40_000);

  test("a booking's details show its payment state and the customer's mails: received and sent, then a confirmation whose sending failed once", async () => {
    // a paid service booked from the linked site while the workspace confirms by hand: PENDING, the sum not paid
    expect((await api(env, 'PATCH', '', { requiresConfirmation: true })).status).toBe(200);
    const day = (
      await api(
        env,
        'GET',
        `/availability/days?serviceId=${data.haircut}&providerId=${ben}&from=${berlinDay(Date.now() + 86_400_000)}&to=${berlinDay(Date.now() + 15 * 86_400_000)}`,
      )
    ).body.days[0] as string;
    const slot = (await api(env, 'GET', `/availability?serviceId=${data.haircut}&date=${day}&providerId=${ben}`)).body.slots[0] as string;
    const made = await api(
      env,
      'POST',
      '/bookings',
      { serviceId: data.haircut, providerId: ben, email: 'paula@example.com', name: 'Paula Richter', date: berlin(day, slot), customFields: {} },
      { 'x-svc-api-key': '', origin: env.hostUrl },
    );
    expect((await api(env, 'PATCH', '', { requiresConfirmation: false })).status).toBe(200);
    expect(made.body.booking).toMatchObject({ status: 'PENDING', amount: 35 });
    const id = made.body.booking.id as string;
    const mails = async () => (await api(env, 'GET', `/bookings/${id}/mails`)).body.mails as { kind: string; status: string; attempts: number }[];
    await until('the "booking received" mail to go out', async () => (await mails()).some((mail) => mail.kind === 'pending' && mail.status === 'sent'));

    const { page, errors, close } = await openPage();
    await signIn(env, page);
    await go(page, 'Bookings');
    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('Status').selectOption({ label: 'Pending (to confirm or to pay)' });
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('button', { name: /^Booking details: .*Paula Richter/ }).click();
    const details = page.locator('section.details');
    // payments are off here: nothing is due online, the whole price at the appointment (docs/contract/payments.md §9)
    expect(await details.locator('[data-payment]').textContent()).toBe('€35.00 at the appointment');
    const received = details.locator('li[data-mail=pending]');
    await received.waitFor();
    expect(await received.getAttribute('data-state')).toBe('sent');
    expect(await received.textContent()).toMatch(/^Booking received ?Sent \w{3}, \w{3} \d{1,2}, \d{2}:\d{2}$/);

    // the confirmation mail's first attempt is refused (451): it waits for its next try. Every earlier mail is out
    // first, so the refusal meets the confirmation.
    await until('every earlier mail to go out', async () => (await env.deps.storage.nextMailDueAt()) === null);
    smtp.failNext(1);
    await details.getByRole('button', { name: 'Confirm', exact: true }).click();
    await details.locator('.badge').filter({ hasText: 'Confirmed' }).waitFor();
    expect(await details.locator('[data-payment]').textContent()).toBe('€35.00 at the appointment');
    await until('the confirmation to be tried once', async () => (await mails()).some((mail) => mail.kind === 'confirmed' && mail.attempts === 1));
    expect((await mails()).find((mail) => mail.kind === 'confirmed')).toMatchObject({ status: 'pending', attempts: 1 });
    await details.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: /^Booking details: .*Paula Richter/ }).waitFor({ state: 'detached' });
    await filters.getByLabel('Status').selectOption({ label: 'Confirmed' });
    await filters.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('button', { name: /^Booking details: .*Paula Richter/ }).click();
    const retry = page.locator('section.details li[data-mail=confirmed]');
    await retry.waitFor();
    expect(await retry.getAttribute('data-state')).toBe('pending');
    expect(await retry.textContent()).toMatch(/^Confirmation ?Not sent yet, next try /);
    expect(await page.locator('section.details li[data-mail=pending]').getAttribute('data-state')).toBe('sent');
    await env.screenshot(page, 'panel-booking-details-mails');
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 40_000);
});
