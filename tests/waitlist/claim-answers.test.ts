import { afterEach, beforeEach, expect, test } from 'bun:test';
import { openWaitlistToken } from '../../src/features/bookings/index.ts';
import type { ServiceRecord } from '../../src/ports/storage/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addCustomField, addProvider, addService, bookingBody, tuesday } from '../bookings/fixtures.ts';

/*
 * A claim answers the custom fields of the service as createBooking does (docs/contract/classes.md §3): the
 * offer page asks them in its form (no script needed), the JSON claim takes `customFields`, and a missing or
 * wrong answer is the same 400 VALIDATION_ERROR naming the field, with the place still held.
 */
describeEachAdapter('a waiting-list claim answers the custom fields', (adapter) => {
  let app: TestApp;
  let yoga: ServiceRecord;
  const TEN = tuesday('10:00');
  const answers = { level: 'Beginner', mat: true, age: 30 };

  beforeEach(async () => {
    app = await createTestApp(adapter);
    const anna = await addProvider(app, { name: 'Anna' });
    yoga = await addService(app, [anna], { name: 'Yoga', capacity: 1, duration: 60, priceMinor: 0, waitlist: true });
    const other = await addService(app, [anna], { name: 'Massage', capacity: 1, duration: 60, priceMinor: 0 });
    await addCustomField(app, { key: 'level', label: 'Your level', type: 'select', options: ['Beginner', 'Advanced'], required: true, order: 0 });
    await addCustomField(app, { key: 'mat', label: 'I bring my own mat', type: 'checkbox', required: true, order: 1 });
    await addCustomField(app, { key: 'age', label: 'Age', type: 'number', order: 2 });
    await addCustomField(app, { key: 'injuries', label: 'Any injuries?', type: 'textarea', order: 3 });
    // another service's question is not asked
    await addCustomField(app, { key: 'pressure', label: 'Pressure', type: 'text', required: true, serviceIds: [other.id], order: 4 });
  });
  afterEach(() => app.close());

  /** The class full with one booking, one waiting entry offered the place its cancel freed; the offer's token. */
  async function offered(): Promise<{ id: string; token: string }> {
    const seat = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
      key: app.apiKey,
      body: bookingBody(yoga, TEN, { email: 'first@example.com', customFields: answers }),
    });
    expect(seat.status).toBe(200);
    const joined = await app.request('POST', '/api/v1/workspaces/acme/waitlist', {
      key: app.apiKey,
      body: { serviceId: yoga.id, date: TEN, email: 'wanda@example.com', name: 'Wanda' },
    });
    expect(joined.status).toBe(200);
    expect((await app.request('POST', `/api/v1/workspaces/acme/bookings/${seat.body.booking.id}/cancel`, { key: app.apiKey, body: {} })).status).toBe(200);
    const entry = (await app.deps.storage.getWaitlistEntry(app.workspace.id, joined.body.entry.id))!;
    expect(entry.status).toBe('OFFERED');
    return { id: entry.id, token: (await openWaitlistToken(entry, app.deps.config.SVC_SECRET))! };
  }
  const statusOf = async (id: string) => (await app.deps.storage.getWaitlistEntry(app.workspace.id, id))!.status;
  const bookingsOf = async (email: string) =>
    (await app.deps.storage.listBookings(app.workspace.id, { limit: 100 })).filter((booking) => booking.customerEmail === email);

  test('JSON: a claim without the required answers is 400 VALIDATION_ERROR naming the field; nothing is booked and the place stays held', async () => {
    const { id, token } = await offered();
    const bare = await app.request('POST', `/api/waitlist/${token}/claim`);
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({
      success: false,
      code: 'VALIDATION_ERROR',
      error: 'customFields.level is required (Your level)',
      details: [
        { path: '/customFields/level', message: 'customFields.level is required (Your level)' },
        { path: '/customFields/mat', message: 'customFields.mat is required (I bring my own mat)' },
      ],
    });
    const wrong = await app.request('POST', `/api/waitlist/${token}/claim`, { body: { customFields: { level: 'Expert', mat: false, age: 'thirty' } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('VALIDATION_ERROR');
    expect(wrong.body.details).toEqual([
      { path: '/customFields/level', message: 'customFields.level must be one of Beginner, Advanced' },
      { path: '/customFields/mat', message: 'customFields.mat must be checked (true)' },
      { path: '/customFields/age', message: 'customFields.age must be a number' },
    ]);
    // not an object: refused before anything is looked at, as createBooking refuses it
    const listed = await app.request('POST', `/api/waitlist/${token}/claim`, { body: { customFields: ['Beginner'] } });
    expect(listed.status).toBe(400);
    expect(listed.body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'customFields must be an object of answers by field key' });
    expect(await bookingsOf('wanda@example.com')).toEqual([]);
    expect(await statusOf(id)).toBe('OFFERED');
  });

  test('JSON: a claim with the answers books the place with them; another service’s question is not asked', async () => {
    const { id, token } = await offered();
    const claimed = await app.request('POST', `/api/waitlist/${token}/claim`, { body: { customFields: { ...answers, unknown: 'dropped' } } });
    expect(claimed.status).toBe(200);
    expect(claimed.body.booking).toMatchObject({ status: 'CONFIRMED', customerEmail: 'wanda@example.com', customFields: answers });
    expect(await statusOf(id)).toBe('BOOKED');
    const [stored] = await bookingsOf('wanda@example.com');
    expect(stored!.customFields).toEqual(answers);
  });

  test('page: the form asks the service’s questions, labelled, the required ones required', async () => {
    const { token } = await offered();
    const page = await app.request('GET', `/waitlist/${token}`);
    expect(page.status).toBe(200);
    const html = String(page.body);
    expect(html).toContain('Please answer these questions to book the place.');
    expect(html).toContain('<label for="field-level">Your level</label><select id="field-level" name="cf_level" required>');
    expect(html).toContain('<option value="Beginner">Beginner</option>');
    expect(html).toContain('<input type="checkbox" id="field-mat" name="cf_mat" value="true" required><label for="field-mat">I bring my own mat</label>');
    expect(html).toContain('<label for="field-age">Age <span class="optional">(optional)</span></label><input type="number" id="field-age" name="cf_age"');
    expect(html).toContain('<textarea id="field-injuries" name="cf_injuries"');
    expect(html).not.toContain('Pressure');
  });

  test('page: a post without the required answers shows the form again (400) with what was typed and the problem at each field; then a full post books', async () => {
    const { id, token } = await offered();
    const form = (fields: Record<string, string>) =>
      app.request('POST', `/waitlist/${token}/claim`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: new URLSearchParams(fields).toString(),
      });
    const missing = await form({ cf_age: '41', cf_injuries: 'a <knee>' });
    expect(missing.status).toBe(400);
    const html = String(missing.body);
    expect(html).toContain('Some answers are missing or not right');
    expect(html).toContain('<select id="field-level" name="cf_level" required aria-invalid="true" aria-describedby="field-level-problem">');
    expect(html).toContain('<p class="field-problem" id="field-level-problem">Please answer this question.</p>');
    expect(html).toContain('<p class="field-problem" id="field-mat-problem">Please tick this box to book.</p>');
    // a number that is none
    expect(html).not.toContain('field-age-problem');
    // what was typed stays, escaped
    expect(html).toContain('name="cf_age" value="41"');
    expect(html).toContain('>a &lt;knee&gt;</textarea>');
    expect(await bookingsOf('wanda@example.com')).toEqual([]);
    expect(await statusOf(id)).toBe('OFFERED');

    const wrong = await form({ cf_level: 'Expert', cf_mat: 'true', cf_age: 'forty' });
    expect(wrong.status).toBe(400);
    expect(String(wrong.body)).toContain('<p class="field-problem" id="field-level-problem">This answer is not valid: please check it.</p>');
    expect(String(wrong.body)).toContain('<p class="field-problem" id="field-age-problem">This answer is not valid: please check it.</p>');
    expect(String(wrong.body)).not.toContain('field-mat-problem');

    const full = await form({ cf_level: 'Advanced', cf_mat: 'true', cf_age: '41', cf_injuries: '' });
    expect(full.status).toBe(303);
    expect(full.headers.get('location')).toContain('/manage/');
    expect(await statusOf(id)).toBe('BOOKED');
    const [stored] = await bookingsOf('wanda@example.com');
    expect(stored!.customFields).toEqual({ level: 'Advanced', mat: true, age: 41 });
  });

  test('page: a claim that can no longer be made goes back to the page with the reason (303), as before', async () => {
    const { token } = await offered();
    expect((await app.request('POST', `/api/waitlist/${token}/claim`, { body: { customFields: answers } })).status).toBe(200);
    const again = await app.request('POST', `/waitlist/${token}/claim`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'cf_level=Beginner&cf_mat=true',
    });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toStartWith(`/waitlist/${token}?error=`);
    expect((await app.request('POST', '/waitlist/nonexistent-token-0000000000000000000000000000000/claim')).status).toBe(404);
  });
});
