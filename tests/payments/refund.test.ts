import { afterEach, beforeEach, expect, test } from 'bun:test';
import type { ServiceRecord, WebhookRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addWebhook, bookingBody, catalogue, outbox, tuesday } from '../bookings/fixtures.ts';
import { checkoutId } from './support.ts';

/*
 * POST /workspaces/{slug}/bookings/{bookingId}/refund with the test provider (docs/contract/payments.md §10): a
 * €89 service with a €20 deposit, paid on svc's own checkout page.
 */

describeEachAdapter('refunds', (adapter) => {
  let app: TestApp;
  let service: ServiceRecord;
  let webhook: WebhookRecord;
  beforeEach(async () => {
    app = await createTestApp(adapter, { payments: 'test' });
    ({ service } = await catalogue(app, { priceMinor: 8900, depositMinor: 2000 }));
    webhook = await addWebhook(app);
  });
  afterEach(() => app.close());

  const paidBooking = async () => {
    const created = (await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) })).body;
    expect((await app.request('POST', `/checkout/${checkoutId(created.checkoutUrl)}/pay`)).status).toBe(303);
    return created.booking.id as string;
  };
  const refund = (id: string, body?: unknown) => app.request('POST', `/api/v1/workspaces/acme/bookings/${id}/refund`, { key: app.apiKey, body });

  test('a partial refund, then the rest by default; payment.refunded carries each sum; then 409 NOTHING_TO_REFUND', async () => {
    const id = await paidBooking();
    await outbox(app);
    const first = await refund(id, { amount: 5 });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      success: true,
      booking: expect.objectContaining({ id, payment: { currency: 'EUR', total: 89, paid: 20, due: 69, status: 'partially_refunded', refunded: 5 } }),
      refund: { id: expect.stringMatching(/^rf_/), amount: 5, currency: 'EUR', status: 'succeeded' },
    });
    const rest = await refund(id, {});
    expect(rest.status).toBe(200);
    expect(rest.body.refund).toMatchObject({ amount: 15, currency: 'EUR', status: 'succeeded' });
    expect(rest.body.booking.payment).toMatchObject({ status: 'refunded', refunded: 20, paid: 20 });
    const events = (await outbox(app)).filter((message) => message.webhookId === webhook.id);
    expect(events.map((message) => [message.eventType, message.parsed.data.payment.amount, message.parsed.data.booking.payment.refunded])).toEqual([
      ['payment.refunded', 5, 5],
      ['payment.refunded', 15, 20],
    ]);
    const stored = await app.deps.storage.listRefunds(id);
    expect(stored.map((one) => [one.amountMinor, one.status, one.provider, one.reference?.startsWith('re_test_')])).toEqual([
      [500, 'succeeded', 'test', true],
      [1500, 'succeeded', 'test', true],
    ]);
    const again = await refund(id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, code: 'NOTHING_TO_REFUND' });
  });

  test('more than was paid -> 400 VALIDATION_ERROR and nothing is refunded; an unpaid booking -> 409 NOTHING_TO_REFUND; unknown -> 404', async () => {
    const id = await paidBooking();
    const tooMuch = await refund(id, { amount: 20.01 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(await app.deps.storage.listRefunds(id)).toEqual([]);
    expect((await refund(id, { amount: 1.005 })).body.code).toBe('VALIDATION_ERROR');
    const unpaid = (await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('12:00')) })).body
      .booking.id;
    const nothing = await refund(unpaid);
    expect(nothing.status).toBe(409);
    expect(nothing.body).toMatchObject({ success: false, code: 'NOTHING_TO_REFUND' });
    expect((await refund('bk_nope')).status).toBe(404);
    expect((await app.request('POST', `/api/v1/workspaces/acme/bookings/${id}/refund`, { body: {} })).status).toBe(401);
  });

  test('refundOnCancel: the customer cancels on the manage link in time and gets the deposit back', async () => {
    const patched = await app.request('PATCH', '/api/v1/workspaces/acme', { key: app.apiKey, body: { refundOnCancel: true } });
    expect(patched.status).toBe(200);
    expect(patched.body.workspace.refundOnCancel).toBe(true);
    const created = (await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) })).body;
    await app.request('POST', `/checkout/${checkoutId(created.checkoutUrl)}/pay`);
    const token = created.manageUrl.split('/manage/')[1];
    const cancelled = await app.request('POST', `/api/manage/${token}/cancel`, { body: {} });
    expect(cancelled.status).toBe(200);
    const booking = (await app.request('GET', `/api/v1/workspaces/acme/bookings/${created.booking.id}`, { key: app.apiKey })).body.booking;
    expect(booking.status).toBe('CANCELLED');
    expect(booking.payment).toMatchObject({ status: 'refunded', refunded: 20 });
  });
});
