import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import type { ProviderRecord, ServiceRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addCustomField, addProvider, addService, bookingBody, catalogue, storedBookings, tuesday } from './fixtures.ts';

const invalid = (path: string, message: string) => ({ success: false, error: message, code: 'VALIDATION_ERROR', details: [{ path, message }] });

describeEachAdapter('bookings errors', (adapter) => {
  let app: TestApp;
  let service: ServiceRecord;
  let provider: ProviderRecord;
  beforeEach(async () => {
    app = await createTestApp(adapter);
    ({ service, provider } = await catalogue(app));
  });
  afterEach(async () => {
    await app.close();
  });

  const create = (body: unknown) => app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body });
  /** The refusal left the database without bookings. */
  const nothingBooked = async () => expect(await storedBookings(app)).toEqual([]);

  describe('createBooking body', () => {
    test('email that is not an email address -> 400 naming email', async () => {
      const response = await create(bookingBody(service, tuesday('10:00'), { email: 'not-an-email' }));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid('/email', 'email must be an email address'));
      await nothingBooked();
    });

    test('missing email, serviceId or date -> 400 naming it', async () => {
      const { email: _email, ...noEmail } = bookingBody(service, tuesday('10:00'));
      expect((await create(noEmail)).body).toEqual(invalid('/email', 'email is required'));
      const { serviceId: _service, ...noService } = bookingBody(service, tuesday('10:00'));
      expect((await create(noService)).body).toEqual(invalid('/serviceId', 'serviceId is required'));
      const { date: _date, ...noDate } = bookingBody(service, tuesday('10:00'));
      expect((await create(noDate)).body).toEqual(invalid('/date', 'date is required'));
      await nothingBooked();
    });

    test('date without an offset -> 400 VALIDATION_ERROR', async () => {
      const response = await create(bookingBody(service, '2026-11-24T10:00:00'));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid('/date', 'date must be a date-time with an offset, such as 2026-12-01T09:00:00Z'));
      await nothingBooked();
    });

    test('duration under 5 or not an integer -> 400 naming duration', async () => {
      expect((await create(bookingBody(service, tuesday('10:00'), { duration: 4 }))).body).toEqual(
        invalid('/duration', 'duration must be an integer between 5 and 1440'),
      );
      expect((await create(bookingBody(service, tuesday('10:00'), { duration: 30.5 }))).body).toEqual(invalid('/duration', 'duration must be an integer'));
      expect((await create(bookingBody(service, tuesday('10:00'), { duration: '60' }))).body).toEqual(invalid('/duration', 'duration must be an integer'));
      await nothingBooked();
    });

    test('malformed JSON or no body -> 400 VALIDATION_ERROR', async () => {
      const malformed = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
        key: app.apiKey,
        rawBody: '{"serviceId":',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ success: false, error: 'request body is not valid JSON', code: 'VALIDATION_ERROR' });
      const empty = await app.request('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey });
      expect(empty.status).toBe(400);
      expect(empty.body.code).toBe('VALIDATION_ERROR');
      await nothingBooked();
    });
  });

  describe('createBooking catalogue', () => {
    test('unknown serviceId -> 400 SERVICE_NOT_FOUND', async () => {
      const response = await create({ ...bookingBody(service, tuesday('10:00')), serviceId: 'srv_nope' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, error: 'serviceId srv_nope is not an active service of workspace acme', code: 'SERVICE_NOT_FOUND' });
      await nothingBooked();
    });

    test('inactive service -> 400 SERVICE_NOT_FOUND', async () => {
      const retired = await addService(app, [provider], { name: 'Retired', active: false });
      const response = await create(bookingBody(retired, tuesday('10:00')));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, error: `serviceId ${retired.id} is not an active service of workspace acme`, code: 'SERVICE_NOT_FOUND' });
      await nothingBooked();
    });

    test('providerId that does not offer the service, or is inactive -> 400 SERVICE_NOT_FOUND', async () => {
      const sam = await addProvider(app, { name: 'Sam' });
      const kim = await addProvider(app, { name: 'Kim', active: false, serviceIds: [service.id] });
      for (const providerId of [sam.id, kim.id, 'prv_nope']) {
        const response = await create(bookingBody(service, tuesday('10:00'), { providerId }));
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          success: false,
          error: `providerId ${providerId} is not an active provider offering serviceId ${service.id}`,
          code: 'SERVICE_NOT_FOUND',
        });
      }
      await nothingBooked();
    });

    test('a service no active provider offers -> 409 SLOT_UNAVAILABLE', async () => {
      const lonely = await addService(app, [], { name: 'Lonely' });
      const response = await create(bookingBody(lonely, tuesday('10:00')));
      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        success: false,
        error: `no active provider offers Lonely: link a provider to serviceId ${lonely.id}`,
        code: 'SLOT_UNAVAILABLE',
      });
      await nothingBooked();
    });
  });

  describe('createBooking custom fields', () => {
    test('a missing required field -> 400 naming it', async () => {
      await addCustomField(app, { key: 'allergies', label: 'Allergies', type: 'text', required: true });
      for (const customFields of [undefined, {}, { allergies: '' }, { allergies: null }]) {
        const response = await create(bookingBody(service, tuesday('10:00'), { customFields }));
        expect(response.status).toBe(400);
        expect(response.body).toEqual(invalid('/customFields/allergies', 'customFields.allergies is required (Allergies)'));
      }
      await nothingBooked();
    });

    test('a value of the wrong type for its field -> 400 naming the field', async () => {
      await addCustomField(app, { key: 'guests', type: 'number' });
      await addCustomField(app, { key: 'newsletter', type: 'checkbox' });
      await addCustomField(app, { key: 'contact', type: 'email' });
      await addCustomField(app, { key: 'birthday', type: 'date' });
      await addCustomField(app, { key: 'mobile', type: 'phone' });
      await addCustomField(app, { key: 'comment', type: 'textarea' });
      const cases: [string, unknown, string][] = [
        ['guests', 'two', 'must be a number'],
        ['newsletter', 'yes', 'must be true or false'],
        ['contact', 'nobody', 'must be an email address'],
        ['birthday', '1990-02-30', 'must be a date as YYYY-MM-DD'],
        ['mobile', 'call me', 'must be a phone number'],
        ['comment', 42, 'must be a string'],
      ];
      for (const [key, value, problem] of cases) {
        const response = await create(bookingBody(service, tuesday('10:00'), { customFields: { [key]: value } }));
        expect(response.status).toBe(400);
        expect(response.body).toEqual(invalid(`/customFields/${key}`, `customFields.${key} ${problem}`));
      }
      await nothingBooked();
    });

    test('a select value not in its options -> 400 listing the options', async () => {
      await addCustomField(app, { key: 'size', type: 'select', options: ['S', 'M', 'L'] });
      const response = await create(bookingBody(service, tuesday('10:00'), { customFields: { size: 'XL' } }));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid('/customFields/size', 'customFields.size must be one of S, M, L'));
      await nothingBooked();
    });

    test('a required checkbox must be checked', async () => {
      await addCustomField(app, { key: 'terms', type: 'checkbox', required: true });
      const response = await create(bookingBody(service, tuesday('10:00'), { customFields: { terms: false } }));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid('/customFields/terms', 'customFields.terms must be checked (true)'));
      await nothingBooked();
    });

    test('customFields that is not an object -> 400 naming it', async () => {
      for (const customFields of [['nuts'], 'nuts', null]) {
        const response = await create(bookingBody(service, tuesday('10:00'), { customFields }));
        expect(response.status).toBe(400);
        expect(response.body).toEqual(invalid('/customFields', 'customFields must be an object of answers by field key'));
      }
      await nothingBooked();
    });
  });

  describe('getBooking and listBookings', () => {
    test('unknown booking -> 404 NOT_FOUND', async () => {
      const response = await app.request('GET', '/api/v1/workspaces/acme/bookings/bk_nope', { key: app.apiKey });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, error: 'booking bk_nope not found', code: 'NOT_FOUND' });
    });

    test('limit 0, 101 or not a number -> 400 naming limit', async () => {
      const list = (query: string) => app.request('GET', `/api/v1/workspaces/acme/bookings?${query}`, { key: app.apiKey });
      expect((await list('limit=0')).body).toEqual(invalid('/limit', 'limit must be an integer between 1 and 100'));
      expect((await list('limit=101')).body).toEqual(invalid('/limit', 'limit must be an integer between 1 and 100'));
      const response = await list('limit=ten');
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid('/limit', 'limit must be an integer'));
    });

    test('unknown status -> 400 naming status and its values', async () => {
      const response = await app.request('GET', '/api/v1/workspaces/acme/bookings?status=DONE', { key: app.apiKey });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid('/status', 'status must be one of PENDING, CONFIRMED, CANCELLED, COMPLETED'));
    });

    test('a cursor that is not one of ours -> 400 naming cursor', async () => {
      for (const cursor of ['garbage', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('[1.5,"bk_x"]').toString('base64url')]) {
        const response = await app.request('GET', `/api/v1/workspaces/acme/bookings?cursor=${cursor}`, { key: app.apiKey });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          success: false,
          error: 'cursor is not valid: pass the nextCursor of the previous page unchanged',
          code: 'VALIDATION_ERROR',
        });
      }
    });

    test('from/to without an offset, or from after to -> 400 naming it', async () => {
      const noOffset = await app.request('GET', '/api/v1/workspaces/acme/bookings?from=2026-11-24T10:00:00', { key: app.apiKey });
      expect(noOffset.status).toBe(400);
      expect(noOffset.body).toEqual(invalid('/from', 'from must be a date-time with an offset, such as 2026-12-01T09:00:00Z'));
      const reversed = await app.request('GET', '/api/v1/workspaces/acme/bookings?from=2026-11-25T00:00:00Z&to=2026-11-24T00:00:00Z', { key: app.apiKey });
      expect(reversed.status).toBe(400);
      expect(reversed.body).toEqual({
        success: false,
        error: 'from must not be after to (got from 2026-11-25T00:00:00Z, to 2026-11-24T00:00:00Z)',
        code: 'VALIDATION_ERROR',
      });
    });
  });
});
