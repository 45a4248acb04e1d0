import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import type { ServiceRecord, WebhookRecord } from '../../src/ports/storage/index.ts';
import type { TestApp, TestResponse } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addWebhook, bookingBody, catalogue, outbox, storedBookings, tuesday } from '../bookings/fixtures.ts';
import { paymentsOf } from './support.ts';
import { PROVIDERS, type ProviderHarness, type ProviderRun } from './port/providers.ts';

/*
 * The payment port (src/ports/payments.ts, docs/contract/payments.md) held to the same guarantees by every
 * provider: the test provider, Stripe against its stand-in, Mollie against its stand-in (tests/payments/port/
 * providers.ts says how each is driven). What only one provider does (Stripe's signatures and form parameters,
 * Mollie's fetch-back and amount strings, the test page's HTML) is in that provider's own test file.
 * A €35.50 haircut paid in full online.
 */

const PRICE = { currency: 'EUR', total: 35.5 };

describeEachAdapter('payment port', (adapter) => {
  for (const harness of PROVIDERS) portSuite(adapter, harness);
});

function portSuite(adapter: Parameters<ProviderHarness['open']>[0], harness: ProviderHarness) {
  describe(harness.name, () => {
    let run: ProviderRun;
    let app: TestApp;
    let service: ServiceRecord;
    let webhook: WebhookRecord;
    beforeEach(async () => {
      run = await harness.open(adapter);
      app = run.app;
      ({ service } = await catalogue(app, { priceMinor: 3550 }));
      webhook = await addWebhook(app);
    });
    afterEach(() => run.close());

    const book = async (time = '10:00', body: Record<string, unknown> = {}) => {
      const created = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
        key: app.apiKey,
        body: { ...bookingBody(service, tuesday(time)), ...body },
      });
      expect(created.status).toBe(200);
      const [payment] = await paymentsOf(app, created.body.booking.id);
      return { ...created.body, reference: payment!.reference } as { booking: any; checkoutUrl: string; manageUrl: string; reference: string };
    };
    const paid = async () => {
      const created = await book();
      const { answer } = await run.pay(created.reference, created.checkoutUrl);
      expectAnswer(answer, run.paidAnswer(created.checkoutUrl));
      return created;
    };
    const getBooking = async (id: string) => (await app.request('GET', `/api/v1/workspaces/acme/bookings/${id}`, { key: app.apiKey })).body.booking;
    const refund = (id: string, body?: unknown) => app.request('POST', `/api/v1/workspaces/acme/bookings/${id}/refund`, { key: app.apiKey, body });

    test('createBooking opens a checkout at the provider for the sum due, in its currency, and answers its URL; the payment is pending under its reference', async () => {
      const created = await book();
      expect(created.booking).toMatchObject({ status: 'PENDING', awaitingPayment: true, amount: 35.5 });
      expect(created.checkoutUrl).toMatch(harness.checkoutUrl);
      expect(created.reference).toMatch(harness.reference);
      expect(await paymentsOf(app, created.booking.id)).toEqual([
        expect.objectContaining({
          provider: harness.name,
          reference: created.reference,
          amountMinor: 3550,
          currency: 'EUR',
          status: 'pending',
          refundDue: false,
        }),
      ]);
      expect(await run.asked(created.reference, created.checkoutUrl)).toEqual({ amountMinor: 3550, currency: 'EUR' });
      // a deposit is the sum the provider is asked for
      const deposit = await app.request('PATCH', `/api/v1/workspaces/acme/services/${service.id}`, { key: app.apiKey, body: { deposit: 10 } });
      expect(deposit.status).toBe(200);
      const second = await book('12:00');
      expect(second.booking.amount).toBe(10);
      expect(second.reference).not.toBe(created.reference);
      expect(await run.asked(second.reference, second.checkoutUrl)).toEqual({ amountMinor: 1000, currency: 'EUR' });
    });

    test('paid, as the provider tells it: CONFIRMED with payment.received then booking.confirmed; the same news again changes nothing', async () => {
      const created = await book();
      await outbox(app);
      app.clock.advance(60_000);
      const { answer, replay } = await run.pay(created.reference, created.checkoutUrl);
      expectAnswer(answer, run.paidAnswer(created.checkoutUrl));
      const confirmed = await getBooking(created.booking.id);
      expect(confirmed).toEqual({
        ...created.booking,
        status: 'CONFIRMED',
        awaitingPayment: false,
        payment: { ...PRICE, paid: 35.5, due: 0, status: 'paid', refunded: 0 },
      });
      const [payment] = await paymentsOf(app, created.booking.id);
      expect(payment).toMatchObject({ status: 'paid', refundDue: false, amountMinor: 3550 });
      const messages = (await outbox(app)).filter((message) => message.webhookId === webhook.id);
      expect(messages.map((message) => message.eventType)).toEqual(['payment.received', 'booking.confirmed']);
      expect(messages[0]!.parsed.data).toEqual({
        workspace: 'acme',
        booking: confirmed,
        payment: { amount: 35.5, currency: 'EUR', provider: harness.name, reference: created.reference },
      });

      app.clock.advance(60_000);
      expectAnswer(await replay(), run.replayAnswer(created.checkoutUrl));
      expect(await getBooking(created.booking.id)).toEqual(confirmed);
      expect(await paymentsOf(app, created.booking.id)).toEqual([payment!]);
      expect(await outbox(app)).toEqual([]);
    });

    test("a partial refund, then the rest: each through the provider, recorded with the provider's refund id and listed; payment.refunded for each; then 409", async () => {
      const { booking } = await paid();
      await outbox(app);
      const first = await refund(booking.id, { amount: 10 });
      expect(first.status).toBe(200);
      expect(first.body.refund).toEqual({ id: expect.stringMatching(/^rf_/), amount: 10, currency: 'EUR', status: harness.refundStatus });
      expect(first.body.booking.payment).toEqual({ ...PRICE, paid: 35.5, due: 0, status: 'partially_refunded', refunded: 10 });
      app.clock.advance(60_000);
      const rest = await refund(booking.id, {});
      expect(rest.status).toBe(200);
      expect(rest.body.refund).toEqual({ id: expect.stringMatching(/^rf_/), amount: 25.5, currency: 'EUR', status: harness.refundStatus });
      expect(rest.body.booking.payment).toEqual({ ...PRICE, paid: 35.5, due: 0, status: 'refunded', refunded: 35.5 });

      const atProvider = await run.refunds(booking.id);
      expect(atProvider.map((one) => one.amountMinor)).toEqual([1000, 2550]);
      for (const one of atProvider) expect(one.reference).toMatch(harness.refundReference);
      const stored = await app.deps.storage.listRefunds(booking.id);
      expect(stored.map((one) => [one.id, one.amountMinor, one.status, one.provider, one.reference])).toEqual([
        [first.body.refund.id, 1000, 'succeeded', harness.name, atProvider[0]!.reference],
        [rest.body.refund.id, 2550, 'succeeded', harness.name, atProvider[1]!.reference],
      ]);
      const listed = await app.request('GET', `/api/v1/workspaces/acme/bookings/${booking.id}/refunds`, { key: app.apiKey });
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({
        success: true,
        refunds: [
          { id: first.body.refund.id, amount: 10, currency: 'EUR', status: 'succeeded', createdAt: '2026-11-23T08:00:00.000Z' },
          { id: rest.body.refund.id, amount: 25.5, currency: 'EUR', status: 'succeeded', createdAt: '2026-11-23T08:01:00.000Z' },
        ],
      });
      const events = (await outbox(app)).filter((message) => message.webhookId === webhook.id);
      expect(events.map((message) => [message.eventType, message.parsed.data.payment.amount, message.parsed.data.payment.provider])).toEqual([
        ['payment.refunded', 10, harness.name],
        ['payment.refunded', 25.5, harness.name],
      ]);
      const nothing = await refund(booking.id);
      expect(nothing.status).toBe(409);
      expect(nothing.body).toMatchObject({ success: false, code: 'NOTHING_TO_REFUND' });
      expect(await run.refunds(booking.id)).toHaveLength(2);
    });

    test('more than is refundable -> 400 VALIDATION_ERROR and the provider is not asked; nothing paid -> 409 NOTHING_TO_REFUND; unknown -> 404; no key -> 401', async () => {
      const { booking } = await paid();
      const tooMuch = await refund(booking.id, { amount: 35.51 });
      expect(tooMuch.status).toBe(400);
      expect(tooMuch.body).toEqual({
        success: false,
        error: 'amount 35.51 is more than can be refunded: 35.5 EUR',
        code: 'VALIDATION_ERROR',
        details: [{ path: '/amount', message: 'at most 35.5' }],
      });
      expect((await refund(booking.id, { amount: 1.005 })).body.code).toBe('VALIDATION_ERROR');
      expect((await refund(booking.id, { amount: 30 })).status).toBe(200);
      // what is left is the bound now
      expect((await refund(booking.id, { amount: 5.51 })).body.code).toBe('VALIDATION_ERROR');
      expect((await run.refunds(booking.id)).map((one) => one.amountMinor)).toEqual([3000]);
      expect((await app.deps.storage.listRefunds(booking.id)).map((one) => one.amountMinor)).toEqual([3000]);
      expect((await getBooking(booking.id)).payment).toMatchObject({ refunded: 30, status: 'partially_refunded' });

      const unpaid = await book('12:00');
      const nothing = await refund(unpaid.booking.id);
      expect(nothing.status).toBe(409);
      expect(nothing.body).toMatchObject({ success: false, code: 'NOTHING_TO_REFUND' });
      expect((await refund('bk_nope')).status).toBe(404);
      expect((await app.request('POST', `/api/v1/workspaces/acme/bookings/${booking.id}/refund`, { body: {} })).status).toBe(401);
      const anonymous = await app.request('GET', `/api/v1/workspaces/acme/bookings/${booking.id}/refunds`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
      const unknown = await app.request('GET', '/api/v1/workspaces/acme/bookings/bk_nope/refunds', { key: app.apiKey });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
      expect(typeof unknown.body.error).toBe('string');
    });

    test('refundOnCancel: a customer who cancels in time on the manage link is refunded what was paid, through the provider', async () => {
      const patched = await app.request('PATCH', '/api/v1/workspaces/acme', { key: app.apiKey, body: { refundOnCancel: true } });
      expect(patched.body.workspace.refundOnCancel).toBe(true);
      const created = await paid();
      const token = created.manageUrl.split('/manage/')[1];
      const cancelled = await app.request('POST', `/api/manage/${token}/cancel`, { body: {} });
      expect(cancelled.status).toBe(200);
      const booking = await getBooking(created.booking.id);
      expect(booking.status).toBe('CANCELLED');
      expect(booking.payment).toEqual({ ...PRICE, paid: 35.5, due: 0, status: 'refunded', refunded: 35.5 });
      expect((await run.refunds(created.booking.id)).map((one) => one.amountMinor)).toEqual([3550]);
    });

    // The test provider runs inside svc: there is nothing to be unreachable, so it has no such case.
    if (harness.name !== 'test')
      test('the provider unreachable: createBooking -> 502 PAYMENT_PROVIDER_ERROR with the booking released; a refund -> 502, nothing refunded, recorded failed', async () => {
        const { booking } = await paid();
        await run.down!();
        const refused = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('12:00')) });
        expect(refused.status).toBe(502);
        expect(refused.body).toEqual({
          success: false,
          error: `the payment provider (${harness.name}) could not open a checkout, so the booking was not kept: try again in a moment`,
          code: 'PAYMENT_PROVIDER_ERROR',
        });
        const released = (await storedBookings(app)).find((one) => one.id !== booking.id);
        expect(released).toMatchObject({ status: 'CANCELLED', cancelReason: 'payment checkout could not be created' });
        expect(await paymentsOf(app, released!.id)).toEqual([]);

        const notRefunded = await refund(booking.id, { amount: 10 });
        expect(notRefunded.status).toBe(502);
        expect(notRefunded.body).toEqual({
          success: false,
          error: `the payment provider (${harness.name}) did not take the refund; nothing was refunded: try again in a moment`,
          code: 'PAYMENT_PROVIDER_ERROR',
        });
        expect((await getBooking(booking.id)).payment).toEqual({ ...PRICE, paid: 35.5, due: 0, status: 'paid', refunded: 0 });
        expect((await app.deps.storage.listRefunds(booking.id)).map((one) => [one.amountMinor, one.status, one.reference])).toEqual([[1000, 'failed', null]]);
      });
  });
}

function expectAnswer(answer: TestResponse, expected: { status: number; body?: unknown; location?: string }) {
  expect(answer.status).toBe(expected.status);
  if (expected.body !== undefined) expect(answer.body).toEqual(expected.body);
  if (expected.location !== undefined) expect(answer.headers.get('location')).toBe(expected.location);
}
