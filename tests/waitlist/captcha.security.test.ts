import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'bun:test';
import type { Server } from 'bun';
import type { ServiceRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addProvider, addService, bookingBody, setWorkspace, tuesday } from '../bookings/fixtures.ts';

/*
 * A keyless join of a waiting list proves it is a person exactly as a keyless createBooking does
 * (docs/contract/classes.md §2, src/features/bookings/captcha.ts): with SVC_CAPTCHA_SECRET set, no token or a
 * token that does not verify is 400 CAPTCHA_FAILED and nobody is put on the list; a good token joins; a key needs none.
 */
const SECRET = 'captcha-secret';
const GOOD_TOKEN = 'good-token';

/** A siteverify stand-in: `{ success: true, hostname: shop.example.com }` for GOOD_TOKEN with the right secret. */
let verifier: Server<undefined>;
const received: Record<string, string>[] = [];
beforeAll(() => {
  verifier = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const form = Object.fromEntries(new URLSearchParams(await request.text()));
      received.push(form);
      return Response.json({ success: form.secret === SECRET && form.response === GOOD_TOKEN, hostname: 'shop.example.com' });
    },
  });
});
afterAll(() => verifier.stop(true));

describeEachAdapter('joining a waiting list keyless needs the captcha', (adapter) => {
  let app: TestApp;
  let yoga: ServiceRecord;
  const TEN = tuesday('10:00');

  beforeEach(async () => {
    received.length = 0;
    app = await createTestApp(adapter, { config: { SVC_CAPTCHA_SECRET: SECRET, SVC_CAPTCHA_VERIFY_URL: `http://127.0.0.1:${verifier.port}/siteverify` } });
    const anna = await addProvider(app, { name: 'Anna' });
    yoga = await addService(app, [anna], { name: 'Yoga', capacity: 1, duration: 60, priceMinor: 0, waitlist: true });
    await setWorkspace(app, { domains: ['shop.example.com'] });
    // the class is full (a keyed booking needs no captcha)
    expect((await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(yoga, TEN) })).status).toBe(200);
    received.length = 0;
  });
  afterEach(() => app.close());

  const join = (extra: Record<string, unknown>, headers: Record<string, string> = { origin: 'https://shop.example.com' }) =>
    app.request('POST', '/api/v1/workspaces/acme/waitlist', { headers, body: { serviceId: yoga.id, date: TEN, email: 'wanda@example.com', ...extra } });
  const entries = () => app.deps.storage.listWaitlistEntries(app.workspace.id, { limit: 100 });

  test('without a recaptchaToken: 400 CAPTCHA_FAILED, the same body as createBooking; nobody joins', async () => {
    const response = await join({});
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'recaptchaToken is required: solve the captcha of the booking form and send its token',
      code: 'CAPTCHA_FAILED',
    });
    const booking = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
      headers: { origin: 'https://shop.example.com' },
      body: bookingBody(yoga, tuesday('11:00')),
    });
    expect(booking.body).toEqual(response.body);
    expect(received).toEqual([]);
    expect(await entries()).toEqual([]);
  });

  test('with a token that does not verify: 400 CAPTCHA_FAILED; nobody joins', async () => {
    const response = await join({ recaptchaToken: 'bad-token' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'recaptchaToken did not verify: solve the captcha again and send the new token',
      code: 'CAPTCHA_FAILED',
    });
    expect(received).toEqual([{ secret: SECRET, response: 'bad-token' }]);
    expect(await entries()).toEqual([]);
  });

  test('with a token that verifies: 200 WAITING; the token was checked once', async () => {
    const response = await join({ recaptchaToken: GOOD_TOKEN, name: 'Wanda' });
    expect(response.status).toBe(200);
    expect(response.body.entry).toMatchObject({ status: 'WAITING', customerEmail: 'wanda@example.com', customerName: 'Wanda' });
    expect(received).toEqual([{ secret: SECRET, response: GOOD_TOKEN }]);
    expect((await entries()).map((entry) => entry.customerEmail)).toEqual(['wanda@example.com']);
  });

  test('with the API key: no captcha asked', async () => {
    const response = await join({}, { 'x-svc-api-key': app.apiKey });
    expect(response.status).toBe(200);
    expect(received).toEqual([]);
  });
});
