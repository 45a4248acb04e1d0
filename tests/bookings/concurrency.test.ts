import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addProvider, addService, bookingBody, catalogue, storedBookings, tuesday } from './fixtures.ts';

const RACERS = 50;

/*
 * The capacity invariant under concurrent requests (docs/contract/lifecycle.md): the check and the insert happen in
 * one reservation, so racing requests for one slot never overbook it.
 */
describeEachAdapter('concurrent createBooking', (adapter) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(adapter);
  });
  afterEach(() => app.close());

  /** Sends `RACERS` bookings for the same time at once; returns the statuses and the bodies of the refusals. */
  async function race(body: (index: number) => unknown) {
    const responses = await Promise.all(
      Array.from({ length: RACERS }, (_, index) => app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: body(index) })),
    );
    const ok = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status !== 200);
    return { ok, refused };
  }

  const slotTaken = {
    success: false,
    error: 'date 2026-11-24T09:00:00.000Z (2026-11-24 10:00 Europe/Berlin) is already taken: Haircut has no free capacity at that time',
    code: 'SLOT_UNAVAILABLE',
  };

  test('50 requests for one capacity-1 slot -> exactly one 200 and 49 409 SLOT_UNAVAILABLE; one booking stored', async () => {
    const { service } = await catalogue(app);
    const { ok, refused } = await race((index) => bookingBody(service, tuesday('10:00'), { email: `racer${index}@example.com` }));
    expect(ok.length).toBe(1);
    expect(refused.length).toBe(RACERS - 1);
    for (const response of refused) {
      expect(response.status).toBe(409);
      expect(response.body).toEqual(slotTaken);
    }
    const stored = await storedBookings(app);
    expect(stored.map((booking) => [booking.id, booking.customerEmail])).toEqual([[ok[0]!.body.booking.id, ok[0]!.body.booking.customerEmail]]);
  });

  test('50 requests for one capacity-5 slot -> exactly five bookings', async () => {
    const { service } = await catalogue(app, { capacity: 5 });
    const { ok, refused } = await race((index) => bookingBody(service, tuesday('10:00'), { email: `racer${index}@example.com` }));
    expect(ok.length).toBe(5);
    expect(refused.every((response) => response.status === 409 && response.body.code === 'SLOT_UNAVAILABLE')).toBe(true);
    const stored = await storedBookings(app);
    expect(stored.length).toBe(5);
    expect(new Set(stored.map((booking) => booking.id))).toEqual(new Set(ok.map((response) => response.body.booking.id)));
  });

  test('50 requests without providerId for a slot two providers offer -> exactly two, one per provider', async () => {
    const alex = await addProvider(app, { name: 'Alex' });
    const sam = await addProvider(app, { name: 'Sam' });
    const service = await addService(app, [alex, sam]);
    const { ok, refused } = await race((index) => bookingBody(service, tuesday('10:00'), { email: `racer${index}@example.com` }));
    expect(ok.length).toBe(2);
    expect(refused.every((response) => response.status === 409 && response.body.code === 'SLOT_UNAVAILABLE')).toBe(true);
    const stored = await storedBookings(app);
    expect(stored.map((booking) => booking.providerId).sort()).toEqual([alex.id, sam.id].sort());
  });

  test('racing reschedules and bookings for one slot never overbook it', async () => {
    const { service } = await catalogue(app);
    const movers = [];
    for (const time of ['09:00', '11:00', '12:00', '13:00', '14:00']) {
      const made = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday(time)) });
      movers.push(made.body.booking.id as string);
    }
    const responses = await Promise.all([
      ...movers.map((id) => app.request('POST', `/api/v1/workspaces/acme/bookings/${id}/reschedule`, { key: app.apiKey, body: { date: tuesday('10:00') } })),
      ...Array.from({ length: 10 }, (_, index) =>
        app.request('POST', '/api/v1/workspaces/acme/bookings', {
          key: app.apiKey,
          body: bookingBody(service, tuesday('10:00'), { email: `r${index}@example.com` }),
        }),
      ),
    ]);
    expect(responses.filter((response) => response.status === 200).length).toBe(1);
    const atTen = (await storedBookings(app)).filter((booking) => booking.startTime === Date.parse(tuesday('10:00')) && booking.status !== 'CANCELLED');
    expect(atTen.length).toBe(1);
  });
});
