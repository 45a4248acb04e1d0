import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addProvider, addService, berlin, catalogue, setWorkspace, tuesday } from '../bookings/fixtures.ts';
import type { WorkingHours } from '../../src/core/slot-engine.ts';
import { Value } from '@sinclair/typebox/value';
import { AvailabilityResponse, AvailableDaysResponse } from '../../src/features/scheduling/availability-routes.ts';

const closed = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const hours = (weekly: Partial<WorkingHours['weekly']>, exceptions: WorkingHours['exceptions'] = []): WorkingHours => ({
  weekly: { ...closed, ...weekly },
  exceptions,
});
const WORKDAY = ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00'];

describeEachAdapter('availability', (adapter) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(adapter);
  });
  afterEach(() => app.close());

  const slots = (query: string) => app.request('GET', `/api/v1/workspaces/acme/availability?${query}`);
  const days = (query: string) => app.request('GET', `/api/v1/workspaces/acme/availability/days?${query}`);
  const book = async (serviceId: string, date: string, extra: Record<string, unknown> = {}) => {
    const response = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
      key: app.apiKey,
      body: { serviceId, email: 'a@example.com', date, ...extra },
    });
    expect(response.status).toBe(200);
    return response.body.booking;
  };

  test('slots of a working day are the service starts 09:00-16:00 in the workspace zone, without a key', async () => {
    const { service } = await catalogue(app);
    const response = await slots(`serviceId=${service.id}&date=2026-11-24`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, slots: WORKDAY, timezone: 'Europe/Berlin' });
  });

  test('slots are the union over the providers offering the service, ascending and unique', async () => {
    const alex = await addProvider(app, { name: 'Alex' });
    const sam = await addProvider(app, { name: 'Sam', hours: hours({ tue: [{ start: '07:00', end: '10:00' }] }) });
    const service = await addService(app, [alex, sam]);
    await book(service.id, tuesday('09:00'), { providerId: alex.id });
    await book(service.id, tuesday('10:00'), { providerId: alex.id });
    const response = await slots(`serviceId=${service.id}&date=2026-11-24`);
    // 09:00 stays (Sam is free), 10:00 goes (Alex is booked, Sam does not work then).
    expect(response.body).toEqual({
      success: true,
      slots: ['07:00', '08:00', '09:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00'],
      timezone: 'Europe/Berlin',
    });
  });

  test('providerId narrows the slots to that provider', async () => {
    const alex = await addProvider(app, { name: 'Alex' });
    const sam = await addProvider(app, { name: 'Sam', hours: hours({ tue: [{ start: '07:00', end: '10:00' }] }) });
    const service = await addService(app, [alex, sam]);
    const response = await slots(`serviceId=${service.id}&date=2026-11-24&providerId=${sam.id}`);
    expect(response.body).toEqual({ success: true, slots: ['07:00', '08:00', '09:00'], timezone: 'Europe/Berlin' });
  });

  test('inactive providers offer no slots', async () => {
    const alex = await addProvider(app, { name: 'Alex', active: false });
    const sam = await addProvider(app, { name: 'Sam', hours: hours({ tue: [{ start: '07:00', end: '09:00' }] }) });
    const service = await addService(app, [alex, sam]);
    const response = await slots(`serviceId=${service.id}&date=2026-11-24`);
    expect(response.body).toEqual({ success: true, slots: ['07:00', '08:00'], timezone: 'Europe/Berlin' });
  });

  test('a slot of a capacity-2 service stays listed until two bookings hold it', async () => {
    const { service } = await catalogue(app, { capacity: 2 });
    await book(service.id, tuesday('10:00'));
    expect((await slots(`serviceId=${service.id}&date=2026-11-24`)).body.slots).toEqual(WORKDAY);
    await book(service.id, tuesday('10:00'));
    expect((await slots(`serviceId=${service.id}&date=2026-11-24`)).body.slots).toEqual(WORKDAY.filter((slot) => slot !== '10:00'));
  });

  test('a cancelled booking frees its slot', async () => {
    const { service } = await catalogue(app);
    const booking = await book(service.id, tuesday('10:00'));
    await app.request('POST', `/api/v1/workspaces/acme/bookings/${booking.id}/cancel`, { key: app.apiKey });
    expect((await slots(`serviceId=${service.id}&date=2026-11-24`)).body.slots).toEqual(WORKDAY);
  });

  test('the buffer keeps the time around a booking free', async () => {
    const { service } = await catalogue(app, { bufferTime: 30 });
    await book(service.id, tuesday('12:00'));
    const response = await slots(`serviceId=${service.id}&date=2026-11-24`);
    expect(response.body).toEqual({ success: true, slots: ['09:00', '10:00', '14:00', '15:00', '16:00'], timezone: 'Europe/Berlin' });
  });

  test('duration lengthens the booking on the service grid: the last start still ends by 17:00', async () => {
    const { service } = await catalogue(app);
    const response = await slots(`serviceId=${service.id}&date=2026-11-24&duration=90`);
    expect(response.body).toEqual({ success: true, slots: WORKDAY.slice(0, 7), timezone: 'Europe/Berlin' });
  });

  test('slotInterval sets the grid of starts', async () => {
    const { service } = await catalogue(app, { duration: 60, slotInterval: 30 });
    const response = await slots(`serviceId=${service.id}&date=2026-11-24`);
    expect(response.body.slots).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '12:00',
      '12:30',
      '13:00',
      '13:30',
      '14:00',
      '14:30',
      '15:00',
      '15:30',
      '16:00',
    ]);
  });

  test('today lists only starts at or after now plus minNotice', async () => {
    const { service } = await catalogue(app, { minNotice: 90 });
    // now is Monday 09:00 Berlin: 10:30 is the earliest start, so the first slot is 11:00.
    const response = await slots(`serviceId=${service.id}&date=2026-11-23`);
    expect(response.body).toEqual({ success: true, slots: ['11:00', '12:00', '13:00', '14:00', '15:00', '16:00'], timezone: 'Europe/Berlin' });
    app.clock.set(berlin('2026-11-23', '12:30'));
    expect((await slots(`serviceId=${service.id}&date=2026-11-23`)).body.slots).toEqual(['14:00', '15:00', '16:00']);
  });

  test('a day in the past, a weekend day and a closed exception day have no slots', async () => {
    const { service } = await catalogue(app);
    await setWorkspace(app, { hours: { ...app.workspace.hours, exceptions: [{ date: '2026-12-24', intervals: [] }] } });
    for (const date of ['2026-11-20', '2026-11-28', '2026-12-24']) {
      expect((await slots(`serviceId=${service.id}&date=${date}`)).body).toEqual({ success: true, slots: [], timezone: 'Europe/Berlin' });
    }
  });

  test('a provider with its own hours works them instead of the workspace hours', async () => {
    const { service } = await catalogue(app, {}, { hours: hours({ sat: [{ start: '10:00', end: '12:00' }] }) });
    expect((await slots(`serviceId=${service.id}&date=2026-11-28`)).body.slots).toEqual(['10:00', '11:00']);
    expect((await slots(`serviceId=${service.id}&date=2026-11-24`)).body.slots).toEqual([]);
  });

  test('an answer is written as built, to its schema, and repeated from the cache as first written', async () => {
    // availability-routes.ts writes each cached answer once and without the framework's response check
    const { service } = await catalogue(app);
    const first = await slots(`serviceId=${service.id}&date=2026-11-24`);
    const again = await slots(`serviceId=${service.id}&date=2026-11-24`);
    expect(again.body).toEqual(first.body);
    expect(first.headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(Value.Check(AvailabilityResponse, first.body)).toBe(true);
    const range = await days(`serviceId=${service.id}&from=2026-11-21&to=2026-12-01`);
    expect(range.headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(Value.Check(AvailableDaysResponse, range.body)).toBe(true);
  });

  test('a change of the workspace zone shows in the next answer, though the last one was kept', async () => {
    const { service } = await catalogue(app);
    expect((await slots(`serviceId=${service.id}&date=2026-11-24`)).body.timezone).toBe('Europe/Berlin');
    await setWorkspace(app, { timezone: 'America/New_York' });
    expect((await slots(`serviceId=${service.id}&date=2026-11-24`)).body).toEqual({ success: true, slots: WORKDAY, timezone: 'America/New_York' });
  });

  test('the timezone is the workspace zone', async () => {
    await setWorkspace(app, { timezone: 'America/New_York' });
    const { service } = await catalogue(app);
    const response = await slots(`serviceId=${service.id}&date=2026-11-24`);
    expect(response.body).toEqual({ success: true, slots: WORKDAY, timezone: 'America/New_York' });
  });

  test('days lists the working days with a free slot, ascending', async () => {
    const { service } = await catalogue(app);
    const response = await days(`serviceId=${service.id}&from=2026-11-21&to=2026-12-01`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      days: ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-30', '2026-12-01'],
      timezone: 'Europe/Berlin',
    });
  });

  test('days leaves out a fully booked day and the days beyond maxAdvance', async () => {
    const { service } = await catalogue(app, { duration: 480, maxAdvance: 3 });
    await book(service.id, tuesday('09:00'));
    const response = await days(`serviceId=${service.id}&from=2026-11-23&to=2026-11-27`);
    // maxAdvance 3 days from Monday 09:00 reaches Thursday 09:00; Tuesday's only slot is taken.
    expect(response.body).toEqual({ success: true, days: ['2026-11-23', '2026-11-25', '2026-11-26'], timezone: 'Europe/Berlin' });
  });

  test('days takes a range of exactly 62 days', async () => {
    const { service } = await catalogue(app, {}, { hours: hours({ sun: [{ start: '10:00', end: '11:00' }] }) });
    const response = await days(`serviceId=${service.id}&from=2026-12-01&to=2027-01-31`);
    expect(response.body.days).toEqual([
      '2026-12-06',
      '2026-12-13',
      '2026-12-20',
      '2026-12-27',
      '2027-01-03',
      '2027-01-10',
      '2027-01-17',
      '2027-01-24',
      '2027-01-31',
    ]);
  });

  test('on the spring-forward day (Berlin 2027-03-28) the skipped hour has no slots', async () => {
    const { service } = await catalogue(app, {}, { hours: hours({ sun: [{ start: '00:00', end: '06:00' }] }) });
    const response = await slots(`serviceId=${service.id}&date=2027-03-28`);
    expect(response.body).toEqual({ success: true, slots: ['00:00', '01:00', '03:00', '04:00', '05:00'], timezone: 'Europe/Berlin' });
  });

  test('on the fall-back day (Berlin 2027-10-31) the repeated hour is one slot', async () => {
    const { service } = await catalogue(app, {}, { hours: hours({ sun: [{ start: '00:00', end: '06:00' }] }) });
    const response = await slots(`serviceId=${service.id}&date=2027-10-31`);
    expect(response.body).toEqual({ success: true, slots: ['00:00', '01:00', '02:00', '03:00', '04:00', '05:00'], timezone: 'Europe/Berlin' });
  });

  test('days across the DST change lists the DST Sunday', async () => {
    const { service } = await catalogue(
      app,
      {},
      {
        hours: hours({
          sun: [
            { start: '02:00', end: '03:00' },
            { start: '09:00', end: '10:00' },
          ],
        }),
      },
    );
    const response = await days(`serviceId=${service.id}&from=2027-03-21&to=2027-04-04`);
    expect(response.body).toEqual({ success: true, days: ['2027-03-21', '2027-03-28', '2027-04-04'], timezone: 'Europe/Berlin' });
    expect((await slots(`serviceId=${service.id}&date=2027-03-28`)).body.slots).toEqual(['09:00']);
  });
});
