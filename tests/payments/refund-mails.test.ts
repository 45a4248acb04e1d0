import { afterEach, beforeEach, expect, test } from 'bun:test';
import type { MailSender } from '../../src/features/mail/sender.ts';
import type { TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { bookingBody, catalogue, tuesday } from '../bookings/fixtures.ts';
import { startMailApp, type MailApp } from '../mail/mail-app.ts';
import type { TestSmtp } from '../mail/smtp.ts';
import { checkoutId } from './support.ts';

/*
 * Every refund mails the customer (docs/contract/payments.md §10): two partial refunds of the same, otherwise
 * unchanged booking are two mails, each with its own amount, sent over real SMTP and read back with mailparser.
 */

describeEachAdapter('refund mails', (adapter) => {
  let mailApp: MailApp;
  let app: TestApp;
  let smtp: TestSmtp;
  let sender: MailSender;
  beforeEach(async () => {
    mailApp = await startMailApp(adapter, { payments: 'test' });
    ({ app, smtp, sender } = mailApp);
  });
  afterEach(() => mailApp.close());

  test('two partial refunds of one booking -> two refund mails, one with each amount; a refused refund sends none', async () => {
    const { service } = await catalogue(app, { priceMinor: 8900, depositMinor: 2000 });
    const created = (await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) })).body;
    expect((await app.request('POST', `/checkout/${checkoutId(created.checkoutUrl)}/pay`)).status).toBe(303);
    const refund = (amount: number) =>
      app.request('POST', `/api/v1/workspaces/acme/bookings/${created.booking.id}/refund`, { key: app.apiKey, body: { amount } });
    // the booking's own mails first (its awaiting-payment mail is dropped: it was paid before the loop ran)
    while ((await sender.runOnce()) > 0);
    const before = smtp.mails.length;
    expect(smtp.mails.map((mail) => mail.subject?.split(':')[0])).toEqual(['Booking confirmed']);

    expect((await refund(5)).status).toBe(200);
    app.clock.advance(60_000);
    expect((await refund(7.5)).status).toBe(200);
    // more than is left is refused before the provider is asked: no refund, no mail
    expect((await refund(20)).status).toBe(400);
    while ((await sender.runOnce()) > 0);
    // the loop ran until nothing was left: every mail it sent has arrived
    const mails = [...smtp.mails];
    // the loop sends several at once: in whichever order they arrive
    const refunds = mails.slice(before).sort((a, b) => String(a.subject).localeCompare(String(b.subject)));
    expect(refunds.map((mail) => mail.subject)).toEqual([
      'Refund of €5.00: Haircut on Tuesday, November 24, 2026',
      'Refund of €7.50: Haircut on Tuesday, November 24, 2026',
    ]);
    expect(refunds.map((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address)).toEqual([
      created.booking.customerEmail,
      created.booking.customerEmail,
    ]);
    expect(refunds[0]!.text).toContain('has refunded €5.00 for your booking');
    expect(refunds[1]!.text).toContain('has refunded €7.50 for your booking');
    expect(refunds[1]!.html).toContain('€7.50');
    expect(smtp.mails).toHaveLength(before + 2);
    const rows = await app.deps.storage.listBookingMails(created.booking.id);
    expect(rows.filter((mail) => mail.kind === 'refunded').map((mail) => [mail.revision, mail.snapshot.refundMinor, mail.status])).toEqual([
      [-1, 500, 'sent'],
      [-2, 750, 'sent'],
    ]);
  });
});
