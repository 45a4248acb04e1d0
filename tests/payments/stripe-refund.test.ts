import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { bookingBody, catalogue, tuesday } from '../bookings/fixtures.ts';
import { deliver, SECRET_KEY, sessionJson, startFakeStripe, stripeDelivery, stripeError, type FakeStripe } from './support.ts';

/*
 * SVC_PAYMENTS=stripe, refunds (docs/contract/payments.md §10): the official SDK against the stand-in of the
 * Stripe API; a Checkout Session is refunded through its PaymentIntent with svc's refund id as idempotency key.
 */

describeEachAdapter('stripe refunds', (adapter) => {
  let stripe: FakeStripe;
  let app: TestApp;
  let bookingId: string;
  beforeEach(async () => {
    stripe = startFakeStripe();
    app = await createTestApp(adapter, { payments: stripe.provider() });
    const { service } = await catalogue(app);
    const created = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) });
    expect(created.status).toBe(200);
    bookingId = created.body.booking.id;
    // the customer pays €35.50 at Stripe, and Stripe says so
    stripe.pay('cs_test_1');
    const paid = await deliver(
      app,
      await stripeDelivery('checkout.session.completed', sessionJson('cs_test_1', { status: 'complete', payment_status: 'paid' }), app.clock.now()),
    );
    expect(paid.status).toBe(200);
    stripe.requests.length = 0;
  });
  afterEach(async () => {
    await app.close();
    await stripe.stop();
  });

  const refund = (body?: unknown) => app.request('POST', `/api/v1/workspaces/acme/bookings/${bookingId}/refund`, { key: app.apiKey, body });

  // Refunds in part and in full, their records and the bounds: the shared port suite (tests/payments/port.test.ts).
  test('a refund reaches Stripe as payment_intent and amount in minor units with the refund id as Idempotency-Key', async () => {
    const first = await refund({ amount: 10 });
    expect(first.status).toBe(200);
    const refundId = first.body.refund.id as string;
    expect(first.body.refund).toEqual({ id: expect.stringMatching(/^rf_/), amount: 10, currency: 'EUR', status: 'succeeded' });
    expect(first.body.booking.payment).toMatchObject({ paid: 35.5, refunded: 10, status: 'partially_refunded' });

    expect(stripe.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/checkout/sessions/cs_test_1', 'POST /v1/refunds']);
    const sent = stripe.requests[1]!;
    expect(sent.headers['authorization']).toBe(`Bearer ${SECRET_KEY}`);
    expect(sent.headers['idempotency-key']).toBe(`svc-refund-${refundId}`);
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent.form).toEqual([
      ['payment_intent', 'pi_test_1'],
      ['amount', '1000'],
      ['metadata[refund]', refundId],
    ]);
    expect(stripe.refunds).toEqual([
      expect.objectContaining({ id: 're_test_1', amount: 1000, currency: 'eur', payment_intent: 'pi_test_1', status: 'succeeded' }),
    ]);
  });

  test('the same refund id sent again (a retry) does not refund twice: Stripe answers the first refund again', async () => {
    const first = await refund({ amount: 10 });
    const refundId = first.body.refund.id as string;
    const again = await app.deps.payments!.refund!({ paymentReference: 'cs_test_1', amountMinor: 1000, currency: 'EUR', refundId });
    expect(again).toEqual({ reference: 're_test_1', status: 'succeeded' });
    const posts = stripe.requests.filter((request) => request.path === '/v1/refunds');
    expect(posts.map((request) => request.headers['idempotency-key'])).toEqual([`svc-refund-${refundId}`, `svc-refund-${refundId}`]);
    expect(stripe.refunds).toHaveLength(1);
    expect(stripe.refunds[0]!.amount).toBe(1000);
    // a new refund (a new id) is a new refund
    expect((await refund({ amount: 5 })).status).toBe(200);
    expect(stripe.refunds.map((one) => one.amount)).toEqual([1000, 500]);
  });

  test('Stripe refusing the refund -> 502 PAYMENT_PROVIDER_ERROR and nothing is refunded', async () => {
    stripe.reply((request, index) =>
      request.path === '/v1/refunds' ? stripeError(400, 'Charge ch_test_1 has been disputed.') : stripe.stripe(request, index),
    );
    const refused = await refund({ amount: 10 });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ success: false, code: 'PAYMENT_PROVIDER_ERROR' });
    expect(stripe.refunds).toEqual([]);
    const booking = (await app.request('GET', `/api/v1/workspaces/acme/bookings/${bookingId}`, { key: app.apiKey })).body.booking;
    expect(booking.payment).toMatchObject({ paid: 35.5, refunded: 0, status: 'paid' });
  });
});
