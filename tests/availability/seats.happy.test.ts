import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ProviderRecord, ServiceRecord } from '../../src/ports/storage/index.ts';
import { Value } from '@sinclair/typebox/value';
import { AvailabilityResponse, AvailableDaysResponse } from '../../src/features/scheduling/availability-routes.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addProvider, addService, bookingBody, tuesday } from '../bookings/fixtures.ts';

/*
 * Places left (docs/contract/classes.md §1): a class (capacity above 1) answers `seatsLeft` beside its slots, per
 * time and per day; a service with a waiting list also lists its full times, with 0; a capacity-1 service without
 * one answers no seatsLeft at all.
 */
describeEachAdapter('availability seatsLeft', (adapter) => {
  let app: TestApp;
  let yoga: ServiceRecord;
  let spin: ServiceRecord;
  let haircut: ServiceRecord;
  let anna: ProviderRecord;
  let ben: ProviderRecord;
  beforeAll(async () => {
    app = await createTestApp(adapter);
    anna = await addProvider(app, { name: 'Anna' });
    ben = await addProvider(app, { name: 'Ben' });
    // Yoga: 3 places with Anna only; Spin: 2 places each with Anna's colleague Ben and with a waiting list.
    yoga = await addService(app, [anna], { name: 'Yoga', capacity: 3, duration: 60 });
    spin = await addService(app, [ben], { name: 'Spin', capacity: 2, duration: 60, waitlist: true });
    haircut = await addService(app, [anna], { name: 'Haircut', capacity: 1, duration: 60 });
    const book = async (service: ServiceRecord, time: string, email: string) => {
      const response = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday(time), { email }) });
      expect(response.status).toBe(200);
    };
    await book(yoga, '10:00', 'a@example.com');
    await book(yoga, '10:00', 'b@example.com');
    await book(spin, '11:00', 'c@example.com');
    await book(spin, '11:00', 'd@example.com');
  });
  afterAll(() => app.close());

  const get = (path: string) => app.request('GET', `/api/v1/workspaces/acme/${path}`);

  test('a class lists the places left at each time, a partly taken one included', async () => {
    const response = await get(`availability?serviceId=${yoga.id}&date=2026-11-24`);
    expect(response.status).toBe(200);
    expect(response.body.slots).toContain('10:00');
    expect(response.body.seatsLeft['10:00']).toBe(1);
    expect(response.body.seatsLeft['09:00']).toBe(3);
    expect(Object.keys(response.body.seatsLeft)).toEqual(response.body.slots);
    expect(Value.Check(AvailabilityResponse, response.body)).toBe(true);
  });

  test('a class without a waiting list hides a full time; with one it lists it with 0 places', async () => {
    await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(yoga, tuesday('10:00'), { email: 'e@example.com' }) });
    const full = await get(`availability?serviceId=${yoga.id}&date=2026-11-24`);
    expect(full.body.slots).not.toContain('10:00');
    expect(full.body.seatsLeft['10:00']).toBeUndefined();

    const waiting = await get(`availability?serviceId=${spin.id}&date=2026-11-24`);
    expect(waiting.body.slots).not.toContain('11:00');
    expect(waiting.body.seatsLeft['11:00']).toBe(0);
    expect(waiting.body.seatsLeft['12:00']).toBe(2);
  });

  test('availability/days carries the seats of each day', async () => {
    const response = await get(`availability/days?serviceId=${spin.id}&from=2026-11-23&to=2026-11-25`);
    expect(response.status).toBe(200);
    expect(response.body.days).toEqual(['2026-11-23', '2026-11-24', '2026-11-25']);
    expect(response.body.seatsLeft['2026-11-24']['11:00']).toBe(0);
    expect(response.body.seatsLeft['2026-11-24']['16:00']).toBe(2);
    expect(response.body.seatsLeft['2026-11-23']['10:00']).toBe(2);
    expect(Value.Check(AvailableDaysResponse, response.body)).toBe(true);
  });

  test('a one-person service answers no seatsLeft', async () => {
    const one = await get(`availability?serviceId=${haircut.id}&date=2026-11-24`);
    expect(one.body.seatsLeft).toBeUndefined();
    const days = await get(`availability/days?serviceId=${haircut.id}&from=2026-11-24&to=2026-11-24`);
    expect(days.body.seatsLeft).toBeUndefined();
  });

  describe('per provider', () => {
    test('providerId narrows the seats to that provider', async () => {
      const response = await get(`availability?serviceId=${spin.id}&date=2026-11-24&providerId=${ben.id}`);
      expect(response.body.seatsLeft['12:00']).toBe(2);
    });
  });
});
