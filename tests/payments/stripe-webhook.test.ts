import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createLogger } from '../../src/platform/logger.ts';
import type { ServiceRecord, WebhookRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addWebhook, bookingBody, catalogue, outbox, storedBookings, tuesday } from '../bookings/fixtures.ts';
import { deliver, mainOf, paymentsOf, sessionJson, startFakeStripe, stripeDelivery, type FakeStripe } from './support.ts';

/*
 * SVC_PAYMENTS=stripe, the webhook half: `POST /api/payments/stripe/webhook` with events signed by the SDK's own
 * generateTestHeaderStringAsync, verified over the raw body. Every booking here opened Checkout Session
 * `cs_test_1` at the fake Stripe API.
 */

const MINUTE = 60_000;
const now = Date.parse(TEST_NOW);
/** The `payment` of a €35.50 booking paid in full online, and of one whose checkout closed unpaid. */
const paidInFull = { currency: 'EUR', total: 35.5, paid: 35.5, due: 0, status: 'paid', refunded: 0 };
const unpaid = { currency: 'EUR', total: 35.5, paid: 0, due: 35.5, status: 'none', refunded: 0 };

describeEachAdapter('stripe webhook', (adapter) => {
  let stripe: FakeStripe;
  let app: TestApp;
  let service: ServiceRecord;
  let webhook: WebhookRecord;
  let logs: Record<string, unknown>[];
  let booking: any;
  beforeEach(async () => {
    stripe = startFakeStripe();
    logs = [];
    // Everything but the request log, whose lines arrive after the response (and so between tests' steps).
    const logger = createLogger('info', (line) => {
      const parsed = JSON.parse(line);
      if (parsed.msg !== 'request') logs.push(parsed);
    });
    app = await createTestApp(adapter, { payments: stripe.provider(), logger });
    ({ service } = await catalogue(app));
    webhook = await addWebhook(app);
    booking = (await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) })).body.booking;
    app.clock.advance(5 * MINUTE);
    await outbox(app); // booking.created is not what these tests are about
    logs.length = 0;
  });
  afterEach(async () => {
    await app.close();
    await stripe.stop();
  });

  const at = () => app.clock.now();
  const send = async (type: string, fields: Record<string, unknown> = {}, id = 'cs_test_1') =>
    deliver(app, await stripeDelivery(type, sessionJson(id, fields), at()));
  const getBooking = async () => (await app.request('GET', `/api/v1/workspaces/acme/bookings/${booking.id}`, { key: app.apiKey })).body.booking;
  const payment = async () => (await paymentsOf(app, booking.id))[0]!;
  const bookAgain = () => app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) });
  const ok = (result: string) => ({ status: 200, body: { success: true, result } });
  const answer = (response: { status: number; body: unknown }) => ({ status: response.status, body: response.body });

  test('checkout.session.completed with payment_status paid confirms the booking: payment.received then booking.confirmed', async () => {
    expect(answer(await send('checkout.session.completed', { status: 'complete', payment_status: 'paid' }))).toEqual(ok('confirmed'));
    const confirmed = await getBooking();
    expect(confirmed).toEqual({ ...booking, status: 'CONFIRMED', awaitingPayment: false, payment: paidInFull });
    expect(await payment()).toMatchObject({ status: 'paid', refundDue: false, reference: 'cs_test_1', updatedAt: at() });
    const messages = await outbox(app);
    expect(messages.map((message) => [message.webhookId, message.eventType])).toEqual([
      [webhook.id, 'payment.received'],
      [webhook.id, 'booking.confirmed'],
    ]);
    expect(messages.map((message) => message.parsed)).toEqual([
      {
        type: 'payment.received',
        timestamp: '2026-11-23T08:05:00.000Z',
        data: {
          workspace: 'acme',
          booking: { ...confirmed, payment: paidInFull },
          payment: { amount: 35.5, currency: 'EUR', provider: 'stripe', reference: 'cs_test_1' },
        },
      },
      { type: 'booking.confirmed', timestamp: '2026-11-23T08:05:00.000Z', data: { workspace: 'acme', booking: confirmed } },
    ]);
    expect(logs).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'payment event applied',
        provider: 'stripe',
        outcome: 'paid',
        reference: 'cs_test_1',
        result: 'confirmed',
      }),
    ]);
  });

  test('checkout.session.completed with payment_status unpaid changes nothing (the async events decide)', async () => {
    expect(answer(await send('checkout.session.completed', { status: 'complete', payment_status: 'unpaid' }))).toEqual(ok('ignored'));
    expect(await getBooking()).toEqual(booking);
    expect(await payment()).toMatchObject({ status: 'pending', updatedAt: now });
    expect(await outbox(app)).toEqual([]);
  });

  test('checkout.session.async_payment_succeeded confirms the booking', async () => {
    await send('checkout.session.completed', { status: 'complete', payment_status: 'unpaid' });
    app.clock.advance(MINUTE);
    expect(answer(await send('checkout.session.async_payment_succeeded', { status: 'complete', payment_status: 'paid' }))).toEqual(ok('confirmed'));
    expect((await getBooking()).status).toBe('CONFIRMED');
    expect(await payment()).toMatchObject({ status: 'paid', refundDue: false });
    expect((await outbox(app)).map((message) => message.eventType)).toEqual(['payment.received', 'booking.confirmed']);
  });

  test('checkout.session.async_payment_failed cancels the booking (payment failed) and frees its slot', async () => {
    expect(answer(await send('checkout.session.async_payment_failed', { status: 'complete', payment_status: 'unpaid' }))).toEqual(ok('closed'));
    const cancelled = await getBooking();
    expect(cancelled).toEqual({ ...booking, status: 'CANCELLED', awaitingPayment: false, cancelReason: 'payment failed', payment: unpaid });
    expect((await storedBookings(app))[0]!.cancelReason).toBe('payment failed');
    expect(await payment()).toMatchObject({ status: 'failed', refundDue: false });
    expect((await outbox(app)).map((message) => message.parsed)).toEqual([
      { type: 'booking.cancelled', timestamp: '2026-11-23T08:05:00.000Z', data: { workspace: 'acme', booking: cancelled } },
    ]);
    expect((await bookAgain()).status).toBe(200);
  });

  test('checkout.session.expired cancels the booking and frees its slot', async () => {
    expect(answer(await send('checkout.session.expired', { status: 'expired', payment_status: 'unpaid' }))).toEqual(ok('closed'));
    expect((await getBooking()).status).toBe('CANCELLED');
    expect((await storedBookings(app))[0]!.cancelReason).toBe('payment checkout expired');
    expect(await payment()).toMatchObject({ status: 'expired', refundDue: false });
    expect((await outbox(app)).map((message) => message.eventType)).toEqual(['booking.cancelled']);
    expect((await bookAgain()).status).toBe(200);
  });

  // The same delivery twice: the shared port suite (tests/payments/port.test.ts). Here: Stripe's other events of a paid session.
  test('after the payment, the later events of the same session (async payment succeeded, expired) change nothing and answer 200', async () => {
    expect(answer(await send('checkout.session.completed', { status: 'complete', payment_status: 'paid' }))).toEqual(ok('confirmed'));
    const confirmed = await getBooking();
    const paid = await payment();
    await outbox(app);
    app.clock.advance(MINUTE);
    expect(answer(await send('checkout.session.async_payment_succeeded', { payment_status: 'paid' }))).toEqual(ok('unchanged'));
    expect(answer(await send('checkout.session.expired', { status: 'expired' }))).toEqual(ok('unchanged'));
    expect(await getBooking()).toEqual({ ...confirmed, payment: paidInFull });
    expect(await payment()).toEqual(paid);
    expect(await outbox(app)).toEqual([]);
  });

  test('a payment for a booking cancelled meanwhile is recorded with refundDue and logged at warn', async () => {
    await app.request('POST', `/api/v1/workspaces/acme/bookings/${booking.id}/cancel`, { key: app.apiKey });
    await outbox(app);
    expect(answer(await send('checkout.session.completed', { status: 'complete', payment_status: 'paid' }))).toEqual(ok('refund_due'));
    expect((await getBooking()).status).toBe('CANCELLED');
    expect(await payment()).toMatchObject({ status: 'paid', refundDue: true });
    expect(await outbox(app)).toEqual([]);
    expect(logs.filter((line) => line.level === 'warn')).toEqual([
      expect.objectContaining({ msg: 'payment received for a cancelled booking: refund due', reference: 'cs_test_1' }),
    ]);
  });

  test('a payment for a booking confirmed by hand meanwhile is recorded; the booking stays CONFIRMED and gets payment.received', async () => {
    const confirmed = (await app.request('POST', `/api/v1/workspaces/acme/bookings/${booking.id}/confirm`, { key: app.apiKey })).body.booking;
    await outbox(app);
    app.clock.advance(MINUTE);
    expect(answer(await send('checkout.session.completed', { payment_status: 'paid' }))).toEqual(ok('paid'));
    expect(await getBooking()).toEqual({ ...confirmed, payment: paidInFull });
    expect(await payment()).toMatchObject({ status: 'paid', refundDue: false });
    expect((await outbox(app)).map((message) => message.parsed)).toEqual([
      {
        type: 'payment.received',
        timestamp: '2026-11-23T08:06:00.000Z',
        data: {
          workspace: 'acme',
          booking: { ...confirmed, payment: paidInFull },
          payment: { amount: 35.5, currency: 'EUR', provider: 'stripe', reference: 'cs_test_1' },
        },
      },
    ]);
  });

  test('a bad signature -> 400 VALIDATION_ERROR and nothing changes: another secret, or a body altered after signing', async () => {
    const otherSecret = await stripeDelivery('checkout.session.completed', sessionJson('cs_test_1', { payment_status: 'paid' }), at(), 'whsec_someone_else');
    const signed = await stripeDelivery('checkout.session.completed', sessionJson('cs_test_1', { payment_status: 'paid' }), at());
    const altered = { body: signed.body.replace('"livemode": false', '"livemode": true'), signature: signed.signature };
    const reencoded = { body: JSON.stringify(JSON.parse(signed.body)), signature: signed.signature };
    for (const delivery of [otherSecret, altered, reencoded]) {
      const response = await deliver(app, delivery);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: expect.stringMatching(
          /^stripe-signature does not verify \(No signatures found matching the expected signature for payload\..*\): check that STRIPE_WEBHOOK_SECRET is this endpoint's signing secret$/,
        ),
        code: 'VALIDATION_ERROR',
      });
    }
    expect(await getBooking()).toEqual(booking);
    expect(await payment()).toMatchObject({ status: 'pending', updatedAt: now });
    expect(await outbox(app)).toEqual([]);
    expect(logs.filter((line) => line.level === 'warn')).toHaveLength(3);
  });

  test('a signature older than 5 minutes -> 400 VALIDATION_ERROR (replayed delivery)', async () => {
    const old = await stripeDelivery('checkout.session.completed', sessionJson('cs_test_1', { payment_status: 'paid' }), at() - 6 * MINUTE);
    const response = await deliver(app, old);
    expect(response.body).toEqual({
      success: false,
      error: "stripe-signature does not verify (Timestamp outside the tolerance zone): check that STRIPE_WEBHOOK_SECRET is this endpoint's signing secret",
      code: 'VALIDATION_ERROR',
    });
    expect(await payment()).toMatchObject({ status: 'pending' });
  });

  test('a missing signature -> 400 VALIDATION_ERROR and nothing changes', async () => {
    const { body } = await stripeDelivery('checkout.session.completed', sessionJson('cs_test_1', { payment_status: 'paid' }), at());
    const response = await deliver(app, { body, signature: null });
    expect(answer(response)).toEqual({
      status: 400,
      body: { success: false, error: 'stripe-signature header is missing: this endpoint accepts only webhooks signed by Stripe', code: 'VALIDATION_ERROR' },
    });
    expect(await payment()).toMatchObject({ status: 'pending' });
    expect(await getBooking()).toEqual(booking);
  });

  test('an unknown session -> 200 `unknown`, logged at warn, nothing changes (Stripe would retry a refusal for days)', async () => {
    expect(answer(await send('checkout.session.completed', { payment_status: 'paid' }, 'cs_test_not_ours'))).toEqual(ok('unknown'));
    expect(answer(await send('checkout.session.expired', {}, 'cs_test_not_ours'))).toEqual(ok('unknown'));
    expect(await getBooking()).toEqual(booking);
    expect(await outbox(app)).toEqual([]);
    expect(logs.filter((line) => line.level === 'warn')).toEqual([
      expect.objectContaining({
        msg: 'payment webhook for an unknown checkout; acknowledged and ignored',
        provider: 'stripe',
        outcome: 'paid',
        reference: 'cs_test_not_ours',
      }),
      expect.objectContaining({
        msg: 'payment webhook for an unknown checkout; acknowledged and ignored',
        provider: 'stripe',
        outcome: 'expired',
        reference: 'cs_test_not_ours',
      }),
    ]);
  });

  test('an event type svc does not use -> 200 `ignored`', async () => {
    const delivery = await stripeDelivery('payment_intent.succeeded', { id: 'pi_123', object: 'payment_intent' }, at());
    expect(answer(await deliver(app, delivery))).toEqual(ok('ignored'));
    expect(await payment()).toMatchObject({ status: 'pending' });
  });

  test('a webhook body over 64 KiB -> 413 PAYLOAD_TOO_LARGE', async () => {
    const delivery = await stripeDelivery(
      'checkout.session.completed',
      sessionJson('cs_test_1', { payment_status: 'paid', padding: 'x'.repeat(70_000) }),
      at(),
    );
    const response = await deliver(app, delivery);
    expect(answer(response)).toEqual({ status: 413, body: { success: false, error: 'request body must be at most 64 KiB', code: 'PAYLOAD_TOO_LARGE' } });
    expect(await payment()).toMatchObject({ status: 'pending' });
  });

  test('the success page says processing until the payment event arrives, then confirmed; the cancel page changes nothing', async () => {
    const processing = await app.request('GET', '/checkout/stripe/done?session_id=cs_test_1');
    expect(processing.status).toBe(200);
    expect(processing.body).toContain('<meta http-equiv="refresh" content="5">');
    expect(mainOf(processing.body)).toBe(`<header><p>Acme Studio</p></header>
<section>
<h1>Payment processing</h1>
<p>Your payment is being confirmed. This page refreshes by itself; you can also close it: the booking is confirmed as soon as the payment arrives.</p>
<dl>
<dt>Service</dt><dd>Haircut</dd>
<dt>Date</dt><dd>Tuesday, November 24, 2026</dd>
<dt>Time</dt><dd>10:00 (Europe/Berlin)</dd>
<dt>Amount</dt><dd>€35.50</dd>
<dt>Payment</dt><dd>€35.50 now</dd>
</dl>
</section>`);
    await send('checkout.session.completed', { payment_status: 'paid' });
    const done = mainOf((await app.request('GET', '/checkout/stripe/done?session_id=cs_test_1')).body);
    expect(done).toContain('<h1>Booking confirmed</h1>');
    expect(done).toContain('<dt>Payment</dt><dd>€35.50 paid</dd>');

    const left = await app.request('GET', '/checkout/stripe/cancelled');
    expect(left.status).toBe(200);
    expect(mainOf(left.body)).toContain('<h1>Payment not completed</h1>');
    expect((await app.request('GET', '/checkout/stripe/done?session_id=cs_test_nope')).body).toEqual({
      success: false,
      error: 'checkout cs_test_nope not found',
      code: 'NOT_FOUND',
    });
    expect((await app.request('GET', '/checkout/stripe/done')).body).toEqual({
      success: false,
      error: 'session_id is required',
      code: 'VALIDATION_ERROR',
      details: [{ path: '/session_id', message: 'session_id is required' }],
    });
  });

  test('the test checkout page does not exist with Stripe, and other providers’ webhooks are 404', async () => {
    expect((await app.request('GET', '/checkout/cs_test_1')).status).toBe(404);
    expect((await app.request('POST', '/api/payments/test/webhook', { rawBody: '{}' })).body).toEqual({
      success: false,
      error: 'payment webhook for test not found',
      code: 'NOT_FOUND',
    });
  });
});
