import { afterEach, beforeEach, expect, test } from 'bun:test';
import type { WorkingHours } from '../../src/core/slot-engine.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addProvider, addService, berlin, bookingBody, catalogue, storedBookings, tuesday } from './fixtures.ts';

const closed = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const unavailable = (message: string) => ({ success: false, error: message, code: 'SLOT_UNAVAILABLE' });

/*
 * The engine's reasons through createBooking (issue 4): each refusal is a 409 SLOT_UNAVAILABLE whose message
 * says why, and leaves the database as it was. Now is Monday 2026-11-23 09:00 Berlin.
 */
describeEachAdapter('createBooking at a time that is not a slot', (adapter) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(adapter);
  });
  afterEach(() => app.close());

  const create = (body: unknown) => app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body });

  test('a slot already taken -> 409 "already taken"', async () => {
    const { service } = await catalogue(app);
    expect((await create(bookingBody(service, tuesday('10:00')))).status).toBe(200);
    const response = await create(bookingBody(service, tuesday('10:00'), { email: 'second@example.com' }));
    expect(response.status).toBe(409);
    expect(response.body).toEqual(
      unavailable('date 2026-11-24T09:00:00.000Z (2026-11-24 10:00 Europe/Berlin) is already taken: Haircut has no free capacity at that time'),
    );
    expect((await storedBookings(app)).map((booking) => booking.customerEmail)).toEqual(['mia@example.com']);
  });

  test('overlapping a booking, or inside its buffer -> 409 "already taken"', async () => {
    const { service } = await catalogue(app, { bufferTime: 15, slotInterval: 15 });
    expect((await create(bookingBody(service, tuesday('10:00')))).status).toBe(200);
    for (const time of ['10:30', '11:00', '09:00']) {
      const response = await create(bookingBody(service, tuesday(time)));
      expect(response.status).toBe(409);
      expect(response.body.error).toEndWith('is already taken: Haircut has no free capacity at that time');
    }
    expect((await create(bookingBody(service, tuesday('11:15')))).status).toBe(200);
  });

  test('outside working hours, on a closed day or off the slot grid -> 409 "outside working hours"', async () => {
    const { service } = await catalogue(app);
    const cases: [string, string][] = [
      [tuesday('18:00'), 'date 2026-11-24T17:00:00.000Z (2026-11-24 18:00 Europe/Berlin)'],
      [tuesday('16:30'), 'date 2026-11-24T15:30:00.000Z (2026-11-24 16:30 Europe/Berlin)'],
      [berlin('2026-11-28', '10:00'), 'date 2026-11-28T09:00:00.000Z (2026-11-28 10:00 Europe/Berlin)'],
      [tuesday('09:30'), 'date 2026-11-24T08:30:00.000Z (2026-11-24 09:30 Europe/Berlin)'],
    ];
    for (const [date, when] of cases) {
      const response = await create(bookingBody(service, date));
      expect(response.status).toBe(409);
      expect(response.body).toEqual(
        unavailable(`${when} is outside working hours or not a start time of Haircut; the availability route lists the bookable times`),
      );
    }
    await expect(storedBookings(app)).resolves.toEqual([]);
  });

  test('a longer duration that runs past the end of the day -> 409 "outside working hours"', async () => {
    const { service } = await catalogue(app);
    const response = await create(bookingBody(service, tuesday('16:00'), { duration: 90 }));
    expect(response.status).toBe(409);
    expect(response.body.error).toContain('is outside working hours');
  });

  test('inside minNotice -> 409 "too soon"', async () => {
    const { service } = await catalogue(app, { minNotice: 120 });
    const response = await create(bookingBody(service, berlin('2026-11-23', '10:00')));
    expect(response.status).toBe(409);
    expect(response.body).toEqual(
      unavailable('date 2026-11-23T09:00:00.000Z (2026-11-23 10:00 Europe/Berlin) is too soon: Haircut must be booked at least 120 minutes in advance'),
    );
    expect((await create(bookingBody(service, berlin('2026-11-23', '11:00')))).status).toBe(200);
  });

  test('beyond maxAdvance -> 409 "too far ahead"', async () => {
    const { service } = await catalogue(app, { maxAdvance: 7 });
    const response = await create(bookingBody(service, berlin('2026-12-01', '10:00')));
    expect(response.status).toBe(409);
    expect(response.body).toEqual(
      unavailable('date 2026-12-01T09:00:00.000Z (2026-12-01 10:00 Europe/Berlin) is too far ahead: Haircut can be booked at most 7 days in advance'),
    );
    expect((await create(bookingBody(service, berlin('2026-11-30', '09:00')))).status).toBe(200);
  });

  test('in the past -> 409 "in the past"', async () => {
    const { service } = await catalogue(app);
    for (const date of [berlin('2026-11-20', '10:00'), '2026-11-23T07:59:00Z']) {
      const response = await create(bookingBody(service, date));
      expect(response.status).toBe(409);
      expect(response.body.error).toEndWith('is in the past');
    }
    expect((await create(bookingBody(service, '2026-11-23T08:00:00Z'))).status).toBe(200);
  });

  test('with several providers, "taken" is the reason when the time is a slot of any of them', async () => {
    const alex = await addProvider(app, { name: 'Alex' });
    const sam = await addProvider(app, { name: 'Sam', hours: { weekly: closed, exceptions: [] } });
    const service = await addService(app, [alex, sam]);
    expect((await create(bookingBody(service, tuesday('10:00')))).status).toBe(200);
    const response = await create(bookingBody(service, tuesday('10:00')));
    expect(response.status).toBe(409);
    expect(response.body.error).toEndWith('is already taken: Haircut has no free capacity at that time');
  });

  test('the skipped hour of the spring-forward day (Berlin 2027-03-28) cannot be booked', async () => {
    const hours: WorkingHours = { weekly: { ...closed, sun: [{ start: '00:00', end: '06:00' }] }, exceptions: [] };
    const { service } = await catalogue(app, {}, { hours });
    // 02:30 as if the clocks had not moved is the instant 03:30 CEST: not a start (03:00 and 04:00 are).
    const skipped = await create(bookingBody(service, '2027-03-28T02:30:00+01:00'));
    expect(skipped.status).toBe(409);
    expect(skipped.body).toEqual(
      unavailable(
        'date 2027-03-28T01:30:00.000Z (2027-03-28 03:30 Europe/Berlin) is outside working hours or not a start time of Haircut; the availability route lists the bookable times',
      ),
    );
    // 02:00 CET does not exist either: it is the instant the clocks show 03:00 CEST, which is a slot.
    const moved = await create(bookingBody(service, '2027-03-28T02:00:00+01:00'));
    expect(moved.status).toBe(200);
    expect(moved.body.booking.startTime).toBe('2027-03-28T01:00:00.000Z');
    const listed = await app.request('GET', `/api/v1/workspaces/acme/availability?serviceId=${service.id}&date=2027-03-28`);
    expect(listed.body.slots).toEqual(['00:00', '01:00', '04:00', '05:00']);
    const stored = await storedBookings(app);
    expect(stored.map((booking) => Temporal.Instant.fromEpochMilliseconds(booking.startTime).toZonedDateTimeISO('Europe/Berlin').hour)).toEqual([3]);
  });
});
