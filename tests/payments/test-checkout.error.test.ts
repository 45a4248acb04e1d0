import { sha256Hex } from '../../src/core/secrets.ts';
import { afterEach, beforeEach, expect, test } from 'bun:test';
import type { PaymentProvider } from '../../src/ports/payments.ts';
import { createLogger } from '../../src/platform/logger.ts';
import type { ServiceRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addWebhook, bookingBody, catalogue, outbox, storedBookings, tuesday } from '../bookings/fixtures.ts';
import { checkoutId, mainOf, paymentsOf } from './support.ts';

/*
 * SVC_PAYMENTS=test, the ways a checkout goes wrong: repeats, late payments, unknown ids, an unreachable
 * provider. Nothing is dropped silently and nothing changes twice.
 */

const MINUTE = 60_000;
const now = Date.parse(TEST_NOW);

describeEachAdapter('test checkout: errors and repeats', (adapter) => {
  let app: TestApp;
  let service: ServiceRecord;
  let logs: Record<string, unknown>[];
  beforeEach(async () => {
    logs = [];
    app = await createTestApp(adapter, { payments: 'test', logger: createLogger('info', (line) => logs.push(JSON.parse(line))) });
    ({ service } = await catalogue(app));
    await addWebhook(app);
  });
  afterEach(() => app.close());

  const book = async (time = '10:00') => {
    const response = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday(time)) });
    return { booking: response.body.booking, id: checkoutId(response.body.checkoutUrl) };
  };
  const getBooking = async (id: string) => (await app.request('GET', `/api/v1/workspaces/acme/bookings/${id}`, { key: app.apiKey })).body.booking;
  const eventTypes = async () => (await outbox(app)).map((message) => message.eventType);

  // A second Pay: the shared port suite (tests/payments/port.test.ts) replays every provider's news.
  test('two Pay requests at once confirm the booking once: one payment.received, one booking.confirmed', async () => {
    const { booking, id } = await book();
    app.clock.advance(MINUTE);
    const answers = await Promise.all([1, 2, 3].map(() => app.request('POST', `/checkout/${id}/pay`)));
    expect(answers.map((answer) => [answer.status, answer.headers.get('location')])).toEqual(Array(3).fill([303, `/checkout/${id}/done`]));
    expect((await getBooking(booking.id)).status).toBe('CONFIRMED');
    expect(await paymentsOf(app, booking.id)).toEqual([expect.objectContaining({ status: 'paid', refundDue: false })]);
    expect(await eventTypes()).toEqual(['booking.created', 'payment.received', 'booking.confirmed']);
  });

  test('Pay and Cancel at once: never a confirmed booking without its payment nor a cancelled one whose payment is not due back', async () => {
    for (let round = 0; round < 4; round++) {
      const { booking, id } = await book(`1${round}:00`);
      await outbox(app);
      app.clock.advance(MINUTE);
      await Promise.all([app.request('POST', `/checkout/${id}/pay`), app.request('POST', `/checkout/${id}/cancel`)]);
      const [payment] = await paymentsOf(app, booking.id);
      const outcome = [(await getBooking(booking.id)).status, payment!.status, payment!.refundDue, await eventTypes()];
      // Pay first: confirmed (the Cancel is too late to matter). Cancel first: cancelled, and the Pay that
      // follows is the late payment of a cancelled booking, recorded as due for a refund.
      expect([
        ['CONFIRMED', 'paid', false, ['payment.received', 'booking.confirmed']],
        ['CANCELLED', 'paid', true, ['booking.cancelled']],
      ]).toContainEqual(outcome);
    }
  });

  test('Cancel after Pay changes nothing: 303 to the done page, the booking stays CONFIRMED', async () => {
    const { booking, id } = await book();
    await app.request('POST', `/checkout/${id}/pay`);
    await outbox(app);
    const cancel = await app.request('POST', `/checkout/${id}/cancel`);
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get('location')).toBe(`/checkout/${id}/done`);
    expect((await getBooking(booking.id)).status).toBe('CONFIRMED');
    expect(await paymentsOf(app, booking.id)).toEqual([expect.objectContaining({ status: 'paid', refundDue: false })]);
    expect(await eventTypes()).toEqual([]);
  });

  test('Pay for a booking cancelled meanwhile is recorded as paid with refundDue, logged at warn, and the booking stays CANCELLED', async () => {
    const { booking, id } = await book();
    await app.request('POST', `/api/v1/workspaces/acme/bookings/${booking.id}/cancel`, { key: app.apiKey, body: { reason: 'changed my mind' } });
    await outbox(app);
    app.clock.advance(MINUTE);

    const pay = await app.request('POST', `/checkout/${id}/pay`);
    expect(pay.status).toBe(303);
    expect(pay.headers.get('location')).toBe(`/checkout/${id}/done`);
    expect(await paymentsOf(app, booking.id)).toEqual([expect.objectContaining({ status: 'paid', refundDue: true, updatedAt: now + MINUTE })]);
    expect((await getBooking(booking.id)).status).toBe('CANCELLED');
    expect((await storedBookings(app))[0]!.cancelReason).toBe('changed my mind');
    expect(await eventTypes()).toEqual([]);
    expect(logs.filter((line) => line.level === 'warn')).toEqual([
      expect.objectContaining({
        msg: 'payment received for a cancelled booking: refund due',
        provider: 'test',
        reference: sha256Hex(id),
        booking: booking.id,
        amountMinor: 3550,
        currency: 'EUR',
      }),
    ]);
    expect(mainOf((await app.request('GET', `/checkout/${id}/done`)).body)).toContain(
      '<h1>Payment received for a cancelled booking</h1>\n<p>This booking had already been cancelled when the payment arrived. The payment will be refunded.</p>',
    );

    // and a repeat of that late payment changes nothing either
    const [recorded] = await paymentsOf(app, booking.id);
    await app.request('POST', `/checkout/${id}/pay`);
    expect(await paymentsOf(app, booking.id)).toEqual([recorded!]);
  });

  test('Pay after Cancel on the page is recorded as paid with refundDue; the booking stays CANCELLED', async () => {
    const { booking, id } = await book();
    await app.request('POST', `/checkout/${id}/cancel`);
    await outbox(app);
    const pay = await app.request('POST', `/checkout/${id}/pay`);
    expect(pay.headers.get('location')).toBe(`/checkout/${id}/done`);
    expect(await paymentsOf(app, booking.id)).toEqual([expect.objectContaining({ status: 'paid', refundDue: true })]);
    expect((await getBooking(booking.id)).status).toBe('CANCELLED');
    expect(await eventTypes()).toEqual([]);
  });

  test('a second Cancel changes nothing', async () => {
    const { booking, id } = await book();
    await app.request('POST', `/checkout/${id}/cancel`);
    const [closed] = await paymentsOf(app, booking.id);
    await outbox(app);
    const again = await app.request('POST', `/checkout/${id}/cancel`);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(`/checkout/${id}/cancelled`);
    expect(await paymentsOf(app, booking.id)).toEqual([closed!]);
    expect(await eventTypes()).toEqual([]);
  });

  test('Pay once the hold has run out (before the scheduler ran) closes the checkout as expired: the booking is CANCELLED, nothing is taken', async () => {
    const { booking, id } = await book();
    await outbox(app);
    app.clock.set(now + 30 * MINUTE);
    expect(mainOf((await app.request('GET', `/checkout/${id}`)).body)).toContain('<h1>Checkout expired</h1>');
    const pay = await app.request('POST', `/checkout/${id}/pay`);
    expect(pay.headers.get('location')).toBe(`/checkout/${id}/cancelled`);
    expect(await paymentsOf(app, booking.id)).toEqual([expect.objectContaining({ status: 'expired', refundDue: false })]);
    expect((await getBooking(booking.id)).status).toBe('CANCELLED');
    expect((await storedBookings(app))[0]!.cancelReason).toBe('payment checkout expired');
    expect(await eventTypes()).toEqual(['booking.cancelled']);
  });

  test('an unknown checkout id -> 404 NOT_FOUND with the contract body on the page, Pay, Cancel and done; nothing changes', async () => {
    const { booking } = await book();
    await outbox(app);
    const unknown = 'chk_doesnotexist0000000000000000000';
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/pay'],
      ['POST', '/cancel'],
      ['GET', '/done'],
      ['GET', '/cancelled'],
    ] as const) {
      const response = await app.request(method, `/checkout/${unknown}${path}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, error: `checkout ${unknown} not found`, code: 'NOT_FOUND' });
    }
    // the booking id is not a checkout id
    expect((await app.request('POST', `/checkout/${booking.id}/pay`)).status).toBe(404);
    expect((await getBooking(booking.id)).status).toBe('PENDING');
    expect(await eventTypes()).toEqual([]);
  });

  test('a provider that cannot open a checkout -> 502 PAYMENT_PROVIDER_ERROR; the booking is CANCELLED at once and its slot free', async () => {
    let failing: TestApp;
    const down: PaymentProvider = {
      name: 'test',
      holdMinutes: { min: 1, max: 1440 },
      async createCheckout() {
        failing.clock.advance(2000); // the provider took two seconds to fail
        throw new Error('connect ECONNREFUSED');
      },
    };
    failing = await createTestApp(adapter, { payments: down, logger: createLogger('error', (line) => logs.push(JSON.parse(line))) });
    try {
      const { service: haircut } = await catalogue(failing);
      await addWebhook(failing);
      const response = await failing.request('POST', '/api/v1/workspaces/acme/bookings', { key: failing.apiKey, body: bookingBody(haircut, tuesday('10:00')) });
      expect(response.status).toBe(502);
      expect(response.body).toEqual({
        success: false,
        error: 'the payment provider (test) could not open a checkout, so the booking was not kept: try again in a moment',
        code: 'PAYMENT_PROVIDER_ERROR',
      });
      const [stored] = await storedBookings(failing);
      expect(stored).toMatchObject({ status: 'CANCELLED', cancelReason: 'payment checkout could not be created' });
      expect(await paymentsOf(failing, stored!.id)).toEqual([]);
      expect((await outbox(failing)).map((message) => message.eventType)).toEqual(['booking.created', 'booking.cancelled']);
      expect(logs.filter((line) => line.level === 'error')).toEqual([
        expect.objectContaining({
          msg: 'payment checkout could not be created; releasing the booking',
          provider: 'test',
          booking: stored!.id,
          error: 'connect ECONNREFUSED',
        }),
      ]);

      // the slot is free again: with a working provider the same time books
      failing.deps.payments = { ...down, createCheckout: async () => ({ reference: 'chk_ok', url: 'http://localhost:8080/checkout/chk_ok' }) };
      const retried = await failing.request('POST', '/api/v1/workspaces/acme/bookings', { key: failing.apiKey, body: bookingBody(haircut, tuesday('10:00')) });
      expect(retried.status).toBe(200);
      expect(retried.body.checkoutUrl).toBe('http://localhost:8080/checkout/chk_ok');
    } finally {
      await failing.close();
    }
  });
});
