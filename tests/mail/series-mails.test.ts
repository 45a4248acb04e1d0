import { afterEach, beforeEach, expect, test } from 'bun:test';
import ical from 'node-ical';
import type { MailSender } from '../../src/features/mail/sender.ts';
import type { TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { catalogue, storedBookings, tuesday } from '../bookings/fixtures.ts';
import { startMailApp, type MailApp } from './mail-app.ts';
import type { TestSmtp } from './smtp.ts';

/*
 * A series' mails (docs/contract/series.md): one mail listing every date, with one .ics holding every occurrence
 * (each its own UID), over real SMTP; the same for cancelling it; one payment for all of it.
 */

const TIMEOUT_MS = 30_000;

function events(ics: string) {
  return (Object.values(ical.sync.parseICS(ics)) as { type: string; uid: string; start: Date }[]).filter((entry) => entry?.type === 'VEVENT');
}

for (const payments of ['none', 'test'] as const) {
  describeEachAdapter(`series mails (payments ${payments})`, (adapter) => {
    let mailApp: MailApp;
    let app: TestApp;
    let smtp: TestSmtp;
    let sender: MailSender;
    beforeEach(async () => {
      mailApp = await startMailApp(adapter, { payments });
      ({ app, smtp, sender } = mailApp);
    }, TIMEOUT_MS);
    afterEach(() => mailApp.close(), TIMEOUT_MS);

    test(
      'a series of 4 -> one mail listing the 4 dates, with one .ics of 4 events under 4 UIDs; cancelling it -> one mail cancelling all 4',
      async () => {
        const { service } = await catalogue(app);
        const created = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
          key: app.apiKey,
          body: {
            serviceId: service.id,
            date: tuesday('10:00'),
            email: 'mia@example.com',
            name: 'Mia',
            repeat: { frequency: 'weekly', interval: 1, count: 4 },
          },
        });
        expect(created.status).toBe(200);
        const ids: string[] = created.body.series.bookings.map((booking: { id: string }) => booking.id);
        if (payments === 'test') {
          // one checkout for every occurrence: 4 × 35.50
          const [payment, ...others] = await app.deps.storage.listPayments(ids[0]!);
          expect(others).toEqual([]);
          expect(payment!.amountMinor).toBe(4 * 3550);
          for (const id of ids.slice(1)) expect(await app.deps.storage.listPayments(id)).toEqual([]);
          const paid = await app.request('POST', `${new URL(created.body.checkoutUrl).pathname}/pay`);
          expect(paid.status).toBe(303);
          expect((await storedBookings(app)).map((booking) => booking.status)).toEqual(['CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'CONFIRMED']);
          app.clock.advance(15_000);
        }
        await sender.runOnce();
        const [mail, ...more] = smtp.mails;
        expect(more).toEqual([]);
        expect(mail!.subject).toBe('Booking confirmed: Haircut on Tuesday, November 24, 2026');
        expect(mail!.text).toContain('This covers 4 weekly dates, all listed below.');
        for (const day of ['Tuesday, November 24, 2026', 'Tuesday, December 1, 2026', 'Tuesday, December 8, 2026', 'Tuesday, December 15, 2026']) {
          expect(mail!.text).toContain(`${day}, 10:00 – 11:00 GMT+1 (Berlin)`);
        }
        expect(mail!.attachments).toHaveLength(1);
        const invite = events(mail!.attachments[0]!.content.toString('utf8'));
        expect(invite.map((event) => event.uid).sort()).toEqual(ids.map((id) => `${id}@book.acme.example`).sort());
        expect(invite.map((event) => new Date(event.start).toISOString()).sort()).toEqual(
          created.body.series.bookings.map((booking: { startTime: string }) => booking.startTime),
        );

        const cancelled = await app.request('POST', `/api/v1/workspaces/acme/series/${created.body.series.id}/cancel`, { key: app.apiKey, body: {} });
        expect(cancelled.status).toBe(200);
        await sender.runOnce();
        const [, cancelMail, ...rest] = smtp.mails;
        expect(rest).toEqual([]);
        expect(cancelMail!.subject).toStartWith('Booking cancelled');
        const ics = cancelMail!.attachments[0]!.content.toString('utf8');
        expect(ics).toContain('METHOD:CANCEL');
        expect(
          events(ics)
            .map((event) => event.uid)
            .sort(),
        ).toEqual(ids.map((id) => `${id}@book.acme.example`).sort());
      },
      TIMEOUT_MS,
    );
  });
}

describeEachAdapter('series mails: an unpaid series', (adapter) => {
  let app: TestApp;
  let smtp: TestSmtp;
  let sender: MailSender;
  let mailApp: MailApp;
  beforeEach(async () => {
    mailApp = await startMailApp(adapter, { payments: 'test' });
    ({ app, smtp, sender } = mailApp);
  }, TIMEOUT_MS);
  afterEach(() => mailApp.close(), TIMEOUT_MS);

  test(
    'whose hold expires -> every occurrence cancelled, and one cancellation mail cancelling all of them',
    async () => {
      const { service } = await catalogue(app);
      const created = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
        key: app.apiKey,
        body: { serviceId: service.id, date: tuesday('10:00'), email: 'mia@example.com', repeat: { frequency: 'weekly', interval: 1, count: 3 } },
      });
      expect(created.status).toBe(200);
      app.clock.advance(15_000);
      await sender.runOnce();
      expect(smtp.mails.map((mail) => mail.subject)).toEqual(['Please complete your payment: Haircut on Tuesday, November 24, 2026']);
      app.clock.advance(31 * 60_000);
      const { createScheduler } = await import('../../src/scheduler/scheduler.ts');
      await createScheduler(app.deps).runJob('expire-holds');
      expect((await storedBookings(app)).map((booking) => booking.status)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED']);
      await sender.runOnce();
      const [, cancelled, ...more] = smtp.mails;
      expect(more).toEqual([]);
      expect(cancelled!.subject).toStartWith('Booking cancelled');
      expect(cancelled!.text).toContain('This covers 3 weekly dates');
      expect(events(cancelled!.attachments[0]!.content.toString('utf8'))).toHaveLength(3);
    },
    TIMEOUT_MS,
  );
});
