import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addProvider, addService, berlin, bookingBody, catalogue, expectedBooking, outbox, addWebhook, storedBookings, tuesday } from './fixtures.ts';

/*
 * Weekly series through createBooking (docs/contract/series.md): all occurrences or none, conflicts listed,
 * seriesId everywhere, cancelling from a date. TEST_NOW is Monday 2026-11-23 09:00 Berlin; hours Mon–Fri 09–17.
 */

const weekly = (count: number, interval = 1) => ({ frequency: 'weekly', interval, count });

describeEachAdapter('series', (adapter) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(adapter);
  });
  afterEach(() => app.close());

  const create = (body: unknown) => app.request('POST', '/api/v1/workspaces/acme/bookings', { body, key: app.apiKey });
  const cancel = (seriesId: string, body?: unknown) => app.request('POST', `/api/v1/workspaces/acme/series/${seriesId}/cancel`, { body, key: app.apiKey });

  test('repeat -> 200: the first occurrence plus the series, every occurrence stored with its seriesId, webhooks carry it', async () => {
    const { service, provider } = await catalogue(app);
    await addWebhook(app);
    const response = await create(bookingBody(service, tuesday('10:00'), { repeat: weekly(4, 2) }));
    expect(response.status).toBe(200);
    const { series } = response.body;
    expect(series.id).toMatch(/^ser_[0-9a-z]{26}$/);
    const days = ['2026-11-24', '2026-12-08', '2026-12-22', '2027-01-05'];
    expect(series.bookings).toEqual(
      days.map((day, index) => expectedBooking({ id: series.bookings[index].id, service, provider, start: berlin(day, '10:00'), seriesId: series.id })),
    );
    expect(response.body.booking).toEqual(series.bookings[0]);
    expect(new Set(series.bookings.map((b: { id: string }) => b.id)).size).toBe(4);
    const stored = await storedBookings(app);
    expect(stored.map((b) => [b.seriesId, new Date(b.startTime).toISOString()])).toEqual(days.map((day) => [series.id, berlin(day, '10:00')]));
    // every occurrence has its own manage link
    expect(new Set(stored.map((b) => b.manageTokenHash)).size).toBe(4);
    const created = (await outbox(app)).filter((message) => message.eventType === 'booking.created');
    expect(created.map((message) => message.parsed.data.booking.seriesId)).toEqual([series.id, series.id, series.id, series.id]);
    // a booking on its own says seriesId null
    const single = await create(bookingBody(service, tuesday('14:00')));
    expect(single.body.booking.seriesId).toBeNull();
    expect(single.body.series).toBeUndefined();
  });

  test('occurrences keep the local time across the DST change (until instead of count)', async () => {
    const { service } = await catalogue(app);
    const response = await create(bookingBody(service, '2027-03-23T10:00:00+01:00', { repeat: { frequency: 'weekly', interval: 1, until: '2027-04-06' } }));
    expect(response.status).toBe(200);
    expect(response.body.series.bookings.map((b: { startTime: string }) => b.startTime)).toEqual([
      '2027-03-23T09:00:00.000Z',
      '2027-03-30T08:00:00.000Z',
      '2027-04-06T08:00:00.000Z',
    ]);
  });

  test('an occurrence not bookable -> 409 SLOT_UNAVAILABLE listing every conflicting start, and nothing written', async () => {
    const { service } = await catalogue(app, { maxAdvance: 30 });
    const taken = await create(bookingBody(service, berlin('2026-12-01', '10:00')));
    expect(taken.status).toBe(200);
    const response = await create(bookingBody(service, tuesday('10:00'), { repeat: weekly(7) }));
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      success: false,
      code: 'SLOT_UNAVAILABLE',
      error: expect.stringContaining('3 of the 7 occurrences cannot be booked, so none was'),
      // Dec 1 is taken; Dec 29 and Jan 5 are beyond maxAdvance (30 days)
      conflicts: [berlin('2026-12-01', '10:00'), berlin('2026-12-29', '10:00'), berlin('2027-01-05', '10:00')],
    });
    expect((await storedBookings(app)).map((b) => b.id)).toEqual([taken.body.booking.id]);
  });

  test('bad repeats -> 400 VALIDATION_ERROR naming the field', async () => {
    const { service } = await catalogue(app);
    const both = await create(bookingBody(service, tuesday('10:00'), { repeat: { frequency: 'weekly', interval: 1, count: 3, until: '2027-01-01' } }));
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR', details: [{ path: '/repeat' }] });
    for (const repeat of [
      weekly(53),
      weekly(1),
      weekly(3, 5),
      { frequency: 'daily', interval: 1, count: 3 },
      { frequency: 'weekly', interval: 1, until: '2027-13-01' },
    ]) {
      const response = await create(bookingBody(service, tuesday('10:00'), { repeat }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
    const tooFew = await create(bookingBody(service, tuesday('10:00'), { repeat: { frequency: 'weekly', interval: 1, until: '2026-11-25' } }));
    expect(tooFew.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: '/repeat/until' }] });
    expect(await storedBookings(app)).toEqual([]);
  });

  test('cancelSeries from a date cancels the later occurrences not yet started; the others stay', async () => {
    const { service } = await catalogue(app);
    const created = await create(bookingBody(service, tuesday('10:00'), { repeat: weekly(4) }));
    const seriesId = created.body.series.id;
    const response = await cancel(seriesId, { from: berlin('2026-12-08', '00:00'), reason: 'moving away' });
    expect(response.status).toBe(200);
    expect(response.body.series.bookings.map((b: { status: string; cancelReason: string | null }) => [b.status, b.cancelReason])).toEqual([
      ['CONFIRMED', null],
      ['CONFIRMED', null],
      ['CANCELLED', 'moving away'],
      ['CANCELLED', 'moving away'],
    ]);
    // without `from`: every one not yet started
    const rest = await cancel(seriesId);
    expect(rest.body.series.bookings.map((b: { status: string }) => b.status)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED', 'CANCELLED']);
    expect((await cancel('ser_unknown')).status).toBe(404);
    expect((await cancel(seriesId, { from: 'tomorrow' })).status).toBe(400);
  });

  test('rescheduling one occurrence leaves the others where they are', async () => {
    const { service } = await catalogue(app);
    const created = await create(bookingBody(service, tuesday('10:00'), { repeat: weekly(3) }));
    const [, second] = created.body.series.bookings;
    const moved = await app.request('POST', `/api/v1/workspaces/acme/bookings/${second.id}/reschedule`, {
      body: { date: berlin('2026-12-02', '11:00') },
      key: app.apiKey,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.booking.seriesId).toBe(created.body.series.id);
    expect((await storedBookings(app)).map((b) => new Date(b.startTime).toISOString())).toEqual([
      tuesday('10:00'),
      berlin('2026-12-02', '11:00'),
      berlin('2026-12-08', '10:00'),
    ]);
  });

  describe('fair assignment without providerId', () => {
    test('the free provider with the fewest bookings that day gets it; a tie goes to the one whose last booking is oldest', async () => {
      const alex = await addProvider(app, { name: 'Alex' });
      const sam = await addProvider(app, { name: 'Sam' });
      const service = await addService(app, [alex, sam]);
      const book = async (at: string, providerId?: string) => {
        const response = await create(bookingBody(service, at, providerId ? { providerId } : {}));
        expect(response.status).toBe(200);
        return response.body.booking.providerId as string;
      };
      // Alex has one booking on Tuesday: Sam gets the next one that day.
      await book(tuesday('09:00'), alex.id);
      app.clock.advance(60_000);
      expect(await book(tuesday('11:00'))).toBe(sam.id);
      // One each on Tuesday now; Alex's last booking was made before Sam's: Alex gets the tie.
      app.clock.advance(60_000);
      expect(await book(tuesday('13:00'))).toBe(alex.id);
      // Wednesday: nobody booked that day; Sam's last booking is now the older one.
      app.clock.advance(60_000);
      expect(await book(berlin('2026-11-25', '10:00'))).toBe(sam.id);
    });
  });
});
