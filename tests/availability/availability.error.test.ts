import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ProviderRecord, ServiceRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addProvider, addService, catalogue } from '../bookings/fixtures.ts';

const invalid = (path: string, message: string) => ({ success: false, error: message, code: 'VALIDATION_ERROR', details: [{ path, message }] });
const refused = (message: string) => ({ success: false, error: message, code: 'VALIDATION_ERROR' });

describeEachAdapter('availability errors', (adapter) => {
  // Read-only routes: one app for the file.
  let app: TestApp;
  let service: ServiceRecord;
  let provider: ProviderRecord;
  let inactiveService: ServiceRecord;
  let otherProvider: ProviderRecord;
  let inactiveProvider: ProviderRecord;
  beforeAll(async () => {
    app = await createTestApp(adapter);
    ({ service, provider } = await catalogue(app));
    inactiveService = await addService(app, [provider], { name: 'Retired', active: false });
    otherProvider = await addProvider(app, { name: 'Sam' });
    inactiveProvider = await addProvider(app, { name: 'Kim', active: false });
    await app.deps.storage.updateService(app.workspace.id, service.id, { providerIds: [provider.id, inactiveProvider.id], updatedAt: app.clock.now() });
  });
  afterAll(() => app.close());

  const slots = (query: string) => app.request('GET', `/api/v1/workspaces/acme/availability?${query}`);
  const days = (query: string) => app.request('GET', `/api/v1/workspaces/acme/availability/days?${query}`);

  describe('GET availability', () => {
    test('unknown slug -> 404 NOT_FOUND', async () => {
      const response = await app.request('GET', `/api/v1/workspaces/nope/availability?serviceId=${service.id}&date=2026-11-24`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, error: 'workspace nope not found', code: 'NOT_FOUND' });
    });

    test('unknown serviceId -> 400 SERVICE_NOT_FOUND', async () => {
      const response = await slots('serviceId=srv_nope&date=2026-11-24');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, error: 'serviceId srv_nope is not an active service of workspace acme', code: 'SERVICE_NOT_FOUND' });
    });

    test('inactive service -> 400 SERVICE_NOT_FOUND', async () => {
      const response = await slots(`serviceId=${inactiveService.id}&date=2026-11-24`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: `serviceId ${inactiveService.id} is not an active service of workspace acme`,
        code: 'SERVICE_NOT_FOUND',
      });
    });

    test('providerId that does not offer the service -> 400 SERVICE_NOT_FOUND', async () => {
      for (const providerId of [otherProvider.id, inactiveProvider.id, 'prv_nope']) {
        const response = await slots(`serviceId=${service.id}&date=2026-11-24&providerId=${providerId}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          success: false,
          error: `providerId ${providerId} is not an active provider offering serviceId ${service.id}`,
          code: 'SERVICE_NOT_FOUND',
        });
      }
    });

    test('missing serviceId or date -> 400 VALIDATION_ERROR naming it', async () => {
      expect((await slots('date=2026-11-24')).body).toEqual(invalid('/serviceId', 'serviceId is required'));
      const response = await slots(`serviceId=${service.id}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid('/date', 'date is required'));
    });

    test('date not written YYYY-MM-DD -> 400 VALIDATION_ERROR', async () => {
      for (const date of ['24.11.2026', '2026-11-24T10:00:00Z', 'tomorrow']) {
        const response = await slots(`serviceId=${service.id}&date=${encodeURIComponent(date)}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual(invalid('/date', 'date must be a date as YYYY-MM-DD (a calendar day in the workspace time zone)'));
      }
    });

    test('date that is not a day of the calendar -> 400 VALIDATION_ERROR', async () => {
      const response = await slots(`serviceId=${service.id}&date=2026-02-30`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(refused('date must be a calendar date as YYYY-MM-DD, got 2026-02-30'));
    });

    test('duration below 5 or not an integer -> 400 VALIDATION_ERROR naming duration', async () => {
      expect((await slots(`serviceId=${service.id}&date=2026-11-24&duration=4`)).body).toEqual(
        invalid('/duration', 'duration must be an integer between 5 and 1440'),
      );
      expect((await slots(`serviceId=${service.id}&date=2026-11-24&duration=abc`)).body).toEqual(invalid('/duration', 'duration must be an integer'));
      expect((await slots(`serviceId=${service.id}&date=2026-11-24&duration=30.5`)).body).toEqual(invalid('/duration', 'duration must be an integer'));
    });
  });

  describe('GET availability/days', () => {
    test('from after to -> 400 VALIDATION_ERROR', async () => {
      const response = await days(`serviceId=${service.id}&from=2026-12-02&to=2026-12-01`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(refused('from must not be after to (got from 2026-12-02, to 2026-12-01)'));
    });

    test('a range over 62 days -> 400 VALIDATION_ERROR', async () => {
      const response = await days(`serviceId=${service.id}&from=2026-12-01&to=2027-02-01`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(refused('from and to must span at most 62 days (got 63)'));
    });

    test('bad or missing from/to -> 400 VALIDATION_ERROR naming it', async () => {
      expect((await days(`serviceId=${service.id}&from=2026-13-01&to=2026-12-01`)).body).toEqual(
        refused('from must be a calendar date as YYYY-MM-DD, got 2026-13-01'),
      );
      expect((await days(`serviceId=${service.id}&from=2026-12-01`)).body).toEqual(invalid('/to', 'to is required'));
      expect((await days(`serviceId=${service.id}&from=1.12.2026&to=2026-12-01`)).body).toEqual(
        invalid('/from', 'from must be a date as YYYY-MM-DD, the first day'),
      );
    });

    test('unknown service -> 400 SERVICE_NOT_FOUND; unknown slug -> 404', async () => {
      expect((await days('serviceId=srv_nope&from=2026-12-01&to=2026-12-02')).body).toEqual({
        success: false,
        error: 'serviceId srv_nope is not an active service of workspace acme',
        code: 'SERVICE_NOT_FOUND',
      });
      const response = await app.request('GET', `/api/v1/workspaces/nope/availability/days?serviceId=${service.id}&from=2026-12-01&to=2026-12-02`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, error: 'workspace nope not found', code: 'NOT_FOUND' });
    });
  });
});
