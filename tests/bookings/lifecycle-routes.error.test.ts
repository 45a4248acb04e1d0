import { afterEach, beforeEach, expect, test } from 'bun:test';
import type { BookingRecord, ServiceRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { bookingBody, catalogue, setWorkspace, storedBookings, tuesday } from './fixtures.ts';

const invalidTransition = (message: string) => ({ success: false, error: message, code: 'INVALID_TRANSITION' });

describeEachAdapter('booking lifecycle route errors', (adapter) => {
  let app: TestApp;
  let service: ServiceRecord;
  beforeEach(async () => {
    app = await createTestApp(adapter);
    ({ service } = await catalogue(app));
  });
  afterEach(() => app.close());

  const create = async (time: string) => {
    const response = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday(time)) });
    expect(response.status).toBe(200);
    return response.body.booking;
  };
  const act = (id: string, action: string, body?: unknown) =>
    app.request('POST', `/api/v1/workspaces/acme/bookings/${id}/${action}`, { key: app.apiKey, body });
  /** Asserts the refusal changed nothing in the database. */
  const unchanged = async (before: BookingRecord[]) => expect(await storedBookings(app)).toEqual(before);

  test('confirm of a CONFIRMED booking -> 409 INVALID_TRANSITION', async () => {
    const booking = await create('10:00');
    const before = await storedBookings(app);
    const response = await act(booking.id, 'confirm');
    expect(response.status).toBe(409);
    expect(response.body).toEqual(invalidTransition('a CONFIRMED booking cannot be confirmed'));
    await unchanged(before);
  });

  test('cancel of a cancelled booking -> 409 INVALID_TRANSITION', async () => {
    const booking = await create('10:00');
    await act(booking.id, 'cancel', { reason: 'first' });
    const before = await storedBookings(app);
    const response = await act(booking.id, 'cancel', { reason: 'second' });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(invalidTransition('a CANCELLED booking cannot be cancelled'));
    await unchanged(before);
  });

  test('complete before the start -> 409 INVALID_TRANSITION saying when it starts', async () => {
    const booking = await create('10:00');
    app.clock.set('2026-11-24T08:59:59.999Z');
    const before = await storedBookings(app);
    const response = await act(booking.id, 'complete');
    expect(response.status).toBe(409);
    expect(response.body).toEqual(invalidTransition('a booking that has not started yet cannot be completed (it starts at 2026-11-24T09:00:00.000Z)'));
    await unchanged(before);
  });

  test('complete of a PENDING booking -> 409 INVALID_TRANSITION', async () => {
    await setWorkspace(app, { requiresConfirmation: true });
    const booking = await create('10:00');
    app.clock.set(tuesday('11:00'));
    const response = await act(booking.id, 'complete');
    expect(response.status).toBe(409);
    expect(response.body).toEqual(invalidTransition('a PENDING booking cannot be completed'));
  });

  test('a COMPLETED booking never changes again', async () => {
    const booking = await create('10:00');
    app.clock.set(tuesday('11:00'));
    expect((await act(booking.id, 'complete')).status).toBe(200);
    const before = await storedBookings(app);
    for (const [action, body, participle] of [
      ['cancel', undefined, 'cancelled'],
      ['confirm', undefined, 'confirmed'],
      ['reschedule', { date: tuesday('15:00') }, 'rescheduled'],
    ] as const) {
      const response = await act(booking.id, action, body);
      expect(response.status).toBe(409);
      expect(response.body).toEqual(invalidTransition(`a COMPLETED booking cannot be ${participle}`));
    }
    await unchanged(before);
  });

  test('reschedule of a cancelled booking -> 409 INVALID_TRANSITION', async () => {
    const booking = await create('10:00');
    await act(booking.id, 'cancel');
    const before = await storedBookings(app);
    const response = await act(booking.id, 'reschedule', { date: tuesday('12:00') });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(invalidTransition('a CANCELLED booking cannot be rescheduled'));
    await unchanged(before);
  });

  test('reschedule to a taken or closed time -> 409 SLOT_UNAVAILABLE and the booking stays put', async () => {
    const booking = await create('10:00');
    await create('12:00');
    const before = await storedBookings(app);
    const taken = await act(booking.id, 'reschedule', { date: tuesday('12:00') });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({
      success: false,
      error: 'date 2026-11-24T11:00:00.000Z (2026-11-24 12:00 Europe/Berlin) is already taken: Haircut has no free capacity at that time',
      code: 'SLOT_UNAVAILABLE',
    });
    const closed = await act(booking.id, 'reschedule', { date: tuesday('20:00') });
    expect(closed.status).toBe(409);
    expect(closed.body.error).toContain('is outside working hours');
    const past = await act(booking.id, 'reschedule', { date: '2026-11-20T09:00:00Z' });
    expect(past.body).toEqual({
      success: false,
      error: 'date 2026-11-20T09:00:00.000Z (2026-11-20 10:00 Europe/Berlin) is in the past',
      code: 'SLOT_UNAVAILABLE',
    });
    await unchanged(before);
  });

  test('reschedule without a date, or one without an offset -> 400 VALIDATION_ERROR', async () => {
    const booking = await create('10:00');
    const before = await storedBookings(app);
    const missing = await act(booking.id, 'reschedule', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      success: false,
      error: 'date is required',
      code: 'VALIDATION_ERROR',
      details: [{ path: '/date', message: 'date is required' }],
    });
    const local = await act(booking.id, 'reschedule', { date: '2026-11-24T12:00:00' });
    expect(local.status).toBe(400);
    expect(local.body.details).toEqual([{ path: '/date', message: 'date must be a date-time with an offset, such as 2026-12-01T09:00:00Z' }]);
    await unchanged(before);
  });

  test('cancel with a reason that is too long -> 400 naming reason', async () => {
    const booking = await create('10:00');
    const response = await act(booking.id, 'cancel', { reason: 'x'.repeat(1001) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'reason must be at most 1000 characters long',
      code: 'VALIDATION_ERROR',
      details: [{ path: '/reason', message: 'reason must be at most 1000 characters long' }],
    });
    expect((await storedBookings(app))[0]!.status).toBe('CONFIRMED');
  });

  test('an unknown booking -> 404 NOT_FOUND on every lifecycle route', async () => {
    for (const [action, body] of [
      ['confirm', undefined],
      ['cancel', undefined],
      ['complete', undefined],
      ['reschedule', { date: tuesday('12:00') }],
    ] as const) {
      const response = await act('bk_nope', action, body);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, error: 'booking bk_nope not found', code: 'NOT_FOUND' });
    }
  });
});
