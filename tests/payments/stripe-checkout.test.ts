import { afterEach, beforeEach, expect, test } from 'bun:test';
import { openPayments } from '../../adapters/payments/index.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addWebhook, catalogue, outbox, storedBookings, tuesday } from '../bookings/fixtures.ts';
import { paymentsOf, SECRET_KEY, sessionJson, startFakeStripe, stripeError, WEBHOOK_SECRET, type FakeStripe } from './support.ts';

/*
 * SVC_PAYMENTS=stripe, the checkout half: the official SDK against a local fake of the Checkout Sessions API,
 * asserting the exact form parameters it sent.
 */

const MINUTE = 60_000;
const now = Date.parse(TEST_NOW);
const seconds = (ms: number) => String(Math.floor(ms / 1000));

describeEachAdapter('stripe checkout', (adapter) => {
  let stripe: FakeStripe;
  let app: TestApp;
  beforeEach(async () => {
    stripe = startFakeStripe();
  });
  afterEach(async () => {
    await app?.close();
    await stripe.stop();
  });

  const open = async (config: Record<string, unknown> = {}, logger = createLogger('silent')) => {
    app = await createTestApp(adapter, { payments: stripe.provider(), config, logger });
    return app;
  };
  const book = (serviceId: string, time = '10:00') =>
    app.request('POST', '/api/v1/workspaces/acme/bookings', {
      key: app.apiKey,
      body: { serviceId, email: 'mia@example.com', name: 'Mia Schneider', date: tuesday(time) },
    });

  test('createBooking opens a Checkout Session with exactly these parameters and answers its url as checkoutUrl', async () => {
    await open();
    const { service } = await catalogue(app);
    const response = await book(service.id);
    expect(response.status).toBe(200);
    const bookingId = response.body.booking.id;
    expect(response.body.booking.status).toBe('PENDING');
    expect(response.body.booking.amount).toBe(35.5);
    expect(response.body.checkoutUrl).toBe('https://checkout.stripe.com/c/pay/cs_test_1');

    expect(stripe.requests).toHaveLength(1);
    const [sent] = stripe.requests;
    expect(sent!.method).toBe('POST');
    expect(sent!.path).toBe('/v1/checkout/sessions');
    expect(sent!.headers['authorization']).toBe(`Bearer ${SECRET_KEY}`);
    expect(sent!.headers['idempotency-key']).toBe(`svc-checkout-${bookingId}`);
    expect(sent!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent!.form).toEqual([
      ['mode', 'payment'],
      ['line_items[0][quantity]', '1'],
      ['line_items[0][price_data][currency]', 'eur'],
      ['line_items[0][price_data][unit_amount]', '3550'],
      ['line_items[0][price_data][product_data][name]', 'Haircut – Tuesday, November 24, 2026, 10:00 (Europe/Berlin)'],
      ['client_reference_id', bookingId],
      ['metadata[workspace]', 'acme'],
      ['metadata[booking]', bookingId],
      ['customer_email', 'mia@example.com'],
      ['expires_at', seconds(now + 31 * MINUTE)],
      ['success_url', 'http://localhost:8080/checkout/stripe/done?session_id={CHECKOUT_SESSION_ID}'],
      ['cancel_url', 'http://localhost:8080/checkout/stripe/cancelled'],
    ]);

    expect((await storedBookings(app))[0]!.holdExpiresAt).toBe(now + 31 * MINUTE);
    expect(await paymentsOf(app, bookingId)).toEqual([
      {
        id: expect.stringMatching(/^pay_/),
        workspaceId: app.workspace.id,
        bookingId,
        provider: 'stripe',
        reference: 'cs_test_1',
        amountMinor: 3550,
        currency: 'EUR',
        status: 'pending',
        refundDue: false,
        checkoutUrlSealed: expect.stringMatching(/^v1\./),
        createdAt: now,
        updatedAt: now,
      },
    ]);
  });

  for (const [setting, sent] of [
    ['1', true],
    ['0', false],
    [undefined, false],
  ] as const) {
    test(`SVC_STRIPE_PROMOTION_CODES=${setting ?? '(unset)'}: allow_promotion_codes is ${sent ? 'sent as true' : 'not sent'}`, async () => {
      const config = loadConfig({
        SVC_PAYMENTS: 'stripe',
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        SVC_PUBLIC_URL: 'http://localhost:8080',
        ...(setting === undefined ? {} : { SVC_STRIPE_PROMOTION_CODES: setting }),
      });
      app = await createTestApp(adapter, { payments: openPayments(config, { stripeApi: { host: '127.0.0.1', port: stripe.port, protocol: 'http' } }) });
      const { service } = await catalogue(app);
      const response = await book(service.id);
      expect(response.status).toBe(200);
      expect(stripe.requests).toHaveLength(1);
      const form = stripe.requests[0]!.form;
      expect(form.filter(([name]) => name === 'allow_promotion_codes')).toEqual(sent ? [['allow_promotion_codes', 'true']] : []);
      // everything else is the checkout as without the setting
      expect(form.filter(([name]) => name !== 'allow_promotion_codes').map(([name]) => name)).toEqual([
        'mode',
        'line_items[0][quantity]',
        'line_items[0][price_data][currency]',
        'line_items[0][price_data][unit_amount]',
        'line_items[0][price_data][product_data][name]',
        'client_reference_id',
        'metadata[workspace]',
        'metadata[booking]',
        'customer_email',
        'expires_at',
        'success_url',
        'cancel_url',
      ]);
    });
  }

  test('prices entered in major units reach Stripe as minor units: 35.50 EUR → 3550, 5000 JPY → 5000, 12.345 KWD → 12345', async () => {
    await open();
    const provider = await app.request('POST', '/api/v1/workspaces/acme/providers', { key: app.apiKey, body: { name: 'Robin' } });
    const cases = [
      { price: 35.5, currency: 'EUR', unitAmount: '3550', stripeCurrency: 'eur', amount: 35.5, time: '10:00' },
      { price: 5000, currency: 'JPY', unitAmount: '5000', stripeCurrency: 'jpy', amount: 5000, time: '12:00' },
      { price: 12.345, currency: 'KWD', unitAmount: '12345', stripeCurrency: 'kwd', amount: 12.345, time: '14:00' },
    ];
    for (const [index, each] of cases.entries()) {
      const service = await app.request('POST', '/api/v1/workspaces/acme/services', {
        key: app.apiKey,
        body: { name: `Session ${each.currency}`, duration: 60, price: each.price, currency: each.currency, providerIds: [provider.body.provider.id] },
      });
      expect(service.status).toBe(200);
      const response = await book(service.body.service.id, each.time);
      expect(response.status).toBe(200);
      expect(response.body.booking.amount).toBe(each.amount);
      const form = Object.fromEntries(stripe.requests[index]!.form);
      expect([form['line_items[0][price_data][currency]'], form['line_items[0][price_data][unit_amount]']]).toEqual([each.stripeCurrency, each.unitAmount]);
      const [payment] = await paymentsOf(app, response.body.booking.id);
      expect([payment!.amountMinor, payment!.currency]).toEqual([Number(each.unitAmount), each.currency]);
    }
  });

  test('a deposit is what Stripe charges when the service has one', async () => {
    await open();
    const { service } = await catalogue(app, { priceMinor: 8900, depositMinor: 2000 });
    const response = await book(service.id);
    expect(response.body.booking.amount).toBe(20);
    expect(Object.fromEntries(stripe.requests[0]!.form)['line_items[0][price_data][unit_amount]']).toBe('2000');
  });

  for (const [configured, held] of [
    [30, 31],
    [45, 45],
    [1440, 1439],
  ] as const) {
    test(`SVC_PAYMENT_HOLD_MINUTES=${configured} holds ${held} minutes with Stripe (expires_at 31 minutes to 23 h 59 ahead) and expires_at is the hold end`, async () => {
      await open({ SVC_PAYMENT_HOLD_MINUTES: configured });
      const { service } = await catalogue(app);
      await book(service.id);
      expect((await storedBookings(app))[0]!.holdExpiresAt).toBe(now + held * MINUTE);
      expect(Object.fromEntries(stripe.requests[0]!.form)['expires_at']).toBe(seconds(now + held * MINUTE));
    });
  }

  test('the success and cancel pages are under SVC_PUBLIC_URL', async () => {
    app = await createTestApp(adapter, { payments: stripe.provider({ publicUrl: 'https://book.example.com' }) });
    const { service } = await catalogue(app);
    await book(service.id);
    const form = Object.fromEntries(stripe.requests[0]!.form);
    expect([form['success_url'], form['cancel_url']]).toEqual([
      'https://book.example.com/checkout/stripe/done?session_id={CHECKOUT_SESSION_ID}',
      'https://book.example.com/checkout/stripe/cancelled',
    ]);
  });

  test('Stripe refusing the session -> 502 PAYMENT_PROVIDER_ERROR; the booking is cancelled, its slot free, and the error logged', async () => {
    const lines: Record<string, unknown>[] = [];
    await open(
      {},
      createLogger('error', (line) => lines.push(JSON.parse(line))),
    );
    const { service } = await catalogue(app);
    await addWebhook(app);
    stripe.reply(() => {
      app.clock.advance(1000);
      return stripeError(400, 'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.');
    });
    const response = await book(service.id);
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      success: false,
      error: 'the payment provider (stripe) could not open a checkout, so the booking was not kept: try again in a moment',
      code: 'PAYMENT_PROVIDER_ERROR',
    });
    const [stored] = await storedBookings(app);
    expect(stored).toMatchObject({ status: 'CANCELLED', cancelReason: 'payment checkout could not be created' });
    expect(await paymentsOf(app, stored!.id)).toEqual([]);
    expect((await outbox(app)).map((message) => message.eventType)).toEqual(['booking.created', 'booking.cancelled']);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: 'payment checkout could not be created; releasing the booking',
        provider: 'stripe',
        error: 'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
      }),
    ]);

    stripe.reply((_request, index) => Response.json(sessionJson(`cs_test_${index + 1}`)));
    const retried = await book(service.id);
    expect(retried.status).toBe(200);
    expect(retried.body.checkoutUrl).toBe('https://checkout.stripe.com/c/pay/cs_test_2');
  });

  // Stripe unreachable: the shared port suite (tests/payments/port.test.ts).
});
