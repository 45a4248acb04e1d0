import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createApp } from '../../src/app.ts';
import type { BookingStatus } from '../../src/core/lifecycle.ts';
import type { Storage } from '../../src/ports/storage/index.ts';
import { send, createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { bookingBody, catalogue, setWorkspace, storedBookings, tuesday } from './fixtures.ts';

/**
 * Storage whose first transitionBooking is preceded by another writer moving the booking to `status`:
 * the route's compare-and-set then misses, as when two requests race.
 */
function racedBy(storage: Storage, status: BookingStatus): Storage {
  let armed = true;
  return new Proxy(storage, {
    get(target, property, receiver) {
      if (property === 'transitionBooking') {
        return async (...args: Parameters<Storage['transitionBooking']>) => {
          if (armed) {
            armed = false;
            const [workspaceId, id, transition] = args;
            await target.transitionBooking(workspaceId, id, { from: ['PENDING', 'CONFIRMED'], to: status, at: transition.at, emit: () => [] });
          }
          return target.transitionBooking(...args);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describeEachAdapter('lifecycle moves racing another writer', (adapter) => {
  let app: TestApp;
  let bookingId: string;
  beforeEach(async () => {
    app = await createTestApp(adapter);
    await setWorkspace(app, { requiresConfirmation: true });
    const { service } = await catalogue(app);
    const created = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) });
    bookingId = created.body.booking.id;
  });
  afterEach(() => app.close());

  const raced = (status: BookingStatus) => createApp({ ...app.deps, storage: racedBy(app.deps.storage, status) });

  test('confirm losing to a concurrent cancel -> re-read, 409 INVALID_TRANSITION; the booking stays CANCELLED', async () => {
    const response = await send(raced('CANCELLED'), 'POST', `/api/v1/workspaces/acme/bookings/${bookingId}/confirm`, { key: app.apiKey });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, error: 'a CANCELLED booking cannot be confirmed', code: 'INVALID_TRANSITION' });
    expect((await storedBookings(app)).map((booking) => booking.status)).toEqual(['CANCELLED']);
  });

  test('cancel racing a concurrent confirm -> re-read; cancelling the CONFIRMED booking is still allowed', async () => {
    const response = await send(raced('CONFIRMED'), 'POST', `/api/v1/workspaces/acme/bookings/${bookingId}/cancel`, {
      key: app.apiKey,
      body: { reason: 'late' },
    });
    expect(response.status).toBe(200);
    expect(response.body.booking.status).toBe('CANCELLED');
    const [stored] = await storedBookings(app);
    expect([stored!.status, stored!.cancelReason]).toEqual(['CANCELLED', 'late']);
  });
});
