import { afterEach, beforeEach, expect, test } from 'bun:test';
import type { ParsedMail } from 'mailparser';
import { smtpTransport } from '../../adapters/mail/smtp/index.ts';
import { queueReminders } from '../../src/features/mail/reminders.ts';
import { createMailSender, type MailSender } from '../../src/features/mail/sender.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { OUTBOX_LEASE_MS } from '../../src/platform/outbox/worker.ts';
import type { TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { berlin, catalogue, tuesday } from '../bookings/fixtures.ts';
import { type MailApp, startMailApp } from './mail-app.ts';
import type { TestSmtp } from './smtp.ts';

/*
 * The customer's mails end to end (docs/contract/notifications.md): a booking change writes its mail to the outbox in
 * its transaction, the mail loop sends it over real SMTP (smtp-server in this process), and the mail is read
 * back with mailparser: parts, language, times in the workspace zone, From, the calendar invite.
 */

const FROM = 'bookings@acme.example';
const DATABASE_TIMEOUT_MS = 30_000;

describeEachAdapter('customer mails', (adapter) => {
  let mail: MailApp;
  let app: TestApp;
  let smtp: TestSmtp;
  let sender: MailSender;
  let logLines: string[];

  async function setUp(config: Record<string, unknown> = {}) {
    logLines = [];
    mail = await startMailApp(adapter, {
      config: { SVC_MAIL_FROM: FROM, SVC_WEBHOOK_RETRY_SCHEDULE: '5,60', ...config },
      logger: createLogger('debug', (line) => logLines.push(line)),
    });
    ({ app, smtp, sender } = mail);
  }
  beforeEach(() => setUp(), DATABASE_TIMEOUT_MS);
  afterEach(() => mail.close(), DATABASE_TIMEOUT_MS);

  const book = async (date: string, body: Record<string, unknown> = {}) => {
    const { service } = await catalogue(app);
    const response = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
      key: app.apiKey,
      body: { serviceId: service.id, date, email: 'mia@example.com', name: 'Mia Schneider', ...body },
    });
    expect(response.status).toBe(200);
    return response.body as { booking: { id: string }; manageUrl: string; checkoutUrl: string | null };
  };
  const attachment = (mail: ParsedMail) => {
    expect(mail.attachments.length).toBe(1);
    return mail.attachments[0]!;
  };

  test(
    'a confirmed booking -> one mail: From with the workspace name, text and HTML, time in Berlin named, manage link, REQUEST invite',
    async () => {
      const created = await book(tuesday('10:00'));
      expect(created.manageUrl).toMatch(/^https:\/\/book\.acme\.example\/manage\/[A-Za-z0-9_-]{43}$/);
      expect(await sender.runOnce()).toBe(1);
      const [mail, ...others] = smtp.mails;
      expect(others).toEqual([]);
      expect(mail!.from!.value).toEqual([{ address: FROM, name: 'Acme Studio' }]);
      expect(mail!.to).toMatchObject({ value: [{ address: 'mia@example.com', name: '' }] });
      expect(mail!.subject).toBe('Booking confirmed: Haircut on Tuesday, November 24, 2026');
      expect(mail!.text).toContain('Hello Mia Schneider,');
      expect(mail!.text).toContain('Acme Studio is expecting you on Tuesday, November 24, 2026, 10:00 – 11:00 GMT+1 (Berlin).');
      expect(mail!.text).toContain(`Cancel or reschedule: ${created.manageUrl}`);
      expect(mail!.html).toContain(`href="${created.manageUrl}"`);
      expect(mail!.html).toContain('<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#1d2330">Your booking is confirmed</h1>');
      expect(mail!.messageId).toMatch(/^<mail_[0-9a-z]{26}@book\.acme\.example>$/);
      const invite = attachment(mail!);
      expect(invite.filename).toBe('invite.ics');
      expect(invite.contentType).toBe('text/calendar');
      const ics = invite.content.toString('utf8');
      expect(ics).toContain('METHOD:REQUEST');
      expect(ics).toContain(`UID:${created.booking.id}@book.acme.example`);
      expect(ics).toContain('SEQUENCE:0');
      expect(ics).toContain('DTSTART;TZID=Europe/Berlin:20261124T100000');
      expect(ics).toContain('DTEND;TZID=Europe/Berlin:20261124T110000');
      expect(ics).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin');
      expect(ics).toContain('STATUS:CONFIRMED');
      const mails = await app.request('GET', `/api/v1/workspaces/acme/bookings/${created.booking.id}/mails`, { key: app.apiKey });
      expect(mails.body).toEqual({
        success: true,
        mails: [
          {
            id: expect.stringMatching(/^mail_/),
            kind: 'confirmed',
            status: 'sent',
            attempts: 1,
            lastError: null,
            nextAttemptAt: null,
            createdAt: '2026-11-23T08:00:00.000Z',
            sentAt: '2026-11-23T08:00:00.000Z',
          },
        ],
      });
      expect(await sender.runOnce()).toBe(0);
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    "the workspace's https logo heads the HTML part; a logo a mail client would block (http) is left out",
    async () => {
      await app.deps.storage.updateWorkspace(app.workspace.id, { logoUrl: 'https://cdn.acme.example/logo.png' }, app.clock.now());
      await book(tuesday('10:00'));
      expect(await sender.runOnce()).toBe(1);
      await app.deps.storage.updateWorkspace(app.workspace.id, { logoUrl: 'http://cdn.acme.example/logo.png' }, app.clock.now());
      await book(tuesday('12:00'), { email: 'leo@example.com' });
      expect(await sender.runOnce()).toBe(1);
      const to = (address: string) => smtp.mails.find((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === address)!;
      expect(to('mia@example.com').html).toContain('<img src="https://cdn.acme.example/logo.png" alt="" height="40"');
      expect(to('leo@example.com').html).not.toContain('<img');
      expect(to('mia@example.com').text).not.toContain('logo.png');
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'reminder: queued SVC_REMINDER_HOURS before the start, once, and sent with the same manage link; none for a booking made inside the window',
    async () => {
      const thursday = '2026-11-26T09:00:00.000Z'; // 10:00 in Berlin
      const created = await book(thursday);
      expect(await sender.runOnce()).toBe(1);
      expect(await queueReminders(app.deps, app.clock.now())).toBe(0);

      // 23.5 hours before the start: due
      app.clock.set('2026-11-25T09:30:00.000Z');
      const inside = await book('2026-11-25T13:00:00.000Z', { email: 'leo@example.com' });
      expect(await sender.runOnce()).toBe(1);
      expect(await queueReminders(app.deps, app.clock.now())).toBe(1);
      expect(await queueReminders(app.deps, app.clock.now())).toBe(0);
      expect(await sender.runOnce()).toBe(1);
      const reminder = smtp.mails.at(-1)!;
      expect(reminder.subject).toBe('Reminder: Haircut on Thursday, November 26, 2026, 10:00 – 11:00 GMT+1 (Berlin)');
      expect(reminder.text).toContain(created.manageUrl);
      expect(reminder.attachments).toEqual([]);
      const mails = await app.request('GET', `/api/v1/workspaces/acme/bookings/${created.booking.id}/mails`, { key: app.apiKey });
      expect(mails.body.mails.map((mail: { kind: string; status: string }) => `${mail.kind}:${mail.status}`)).toEqual(['confirmed:sent', 'reminder:sent']);
      const insideMails = await app.request('GET', `/api/v1/workspaces/acme/bookings/${inside.booking.id}/mails`, { key: app.apiKey });
      expect(insideMails.body.mails.map((mail: { kind: string }) => mail.kind)).toEqual(['confirmed']);
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'SVC_REMINDER_HOURS=48: the reminder is due two days ahead',
    async () => {
      await sender.stop();
      await app.close();
      await smtp.close();
      await setUp({ SVC_REMINDER_HOURS: 48 });
      await book('2026-11-26T09:00:00.000Z');
      app.clock.set('2026-11-24T08:30:00.000Z'); // 48.5 hours before
      expect(await queueReminders(app.deps, app.clock.now())).toBe(0);
      app.clock.set('2026-11-24T09:30:00.000Z'); // 47.5 hours before
      expect(await queueReminders(app.deps, app.clock.now())).toBe(1);
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'HTML escapes what the visitor typed; the text part keeps it as typed',
    async () => {
      await book(tuesday('10:00'), { name: '<img src=x onerror=alert(1)> & "Co"' });
      await sender.runOnce();
      const [mail] = smtp.mails;
      expect(mail!.html).not.toContain('<img src=x');
      expect(mail!.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;');
      expect(mail!.text).toContain('Hello <img src=x onerror=alert(1)> & "Co",');
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'German workspace: cancel with a reason -> German mail with the reason, METHOD:CANCEL, SEQUENCE risen, same UID',
    async () => {
      await app.deps.storage.updateWorkspace(app.workspace.id, { language: 'de' }, app.clock.now());
      app.clock.advance(3_000); // past the catalogue cache
      const created = await book(tuesday('10:00'));
      app.clock.advance(60_000);
      const cancelled = await app.request('POST', `/api/v1/workspaces/acme/bookings/${created.booking.id}/cancel`, {
        key: app.apiKey,
        body: { reason: 'Krankheit' },
      });
      expect(cancelled.status).toBe(200);
      expect(await sender.runOnce()).toBe(2);
      // Both mails go out in one run, several at once: find each by its subject, not by arrival order.
      const confirmed = smtp.mails.find((mail) => mail.subject?.startsWith('Buchung bestätigt'));
      const cancellation = smtp.mails.find((mail) => mail.subject?.startsWith('Buchung storniert'));
      expect(confirmed!.subject).toBe('Buchung bestätigt: Haircut am Dienstag, 24. November 2026');
      expect(confirmed!.text).toContain('Acme Studio erwartet Sie am Dienstag, 24. November 2026, 10:00 – 11:00 MEZ.');
      expect(cancellation!.subject).toBe('Buchung storniert: Haircut am Dienstag, 24. November 2026');
      expect(cancellation!.text).toContain('Grund:');
      expect(cancellation!.text).toContain('Krankheit');
      expect(cancellation!.text).toContain('Buchung ansehen: https://book.acme.example/manage/');
      const ics = attachment(cancellation!).content.toString('utf8');
      expect(attachment(cancellation!).filename).toBe('cancelled.ics');
      expect(ics).toContain('METHOD:CANCEL');
      expect(ics).toContain('STATUS:CANCELLED');
      expect(ics).toContain('SEQUENCE:1');
      expect(ics).toContain(`UID:${created.booking.id}@book.acme.example`);
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'reschedule -> a rescheduled mail with the new and the old time, REQUEST with a higher SEQUENCE',
    async () => {
      const created = await book(tuesday('10:00'));
      const moved = await app.request('POST', `/api/v1/workspaces/acme/bookings/${created.booking.id}/reschedule`, {
        key: app.apiKey,
        body: { date: tuesday('14:00') },
      });
      expect(moved.status).toBe(200);
      await sender.runOnce();
      const rescheduled = smtp.mails.find((mail) => mail.subject?.startsWith('Booking moved'));
      expect(rescheduled!.subject).toBe('Booking moved: Haircut now on Tuesday, November 24, 2026');
      expect(rescheduled!.text).toContain('14:00 – 15:00 GMT+1 (Berlin)');
      expect(rescheduled!.text).toMatch(/Previously: +Tuesday, November 24, 2026, 10:00 – 11:00 GMT\+1/);
      const ics = attachment(rescheduled!).content.toString('utf8');
      expect(ics).toContain('METHOD:REQUEST');
      expect(ics).toContain('SEQUENCE:1');
      expect(ics).toContain('DTSTART;TZID=Europe/Berlin:20261124T140000');
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'on the day summer time starts the times are the wall-clock times with the summer zone',
    async () => {
      const sunday = { start: '09:00', end: '17:00' };
      const weekday = [{ start: '09:00', end: '17:00' }];
      await app.deps.storage.updateWorkspace(
        app.workspace.id,
        { hours: { weekly: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: [], sun: [sunday] }, exceptions: [] } },
        app.clock.now(),
      );
      app.clock.advance(3_000);
      await book(berlin('2027-03-28', '10:00'));
      await sender.runOnce();
      const [mail] = smtp.mails;
      expect(mail!.text).toContain('Sunday, March 28, 2027, 10:00 – 11:00 GMT+2 (Berlin)');
      expect(attachment(mail!).content.toString('utf8')).toContain('DTSTART;TZID=Europe/Berlin:20270328T100000');
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'an SMTP server that fails then recovers gets the mail once; the failure is logged without personal data',
    async () => {
      const created = await book(tuesday('10:00'));
      smtp.failNext(1);
      expect(await sender.runOnce()).toBe(1);
      expect(smtp.mails).toEqual([]);
      const state = await app.request('GET', `/api/v1/workspaces/acme/bookings/${created.booking.id}/mails`, { key: app.apiKey });
      expect(state.body.mails).toEqual([
        expect.objectContaining({
          status: 'pending',
          attempts: 1,
          lastError: 'the SMTP server refused or failed: EMESSAGE, SMTP 451, at DATA',
          nextAttemptAt: '2026-11-23T08:00:05.000Z',
        }),
      ]);
      const failure = logLines.find((line) => line.includes('mail not sent'));
      expect(failure).toBeDefined();
      expect(failure).not.toContain('mia@example.com');
      expect(failure).not.toContain('Mia');
      expect(failure).not.toContain(created.manageUrl.split('/').pop()!);
      expect(await sender.runOnce()).toBe(0); // not due yet
      app.clock.advance(5_000);
      expect(await sender.runOnce()).toBe(1);
      expect(await sender.runOnce()).toBe(0);
      expect(smtp.mails.length).toBe(1);
      const after = await app.request('GET', `/api/v1/workspaces/acme/bookings/${created.booking.id}/mails`, { key: app.apiKey });
      expect(after.body.mails).toEqual([expect.objectContaining({ status: 'sent', attempts: 2, lastError: null })]);
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'after the last retry the mail is failed and never sent again',
    async () => {
      const created = await book(tuesday('10:00'));
      smtp.failNext(3);
      await sender.runOnce();
      app.clock.advance(5_000);
      await sender.runOnce();
      app.clock.advance(60_000);
      await sender.runOnce();
      app.clock.advance(3_600_000);
      expect(await sender.runOnce()).toBe(0);
      const state = await app.request('GET', `/api/v1/workspaces/acme/bookings/${created.booking.id}/mails`, { key: app.apiKey });
      expect(state.body.mails).toEqual([expect.objectContaining({ status: 'failed', attempts: 3, nextAttemptAt: null })]);
      expect(smtp.mails).toEqual([]);
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'concurrent bookings and two instances sending at once -> exactly one mail per booking',
    async () => {
      const { service } = await catalogue(app);
      const times = ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00'];
      const results = await Promise.all(
        times.map((time) =>
          app.request('POST', '/api/v1/workspaces/acme/bookings', {
            key: app.apiKey,
            body: { serviceId: service.id, date: tuesday(time), email: 'mia@example.com', name: time },
          }),
        ),
      );
      expect(results.map((result) => result.status)).toEqual(times.map(() => 200));
      const other = createMailSender({
        storage: app.db.reopen(),
        config: app.deps.config,
        clock: app.clock,
        logger: createLogger('silent'),
        transport: smtpTransport(smtp.url),
        owner: 'instance-b',
      });
      const [a, b] = await Promise.all([sender.runOnce(), other.runOnce()]);
      expect(a + b).toBe(times.length);
      await other.stop();
      expect(smtp.mails.map((mail) => mail.text!.match(/Hello (\d\d:\d\d),/)![1]).sort()).toEqual(times);
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'a restart with mails due: the new process sends each once; a mail claimed by a crashed one is sent after its lease',
    async () => {
      await book(tuesday('10:00'));
      await book(tuesday('12:00'));
      // the first process claims one mail and dies before sending it
      const claimedByCrashed = await app.deps.storage.claimDueMails('crashed', app.clock.now(), app.clock.now() + 120_000, 1);
      expect(claimedByCrashed.length).toBe(1);
      const restarted = createMailSender({
        storage: app.db.reopen(),
        config: app.deps.config,
        clock: app.clock,
        logger: createLogger('silent'),
        transport: smtpTransport(smtp.url),
        owner: 'restarted',
      });
      expect(await restarted.runOnce()).toBe(1);
      app.clock.advance(120_001);
      expect(await restarted.runOnce()).toBe(1);
      expect(await restarted.runOnce()).toBe(0);
      await restarted.stop();
      expect(smtp.mails.length).toBe(2);
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'an instance that dies while sending: its heartbeat kept the mail past the first lease, and another sends it 20 s after the last beat',
    async () => {
      const created = await book(tuesday('10:00'));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let sending!: () => void;
      const sendStarted = new Promise<void>((resolve) => (sending = resolve));
      // The dying instance's SMTP server holds the mail until the test lets it go; it renews its leases only
      // when the test says, so the test decides when it dies.
      const dying = createMailSender({
        storage: app.deps.storage,
        config: app.deps.config,
        clock: app.clock,
        logger: createLogger('silent'),
        transport: {
          send: () => {
            sending();
            return released;
          },
          close: async () => {},
        },
        owner: 'dying',
      });
      const dyingRun = dying.runOnce();
      await sendStarted;
      app.clock.advance(15_000);
      expect(await dying.renewLeases()).toBe(1);
      app.clock.advance(15_000);
      expect(await sender.runOnce()).toBe(0);
      app.clock.advance(OUTBOX_LEASE_MS - 15_000 - 1);
      expect(await sender.runOnce()).toBe(0);
      app.clock.advance(2);
      expect(await sender.runOnce()).toBe(1);
      expect(smtp.mails.length).toBe(1);
      // The dead instance's late outcome is not recorded: one attempt, the taker's.
      release();
      expect(await dyingRun).toBe(1);
      await dying.stop();
      expect(await app.deps.storage.listBookingMails(created.booking.id)).toEqual([expect.objectContaining({ status: 'sent', attempts: 1 })]);
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'without SMTP no mail is written, so nothing piles up',
    async () => {
      await mail.close();
      await setUp({ SVC_SMTP_URL: undefined, SVC_MAIL_FROM: undefined });
      const created = await book(tuesday('10:00'));
      expect(await app.deps.storage.listBookingMails(created.booking.id)).toEqual([]);
      expect(await app.deps.storage.nextMailDueAt()).toBeNull();
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'a workspace that confirms by hand: request received, then the confirmation after confirm',
    async () => {
      await app.deps.storage.updateWorkspace(app.workspace.id, { requiresConfirmation: true }, app.clock.now());
      app.clock.advance(3_000);
      const created = await book(tuesday('10:00'));
      await sender.runOnce();
      expect(smtp.mails.map((mail) => mail.subject)).toEqual(['Booking request received: Haircut on Tuesday, November 24, 2026']);
      expect(smtp.mails[0]!.attachments).toEqual([]);
      await app.request('POST', `/api/v1/workspaces/acme/bookings/${created.booking.id}/confirm`, { key: app.apiKey });
      await sender.runOnce();
      expect(smtp.mails.map((mail) => mail.subject)[1]).toBe('Booking confirmed: Haircut on Tuesday, November 24, 2026');
      expect(attachment(smtp.mails[1]!).content.toString('utf8')).toContain('SEQUENCE:1');
    },
    DATABASE_TIMEOUT_MS,
  );
});

describeEachAdapter('customer mails with payments', (adapter) => {
  let mail: MailApp;
  let app: TestApp;
  let smtp: TestSmtp;
  let sender: MailSender;
  beforeEach(async () => {
    mail = await startMailApp(adapter, { config: { SVC_MAIL_FROM: `Acme Bookings <${FROM}>` }, payments: 'test' });
    ({ app, smtp, sender } = mail);
  }, DATABASE_TIMEOUT_MS);
  afterEach(() => mail.close(), DATABASE_TIMEOUT_MS);

  test(
    'awaiting payment -> a mail with the checkout link and the amount; a hold that expires -> the cancellation',
    async () => {
      const { service } = await catalogue(app);
      const created = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
        key: app.apiKey,
        body: { serviceId: service.id, date: tuesday('10:00'), email: 'mia@example.com' },
      });
      expect(created.body.booking.status).toBe('PENDING');
      expect(await sender.runOnce()).toBe(0); // the checkout gets its moment first
      app.clock.advance(15_000);
      expect(await sender.runOnce()).toBe(1);
      const [pending] = smtp.mails;
      expect(pending!.from!.value).toEqual([{ address: FROM, name: 'Acme Bookings' }]);
      expect(pending!.subject).toBe('Please complete your payment: Haircut on Tuesday, November 24, 2026');
      expect(pending!.text).toContain('Hello,');
      expect(pending!.text).toContain(`Pay now: ${created.body.checkoutUrl}`);
      expect(pending!.text).toContain('until 09:30 GMT+1');
      expect(pending!.text).toMatch(/Amount due: +€35\.50/);
      app.clock.advance(30 * 60_000);
      await app.request('GET', '/healthz');
      const { createScheduler } = await import('../../src/scheduler/scheduler.ts');
      await createScheduler(app.deps).runJob('expire-holds');
      await sender.runOnce();
      expect(smtp.mails.map((mail) => mail.subject)[1]).toBe('Booking cancelled: Haircut on Tuesday, November 24, 2026');
      expect(smtp.mails[1]!.text).toContain('payment hold expired');
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'paid before the awaiting-payment mail went out -> only the confirmation',
    async () => {
      const { service } = await catalogue(app);
      const created = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
        key: app.apiKey,
        body: { serviceId: service.id, date: tuesday('10:00'), email: 'mia@example.com' },
      });
      const checkoutPath = new URL(created.body.checkoutUrl).pathname;
      const paid = await app.request('POST', `${checkoutPath}/pay`);
      expect(paid.status).toBe(303);
      app.clock.advance(15_000);
      await sender.runOnce();
      expect(smtp.mails.map((mail) => mail.subject)).toEqual(['Booking confirmed: Haircut on Tuesday, November 24, 2026']);
      const state = await app.request('GET', `/api/v1/workspaces/acme/bookings/${created.body.booking.id}/mails`, { key: app.apiKey });
      expect(state.body.mails.map((mail: { kind: string; status: string }) => [mail.kind, mail.status])).toEqual([
        ['pending', 'dropped'],
        ['confirmed', 'sent'],
      ]);
    },
    DATABASE_TIMEOUT_MS,
  );
});
