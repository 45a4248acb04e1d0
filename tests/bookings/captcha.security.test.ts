import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'bun:test';
import type { Server } from 'bun';
import type { ServiceRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { bookingBody, catalogue, setWorkspace, storedBookings, tuesday } from './fixtures.ts';

const SECRET = 'captcha-secret';
const GOOD_TOKEN = 'good-token';
/** The page each good token was solved on, as siteverify reports it (example.com when not listed). */
const HOSTNAMES: Record<string, string> = { 'good-token-elsewhere': 'attacker.example', 'good-token-sub': 'shop.example.com', 'good-token-svc': 'localhost' };

/** A siteverify stand-in on 127.0.0.1: `{ success: true }` for GOOD_TOKEN with the right secret; records every form. */
let verifier: Server<undefined>;
const received: Record<string, string>[] = [];
beforeAll(() => {
  verifier = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const contentType = request.headers.get('content-type') ?? '';
      const form = Object.fromEntries(new URLSearchParams(await request.text()));
      received.push({ ...form, contentType, method: request.method });
      return Response.json({
        success: form.secret === SECRET && (form.response ?? '').startsWith(GOOD_TOKEN),
        hostname: HOSTNAMES[form.response ?? ''] ?? 'example.com',
      });
    },
  });
});
afterAll(() => verifier.stop(true));

describeEachAdapter('createBooking captcha', (adapter) => {
  let app: TestApp;
  let service: ServiceRecord;
  beforeEach(async () => {
    received.length = 0;
    app = await createTestApp(adapter, { config: { SVC_CAPTCHA_SECRET: SECRET, SVC_CAPTCHA_VERIFY_URL: `http://127.0.0.1:${verifier.port}/siteverify` } });
    ({ service } = await catalogue(app));
    await setWorkspace(app, { domains: ['example.com'] });
  });
  afterEach(() => app.close());

  const keyless = (extra: Record<string, unknown>) =>
    app.request('POST', '/api/v1/workspaces/acme/bookings', {
      headers: { origin: 'https://example.com' },
      body: bookingBody(service, tuesday('10:00'), extra),
    });

  test('keyless without a recaptchaToken -> 400 CAPTCHA_FAILED, nothing booked', async () => {
    const response = await keyless({});
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'recaptchaToken is required: solve the captcha of the booking form and send its token',
      code: 'CAPTCHA_FAILED',
    });
    expect(received).toEqual([]);
    expect(await storedBookings(app)).toEqual([]);
  });

  test('keyless with a token that does not verify -> 400 CAPTCHA_FAILED, nothing booked', async () => {
    const response = await keyless({ recaptchaToken: 'bad-token' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'recaptchaToken did not verify: solve the captcha again and send the new token',
      code: 'CAPTCHA_FAILED',
    });
    expect(received).toEqual([{ secret: SECRET, response: 'bad-token', contentType: 'application/x-www-form-urlencoded', method: 'POST' }]);
    expect(await storedBookings(app)).toEqual([]);
  });

  test('keyless with a token that verifies -> 200; the secret and token were posted form-encoded', async () => {
    const response = await keyless({ recaptchaToken: GOOD_TOKEN });
    expect(response.status).toBe(200);
    expect(received).toEqual([{ secret: SECRET, response: GOOD_TOKEN, contentType: 'application/x-www-form-urlencoded', method: 'POST' }]);
    expect((await storedBookings(app)).length).toBe(1);
  });

  test('a token solved on a site the workspace does not allow -> 400 CAPTCHA_FAILED, nothing booked', async () => {
    for (const token of ['good-token-elsewhere', 'good-token-sub']) {
      const response = await keyless({ recaptchaToken: token });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: 'recaptchaToken was solved on a site this workspace does not allow bookings from',
        code: 'CAPTCHA_FAILED',
      });
    }
    expect(await storedBookings(app)).toEqual([]);
    await setWorkspace(app, { domains: ['example.com', '*.example.com'] });
    expect((await keyless({ recaptchaToken: 'good-token-sub' })).status).toBe(200);
  });

  test("a token solved on svc's own booking page verifies", async () => {
    const response = await keyless({ recaptchaToken: 'good-token-svc' });
    expect(response.status).toBe(200);
  });

  test('an unreachable verifier fails closed -> 400 CAPTCHA_FAILED', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
    const port = closed.port;
    await closed.stop(true);
    await app.close();
    app = await createTestApp(adapter, { config: { SVC_CAPTCHA_SECRET: SECRET, SVC_CAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/siteverify` } });
    ({ service } = await catalogue(app));
    await setWorkspace(app, { domains: ['example.com'] });
    const response = await keyless({ recaptchaToken: GOOD_TOKEN });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: 'recaptchaToken could not be verified right now; try again', code: 'CAPTCHA_FAILED' });
    expect(await storedBookings(app)).toEqual([]);
  });

  test('keyed requests skip the captcha', async () => {
    const response = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) });
    expect(response.status).toBe(200);
    expect(received).toEqual([]);
  });
});
