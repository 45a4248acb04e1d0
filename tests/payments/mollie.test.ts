import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createLogger } from '../../src/platform/logger.ts';
import { parseConfig } from '../../src/platform/config.ts';
import type { ServiceRecord, WebhookRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addWebhook, bookingBody, catalogue, outbox, storedBookings, tuesday } from '../bookings/fixtures.ts';
import { mainOf, paymentsOf } from './support.ts';
import { MOLLIE_KEY, mollieWebhook, startMollie, type MollieStandIn } from './mollie-support.ts';

/*
 * SVC_PAYMENTS=mollie against a local stand-in of the Mollie API v2 (tests/payments/mollie-support.ts), configured
 * as an operator would: MOLLIE_API_KEY and MOLLIE_API_URL. A €35.00 service paid in full online.
 */

const MINUTE = 60_000;
const PUBLIC_URL = 'https://svc.example';
const paidInFull = { currency: 'EUR', total: 35, paid: 35, due: 0, status: 'paid', refunded: 0 };

describeEachAdapter('mollie', (adapter) => {
  let mollie: MollieStandIn;
  let app: TestApp;
  let service: ServiceRecord;
  let webhook: WebhookRecord;
  let logs: Record<string, unknown>[];
  let created: any;
  beforeEach(async () => {
    mollie = startMollie();
    logs = [];
    const logger = createLogger('info', (line) => {
      const parsed = JSON.parse(line);
      if (parsed.msg !== 'request') logs.push(parsed);
    });
    app = await createTestApp(adapter, {
      config: { SVC_PAYMENTS: 'mollie', MOLLIE_API_KEY: MOLLIE_KEY, MOLLIE_API_URL: mollie.url, SVC_PUBLIC_URL: PUBLIC_URL },
      logger,
    });
    ({ service } = await catalogue(app, { priceMinor: 3500 }));
    webhook = await addWebhook(app);
    const response = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) });
    expect(response.status).toBe(200);
    created = response.body;
    app.clock.advance(5 * MINUTE);
    await outbox(app);
    logs.length = 0;
  });
  afterEach(async () => {
    await app.close();
    await mollie.stop();
  });

  const getBooking = async () => (await app.request('GET', `/api/v1/workspaces/acme/bookings/${created.booking.id}`, { key: app.apiKey })).body.booking;
  const payment = async () => (await paymentsOf(app, created.booking.id))[0]!;
  const ok = (result: string) => ({ status: 200, body: { success: true, result } });
  const answer = (response: { status: number; body: unknown }) => ({ status: response.status, body: response.body });

  test('a booking opens a Mollie payment: amount "35.00", description, redirect to the return page, webhook, metadata; the customer is sent to its checkout', async () => {
    const [create, update, ...rest] = mollie.requests;
    expect(rest).toEqual([]);
    expect([create!.method, create!.path, create!.headers.authorization]).toEqual(['POST', '/v2/payments', `Bearer ${MOLLIE_KEY}`]);
    expect(create!.headers['idempotency-key']).toBe(`svc-checkout-${created.booking.id}`);
    expect(create!.body).toEqual({
      amount: { currency: 'EUR', value: '35.00' },
      description: expect.stringContaining('Haircut'),
      redirectUrl: `${PUBLIC_URL}/checkout/mollie/done`,
      webhookUrl: `${PUBLIC_URL}/api/payments/mollie/webhook`,
      metadata: { workspace: 'acme', booking: created.booking.id },
    });
    expect(update).toMatchObject({
      method: 'PATCH',
      path: '/v2/payments/tr_svcTest1',
      body: { redirectUrl: `${PUBLIC_URL}/checkout/mollie/done?id=tr_svcTest1` },
    });
    expect(mollie.payments.get('tr_svcTest1')!.redirectUrl).toBe(`${PUBLIC_URL}/checkout/mollie/done?id=tr_svcTest1`);
    expect(created.checkoutUrl).toBe('https://www.mollie.com/checkout/select-method/svcTest1');
    expect(created.booking).toMatchObject({ status: 'PENDING', awaitingPayment: true });
    expect(await payment()).toMatchObject({ provider: 'mollie', reference: 'tr_svcTest1', status: 'pending', amountMinor: 3500, currency: 'EUR' });
    // The page Mollie sends the customer back to, before the webhook arrived: it names the booking and waits.
    const back = await app.request('GET', '/checkout/mollie/done?id=tr_svcTest1');
    expect(back.status).toBe(200);
    expect(mainOf(back.body)).toContain('<h1>Payment processing</h1>');
    expect(mainOf(back.body)).toContain('<dt>Amount</dt><dd>€35.00</dd>');
    expect((await app.request('GET', '/checkout/mollie/done?id=tr_nope')).body).toEqual({
      success: false,
      error: 'checkout tr_nope not found',
      code: 'NOT_FOUND',
    });
  });

  // Paid, and the same callback again: the shared port suite (tests/payments/port.test.ts). Here: what svc asks Mollie.
  test('webhook: svc fetches the payment and believes only Mollie: open is ignored, paid confirms the booking', async () => {
    // Still open at Mollie (the customer is choosing a bank): nothing happens.
    expect(answer(await mollieWebhook(app, 'tr_svcTest1'))).toEqual(ok('ignored'));
    expect((await getBooking()).status).toBe('PENDING');
    mollie.settle('tr_svcTest1', 'paid');
    expect(answer(await mollieWebhook(app, 'tr_svcTest1'))).toEqual(ok('confirmed'));
    expect(mollie.requests.filter((request) => request.method === 'GET').map((request) => request.path)).toEqual([
      '/v2/payments/tr_svcTest1',
      '/v2/payments/tr_svcTest1',
    ]);
    const confirmed = await getBooking();
    expect(confirmed).toMatchObject({ status: 'CONFIRMED', awaitingPayment: false, payment: paidInFull });
    expect(await payment()).toMatchObject({ status: 'paid', refundDue: false, reference: 'tr_svcTest1' });
    const messages = await outbox(app);
    expect(messages.map((message) => [message.webhookId, message.eventType])).toEqual([
      [webhook.id, 'payment.received'],
      [webhook.id, 'booking.confirmed'],
    ]);
    expect(messages[0]!.parsed.data.payment).toEqual({ amount: 35, currency: 'EUR', provider: 'mollie', reference: 'tr_svcTest1' });
    expect(mainOf((await app.request('GET', '/checkout/mollie/done?id=tr_svcTest1')).body)).toContain('<h1>Booking confirmed</h1>');
  });

  for (const [status, outcome, reason] of [
    ['expired', 'expired', 'payment checkout expired'],
    ['canceled', 'expired', null],
    ['failed', 'failed', 'payment failed'],
  ] as const) {
    test(`webhook: ${status} releases the hold (booking CANCELLED, slot free), as Stripe's closed checkouts do`, async () => {
      mollie.settle('tr_svcTest1', status);
      expect(answer(await mollieWebhook(app, 'tr_svcTest1'))).toEqual(ok('closed'));
      expect((await getBooking()).status).toBe('CANCELLED');
      if (reason) expect((await storedBookings(app))[0]!.cancelReason).toBe(reason);
      expect(await payment()).toMatchObject({ status: outcome, refundDue: false });
      expect((await outbox(app)).map((message) => message.eventType)).toEqual(['booking.cancelled']);
      expect(answer(await mollieWebhook(app, 'tr_svcTest1'))).toEqual(ok('unchanged'));
      expect(await outbox(app)).toEqual([]);
      const again = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) });
      expect(again.status).toBe(200);
    });
  }

  test('webhook for an id Mollie does not know, or a payment that is not ours -> 200 and a warn log, nothing changes; no id -> 400', async () => {
    expect(answer(await mollieWebhook(app, 'tr_unknown1'))).toEqual(ok('unknown'));
    // A payment of the same Mollie account that no booking opened.
    const other = await fetch(`${mollie.url}payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MOLLIE_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: { currency: 'EUR', value: '10.00' }, description: 'elsewhere', redirectUrl: 'https://elsewhere.example/' }),
    }).then((response) => response.json());
    mollie.settle(other.id, 'paid');
    expect(answer(await mollieWebhook(app, other.id))).toEqual(ok('unknown'));
    expect(logs.filter((line) => line.level === 'warn').map((line) => line.msg)).toEqual([
      'payment webhook for an unknown payment; acknowledged and ignored',
      'payment webhook for an unknown checkout; acknowledged and ignored',
    ]);
    const missing = await app.request('POST', '/api/payments/mollie/webhook', {
      rawBody: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect((await mollieWebhook(app, '../methods')).status).toBe(400);
    expect((await getBooking()).status).toBe('PENDING');
    expect(await outbox(app)).toEqual([]);
    // Mollie unreachable: 502, nothing changes, and Mollie calls again later.
    await mollie.stop();
    const unreachable = await mollieWebhook(app, 'tr_svcTest1');
    expect(unreachable.status).toBe(502);
    expect(unreachable.body).toMatchObject({ success: false, code: 'PAYMENT_PROVIDER_ERROR' });
    expect((await getBooking()).status).toBe('PENDING');
    // Another provider's webhook does not exist while Mollie is configured.
    expect((await app.request('POST', '/api/payments/stripe/webhook', { rawBody: '{}' })).status).toBe(404);
  });

  test('a refund Mollie refuses -> 502 PAYMENT_PROVIDER_ERROR and the refund is recorded as failed', async () => {
    mollie.settle('tr_svcTest1', 'paid');
    await mollieWebhook(app, 'tr_svcTest1');
    mollie.payments.get('tr_svcTest1')!.amountRefunded = { currency: 'EUR', value: '35.00' };
    const refused = await app.request('POST', `/api/v1/workspaces/acme/bookings/${created.booking.id}/refund`, { key: app.apiKey, body: { amount: 5 } });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ success: false, code: 'PAYMENT_PROVIDER_ERROR' });
    expect((await app.deps.storage.listRefunds(created.booking.id)).map((one) => one.status)).toEqual(['failed']);
  });

  test("a refund goes to Mollie: POST /v2/payments/{id}/refunds with the amount and svc's refund id as idempotency key", async () => {
    mollie.settle('tr_svcTest1', 'paid');
    await mollieWebhook(app, 'tr_svcTest1');
    const refunded = await app.request('POST', `/api/v1/workspaces/acme/bookings/${created.booking.id}/refund`, { key: app.apiKey, body: { amount: 12.5 } });
    expect(refunded.status).toBe(200);
    expect(refunded.body.refund).toEqual({ id: expect.stringMatching(/^rf_/), amount: 12.5, currency: 'EUR', status: 'pending' });
    const sent = mollie.requests.filter((request) => request.path.endsWith('/refunds'));
    expect(sent).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v2/payments/tr_svcTest1/refunds',
        body: { amount: { currency: 'EUR', value: '12.50' }, metadata: { refund: refunded.body.refund.id } },
      }),
    ]);
    expect(sent[0]!.headers['idempotency-key']).toBe(`svc-refund-${refunded.body.refund.id}`);
    expect(mollie.payments.get('tr_svcTest1')!.amountRefunded).toEqual({ currency: 'EUR', value: '12.50' });
    // How it is recorded (with Mollie's re_… id) and listed: the shared port suite (tests/payments/port.test.ts).
  });
});

test('config: SVC_PAYMENTS=mollie needs a Mollie API key, and never echoes it', () => {
  expect(() => parseConfig({ SVC_PAYMENTS: 'mollie' })).toThrow('MOLLIE_API_KEY is required when SVC_PAYMENTS=mollie');
  expect(() => parseConfig({ SVC_PAYMENTS: 'mollie', MOLLIE_API_KEY: 'sk_test_123' })).toThrow('must be a Mollie API key');
  expect(() => parseConfig({ SVC_PAYMENTS: 'mollie', MOLLIE_API_KEY: MOLLIE_KEY, MOLLIE_API_URL: 'ftp://x' })).toThrow('MOLLIE_API_URL');
  expect(parseConfig({ SVC_PAYMENTS: 'mollie', MOLLIE_API_KEY: MOLLIE_KEY })).toMatchObject({ SVC_PAYMENTS: 'mollie', MOLLIE_API_KEY: MOLLIE_KEY });
});
