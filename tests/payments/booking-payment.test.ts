import { afterEach, expect, test } from 'bun:test';
import { smtpTransport } from '../../adapters/mail/smtp/index.ts';
import { createMailSender, type MailSender } from '../../src/features/mail/sender.ts';
import { silentLogger } from '../../src/platform/logger.ts';
import type { ServiceRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { bookingBody, catalogue, tuesday } from '../bookings/fixtures.ts';
import { startTestSmtp, type TestSmtp } from '../mail/smtp.ts';
import { checkoutId, mainOf } from './support.ts';

/*
 * A booking's `payment` (docs/contract/payments.md §9): a €89 service with a €20 deposit. With a provider the
 * deposit is paid online and €69 is left for the appointment, and every surface says so in the same words; with
 * SVC_PAYMENTS=none nothing is said to be due online.
 */

describeEachAdapter('booking payment', (adapter) => {
  let app: TestApp;
  let smtp: TestSmtp;
  let sender: MailSender;
  let service: ServiceRecord;

  async function setUp(payments: 'none' | 'test', locale: string | null = null, language = 'en') {
    smtp = await startTestSmtp();
    app = await createTestApp(adapter, { payments, config: { SVC_SMTP_URL: smtp.url, SVC_MAIL_FROM: 'bookings@acme.example' } });
    app.workspace = (await app.deps.storage.updateWorkspace(app.workspace.id, { locale, language }, app.clock.now()))!;
    sender = createMailSender({
      storage: app.deps.storage,
      config: app.deps.config,
      clock: app.clock,
      logger: silentLogger,
      transport: smtpTransport(smtp.url),
      owner: 'instance-a',
      random: () => 0.5,
    });
    ({ service } = await catalogue(app, { priceMinor: 8900, depositMinor: 2000 }));
  }
  afterEach(async () => {
    await sender.stop();
    await app.close();
    await smtp.close();
  });

  const book = () => app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) });
  const get = async (id: string) => (await app.request('GET', `/api/v1/workspaces/acme/bookings/${id}`, { key: app.apiKey })).body.booking;
  const managePage = async (manageUrl: string) => (await app.request('GET', new URL(manageUrl).pathname)).body as string;

  test('with a provider: pending with the deposit due now, then paid; checkout page, manage page, mail, list and webhook agree', async () => {
    await setUp('test');
    const created = (await book()).body;
    expect(created.booking.amount).toBe(20);
    expect(created.booking.payment).toEqual({ currency: 'EUR', total: 89, paid: 0, due: 69, status: 'pending', refunded: 0 });
    const id = checkoutId(created.checkoutUrl);
    expect(mainOf((await app.request('GET', `/checkout/${id}`)).body)).toContain('<dt>Payment</dt><dd>Deposit €20.00 now, €69.00 at the appointment</dd>');
    expect(await managePage(created.manageUrl)).toContain('<dt>Payment</dt><dd>Deposit €20.00 now, €69.00 at the appointment</dd>');

    expect((await app.request('POST', `/checkout/${id}/pay`)).status).toBe(303);
    const paid = { currency: 'EUR', total: 89, paid: 20, due: 69, status: 'paid', refunded: 0 };
    expect((await get(created.booking.id)).payment).toEqual(paid);
    const list = await app.request('GET', '/api/v1/workspaces/acme/bookings', { key: app.apiKey });
    expect(list.body.bookings.map((booking: { payment: unknown }) => booking.payment)).toEqual([paid]);
    expect(mainOf((await app.request('GET', `/checkout/${id}/done`)).body)).toContain(
      '<dt>Payment</dt><dd>Deposit €20.00 paid, €69.00 at the appointment</dd>',
    );
    expect(await managePage(created.manageUrl)).toContain('<dt>Payment</dt><dd>Deposit €20.00 paid, €69.00 at the appointment</dd>');

    // the confirmation carries the payment line, as the booking stands when it is sent
    await sender.runOnce();
    expect(smtp.mails.map((mail) => mail.subject)).toContain('Booking confirmed: Haircut on Tuesday, November 24, 2026');
    for (const mail of smtp.mails) expect(mail.text).toContain('Deposit €20.00 paid, €69.00 at the appointment');

    const stored = await app.deps.storage.getBooking(app.workspace.id, created.booking.id);
    expect(stored).toMatchObject({ priceMinor: 8900, paidMinor: 2000, refundedMinor: 0, amountMinor: 2000 });
  });

  test('SVC_PAYMENTS=none: nothing is due online; the whole price is left for the appointment on every surface', async () => {
    await setUp('none');
    const created = (await book()).body;
    expect(created.checkoutUrl).toBeNull();
    expect(created.booking.status).toBe('CONFIRMED');
    expect(created.booking.payment).toEqual({ currency: 'EUR', total: 89, paid: 0, due: 89, status: 'none', refunded: 0 });
    const page = await managePage(created.manageUrl);
    expect(page).toContain('<dt>Payment</dt><dd>€89.00 at the appointment</dd>');
    expect(page).not.toMatch(/now|Deposit/);
    expect(await sender.runOnce()).toBe(1);
    expect(smtp.mails[0]!.text).toContain('€89.00 at the appointment');
    expect(smtp.mails[0]!.text).not.toMatch(/Deposit|now,/);
    const config = await app.request('GET', '/api/v1/workspaces/acme/config');
    expect(config.body.booking.onlinePayment).toBe(false);
  });

  test("amounts follow the workspace's locale and words its language: de-DE writes 20,00 €, German words", async () => {
    await setUp('test', 'de-DE', 'de');
    const created = (await book()).body;
    expect(await managePage(created.manageUrl)).toContain('<dt>Zahlung</dt><dd>Anzahlung 20,00\u00a0€ jetzt, 69,00\u00a0€ beim Termin</dd>');
    const config = await app.request('GET', '/api/v1/workspaces/acme/config');
    expect(config.body.booking.onlinePayment).toBe(true);
  });

  test('a free booking has payment null', async () => {
    await setUp('test');
    ({ service } = await catalogue(app, { priceMinor: 0 }));
    const created = (await book()).body;
    expect(created.booking.payment).toBeNull();
    expect(await managePage(created.manageUrl)).not.toContain('<dt>Payment</dt>');
  });
});
