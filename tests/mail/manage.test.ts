import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { catalogue } from '../bookings/fixtures.ts';
import { waitFor } from '../support/wait.ts';

/* The manage link (docs/contract/notifications.md): its JSON routes and its page in every state. */

const DATABASE_TIMEOUT_MS = 30_000;
const HOUR = 3_600_000;

describeEachAdapter('manage link', (adapter) => {
  let app: TestApp;
  let logLines: string[];
  let token: string;
  let bookingId: string;
  beforeEach(async () => {
    logLines = [];
    app = await createTestApp(adapter, { logger: createLogger('debug', (line) => logLines.push(line)) });
    const { service } = await catalogue(app);
    // Wednesday 10:00 Berlin: 49 hours after TEST_NOW, outside the 24-hour window
    const created = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
      key: app.apiKey,
      body: { serviceId: service.id, date: '2026-11-25T09:00:00Z', email: 'mia@example.com', name: 'Mia' },
    });
    expect(created.status).toBe(200);
    bookingId = created.body.booking.id;
    token = created.body.manageUrl.split('/manage/')[1];
  }, DATABASE_TIMEOUT_MS);
  afterEach(() => app.close(), DATABASE_TIMEOUT_MS);

  test(
    'GET /api/manage/{token} -> the booking; the token is 256 random bits, not the id, and never in the log',
    async () => {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(token).not.toContain(bookingId);
      const response = await app.request('GET', `/api/manage/${token}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        booking: expect.objectContaining({ id: bookingId, status: 'CONFIRMED', startTime: '2026-11-25T09:00:00.000Z' }),
      });
      await app.request('GET', `/manage/${token}`);
      // the request log line is written once the response is sent
      await waitFor(() => logLines.filter((line) => line.includes('manage')).length >= 2);
      expect(logLines.join('\n')).not.toContain(token);
      expect(logLines.filter((line) => line.includes('manage')).map((line) => JSON.parse(line).path)).toEqual(['/api/manage/[redacted]', '/manage/[redacted]']);
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'unknown, altered or malformed token -> 404 NOT_FOUND, page 404',
    async () => {
      const altered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
      for (const candidate of [altered, 'x', bookingId]) {
        const response = await app.request('GET', `/api/manage/${candidate}`);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ success: false, error: expect.any(String), code: 'NOT_FOUND' });
        expect((await app.request('POST', `/api/manage/${candidate}/cancel`, { body: {} })).status).toBe(404);
      }
      const page = await app.request('GET', `/manage/${altered}`);
      expect(page.status).toBe(404);
      expect(page.body).toContain('This link does not open a booking');
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'reschedule to a free time, then cancel with a reason; a second cancel -> 409 INVALID_TRANSITION',
    async () => {
      const moved = await app.request('POST', `/api/manage/${token}/reschedule`, { body: { date: '2026-11-25T13:00:00Z' } });
      expect(moved.status).toBe(200);
      expect(moved.body.booking).toMatchObject({ id: bookingId, startTime: '2026-11-25T13:00:00.000Z', status: 'CONFIRMED' });
      const taken = await app.request('POST', `/api/manage/${token}/reschedule`, { body: { date: '2026-11-25T22:00:00Z' } });
      expect(taken.body.code).toBe('SLOT_UNAVAILABLE');
      const cancelled = await app.request('POST', `/api/manage/${token}/cancel`, { body: { reason: 'ill' } });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.booking.status).toBe('CANCELLED');
      expect((await app.deps.storage.getBooking(app.workspace.id, bookingId))!.cancelReason).toBe('ill');
      const again = await app.request('POST', `/api/manage/${token}/cancel`, { body: {} });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('INVALID_TRANSITION');
      const page = await app.request('GET', `/manage/${token}`);
      expect(page.body).toContain('<dd>Cancelled</dd>');
      expect(page.body).not.toContain('<form method="post"');
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'inside cancellationHours -> 409 TOO_LATE_TO_CHANGE and the page explains why, without forms',
    async () => {
      app.clock.set(Date.parse('2026-11-25T09:00:00Z') - 23 * HOUR);
      const cancel = await app.request('POST', `/api/manage/${token}/cancel`, { body: {} });
      expect(cancel.status).toBe(409);
      expect(cancel.body).toEqual({ success: false, error: expect.stringContaining('24 hours before the start'), code: 'TOO_LATE_TO_CHANGE' });
      const move = await app.request('POST', `/api/manage/${token}/reschedule`, { body: { date: '2026-11-27T09:00:00Z' } });
      expect(move.body.code).toBe('TOO_LATE_TO_CHANGE');
      const page = await app.request('GET', `/manage/${token}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain('until 24 hours before the start');
      expect(page.body).not.toContain('<form');
      expect((await app.deps.storage.getBooking(app.workspace.id, bookingId))!.status).toBe('CONFIRMED');
    },
    DATABASE_TIMEOUT_MS,
  );

  test(
    'the page works without JavaScript: free times as form buttons, cancel form; posting redirects back with the outcome',
    async () => {
      const page = await app.request('GET', `/manage/${token}?day=2026-11-26`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(page.body).not.toContain('<script');
      // a time is a GET to its confirmation; only the confirmation posts
      expect(page.body).not.toContain(`action="/manage/${token}/reschedule"`);
      expect(page.body).toContain('<button type="submit" name="move" value="2026-11-26T08:00:00Z">09:00</button>');
      const confirm = await app.request('GET', `/manage/${token}?day=2026-11-26&move=2026-11-26T08:00:00Z`);
      expect(confirm.body).toContain(
        `<form method="post" action="/manage/${token}/reschedule"><input type="hidden" name="date" value="2026-11-26T08:00:00.000Z">`,
      );
      const cancelStep = await app.request('GET', `/manage/${token}?confirm=cancel`);
      expect(cancelStep.body).toContain(`<form method="post" action="/manage/${token}/cancel">`);
      expect(page.body).not.toContain(`action="/manage/${token}/cancel"`);
      const moved = await app.request('POST', `/manage/${token}/reschedule`, {
        rawBody: 'date=2026-11-26T08%3A00%3A00Z',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect({ status: moved.status, body: moved.body }).toEqual({ status: 303, body: '' });
      expect(moved.headers.get('location')).toBe(`/manage/${token}?done=rescheduled`);
      expect((await app.deps.storage.getBooking(app.workspace.id, bookingId))!.startTime).toBe(Date.parse('2026-11-26T08:00:00Z'));
      const cancelled = await app.request('POST', `/manage/${token}/cancel`, {
        rawBody: 'reason=changed+plans',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(cancelled.headers.get('location')).toBe(`/manage/${token}?done=cancelled`);
      expect((await app.request('GET', `/manage/${token}?done=cancelled`)).body).toContain('Your booking is cancelled.');
      const refused = await app.request('POST', `/manage/${token}/cancel`, {
        rawBody: 'reason=',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(refused.status).toBe(303);
      expect(refused.headers.get('location')).toContain('?error=');
    },
    DATABASE_TIMEOUT_MS,
  );
});
