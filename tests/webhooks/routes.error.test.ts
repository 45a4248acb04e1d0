import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';

const BASE = '/api/v1/workspaces/acme/webhooks';
const KNOWN =
  'booking.created, booking.confirmed, booking.cancelled, booking.rescheduled, booking.completed, payment.received, payment.refunded, calendar.connection.failed, calendar.connection.restored, waitlist.joined, waitlist.offered, waitlist.expired';

describeEachAdapter('webhook routes, errors', (adapter) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(async () => {
    await t.close();
  });

  const create = (body: unknown) => t.request('POST', BASE, { key: t.apiKey, body });
  const createdCount = async () => (await t.deps.storage.listWebhooks(t.workspace.id)).length;

  test('POST without url -> 400 naming url, nothing stored', async () => {
    const response = await create({ name: 'no url' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'url is required',
      code: 'VALIDATION_ERROR',
      details: [{ path: '/url', message: 'url is required' }],
    });
    expect(await createdCount()).toBe(0);
  });

  test('POST with the address of an existing webhook -> 400 naming it, nothing stored; PATCH onto it alike', async () => {
    const first = await create({ url: 'https://hooks.example.com/svc' });
    expect(first.status).toBe(200);
    const id = first.body.webhook.id;
    const error = `url https://hooks.example.com/svc is already the address of webhook ${id}: change that webhook's events instead of adding the address again`;
    const again = await create({ url: 'https://hooks.example.com/svc', events: ['booking.created'] });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ success: false, error, code: 'VALIDATION_ERROR', details: [{ path: '/url', message: error }] });
    expect(await createdCount()).toBe(1);
    const other = await create({ url: 'https://hooks.example.com/other' });
    const moved = await t.request('PATCH', `${BASE}/${other.body.webhook.id}`, { key: t.apiKey, body: { url: 'https://hooks.example.com/svc' } });
    expect(moved.status).toBe(400);
    // its own address again is no repeat
    const same = await t.request('PATCH', `${BASE}/${id}`, { key: t.apiKey, body: { url: 'https://hooks.example.com/svc' } });
    expect(same.status).toBe(200);
  });

  test('POST with a url that is not a URL -> 400 naming url', async () => {
    const response = await create({ url: 'not a url' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'url must be a URL',
      code: 'VALIDATION_ERROR',
      details: [{ path: '/url', message: 'url must be a URL' }],
    });
  });

  for (const url of ['ftp://files.example.com/hook', 'ws://hooks.example.com/socket', 'file:///etc/passwd']) {
    test(`POST with a non-http(s) url (${url.split(':')[0]}) -> 400 naming url`, async () => {
      const response = await create({ url });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: `url must be an http or https URL (got ${url.split(':')[0]})`,
        code: 'VALIDATION_ERROR',
      });
      expect(await createdCount()).toBe(0);
    });
  }

  test('POST with an unknown event type -> 400 naming it and its position', async () => {
    const response = await create({ url: 'https://hooks.example.com/x', events: ['booking.created', 'booking.exploded'] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: `events contains an unknown event type "booking.exploded": use ${KNOWN} (or [] for all)`,
      code: 'VALIDATION_ERROR',
      details: [{ path: '/events/1', message: `events.1 must be one of ${KNOWN}` }],
    });
    expect(await createdCount()).toBe(0);
  });

  test('POST subscribing to webhook.test -> 400: it is sent by the test route, not subscribed to', async () => {
    const response = await create({ url: 'https://hooks.example.com/x', events: ['webhook.test'] });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(`events contains an unknown event type "webhook.test": use ${KNOWN} (or [] for all)`);
  });

  test('POST with events not an array -> 400 naming events', async () => {
    const response = await create({ url: 'https://hooks.example.com/x', events: 'booking.created' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'events must be an array',
      code: 'VALIDATION_ERROR',
      details: [{ path: '/events', message: 'events must be an array' }],
    });
  });

  test('POST with malformed JSON -> 400 VALIDATION_ERROR', async () => {
    const response = await t.request('POST', BASE, { key: t.apiKey, rawBody: '{"url":', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: 'request body is not valid JSON', code: 'VALIDATION_ERROR' });
  });

  test('PATCH with an unknown event type or a non-http url -> 400, webhook unchanged', async () => {
    const created = await create({ url: 'https://hooks.example.com/keep', events: ['booking.created'] });
    const id = created.body.webhook.id;
    const before = await t.deps.storage.getWebhook(t.workspace.id, id);
    const badEvent = await t.request('PATCH', `${BASE}/${id}`, { key: t.apiKey, body: { events: ['booking.deleted'] } });
    expect(badEvent.status).toBe(400);
    expect(badEvent.body.error).toBe(`events contains an unknown event type "booking.deleted": use ${KNOWN} (or [] for all)`);
    const badUrl = await t.request('PATCH', `${BASE}/${id}`, { key: t.apiKey, body: { url: 'gopher://hooks.example.com/' } });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body).toEqual({ success: false, error: 'url must be an http or https URL (got gopher)', code: 'VALIDATION_ERROR' });
    const badActive = await t.request('PATCH', `${BASE}/${id}`, { key: t.apiKey, body: { isActive: 'yes' } });
    expect(badActive.status).toBe(400);
    expect(badActive.body.error).toBe('isActive must be true or false');
    expect(await t.deps.storage.getWebhook(t.workspace.id, id)).toEqual(before);
  });

  test('unknown webhook id -> 404 NOT_FOUND on GET, PATCH, DELETE, test and deliveries', async () => {
    const missing = 'wh_01kaaaaaaaaaaaaaaaaaaaaaaa';
    const calls = [
      t.request('GET', `${BASE}/${missing}`, { key: t.apiKey }),
      t.request('PATCH', `${BASE}/${missing}`, { key: t.apiKey, body: { name: 'x' } }),
      t.request('DELETE', `${BASE}/${missing}`, { key: t.apiKey }),
      t.request('POST', `${BASE}/${missing}/test`, { key: t.apiKey }),
      t.request('GET', `${BASE}/${missing}/deliveries`, { key: t.apiKey }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, error: `webhook ${missing} not found`, code: 'NOT_FOUND' });
    }
  });

  for (const limit of ['0', '101', 'abc', '1.5']) {
    test(`GET /deliveries?limit=${limit} -> 400 naming limit`, async () => {
      const created = await create({ url: 'https://hooks.example.com/x' });
      const response = await t.request('GET', `${BASE}/${created.body.webhook.id}/deliveries?limit=${limit}`, { key: t.apiKey });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect(response.body.error).toMatch(/^limit must be an? /);
    });
  }
});
