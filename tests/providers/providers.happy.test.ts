import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { V1, addProvider, addService, bookDirectly } from '../services/catalogue-fixtures.ts';

describeEachAdapter('providers: happy path', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(() => t.close());

  const alex = (overrides: Record<string, unknown> = {}) => ({
    id: expect.stringMatching(/^prv_[0-9a-z]{26}$/),
    name: 'Alex Hoffmann',
    email: null,
    active: true,
    serviceIds: [],
    ...overrides,
  });

  test('POST with a name -> 200 with the defaults (no email, active, no services)', async () => {
    const response = await t.request('POST', `${V1}/acme/providers`, { key: t.apiKey, body: { name: 'Alex Hoffmann' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, provider: alex() });
  });

  test('POST with every field -> 200 with all of them, and the services list the provider', async () => {
    const cut = await addService(t, { name: 'Cut' });
    const colour = await addService(t, { name: 'Colour' });
    const body = { name: 'Meeting room 2', email: 'rooms@acme.example', active: false, serviceIds: [cut.id, colour.id] };
    const response = await t.request('POST', `${V1}/acme/providers`, { key: t.apiKey, body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, provider: { ...body, id: expect.any(String), serviceIds: [cut.id, colour.id].sort() } });
    const service = await t.request('GET', `${V1}/acme/services/${cut.id}`, { key: t.apiKey });
    expect(service.body.service.providerIds).toEqual([response.body.provider.id]);
  });

  test('GET by id -> 200 with the provider', async () => {
    const provider = await addProvider(t, { email: 'alex@acme.example' });
    const response = await t.request('GET', `${V1}/acme/providers/${provider.id}`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, provider: alex({ id: provider.id, email: 'alex@acme.example' }) });
  });

  test('GET list -> every provider, active and inactive, ordered by name', async () => {
    const sam = await addProvider(t, { name: 'Sam Richter' });
    const room = await addProvider(t, { name: 'Alex Hoffmann', active: false });
    const response = await t.request('GET', `${V1}/acme/providers`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      providers: [alex({ id: room.id, active: false }), alex({ id: sam.id, name: 'Sam Richter' })],
    });
  });

  test('GET list of a workspace without providers -> 200 with []', async () => {
    const response = await t.request('GET', `${V1}/acme/providers`, { key: t.apiKey });
    expect(response.body).toEqual({ success: true, providers: [] });
  });

  test('PATCH changes the fields sent and keeps the others; email null clears it', async () => {
    const provider = await addProvider(t, { email: 'alex@acme.example' });
    const renamed = await t.request('PATCH', `${V1}/acme/providers/${provider.id}`, { key: t.apiKey, body: { name: 'Alex H.' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ success: true, provider: alex({ id: provider.id, name: 'Alex H.', email: 'alex@acme.example' }) });
    const cleared = await t.request('PATCH', `${V1}/acme/providers/${provider.id}`, { key: t.apiKey, body: { email: null } });
    expect(cleared.body).toEqual({ success: true, provider: alex({ id: provider.id, name: 'Alex H.' }) });
  });

  test('PATCH with an empty body -> 200 and nothing changes, not even updatedAt', async () => {
    const provider = await addProvider(t);
    const before = await t.deps.storage.getProvider(t.workspace.id, provider.id);
    t.clock.advance(60_000);
    const response = await t.request('PATCH', `${V1}/acme/providers/${provider.id}`, { key: t.apiKey, body: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, provider: alex({ id: provider.id }) });
    expect(await t.deps.storage.getProvider(t.workspace.id, provider.id)).toEqual(before);
  });

  test('PATCH serviceIds replaces the list, repeats dropped', async () => {
    const cut = await addService(t, { name: 'Cut' });
    const colour = await addService(t, { name: 'Colour' });
    const provider = await addProvider(t, { serviceIds: [cut.id] });
    const response = await t.request('PATCH', `${V1}/acme/providers/${provider.id}`, { key: t.apiKey, body: { serviceIds: [colour.id, colour.id] } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, provider: alex({ id: provider.id, serviceIds: [colour.id] }) });
    expect((await t.request('GET', `${V1}/acme/services/${cut.id}`, { key: t.apiKey })).body.service.providerIds).toEqual([]);
  });

  test('DELETE deactivates: 200 with active false, still listed and readable, its bookings untouched', async () => {
    const provider = await addProvider(t);
    const service = await addService(t, { providerIds: [provider.id] });
    const booking = await bookDirectly(t, service.id, provider.id);
    const response = await t.request('DELETE', `${V1}/acme/providers/${provider.id}`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, provider: alex({ id: provider.id, active: false, serviceIds: [service.id] }) });
    expect((await t.request('GET', `${V1}/acme/providers/${provider.id}`, { key: t.apiKey })).body).toEqual(response.body);
    expect((await t.request('GET', `${V1}/acme/providers`, { key: t.apiKey })).body).toEqual({ success: true, providers: [response.body.provider] });
    expect(await t.deps.storage.getBooking(t.workspace.id, booking.id)).toEqual(booking);
  });

  test('PATCH active true reactivates a provider', async () => {
    const provider = await addProvider(t);
    await t.request('DELETE', `${V1}/acme/providers/${provider.id}`, { key: t.apiKey });
    const response = await t.request('PATCH', `${V1}/acme/providers/${provider.id}`, { key: t.apiKey, body: { active: true } });
    expect(response.body).toEqual({ success: true, provider: alex({ id: provider.id }) });
  });

  test('names are stored as given, markup included; unknown fields are ignored', async () => {
    const response = await t.request('POST', `${V1}/acme/providers`, { key: t.apiKey, body: { name: '<b>Alex</b> & Co', hours: 'all day', id: 'prv_mine' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, provider: alex({ name: '<b>Alex</b> & Co' }) });
    expect(response.body.provider.id).not.toBe('prv_mine');
  });
});
