import { afterEach, beforeEach, expect, test } from 'bun:test';
import type { ProviderRecord, ServiceRecord, WebhookRecord } from '../../src/ports/storage/index.ts';
import { expireHolds } from '../../src/scheduler/jobs.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addService, addWebhook, bookingBody, catalogue, expectedBooking, outbox, storedBookings, tuesday } from '../bookings/fixtures.ts';
import { checkoutId, mainOf, paymentsOf } from './support.ts';
import { sha256Hex } from '../../src/core/secrets.ts';
import { openCheckoutUrl } from '../../src/platform/sealed-secrets.ts';

/*
 * SVC_PAYMENTS=test, in-process: a paid booking gets a checkoutUrl to svc's own checkout page, whose Pay confirms
 * it (payment.received, then booking.confirmed) and whose Cancel releases it. TEST_NOW is Monday 2026-11-23
 * 09:00 in Berlin; bookings are on Tuesday.
 */

const MINUTE = 60_000;
const now = Date.parse(TEST_NOW);
/** The `payment` of a €35.50 booking paid in full online, and of one whose checkout closed unpaid. */
const paidInFull = { currency: 'EUR', total: 35.5, paid: 35.5, due: 0, status: 'paid', refunded: 0 };
const unpaid = { currency: 'EUR', total: 35.5, paid: 0, due: 35.5, status: 'none', refunded: 0 };

describeEachAdapter('test checkout: happy path', (adapter) => {
  let app: TestApp;
  let service: ServiceRecord;
  let provider: ProviderRecord;
  let webhook: WebhookRecord;
  beforeEach(async () => {
    app = await createTestApp(adapter, { payments: 'test' });
    ({ service, provider } = await catalogue(app));
    webhook = await addWebhook(app);
    app.workspace = (await app.deps.storage.updateWorkspace(app.workspace.id, { primaryColor: '#0f766e' }, now))!;
  });
  afterEach(() => app.close());

  const book = (time = '10:00', target: ServiceRecord = service) =>
    app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(target, tuesday(time)) });
  const getBooking = async (id: string) => (await app.request('GET', `/api/v1/workspaces/acme/bookings/${id}`, { key: app.apiKey })).body.booking;
  const event = (type: string, timestamp: string, booking: unknown, payment?: unknown) => ({
    type,
    timestamp,
    data: { workspace: 'acme', booking, ...(payment ? { payment } : {}) },
  });

  test('a booking with a sum due starts PENDING with its amount, a hold of SVC_PAYMENT_HOLD_MINUTES and a checkoutUrl; a pending payment is stored', async () => {
    const response = await book();
    expect(response.status).toBe(200);
    const id = response.body.booking.id;
    expect(response.body).toEqual({
      success: true,
      booking: expectedBooking({ id, service, provider, start: tuesday('10:00'), status: 'PENDING', awaitingPayment: true, amount: 35.5 }),
      checkoutUrl: expect.stringMatching(/^http:\/\/localhost:8080\/checkout\/chk_[A-Za-z0-9_-]{32}$/),
      manageUrl: expect.stringMatching(/^http:\/\/localhost:8080\/manage\/[A-Za-z0-9_-]{43}$/),
    });
    const checkout = checkoutId(response.body.checkoutUrl);
    expect((await storedBookings(app))[0]!.holdExpiresAt).toBe(now + 30 * MINUTE);
    const payments = await paymentsOf(app, id);
    expect(payments).toEqual([
      {
        id: expect.stringMatching(/^pay_/),
        workspaceId: app.workspace.id,
        bookingId: id,
        provider: 'test',
        reference: sha256Hex(checkout),
        amountMinor: 3550,
        currency: 'EUR',
        status: 'pending',
        refundDue: false,
        checkoutUrlSealed: expect.stringMatching(/^v1\./),
        createdAt: now,
        updatedAt: now,
      },
    ]);
    // the checkout id pays or cancels the hold: like every capability token it is kept hashed, its address sealed
    expect(JSON.stringify(payments)).not.toContain(checkout);
    expect(await openCheckoutUrl(payments[0]!.checkoutUrlSealed!, app.deps.config.SVC_SECRET!, payments[0]!.id)).toBe(response.body.checkoutUrl);
  });

  test('the checkout id is random: not the booking id, and different for every booking', async () => {
    const first = (await book('10:00')).body;
    const second = (await book('11:00')).body;
    expect(checkoutId(first.checkoutUrl)).not.toContain(first.booking.id.slice(3));
    expect(checkoutId(first.checkoutUrl)).not.toBe(checkoutId(second.checkoutUrl));
  });

  test('the checkout page shows the workspace name and colour, the service, the time in the workspace zone (24h) and the amount, with Pay and Cancel forms', async () => {
    const { checkoutUrl } = (await book()).body;
    const id = checkoutId(checkoutUrl);
    const page = await app.request('GET', `/checkout/${id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-src 'none'; img-src 'self' data: https:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.body).toStartWith('<!doctype html>\n<html lang="en">');
    expect(page.body).toContain('<title>Complete your booking · Acme Studio</title>');
    // the workspace's colour comes from its own stylesheet: nothing inline, no script
    expect(page.body).toContain('<link rel="stylesheet" href="/svc-brand/0f766e.css">');
    expect(page.body).not.toMatch(/<script|<style|style=|src=|url\(/);
    const brand = await app.request('GET', '/svc-brand/0f766e.css');
    expect(brand.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(brand.body).toBe(':root{--brand:#0f766e;--brand-text:#ffffff}\n');
    expect(mainOf(page.body)).toBe(`<header><p>Acme Studio</p></header>
<section>
<h1>Complete your booking</h1>
<p>Pay now to confirm this booking.</p>
<p>Your time is held until 09:30.</p>
<dl>
<dt>Service</dt><dd>Haircut</dd>
<dt>Date</dt><dd>Tuesday, November 24, 2026</dd>
<dt>Time</dt><dd>10:00 (Europe/Berlin)</dd>
<dt>Amount</dt><dd>€35.50</dd>
<dt>Payment</dt><dd>€35.50 now</dd>
</dl>
<form method="post" action="/checkout/${id}/pay"><button type="submit" class="pay">Pay €35.50</button></form>
<form method="post" action="/checkout/${id}/cancel"><button type="submit" class="cancel">Cancel booking</button></form>
<p class="note">Test checkout: no real payment is taken.</p>
</section>`);
  });

  test('the page follows the workspace: 12h clock, JPY without decimals, and every text HTML-escaped', async () => {
    app.workspace = (await app.deps.storage.updateWorkspace(
      app.workspace.id,
      { name: `Tom & Jerry's <Salon>`, timeFormat: '12h', primaryColor: '#AB12cd' },
      now,
    ))!;
    const sushi = await addService(app, [provider], { name: 'Cut "Deluxe" <b>now</b>', priceMinor: 5000, currency: 'JPY' });
    const { checkoutUrl } = (await book('15:00', sushi)).body;
    const page = (await app.request('GET', new URL(checkoutUrl).pathname)).body as string;
    expect(page).toContain('<link rel="stylesheet" href="/svc-brand/AB12cd.css">');
    expect(page).toContain(`<title>Complete your booking · Tom &amp; Jerry&#39;s &lt;Salon&gt;</title>`);
    expect(mainOf(page)).toContain(`<header><p>Tom &amp; Jerry&#39;s &lt;Salon&gt;</p></header>`);
    expect(mainOf(page)).toContain(`<p>Your time is held until 9:30 AM.</p>
<dl>
<dt>Service</dt><dd>Cut &quot;Deluxe&quot; &lt;b&gt;now&lt;/b&gt;</dd>
<dt>Date</dt><dd>Tuesday, November 24, 2026</dd>
<dt>Time</dt><dd>3:00 PM (Europe/Berlin)</dd>
<dt>Amount</dt><dd>¥5,000</dd>
<dt>Payment</dt><dd>¥5,000 now</dd>
</dl>`);
    expect(page).not.toContain('<b>now</b>');
    expect(page).not.toContain('<Salon>');
  });

  test('a German workspace gets its checkout page in German', async () => {
    app.workspace = (await app.deps.storage.updateWorkspace(app.workspace.id, { language: 'de-AT' }, now))!;
    const { checkoutUrl } = (await book()).body;
    const id = checkoutId(checkoutUrl);
    const page = (await app.request('GET', `/checkout/${id}`)).body as string;
    expect(page).toStartWith('<!doctype html>\n<html lang="de-AT">');
    expect(page).toContain('<title>Buchung abschließen · Acme Studio</title>');
    expect(mainOf(page)).toContain(`<h1>Buchung abschließen</h1>
<p>Bezahlen Sie jetzt, um diese Buchung zu bestätigen.</p>`);
    expect(mainOf(page)).toContain('<dt>Leistung</dt><dd>Haircut</dd>');
    expect(mainOf(page)).toContain(`<button type="submit" class="cancel">Buchung stornieren</button>`);
    expect(mainOf(page)).toContain('<p class="note">Testkasse: Es wird kein echtes Geld bewegt.</p>');
  });

  test('Pay confirms the booking and answers 303 to the done page; the outbox gets payment.received then booking.confirmed', async () => {
    const created = (await book()).body;
    const id = checkoutId(created.checkoutUrl);
    app.clock.set('2026-11-23T08:05:00.000Z');
    const paid = await app.request('POST', `/checkout/${id}/pay`, { rawBody: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`/checkout/${id}/done`);
    expect(paid.body).toBe('');

    const confirmed = await getBooking(created.booking.id);
    expect(confirmed).toEqual({ ...created.booking, status: 'CONFIRMED', awaitingPayment: false, payment: paidInFull });
    expect(await paymentsOf(app, created.booking.id)).toEqual([
      expect.objectContaining({ status: 'paid', refundDue: false, updatedAt: Date.parse('2026-11-23T08:05:00.000Z') }),
    ]);

    const messages = await outbox(app);
    expect(messages.map((message) => [message.webhookId, message.eventType])).toEqual([
      [webhook.id, 'booking.created'],
      [webhook.id, 'payment.received'],
      [webhook.id, 'booking.confirmed'],
    ]);
    expect(messages.map((message) => message.parsed)).toEqual([
      event('booking.created', '2026-11-23T08:00:00.000Z', created.booking),
      event('payment.received', '2026-11-23T08:05:00.000Z', confirmed, { amount: 35.5, currency: 'EUR', provider: 'test', reference: sha256Hex(id) }),
      event('booking.confirmed', '2026-11-23T08:05:00.000Z', confirmed),
    ]);

    const done = await app.request('GET', `/checkout/${id}/done`);
    expect(done.status).toBe(200);
    expect(mainOf(done.body)).toBe(`<header><p>Acme Studio</p></header>
<section>
<h1>Booking confirmed</h1>
<p>Thank you: your payment was received and your booking is confirmed.</p>
<dl>
<dt>Service</dt><dd>Haircut</dd>
<dt>Date</dt><dd>Tuesday, November 24, 2026</dd>
<dt>Time</dt><dd>10:00 (Europe/Berlin)</dd>
<dt>Amount</dt><dd>€35.50</dd>
<dt>Payment</dt><dd>€35.50 paid</dd>
</dl>
<p class="actions"><a class="button" href="${created.manageUrl}">Manage booking</a><a class="button secondary" href="${created.manageUrl}/booking.ics" download>Add to calendar (.ics)</a></p>
<p class="note">Test checkout: no real payment is taken.</p>
<p class="back"><a href="http://localhost:8080/book/acme">Back to Acme Studio</a></p>
</section>`);
  });

  test('an unpaid hold may be released on its manage link even inside cancellationHours; once paid, the window applies again', async () => {
    app.workspace = (await app.deps.storage.updateWorkspace(app.workspace.id, { cancellationHours: 48 }, now))!;
    const created = (await book()).body;
    const token = created.manageUrl.split('/manage/')[1];
    const released = await app.request('POST', `/api/manage/${token}/cancel`, { body: {} });
    expect({ status: released.status, booking: released.body.booking?.status }).toEqual({ status: 200, booking: 'CANCELLED' });

    const paid = (await book('11:00')).body;
    await app.request('POST', `/checkout/${checkoutId(paid.checkoutUrl)}/pay`);
    const late = await app.request('POST', `/api/manage/${paid.manageUrl.split('/manage/')[1]}/cancel`, { body: {} });
    expect({ status: late.status, code: late.body.code }).toEqual({ status: 409, code: 'TOO_LATE_TO_CHANGE' });
  });

  test('Cancel cancels the booking, frees its slot and answers 303 to the cancelled page; the outbox gets booking.cancelled', async () => {
    const created = (await book()).body;
    const id = checkoutId(created.checkoutUrl);
    app.clock.set('2026-11-23T08:02:00.000Z');
    const cancelled = await app.request('POST', `/checkout/${id}/cancel`);
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe(`/checkout/${id}/cancelled`);

    const booking = await getBooking(created.booking.id);
    expect(booking).toEqual({ ...created.booking, status: 'CANCELLED', awaitingPayment: false, cancelReason: 'payment checkout cancelled', payment: unpaid });
    expect((await storedBookings(app))[0]!.cancelReason).toBe('payment checkout cancelled');
    expect(await paymentsOf(app, created.booking.id)).toEqual([expect.objectContaining({ status: 'expired', refundDue: false })]);
    expect((await outbox(app)).map((message) => message.parsed)).toEqual([
      event('booking.created', '2026-11-23T08:00:00.000Z', created.booking),
      event('booking.cancelled', '2026-11-23T08:02:00.000Z', booking),
    ]);

    const again = await book();
    expect(again.status).toBe(200);
    expect(again.body.booking.status).toBe('PENDING');

    const page = await app.request('GET', `/checkout/${id}/cancelled`);
    expect(page.status).toBe(200);
    expect(mainOf(page.body)).toContain('<h1>Booking cancelled</h1>\n<p>This booking was cancelled and its time released. Nothing was charged.</p>');
    expect(page.body).not.toContain('<form');
  });

  test('the deposit, when the service has one, is the sum due and the amount paid', async () => {
    const colour = await addService(app, [provider], { name: 'Colour & cut', priceMinor: 8900, depositMinor: 2000 });
    const created = (await book('13:00', colour)).body;
    expect(created.booking.amount).toBe(20);
    const id = checkoutId(created.checkoutUrl);
    expect(mainOf((await app.request('GET', `/checkout/${id}`)).body)).toContain('<dt>Amount</dt><dd>€20.00</dd>');
    await app.request('POST', `/checkout/${id}/pay`);
    const received = (await outbox(app)).find((message) => message.eventType === 'payment.received');
    expect(received?.parsed.data.payment).toEqual({ amount: 20, currency: 'EUR', provider: 'test', reference: sha256Hex(id) });
  });

  test('SVC_PAYMENT_HOLD_MINUTES sets how long the unpaid booking holds its slot', async () => {
    const custom = await createTestApp(adapter, { payments: 'test', config: { SVC_PAYMENT_HOLD_MINUTES: 45 } });
    try {
      const { service: haircut } = await catalogue(custom);
      const response = await custom.request('POST', '/api/v1/workspaces/acme/bookings', { key: custom.apiKey, body: bookingBody(haircut, tuesday('10:00')) });
      expect(response.body.booking.status).toBe('PENDING');
      expect((await storedBookings(custom))[0]!.holdExpiresAt).toBe(now + 45 * MINUTE);
    } finally {
      await custom.close();
    }
  });

  test('a free service needs no checkout: CONFIRMED at once, checkoutUrl null, no payment', async () => {
    const free = await addService(app, [provider], { name: 'Consultation', priceMinor: 0 });
    const response = await book('12:00', free);
    expect(response.body).toEqual({
      success: true,
      booking: expectedBooking({ id: response.body.booking.id, service: free, provider, start: tuesday('12:00'), amount: null }),
      checkoutUrl: null,
      manageUrl: expect.stringMatching(/^http:\/\/localhost:8080\/manage\/[A-Za-z0-9_-]{43}$/),
    });
    expect(await paymentsOf(app, response.body.booking.id)).toEqual([]);
  });

  test('an unpaid hold that expires is cancelled by the scheduler (expireHolds), freeing the slot; the page then says cancelled and Pay takes nothing', async () => {
    const created = (await book()).body;
    const id = checkoutId(created.checkoutUrl);
    app.clock.set(now + 30 * MINUTE);
    expect(await expireHolds(app.deps, app.clock.now())).toBe(1);
    expect(await getBooking(created.booking.id)).toEqual({
      ...created.booking,
      status: 'CANCELLED',
      awaitingPayment: false,
      cancelReason: 'payment hold expired',
      payment: unpaid,
    });
    expect((await book()).status).toBe(200);

    expect(mainOf((await app.request('GET', `/checkout/${id}`)).body)).toContain('<h1>Booking cancelled</h1>');
    const pay = await app.request('POST', `/checkout/${id}/pay`);
    expect(pay.status).toBe(303);
    expect(pay.headers.get('location')).toBe(`/checkout/${id}/cancelled`);
    expect(await paymentsOf(app, created.booking.id)).toEqual([expect.objectContaining({ status: 'expired', refundDue: false })]);
  });
});

describeEachAdapter('test checkout: SVC_PAYMENTS=none', (adapter) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(adapter);
  });
  afterEach(() => app.close());

  test('without a payment provider a paid service books CONFIRMED with checkoutUrl null and no payment', async () => {
    const { service, provider } = await catalogue(app);
    const response = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) });
    expect(response.body).toEqual({
      success: true,
      booking: expectedBooking({ id: response.body.booking.id, service, provider, start: tuesday('10:00') }),
      checkoutUrl: null,
      manageUrl: expect.stringMatching(/^http:\/\/localhost:8080\/manage\/[A-Za-z0-9_-]{43}$/),
    });
    expect((await storedBookings(app))[0]!.holdExpiresAt).toBeNull();
    expect(await paymentsOf(app, response.body.booking.id)).toEqual([]);
  });

  test('without a payment provider the checkout and webhook routes are 404 NOT_FOUND', async () => {
    expect((await app.request('GET', '/checkout/chk_anything')).body).toEqual({ success: false, error: 'route not found', code: 'NOT_FOUND' });
    expect((await app.request('POST', '/checkout/chk_anything/pay')).status).toBe(404);
    const webhook = await app.request('POST', '/api/payments/stripe/webhook', { rawBody: '{}', headers: { 'stripe-signature': 't=1,v1=00' } });
    expect(webhook.status).toBe(404);
    expect(webhook.body).toEqual({ success: false, error: 'payment webhook for stripe not found', code: 'NOT_FOUND' });
  });
});
