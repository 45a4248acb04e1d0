import { afterEach, beforeEach, expect, test } from 'bun:test';
import type { ServiceRecord, WebhookRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addWebhook, bookingBody, catalogue, outbox, tuesday } from '../bookings/fixtures.ts';
import { deliver, paymentsOf, startFakeStripe, stripeDelivery, type FakeStripe } from './support.ts';

/*
 * SVC_STRIPE_PROMOTION_CODES=1 (docs/contract/payments.md §12): a customer who enters a promotion code at Stripe
 * Checkout pays the session's `amount_total`, less than svc asked. svc records what the session says was paid:
 * `paid` is that sum, the code's discount comes off `total` (it is not left to pay at the appointment), and no
 * refund can give back more than was paid.
 */

describeEachAdapter('stripe promotion codes', (adapter) => {
  let stripe: FakeStripe;
  let app: TestApp;
  let webhook: WebhookRecord;
  beforeEach(async () => {
    stripe = startFakeStripe();
    app = await createTestApp(adapter, { payments: stripe.provider({ promotionCodes: true }) });
    webhook = await addWebhook(app);
  });
  afterEach(async () => {
    await app.close();
    await stripe.stop();
  });

  const book = async (service: ServiceRecord) => {
    const created = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) });
    expect(created.status).toBe(200);
    return created.body.booking.id as string;
  };
  /** The customer pays at Checkout with a code taking `amountOff` minor units off, and Stripe says so. */
  const payWithCode = async (amountOff: number) => {
    const session = stripe.pay('cs_test_1', { promotionCode: { amountOff } });
    const answer = await deliver(app, await stripeDelivery('checkout.session.completed', session, app.clock.now()));
    expect(answer.status).toBe(200);
    return answer.body.result as string;
  };
  const getBooking = async (id: string) => (await app.request('GET', `/api/v1/workspaces/acme/bookings/${id}`, { key: app.apiKey })).body.booking;
  const refund = (id: string, body?: unknown) => app.request('POST', `/api/v1/workspaces/acme/bookings/${id}/refund`, { key: app.apiKey, body });

  test('€35.50 with a €10.00 code: paid €25.50, nothing due; payment.received says €25.50; refunds stop at €25.50', async () => {
    const { service } = await catalogue(app, { priceMinor: 3550 });
    const id = await book(service);
    await outbox(app);
    expect(await payWithCode(1000)).toBe('confirmed');
    // the session as Stripe documents it after a code
    expect(stripe.session('cs_test_1')).toMatchObject({
      amount_subtotal: 3550,
      amount_total: 2550,
      total_details: { amount_discount: 1000 },
      discounts: [{ promotion_code: 'promo_test_1' }],
      payment_status: 'paid',
    });
    const booking = await getBooking(id);
    expect(booking.status).toBe('CONFIRMED');
    expect(booking.amount).toBe(35.5);
    expect(booking.payment).toEqual({ currency: 'EUR', total: 25.5, paid: 25.5, due: 0, status: 'paid', refunded: 0 });
    expect((await paymentsOf(app, id)).map((one) => [one.status, one.amountMinor])).toEqual([['paid', 2550]]);
    const events = (await outbox(app)).filter((message) => message.webhookId === webhook.id);
    expect(events.map((message) => [message.eventType, message.parsed.data.payment?.amount, message.parsed.data.booking.payment.paid])).toEqual([
      ['payment.received', 25.5, 25.5],
      ['booking.confirmed', undefined, 25.5],
    ]);
    // the checkout page after payment says what was paid
    expect((await app.request('GET', '/checkout/stripe/done?session_id=cs_test_1')).body).toContain('<dt>Payment</dt><dd>€25.50 paid</dd>');

    // refunds: never more than the €25.50 taken, though €35.50 was asked
    const tooMuch = await refund(id, { amount: 25.51 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toEqual({
      success: false,
      error: 'amount 25.51 is more than can be refunded: 25.5 EUR',
      code: 'VALIDATION_ERROR',
      details: [{ path: '/amount', message: 'at most 25.5' }],
    });
    expect(stripe.refunds).toEqual([]);
    const all = await refund(id);
    expect(all.status).toBe(200);
    expect(all.body.refund).toMatchObject({ amount: 25.5, currency: 'EUR', status: 'succeeded' });
    expect(all.body.booking.payment).toEqual({ currency: 'EUR', total: 25.5, paid: 25.5, due: 0, status: 'refunded', refunded: 25.5 });
    expect(stripe.refunds.map((one) => [one.payment_intent, one.amount])).toEqual([['pi_test_1', 2550]]);
    expect((await refund(id)).body.code).toBe('NOTHING_TO_REFUND');
  });

  test('a €20.00 deposit of €89.00 with a €5.00 code: paid €15.00, €69.00 still due at the appointment', async () => {
    const { service } = await catalogue(app, { priceMinor: 8900, depositMinor: 2000 });
    const id = await book(service);
    expect(await payWithCode(500)).toBe('confirmed');
    expect((await getBooking(id)).payment).toEqual({ currency: 'EUR', total: 84, paid: 15, due: 69, status: 'paid', refunded: 0 });
    expect((await refund(id, { amount: 20 })).status).toBe(400);
    const part = await refund(id, { amount: 10 });
    expect(part.body.booking.payment).toEqual({ currency: 'EUR', total: 84, paid: 15, due: 69, status: 'partially_refunded', refunded: 10 });
    expect((await refund(id, { amount: 5.01 })).status).toBe(400);
    expect((await refund(id)).body.refund).toMatchObject({ amount: 5 });
    expect(stripe.refunds.map((one) => one.amount)).toEqual([1000, 500]);
  });

  test('a code taking all of it: Stripe completes the session with no_payment_required; the booking is confirmed, nothing paid or due', async () => {
    const { service } = await catalogue(app, { priceMinor: 3550 });
    const id = await book(service);
    expect(await payWithCode(5000)).toBe('confirmed');
    expect(stripe.session('cs_test_1')).toMatchObject({ amount_total: 0, payment_status: 'no_payment_required', payment_intent: null });
    const booking = await getBooking(id);
    expect(booking.status).toBe('CONFIRMED');
    expect(booking.payment).toBeNull();
    expect((await refund(id)).body.code).toBe('NOTHING_TO_REFUND');
    expect(stripe.refunds).toEqual([]);
  });

  test('a replayed completion after a code changes nothing', async () => {
    const { service } = await catalogue(app, { priceMinor: 3550 });
    const id = await book(service);
    const delivery = await stripeDelivery('checkout.session.completed', stripe.pay('cs_test_1', { promotionCode: { amountOff: 1000 } }), app.clock.now());
    expect((await deliver(app, delivery)).body.result).toBe('confirmed');
    expect((await deliver(app, delivery)).body.result).toBe('unchanged');
    expect((await getBooking(id)).payment).toEqual({ currency: 'EUR', total: 25.5, paid: 25.5, due: 0, status: 'paid', refunded: 0 });
  });
});
