import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { V1, addProvider, addService, bookDirectly } from './catalogue-fixtures.ts';

/** A service as answered with every default: what POST { name, duration, price, currency } creates. */
function defaults(overrides: Record<string, unknown> = {}) {
  return {
    id: expect.stringMatching(/^srv_[0-9a-z]{26}$/),
    name: 'Haircut',
    description: null,
    duration: 30,
    price: 35,
    currency: 'EUR',
    active: true,
    category: null,
    capacity: 1,
    bufferTime: 0,
    minNotice: 0,
    maxAdvance: null,
    deposit: null,
    order: 0,
    providerIds: [],
    slotInterval: null,
    repeatable: false,
    waitlist: false,
    ...overrides,
  };
}

describeEachAdapter('services: happy path', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(() => t.close());

  test('POST with the required fields -> 200 with the defaults', async () => {
    const response = await t.request('POST', `${V1}/acme/services`, { key: t.apiKey, body: { name: 'Haircut', duration: 30, price: 35, currency: 'EUR' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, service: defaults() });
  });

  test('POST with every field -> 200 with all of them; price and deposit keep their decimals', async () => {
    const alex = await addProvider(t, { name: 'Alex' });
    const sam = await addProvider(t, { name: 'Sam' });
    const body = {
      name: 'Colour & cut',
      description: 'Full colour with a cut and blow-dry.',
      duration: 90,
      price: 89.9,
      currency: 'EUR',
      active: true,
      category: 'Hair',
      capacity: 2,
      bufferTime: 15,
      minNotice: 120,
      maxAdvance: 90,
      deposit: 19.99,
      order: 2,
      slotInterval: 15,
      repeatable: true,
      waitlist: true,
      providerIds: [alex.id, sam.id],
    };
    const response = await t.request('POST', `${V1}/acme/services`, { key: t.apiKey, body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, service: { ...body, id: expect.any(String), providerIds: [alex.id, sam.id].sort() } });
    const stored = await t.deps.storage.getService(t.workspace.id, response.body.service.id);
    expect(stored).toMatchObject({ priceMinor: 8990, depositMinor: 1999 });
  });

  test('price follows the decimals of its currency: 1500 JPY, 1.234 KWD, 0 for free', async () => {
    const yen = await addService(t, { price: 1500, currency: 'JPY' });
    const dinar = await addService(t, { price: 1.234, currency: 'KWD' });
    const free = await addService(t, { price: 0 });
    expect([yen.price, yen.currency, dinar.price, dinar.currency, free.price]).toEqual([1500, 'JPY', 1.234, 'KWD', 0]);
    expect((await t.deps.storage.getService(t.workspace.id, dinar.id))?.priceMinor).toBe(1234);
  });

  test('GET by id -> 200 with the service', async () => {
    const service = await addService(t);
    const response = await t.request('GET', `${V1}/acme/services/${service.id}`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, service: defaults({ id: service.id }) });
  });

  test('GET list -> only active services, ordered by order then name', async () => {
    const b = await addService(t, { name: 'B cut', order: 1 });
    const a = await addService(t, { name: 'A cut', order: 1 });
    const first = await addService(t, { name: 'Z first', order: -5 });
    await addService(t, { name: 'Hidden', active: false });
    const response = await t.request('GET', `${V1}/acme/services`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      services: [
        defaults({ id: first.id, name: 'Z first', order: -5 }),
        defaults({ id: a.id, name: 'A cut', order: 1 }),
        defaults({ id: b.id, name: 'B cut', order: 1 }),
      ],
    });
  });

  test('GET list of a workspace without services -> 200 with []', async () => {
    const response = await t.request('GET', `${V1}/acme/services`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, services: [] });
  });

  test('PATCH changes the fields sent and keeps the others', async () => {
    const service = await addService(t, { description: 'Wash and cut', category: 'Hair' });
    const response = await t.request('PATCH', `${V1}/acme/services/${service.id}`, {
      key: t.apiKey,
      body: { name: 'Short cut', duration: 20, bufferTime: 5, maxAdvance: 30, slotInterval: 10, description: null },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      service: defaults({ id: service.id, name: 'Short cut', duration: 20, bufferTime: 5, maxAdvance: 30, slotInterval: 10, category: 'Hair' }),
    });
    expect((await t.request('GET', `${V1}/acme/services/${service.id}`, { key: t.apiKey })).body).toEqual(response.body);
  });

  test('PATCH with an empty body -> 200 and nothing changes, not even updatedAt', async () => {
    const service = await addService(t);
    const before = await t.deps.storage.getService(t.workspace.id, service.id);
    t.clock.advance(60_000);
    const response = await t.request('PATCH', `${V1}/acme/services/${service.id}`, { key: t.apiKey, body: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, service: defaults({ id: service.id }) });
    expect(await t.deps.storage.getService(t.workspace.id, service.id)).toEqual(before);
  });

  test('PATCH currency keeps the decimal price when the new currency allows it (35 EUR -> 35 JPY)', async () => {
    const service = await addService(t, { deposit: 10 });
    const response = await t.request('PATCH', `${V1}/acme/services/${service.id}`, { key: t.apiKey, body: { currency: 'JPY' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, service: defaults({ id: service.id, currency: 'JPY', deposit: 10 }) });
    expect(await t.deps.storage.getService(t.workspace.id, service.id)).toMatchObject({ priceMinor: 35, depositMinor: 10 });
  });

  test('PATCH price, deposit and currency together', async () => {
    const service = await addService(t);
    const response = await t.request('PATCH', `${V1}/acme/services/${service.id}`, { key: t.apiKey, body: { price: 4000, deposit: 1000, currency: 'JPY' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, service: defaults({ id: service.id, price: 4000, deposit: 1000, currency: 'JPY' }) });
  });

  test('PATCH deposit null removes the deposit', async () => {
    const service = await addService(t, { deposit: 5.5 });
    const response = await t.request('PATCH', `${V1}/acme/services/${service.id}`, { key: t.apiKey, body: { deposit: null } });
    expect(response.body).toEqual({ success: true, service: defaults({ id: service.id }) });
  });

  test('PATCH providerIds replaces the list, and each provider lists the service', async () => {
    const alex = await addProvider(t, { name: 'Alex' });
    const sam = await addProvider(t, { name: 'Sam' });
    const service = await addService(t, { providerIds: [alex.id] });
    const response = await t.request('PATCH', `${V1}/acme/services/${service.id}`, { key: t.apiKey, body: { providerIds: [sam.id, sam.id] } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, service: defaults({ id: service.id, providerIds: [sam.id] }) });
    expect((await t.request('GET', `${V1}/acme/providers/${sam.id}`, { key: t.apiKey })).body.provider.serviceIds).toEqual([service.id]);
    expect((await t.request('GET', `${V1}/acme/providers/${alex.id}`, { key: t.apiKey })).body.provider.serviceIds).toEqual([]);
  });

  test('DELETE deactivates: 200 with active false; unlisted, still readable by id, its bookings untouched', async () => {
    const provider = await addProvider(t);
    const service = await addService(t, { providerIds: [provider.id] });
    const booking = await bookDirectly(t, service.id, provider.id);
    const response = await t.request('DELETE', `${V1}/acme/services/${service.id}`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, service: defaults({ id: service.id, active: false, providerIds: [provider.id] }) });
    expect((await t.request('GET', `${V1}/acme/services`, { key: t.apiKey })).body).toEqual({ success: true, services: [] });
    const byId = await t.request('GET', `${V1}/acme/services/${service.id}`, { key: t.apiKey });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({ success: true, service: defaults({ id: service.id, active: false, providerIds: [provider.id] }) });
    expect(await t.deps.storage.getBooking(t.workspace.id, booking.id)).toEqual(booking);
  });

  test('DELETE of an inactive service -> 200, it stays inactive', async () => {
    const service = await addService(t, { active: false });
    const response = await t.request('DELETE', `${V1}/acme/services/${service.id}`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, service: defaults({ id: service.id, active: false }) });
  });

  test('PATCH active true brings a deactivated service back into the list', async () => {
    const service = await addService(t);
    await t.request('DELETE', `${V1}/acme/services/${service.id}`, { key: t.apiKey });
    const response = await t.request('PATCH', `${V1}/acme/services/${service.id}`, { key: t.apiKey, body: { active: true } });
    expect(response.body).toEqual({ success: true, service: defaults({ id: service.id }) });
    expect((await t.request('GET', `${V1}/acme/services`, { key: t.apiKey })).body).toEqual({ success: true, services: [defaults({ id: service.id })] });
  });

  test('POST ignores unknown and internal fields (id, workspaceId, priceMinor)', async () => {
    const response = await t.request('POST', `${V1}/acme/services`, {
      key: t.apiKey,
      body: { name: 'Haircut', duration: 30, price: 35, currency: 'EUR', id: 'srv_mine', workspaceId: 'ws_x', priceMinor: 1, colour: 'red' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, service: defaults() });
    expect(response.body.service.id).not.toBe('srv_mine');
  });

  test('text is stored as given, markup included', async () => {
    const body = { name: '<script>alert("x")</script>', description: '<b>bold</b> & more', category: '<i>Hair</i>' };
    const service = await addService(t, body);
    expect(service).toEqual(defaults(body));
  });
});
