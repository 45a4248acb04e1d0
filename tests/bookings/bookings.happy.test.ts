import { afterEach, beforeEach, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { sha256Hex } from '../../src/core/secrets.ts';
import { BookingsResponse } from '../../src/features/bookings/model.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addCustomField, addProvider, addService, bookingBody, catalogue, expectedBooking, setWorkspace, storedBookings, tuesday } from './fixtures.ts';

const MANAGE_URL = /^http:\/\/localhost:8080\/manage\/[A-Za-z0-9_-]{43}$/;

describeEachAdapter('bookings', (adapter) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(adapter);
  });
  afterEach(() => app.close());

  const create = (body: unknown, options: { key?: string; headers?: Record<string, string> } = { key: app.apiKey }) =>
    app.request('POST', '/api/v1/workspaces/acme/bookings', { body, ...options });

  test('createBooking with the API key -> 200, CONFIRMED, amount in major units, checkoutUrl null', async () => {
    const { service, provider } = await catalogue(app);
    const response = await create(bookingBody(service, '2026-11-24T10:00:00+01:00', { phone: '+49 30 1234567', notes: 'first visit' }));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      booking: expectedBooking({ id: response.body.booking.id, service, provider, start: tuesday('10:00'), phone: '+49 30 1234567', notes: 'first visit' }),
      checkoutUrl: null,
      manageUrl: expect.stringMatching(MANAGE_URL),
    });
    expect(response.body.booking.id).toMatch(/^bk_[0-9a-z]{26}$/);
    const [stored, ...others] = await storedBookings(app);
    expect(others).toEqual([]);
    expect(stored).toEqual({
      id: response.body.booking.id,
      workspaceId: app.workspace.id,
      serviceId: service.id,
      providerId: provider.id,
      status: 'CONFIRMED',
      startTime: Date.parse(tuesday('10:00')),
      endTime: Date.parse(tuesday('11:00')),
      bufferTime: 0,
      customerName: 'Mia Schneider',
      customerEmail: 'mia@example.com',
      phone: '+49 30 1234567',
      notes: 'first visit',
      customFields: {},
      amountMinor: 3550,
      currency: 'EUR',
      cancelReason: null,
      holdExpiresAt: null,
      createdAt: app.clock.now(),
      updatedAt: app.clock.now(),
      revision: 0,
      manageTokenHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      manageTokenSealed: expect.stringMatching(/^v1\./),
      seriesId: null,
      priceMinor: 3550,
      paidMinor: 0,
      refundedMinor: 0,
    });
    // the stored hash is the hash of the token in manageUrl, and the sealed token is not the token itself
    const token = response.body.manageUrl.split('/').pop();
    expect(stored!.manageTokenHash).toBe(sha256Hex(token));
    expect(stored!.manageTokenSealed).not.toContain(token);
  });

  test('without a key from a page on an allowed domain -> 200 (exact and wildcard domains)', async () => {
    const { service, provider } = await catalogue(app);
    await setWorkspace(app, { domains: ['example.com', '*.example.org'] });
    const first = await create(bookingBody(service, tuesday('10:00')), { headers: { origin: 'https://example.com' } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      success: true,
      booking: expectedBooking({ id: first.body.booking.id, service, provider, start: tuesday('10:00') }),
      checkoutUrl: null,
      manageUrl: expect.stringMatching(MANAGE_URL),
    });
    const second = await create(bookingBody(service, tuesday('11:00')), { headers: { origin: 'https://shop.example.org' } });
    expect(second.status).toBe(200);
    expect((await storedBookings(app)).length).toBe(2);
  });

  test('a workspace that confirms by hand gets PENDING bookings', async () => {
    await setWorkspace(app, { requiresConfirmation: true });
    const { service, provider } = await catalogue(app);
    const response = await create(bookingBody(service, tuesday('10:00')));
    expect(response.body).toEqual({
      success: true,
      booking: expectedBooking({ id: response.body.booking.id, service, provider, start: tuesday('10:00'), status: 'PENDING' }),
      checkoutUrl: null,
      manageUrl: expect.stringMatching(MANAGE_URL),
    });
  });

  test('amount is the deposit when the service has one, and null for a free service', async () => {
    const alex = await addProvider(app);
    const deposit = await addService(app, [alex], { name: 'Colour', priceMinor: 8900, depositMinor: 2000 });
    const free = await addService(app, [alex], { name: 'Consultation', priceMinor: 0 });
    const withDeposit = await create(bookingBody(deposit, tuesday('10:00')));
    expect(withDeposit.body.booking).toEqual(
      expectedBooking({ id: withDeposit.body.booking.id, service: deposit, provider: alex, start: tuesday('10:00'), amount: 20 }),
    );
    const freeBooking = await create(bookingBody(free, tuesday('12:00')));
    expect(freeBooking.body.booking).toEqual(
      expectedBooking({ id: freeBooking.body.booking.id, service: free, provider: alex, start: tuesday('12:00'), amount: null }),
    );
  });

  test('duration sets the length; name, phone and notes are optional', async () => {
    const { service, provider } = await catalogue(app);
    const response = await create({ serviceId: service.id, email: 'jonas@example.com', date: tuesday('10:00'), duration: 90 });
    expect(response.body.booking).toEqual(
      expectedBooking({
        id: response.body.booking.id,
        service,
        provider,
        start: tuesday('10:00'),
        minutes: 90,
        customerName: null,
        customerEmail: 'jonas@example.com',
      }),
    );
  });

  test('custom fields of the service are stored; unknown keys and fields of other services are dropped', async () => {
    const { service, provider } = await catalogue(app);
    const other = await addService(app, [provider], { name: 'Other' });
    await addCustomField(app, { key: 'allergies', type: 'text', required: true });
    await addCustomField(app, { key: 'guests', type: 'number' });
    await addCustomField(app, { key: 'size', type: 'select', options: ['S', 'M', 'L'] });
    await addCustomField(app, { key: 'terms', type: 'checkbox', required: true });
    await addCustomField(app, { key: 'contact', type: 'email' });
    await addCustomField(app, { key: 'mobile', type: 'phone' });
    await addCustomField(app, { key: 'birthday', type: 'date' });
    await addCustomField(app, { key: 'other_only', type: 'text', required: true, serviceIds: [other.id] });
    const answers = { allergies: 'nuts', guests: 2, size: 'M', terms: true, contact: 'c@example.com', mobile: '+49 (30) 123-45', birthday: '1990-02-28' };
    const response = await create(bookingBody(service, tuesday('10:00'), { customFields: { ...answers, other_only: 'x', unknown: 'ignored' } }));
    expect(response.status).toBe(200);
    expect(response.body.booking).toEqual(expectedBooking({ id: response.body.booking.id, service, provider, start: tuesday('10:00'), customFields: answers }));
    expect((await storedBookings(app))[0]!.customFields).toEqual(answers);
  });

  test('without providerId the least busy provider of the day gets the booking; ties go to the lower id', async () => {
    const [first, second] = [await addProvider(app, { name: 'A' }), await addProvider(app, { name: 'B' })].sort((a, b) => (a.id < b.id ? -1 : 1)) as [any, any];
    const service = await addService(app, [first, second]);
    const tie = await create(bookingBody(service, tuesday('09:00')));
    expect(tie.body.booking.providerId).toBe(first.id);
    const lessBusy = await create(bookingBody(service, tuesday('14:00')));
    expect(lessBusy.body.booking).toEqual(expectedBooking({ id: lessBusy.body.booking.id, service, provider: second, start: tuesday('14:00') }));
  });

  test('without providerId a provider who is taken at that time is skipped', async () => {
    const [first, second] = [await addProvider(app, { name: 'A' }), await addProvider(app, { name: 'B' })].sort((a, b) => (a.id < b.id ? -1 : 1)) as [any, any];
    const service = await addService(app, [first, second]);
    await create(bookingBody(service, tuesday('09:00'), { providerId: second.id }));
    await create(bookingBody(service, tuesday('11:00'), { providerId: second.id }));
    // first is less busy but already holds 10:00.
    await create(bookingBody(service, tuesday('10:00'), { providerId: first.id }));
    const response = await create(bookingBody(service, tuesday('10:00')));
    expect(response.status).toBe(200);
    expect(response.body.booking.providerId).toBe(second.id);
  });

  test('getBooking returns the booking as created', async () => {
    const { service } = await catalogue(app);
    const created = await create(bookingBody(service, tuesday('10:00')));
    const response = await app.request('GET', `/api/v1/workspaces/acme/bookings/${created.body.booking.id}`, { key: app.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, booking: created.body.booking });
  });

  test('listBookings: ordered by startTime then id, default page of 50, nextCursor null on the last page', async () => {
    const { service } = await catalogue(app, { capacity: 3 });
    const late = await create(bookingBody(service, tuesday('15:00')));
    const early = await create(bookingBody(service, tuesday('09:00')));
    const twin = await create(bookingBody(service, tuesday('09:00')));
    const response = await app.request('GET', '/api/v1/workspaces/acme/bookings', { key: app.apiKey });
    expect(response.status).toBe(200);
    const [a, b] = [early.body.booking, twin.body.booking].sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(response.body).toEqual({ success: true, bookings: [a, b, late.body.booking], nextCursor: null });
    // the page is written as built, without the framework's response check: it must match its schema on its own
    expect(Value.Check(BookingsResponse, response.body)).toBe(true);
  });

  test('listBookings pages with the cursor, stable while bookings are added', async () => {
    const { service } = await catalogue(app);
    const times = ['10:00', '11:00', '12:00', '13:00', '14:00'];
    const made = [];
    for (const time of times) made.push((await create(bookingBody(service, tuesday(time)))).body.booking);
    const page = (cursor?: string) =>
      app.request('GET', `/api/v1/workspaces/acme/bookings?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: app.apiKey });
    const first = await page();
    expect(first.body).toEqual({ success: true, bookings: made.slice(0, 2), nextCursor: expect.any(String) });
    // Added meanwhile: one before the cursor (never shown now) and one after it (shown in order).
    await create(bookingBody(service, tuesday('09:00')));
    const added = (await create(bookingBody(service, tuesday('15:00')))).body.booking;
    const second = await page(first.body.nextCursor);
    expect(second.body).toEqual({ success: true, bookings: made.slice(2, 4), nextCursor: expect.any(String) });
    const third = await page(second.body.nextCursor);
    expect(third.body).toEqual({ success: true, bookings: [made[4], added], nextCursor: null });
  });

  test('listBookings filters by status, serviceId and the from/to window of startTime', async () => {
    const alex = await addProvider(app);
    const haircut = await addService(app, [alex], { name: 'Haircut' });
    const colour = await addService(app, [alex], { name: 'Colour' });
    const nine = (await create(bookingBody(haircut, tuesday('09:00')))).body.booking;
    const ten = (await create(bookingBody(colour, tuesday('10:00')))).body.booking;
    const eleven = (await create(bookingBody(haircut, tuesday('11:00')))).body.booking;
    const cancelled = await app.request('POST', `/api/v1/workspaces/acme/bookings/${eleven.id}/cancel`, { key: app.apiKey });
    const list = async (query: string) => (await app.request('GET', `/api/v1/workspaces/acme/bookings?${query}`, { key: app.apiKey })).body;
    expect(await list('status=CANCELLED')).toEqual({ success: true, bookings: [cancelled.body.booking], nextCursor: null });
    expect(await list('status=CONFIRMED')).toEqual({ success: true, bookings: [nine, ten], nextCursor: null });
    expect(await list(`serviceId=${colour.id}`)).toEqual({ success: true, bookings: [ten], nextCursor: null });
    const from = encodeURIComponent('2026-11-24T10:00:00+01:00');
    const to = encodeURIComponent('2026-11-24T11:00:00+01:00');
    expect(await list(`from=${from}&to=${to}`)).toEqual({ success: true, bookings: [ten], nextCursor: null });
    expect(await list(`from=${from}`)).toEqual({ success: true, bookings: [ten, cancelled.body.booking], nextCursor: null });
  });

  test('listBookings filters by providerId on the server: each cursor page holds only that provider, however its bookings are spread', async () => {
    const alex = await addProvider(app, { name: 'Alex Hoffmann' });
    const sam = await addProvider(app, { name: 'Sam Wagner' });
    const haircut = await addService(app, [alex, sam], { name: 'Haircut' });
    // Alex takes the early hours; Sam's bookings all lie after them, beyond a first page of two
    const byAlex = [];
    for (const time of ['09:00', '10:00', '11:00']) byAlex.push((await create(bookingBody(haircut, tuesday(time), { providerId: alex.id }))).body.booking);
    const bySam = [];
    for (const time of ['13:00', '14:00', '15:00']) bySam.push((await create(bookingBody(haircut, tuesday(time), { providerId: sam.id }))).body.booking);
    expect(byAlex.map((booking) => booking.providerId)).toEqual([alex.id, alex.id, alex.id]);
    expect(bySam.map((booking) => booking.providerId)).toEqual([sam.id, sam.id, sam.id]);
    const list = async (query: string) => (await app.request('GET', `/api/v1/workspaces/acme/bookings?${query}`, { key: app.apiKey })).body;
    const first = await list(`providerId=${sam.id}&limit=2`);
    expect(first).toEqual({ success: true, bookings: bySam.slice(0, 2), nextCursor: expect.any(String) });
    expect(await list(`providerId=${sam.id}&limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)).toEqual({
      success: true,
      bookings: bySam.slice(2),
      nextCursor: null,
    });
    expect(await list(`providerId=${alex.id}`)).toEqual({ success: true, bookings: byAlex, nextCursor: null });
    expect(await list(`providerId=${alex.id}&status=CANCELLED`)).toEqual({ success: true, bookings: [], nextCursor: null });
    expect(await list('providerId=prv_unknown')).toEqual({ success: true, bookings: [], nextCursor: null });
  });
});
