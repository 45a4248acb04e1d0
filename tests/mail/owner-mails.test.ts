import { afterEach, beforeEach, expect, test } from 'bun:test';
import type { MailSender } from '../../src/features/mail/sender.ts';
import type { TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { catalogue, tuesday } from '../bookings/fixtures.ts';
import { startMailApp, type MailApp } from './mail-app.ts';
import type { TestSmtp } from './smtp.ts';

/*
 * The owner's mails (docs/contract/first-day.md §2): with mail configured and the workspace's notificationEmail
 * set, the owner is mailed about each new booking and each cancel or reschedule the customer makes (through the
 * manage link); a change made with the key or in the panel is the owner's own and is not mailed to them.
 */

const OWNER = 'owner@acme.example';

describeEachAdapter('owner mails', (adapter) => {
  let mailApp: MailApp;
  let app: TestApp;
  let smtp: TestSmtp;
  let sender: MailSender;
  beforeEach(async () => {
    mailApp = await startMailApp(adapter);
    ({ app, smtp, sender } = mailApp);
  }, 30_000);
  afterEach(() => mailApp.close(), 30_000);

  const setOwner = async (notificationEmail: string | null, language = 'en') => {
    const response = await app.request('PATCH', '/api/v1/workspaces/acme', { key: app.apiKey, body: { notificationEmail, language } });
    expect(response.status).toBe(200);
    expect(response.body.workspace.notificationEmail).toBe(notificationEmail);
  };
  const book = async (time = '10:00') => {
    const { service } = await catalogue(app);
    const response = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
      key: app.apiKey,
      body: { serviceId: service.id, date: tuesday(time), email: 'mia@example.com', name: 'Mia Schneider', phone: '+49 30 1234567' },
    });
    expect(response.status).toBe(200);
    return response.body as { booking: { id: string }; manageUrl: string };
  };
  const sendAll = async () => {
    while ((await sender.runOnce()) > 0);
  };
  const ownerMails = () => smtp.mails.filter((mail) => JSON.stringify(mail.to).includes(OWNER));

  test('a new booking: the customer gets theirs and the owner a mail with who, what, when and the booking in the admin', async () => {
    await setOwner(OWNER);
    const created = await book();
    await sendAll();
    expect(smtp.mails.map((mail) => (mail.to as { value: { address: string }[] }).value[0]!.address).sort()).toEqual(['mia@example.com', OWNER]);
    const [mail] = ownerMails();
    expect(mail!.subject).toBe('New booking: Haircut on Tuesday, November 24, 2026');
    expect(mail!.text).toContain('Mia Schneider booked Haircut on Tuesday, November 24, 2026, 10:00 – 11:00 GMT+1 (Berlin).');
    expect(mail!.text).toContain('mia@example.com');
    expect(mail!.text).toContain('+49 30 1234567');
    expect(mail!.text).toContain(`Open in the admin: https://book.acme.example/admin/bookings/${created.booking.id}`);
    expect(mail!.attachments).toEqual([]);
    // the booking's mail list in the panel shows the customer's mails only
    const listed = await app.request('GET', `/api/v1/workspaces/acme/bookings/${created.booking.id}/mails`, { key: app.apiKey });
    expect(listed.body.mails.map((each: { kind: string }) => each.kind)).toEqual(['confirmed']);
  });

  test("the customer's cancel and reschedule through the manage link are mailed to the owner; the owner's own cancel is not", async () => {
    await setOwner(OWNER);
    const first = await book('10:00');
    const second = await book('13:00');
    await sendAll();
    const token = first.manageUrl.split('/manage/')[1];
    expect((await app.request('POST', `/api/manage/${token}/reschedule`, { body: { date: '2026-11-25T13:00:00Z' } })).status).toBe(200);
    await sendAll();
    expect((await app.request('POST', `/api/manage/${token}/cancel`, { body: {} })).status).toBe(200);
    expect((await app.request('POST', `/api/v1/workspaces/acme/bookings/${second.booking.id}/cancel`, { key: app.apiKey, body: {} })).status).toBe(200);
    await sendAll();
    expect(ownerMails().map((mail) => mail.subject)).toEqual([
      'New booking: Haircut on Tuesday, November 24, 2026',
      'New booking: Haircut on Tuesday, November 24, 2026',
      'Moved by the customer: Haircut now on Wednesday, November 25, 2026',
      'Cancelled by the customer: Haircut on Wednesday, November 25, 2026',
    ]);
  });

  test('in German for a German workspace; without a notificationEmail the owner gets nothing', async () => {
    await setOwner(OWNER, 'de');
    await book('10:00');
    await sendAll();
    expect(ownerMails().map((mail) => mail.subject)).toEqual(['Neue Buchung: Haircut am Dienstag, 24. November 2026']);
    await setOwner(null);
    await book('13:00');
    await sendAll();
    expect(ownerMails()).toHaveLength(1);
  });
});
