import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { ensureDemoWorkspace } from '../../src/features/demo/seed.ts';
import type { ServiceRecord } from '../../src/ports/storage/index.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { bookingBody, catalogue, setWorkspace, storedBookings, tuesday } from './fixtures.ts';

const missingKey = { success: false, error: 'missing API key: send it in the x-svc-api-key header', code: 'UNAUTHORIZED' };
const invalidKey = { success: false, error: 'invalid API key', code: 'UNAUTHORIZED' };

describeEachAdapter('bookings security', (adapter) => {
  let app: TestApp;
  let service: ServiceRecord;
  let bookingId: string;
  beforeEach(async () => {
    app = await createTestApp(adapter);
    ({ service } = await catalogue(app));
    const created = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(service, tuesday('10:00')) });
    bookingId = created.body.booking.id;
  });
  afterEach(() => app.close());

  const keyedRoutes = (): [string, string, unknown][] => [
    ['GET', '/api/v1/workspaces/acme/bookings', undefined],
    ['GET', `/api/v1/workspaces/acme/bookings/${bookingId}`, undefined],
    ['POST', `/api/v1/workspaces/acme/bookings/${bookingId}/confirm`, undefined],
    ['POST', `/api/v1/workspaces/acme/bookings/${bookingId}/cancel`, { reason: 'x' }],
    ['POST', `/api/v1/workspaces/acme/bookings/${bookingId}/complete`, undefined],
    ['POST', `/api/v1/workspaces/acme/bookings/${bookingId}/reschedule`, { date: tuesday('12:00') }],
  ];

  describe('keyed routes', () => {
    test('without a key -> 401 UNAUTHORIZED, and nothing changes', async () => {
      const before = await storedBookings(app);
      for (const [method, path, body] of keyedRoutes()) {
        const response = await app.request(method, path, { body });
        expect([method, path, response.status]).toEqual([method, path, 401]);
        expect(response.body).toEqual(missingKey);
      }
      expect(await storedBookings(app)).toEqual(before);
    });

    test('with a wrong key or a key of another workspace -> 401 UNAUTHORIZED', async () => {
      const { apiKey: otherKey } = await createWorkspace(app.deps, { slug: 'other', name: 'Other' });
      const before = await storedBookings(app);
      for (const key of ['svc_live_wrong', otherKey]) {
        for (const [method, path, body] of keyedRoutes()) {
          const response = await app.request(method, path, { body, key });
          expect([method, path, response.status]).toEqual([method, path, 401]);
          expect(response.body).toEqual(invalidKey);
        }
      }
      expect(await storedBookings(app)).toEqual(before);
    });

    test('unknown slug -> 404 before the key is looked at', async () => {
      for (const [method, path, body] of keyedRoutes()) {
        const response = await app.request(method, path.replace('/acme/', '/nope/'), { body });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ success: false, error: 'workspace nope not found', code: 'NOT_FOUND' });
      }
    });

    test("a key reaches only its own workspace's bookings: another workspace's booking is 404", async () => {
      const { apiKey: otherKey } = await createWorkspace(app.deps, { slug: 'other', name: 'Other' });
      const before = await storedBookings(app);
      for (const [method, path, body] of keyedRoutes().slice(1)) {
        const response = await app.request(method, path.replace('/acme/', '/other/'), { body, key: otherKey });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ success: false, error: `booking ${bookingId} not found`, code: 'NOT_FOUND' });
      }
      const list = await app.request('GET', '/api/v1/workspaces/other/bookings', { key: otherKey });
      expect(list.body).toEqual({ success: true, bookings: [], nextCursor: null });
      expect(await storedBookings(app)).toEqual(before);
    });

    test('a booking shows only its public fields', async () => {
      const response = await app.request('GET', `/api/v1/workspaces/acme/bookings/${bookingId}`, { key: app.apiKey });
      expect(Object.keys(response.body.booking).sort()).toEqual([
        'amount',
        'awaitingPayment',
        'cancelReason',
        'createdAt',
        'customFields',
        'customerEmail',
        'customerName',
        'endTime',
        'id',
        'notes',
        'payment',
        'phone',
        'providerId',
        'providerName',
        'seriesId',
        'serviceId',
        'serviceName',
        'startTime',
        'status',
      ]);
    });
  });

  describe('createBooking', () => {
    const book = (options: { key?: string; origin?: string; body?: unknown } = {}) =>
      app.request('POST', '/api/v1/workspaces/acme/bookings', {
        key: options.key,
        headers: options.origin ? { origin: options.origin } : {},
        body: options.body ?? bookingBody(service, tuesday('11:00')),
      });

    test('keyless without an Origin -> 403 DOMAIN_NOT_ALLOWED, nothing booked', async () => {
      await setWorkspace(app, { domains: ['example.com'] });
      const before = await storedBookings(app);
      const response = await book();
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        success: false,
        error:
          'a booking without an API key must come from a page on an allowed widget domain of workspace acme (Origin header), or carry the API key in x-svc-api-key',
        code: 'DOMAIN_NOT_ALLOWED',
      });
      expect(await storedBookings(app)).toEqual(before);
    });

    test('keyless from an origin that is not allowed (look-alikes included) -> 403 DOMAIN_NOT_ALLOWED', async () => {
      await setWorkspace(app, { domains: ['example.com', '*.example.org'] });
      const before = await storedBookings(app);
      for (const origin of ['https://evil.com', 'https://notexample.com', 'https://example.com.evil.net', 'https://example.org', 'null']) {
        const response = await book({ origin });
        expect([origin, response.status]).toEqual([origin, 403]);
        expect(response.body.code).toBe('DOMAIN_NOT_ALLOWED');
      }
      expect((await book({ origin: 'https://evil.com' })).body.error).toBe(
        "origin https://evil.com is not an allowed widget domain of workspace acme: add its domain to the workspace's allowed domains, or call with the API key from a backend",
      );
      expect(await storedBookings(app)).toEqual(before);
    });

    test('a refused origin is answered before the body is validated', async () => {
      const response = await book({ origin: 'https://evil.com', body: { nonsense: true } });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('DOMAIN_NOT_ALLOWED');
    });

    test('a wrong key -> 401 even from an allowed origin', async () => {
      await setWorkspace(app, { domains: ['example.com'] });
      const before = await storedBookings(app);
      const response = await book({ key: 'svc_live_wrong', origin: 'https://example.com' });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(invalidKey);
      expect(await storedBookings(app)).toEqual(before);
    });

    test('a key of another workspace -> 401', async () => {
      const { apiKey: otherKey } = await createWorkspace(app.deps, { slug: 'other', name: 'Other' });
      const response = await book({ key: otherKey });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(invalidKey);
    });

    test('a keyed request ignores Origin', async () => {
      const response = await book({ key: app.apiKey, origin: 'https://evil.com' });
      expect(response.status).toBe(200);
    });

    test('unknown slug -> 404 for keyless and keyed requests', async () => {
      for (const key of [undefined, app.apiKey]) {
        const response = await app.request('POST', '/api/v1/workspaces/nope/bookings', {
          key,
          headers: { origin: 'https://example.com' },
          body: bookingBody(service, tuesday('11:00')),
        });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ success: false, error: 'workspace nope not found', code: 'NOT_FOUND' });
      }
    });
  });

  describe('demo workspace', () => {
    test('keyless reads of the demo bookings are allowed; keyless moves are not', async () => {
      await ensureDemoWorkspace(app.deps);
      const list = await app.request('GET', '/api/v1/workspaces/demo/bookings?limit=100');
      expect(list.status).toBe(200);
      expect(list.body.bookings.length).toBe(7);
      const one = list.body.bookings[0];
      expect((await app.request('GET', `/api/v1/workspaces/demo/bookings/${one.id}`)).body).toEqual({ success: true, booking: one });
      const demo = (await app.deps.storage.getWorkspaceBySlug('demo'))!;
      const before = await app.deps.storage.getBooking(demo.id, one.id);
      for (const action of ['confirm', 'cancel', 'complete']) {
        const response = await app.request('POST', `/api/v1/workspaces/demo/bookings/${one.id}/${action}`);
        expect(response.status).toBe(401);
        expect(response.body).toEqual(missingKey);
      }
      expect(await app.deps.storage.getBooking(demo.id, one.id)).toEqual(before);
    });

    test('keyless bookings on the demo workspace are accepted from any origin and without one', async () => {
      await ensureDemoWorkspace(app.deps);
      const demo = (await app.deps.storage.getWorkspaceBySlug('demo'))!;
      const consultation = (await app.deps.storage.listServices(demo.id, { activeOnly: true })).find((each) => each.name === 'Free consultation')!;
      const slots = await app.request('GET', `/api/v1/workspaces/demo/availability?serviceId=${consultation.id}&date=2026-11-30`);
      expect(slots.body.slots.length).toBeGreaterThan(2);
      const at = (label: string) => Temporal.PlainDateTime.from(`2026-11-30T${label}`).toZonedDateTime('Europe/Berlin').toInstant().toString();
      const withOrigin = await app.request('POST', '/api/v1/workspaces/demo/bookings', {
        headers: { origin: 'https://anything.example' },
        body: { serviceId: consultation.id, email: 'a@example.com', date: at(slots.body.slots[0]) },
      });
      expect(withOrigin.status).toBe(200);
      const without = await app.request('POST', '/api/v1/workspaces/demo/bookings', {
        body: { serviceId: consultation.id, email: 'b@example.com', date: at(slots.body.slots[1]) },
      });
      expect(without.status).toBe(200);
      expect(without.body.booking.amount).toBeNull();
    });
  });
});
