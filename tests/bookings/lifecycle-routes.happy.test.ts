import { afterEach, beforeEach, expect, test } from 'bun:test';
import type { ProviderRecord, ServiceRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { bookingBody, catalogue, expectedBooking, setWorkspace, storedBookings, tuesday } from './fixtures.ts';

describeEachAdapter('booking lifecycle routes', (adapter) => {
  let app: TestApp;
  let service: ServiceRecord;
  let provider: ProviderRecord;
  beforeEach(async () => {
    app = await createTestApp(adapter);
    ({ service, provider } = await catalogue(app));
  });
  afterEach(() => app.close());

  const create = async (time: string) => {
    const response = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday(time)) });
    expect(response.status).toBe(200);
    return response.body.booking;
  };
  const act = (id: string, action: string, body?: unknown) =>
    app.request('POST', `/api/v1/workspaces/acme/bookings/${id}/${action}`, { key: app.apiKey, body });

  test('confirm moves a PENDING booking to CONFIRMED', async () => {
    await setWorkspace(app, { requiresConfirmation: true });
    const booking = await create('10:00');
    const response = await act(booking.id, 'confirm');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, booking: { ...booking, status: 'CONFIRMED' } });
    expect((await storedBookings(app))[0]!.status).toBe('CONFIRMED');
  });

  test('cancel keeps the reason, answers CANCELLED and frees the slot', async () => {
    const booking = await create('10:00');
    const response = await act(booking.id, 'cancel', { reason: 'customer is ill' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, booking: { ...booking, status: 'CANCELLED', cancelReason: 'customer is ill' } });
    const [stored] = await storedBookings(app);
    expect(stored!.status).toBe('CANCELLED');
    expect(stored!.cancelReason).toBe('customer is ill');
    expect((await create('10:00')).status).toBe('CONFIRMED');
  });

  test('cancel without a body, and a PENDING booking can be cancelled too', async () => {
    await setWorkspace(app, { requiresConfirmation: true });
    const booking = await create('10:00');
    const response = await act(booking.id, 'cancel');
    expect(response.status).toBe(200);
    expect(response.body.booking.status).toBe('CANCELLED');
    expect((await storedBookings(app))[0]!.cancelReason).toBeNull();
  });

  test('complete marks a CONFIRMED booking that has started as COMPLETED', async () => {
    const booking = await create('10:00');
    app.clock.set(tuesday('10:00'));
    const response = await act(booking.id, 'complete');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, booking: { ...booking, status: 'COMPLETED' } });
  });

  test('reschedule moves the booking to a free time and keeps its status and length', async () => {
    await setWorkspace(app, { requiresConfirmation: true });
    const booking = await create('10:00');
    const response = await act(booking.id, 'reschedule', { date: '2026-11-25T14:00:00+01:00' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      booking: expectedBooking({ id: booking.id, service, provider, start: '2026-11-25T13:00:00.000Z', status: 'PENDING' }),
    });
    const [stored] = await storedBookings(app);
    expect([stored!.startTime, stored!.endTime, stored!.status]).toEqual([Date.parse('2026-11-25T13:00:00Z'), Date.parse('2026-11-25T14:00:00Z'), 'PENDING']);
    // The old time is free again.
    expect((await create('10:00')).status).toBe('PENDING');
  });

  test("reschedule may overlap the booking's own old time", async () => {
    const { service: long } = await catalogue(app, { name: 'Long', duration: 120, slotInterval: 60 });
    const made = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(long, tuesday('10:00')) });
    const response = await act(made.body.booking.id, 'reschedule', { date: tuesday('11:00') });
    expect(response.status).toBe(200);
    expect(response.body.booking.startTime).toBe('2026-11-24T10:00:00.000Z');
    expect(response.body.booking.endTime).toBe('2026-11-24T12:00:00.000Z');
  });
});
