import { afterEach, beforeEach, expect, test } from 'bun:test';
import type { ServiceRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addWebhook, bookingBody, catalogue, outbox, setWorkspace, tuesday } from '../bookings/fixtures.ts';
import { paymentsOf } from './support.ts';

/*
 * POST …/bookings/{id}/mark-paid (docs/contract/first-day.md §4): the owner took the money another way. A PENDING
 * booking awaiting its payment gets a paid payment of provider `manual` and is confirmed, with the events an
 * online payment sends; any other booking is 409 INVALID_TRANSITION. TEST_NOW is Monday 2026-11-23 09:00 in Berlin.
 */

describeEachAdapter('mark as paid', (adapter) => {
  let app: TestApp;
  let service: ServiceRecord;
  beforeEach(async () => {
    app = await createTestApp(adapter, { payments: 'test' });
    ({ service } = await catalogue(app));
  });
  afterEach(() => app.close());

  const book = (time: string, target: ServiceRecord = service) =>
    app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(target, tuesday(time)) });
  const markPaid = (id: string) => app.request('POST', `/api/v1/workspaces/acme/bookings/${id}/mark-paid`, { key: app.apiKey });

  test('a booking awaiting its payment is confirmed, with a manual payment recorded paid and payment.received then booking.confirmed', async () => {
    const webhook = await addWebhook(app);
    const created = (await book('10:00')).body.booking;
    expect(created).toMatchObject({ status: 'PENDING', awaitingPayment: true });
    const answer = await markPaid(created.id);
    expect(answer.status).toBe(200);
    expect(answer.body.booking).toEqual({
      ...created,
      status: 'CONFIRMED',
      awaitingPayment: false,
      payment: { currency: 'EUR', total: 35.5, paid: 35.5, due: 0, status: 'paid', refunded: 0 },
    });
    const payments = await paymentsOf(app, created.id);
    expect(payments.find((payment) => payment.provider === 'manual')).toMatchObject({ status: 'paid', amountMinor: 3550, currency: 'EUR', refundDue: false });
    const messages = await outbox(app);
    expect(messages.map((message) => [message.webhookId, message.eventType])).toEqual([
      [webhook.id, 'booking.created'],
      [webhook.id, 'payment.received'],
      [webhook.id, 'booking.confirmed'],
    ]);
    expect(messages[1]!.parsed.data.payment).toMatchObject({ amount: 35.5, currency: 'EUR', provider: 'manual' });
    // once paid it is no longer awaiting anything
    const again = await markPaid(created.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_TRANSITION');
  });

  test('a booking awaiting confirmation (no payment due) is 409: it is confirmed, not marked paid', async () => {
    await setWorkspace(app, { requiresConfirmation: true });
    const free = await app.deps.storage.updateService(app.workspace.id, service.id, { priceMinor: 0 });
    const created = (await book('11:00', free!)).body.booking;
    expect(created).toMatchObject({ status: 'PENDING', awaitingPayment: false });
    const answer = await markPaid(created.id);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'INVALID_TRANSITION', error: `booking ${created.id} is not awaiting a payment: confirm it instead` });
    expect(await paymentsOf(app, created.id)).toEqual([]);
  });

  test('an unknown booking is 404; without a key 401', async () => {
    expect((await markPaid('bk_unknown')).status).toBe(404);
    expect((await app.request('POST', '/api/v1/workspaces/acme/bookings/bk_unknown/mark-paid')).status).toBe(401);
  });
});
