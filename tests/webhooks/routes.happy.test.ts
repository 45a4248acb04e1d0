import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { createWebhookTestApp, startReceiver, type Receiver, type WebhookTestApp } from './support.ts';

const BASE = '/api/v1/workspaces/acme/webhooks';
const ID = expect.stringMatching(/^wh_[0-9a-z]{26}$/);

describeEachAdapter('webhook routes, happy paths', (adapter) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(async () => {
    await t.close();
  });

  const create = (body: Record<string, unknown>) => t.request('POST', BASE, { key: t.apiKey, body });

  test('POST creates an active webhook and answers it with its secret (whsec_ + base64 of 32 bytes), once', async () => {
    const response = await create({ url: 'https://hooks.example.com/svc', name: 'CRM', events: ['booking.created', 'payment.received'] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      webhook: {
        id: ID,
        name: 'CRM',
        url: 'https://hooks.example.com/svc',
        isActive: true,
        createdAt: '2026-11-23T08:00:00.000Z',
        events: ['booking.created', 'payment.received'],
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      },
    });
    expect(Buffer.from(response.body.webhook.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  test('POST without name or events: no name, events [] (all events)', async () => {
    const response = await create({ url: 'https://hooks.example.com/all' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      webhook: { id: ID, url: 'https://hooks.example.com/all', isActive: true, createdAt: '2026-11-23T08:00:00.000Z', events: [], secret: expect.any(String) },
    });
  });

  test('two webhooks get different secrets', async () => {
    const first = await create({ url: 'https://hooks.example.com/a' });
    const second = await create({ url: 'https://hooks.example.com/b' });
    expect(first.body.webhook.secret).not.toBe(second.body.webhook.secret);
  });

  test('POST stores the URL in normal form and each event type once, in the order given', async () => {
    const response = await create({ url: 'HTTPS://Hooks.Example.COM:443/a/../svc?x=1', events: ['booking.cancelled', 'booking.created', 'booking.cancelled'] });
    expect(response.status).toBe(200);
    expect(response.body.webhook.url).toBe('https://hooks.example.com/svc?x=1');
    expect(response.body.webhook.events).toEqual(['booking.cancelled', 'booking.created']);
  });

  test('a public IP address and a name that does not resolve (yet) are accepted without SVC_WEBHOOK_ALLOW_PRIVATE', async () => {
    const byAddress = await create({ url: 'https://93.184.215.14/hooks' });
    const unresolved = await create({ url: 'https://hooks.not-yet-live.invalid/hooks' });
    expect([byAddress.status, unresolved.status]).toEqual([200, 200]);
    expect([byAddress.body.webhook.url, unresolved.body.webhook.url]).toEqual(['https://93.184.215.14/hooks', 'https://hooks.not-yet-live.invalid/hooks']);
  });

  test('GET lists the webhooks oldest first, without secrets', async () => {
    const first = await create({ url: 'https://hooks.example.com/1', name: 'first' });
    t.clock.advance(1000);
    const second = await create({ url: 'https://hooks.example.com/2', events: ['booking.completed'] });
    const response = await t.request('GET', BASE, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      webhooks: [
        { id: first.body.webhook.id, name: 'first', url: 'https://hooks.example.com/1', isActive: true, createdAt: '2026-11-23T08:00:00.000Z', events: [] },
        {
          id: second.body.webhook.id,
          url: 'https://hooks.example.com/2',
          isActive: true,
          createdAt: '2026-11-23T08:00:01.000Z',
          events: ['booking.completed'],
        },
      ],
    });
  });

  test('GET of a workspace without webhooks -> empty list', async () => {
    const response = await t.request('GET', BASE, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, webhooks: [] });
  });

  test('GET /webhooks/{id} answers the webhook without its secret', async () => {
    const created = await create({ url: 'https://hooks.example.com/one', name: 'one' });
    const response = await t.request('GET', `${BASE}/${created.body.webhook.id}`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      webhook: {
        id: created.body.webhook.id,
        name: 'one',
        url: 'https://hooks.example.com/one',
        isActive: true,
        createdAt: '2026-11-23T08:00:00.000Z',
        events: [],
      },
    });
  });

  test('PATCH sets the fields sent and keeps the others; the secret is not shown', async () => {
    const created = await create({ url: 'https://hooks.example.com/old', name: 'old', events: ['booking.created'] });
    const id = created.body.webhook.id;
    const renamed = await t.request('PATCH', `${BASE}/${id}`, { key: t.apiKey, body: { name: 'new' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({
      success: true,
      webhook: { id, name: 'new', url: 'https://hooks.example.com/old', isActive: true, createdAt: '2026-11-23T08:00:00.000Z', events: ['booking.created'] },
    });
    const changed = await t.request('PATCH', `${BASE}/${id}`, {
      key: t.apiKey,
      body: { url: 'https://hooks.example.com/new', events: [], isActive: false, name: null },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      success: true,
      webhook: { id, url: 'https://hooks.example.com/new', isActive: false, createdAt: '2026-11-23T08:00:00.000Z', events: [] },
    });
    const read = await t.request('GET', `${BASE}/${id}`, { key: t.apiKey });
    expect(read.body.webhook).toEqual(changed.body.webhook);
  });

  test('PATCH with an empty body changes nothing', async () => {
    const created = await create({ url: 'https://hooks.example.com/same', name: 'same' });
    const before = await t.deps.storage.getWebhook(t.workspace.id, created.body.webhook.id);
    t.clock.advance(5000);
    const response = await t.request('PATCH', `${BASE}/${created.body.webhook.id}`, { key: t.apiKey, body: {} });
    expect(response.status).toBe(200);
    const { secret: _secret, ...shown } = created.body.webhook;
    expect(response.body).toEqual({ success: true, webhook: shown });
    expect(await t.deps.storage.getWebhook(t.workspace.id, created.body.webhook.id)).toEqual(before);
  });

  test('PATCH isActive: true on a disabled endpoint starts its failure history afresh (failingSince cleared)', async () => {
    const created = await create({ url: 'https://hooks.example.com/x' });
    const id = created.body.webhook.id;
    await t.deps.storage.updateWebhook(t.workspace.id, id, { isActive: false, failingSince: Date.parse('2026-11-10T00:00:00Z') }, t.clock.now());
    const response = await t.request('PATCH', `${BASE}/${id}`, { key: t.apiKey, body: { isActive: true } });
    expect(response.status).toBe(200);
    expect(response.body.webhook.isActive).toBe(true);
    expect(await t.deps.storage.getWebhook(t.workspace.id, id)).toMatchObject({ isActive: true, failingSince: null });
  });

  test('DELETE removes the webhook: 200, then GET is 404 and the list is empty', async () => {
    const created = await create({ url: 'https://hooks.example.com/bye' });
    const id = created.body.webhook.id;
    const response = await t.request('DELETE', `${BASE}/${id}`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    const read = await t.request('GET', `${BASE}/${id}`, { key: t.apiKey });
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ success: false, error: `webhook ${id} not found`, code: 'NOT_FOUND' });
    expect((await t.request('GET', BASE, { key: t.apiKey })).body).toEqual({ success: true, webhooks: [] });
  });

  test('POST /test queues one webhook.test message for that webhook only, with the documented body', async () => {
    const target = await create({ url: 'https://hooks.example.com/target', events: ['booking.created'] });
    await create({ url: 'https://hooks.example.com/other' });
    const response = await t.request('POST', `${BASE}/${target.body.webhook.id}/test`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, messageId: expect.stringMatching(/^msg_[0-9a-z]{26}$/) });
    const message = await t.deps.storage.getMessage(response.body.messageId);
    expect(message).toEqual({
      id: response.body.messageId,
      webhookId: target.body.webhook.id,
      workspaceId: t.workspace.id,
      eventType: 'webhook.test',
      body: expect.any(String),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: t.clock.now(),
      createdAt: t.clock.now(),
      deliveredAt: null,
    });
    expect(JSON.parse(message!.body)).toEqual({
      type: 'webhook.test',
      timestamp: '2026-11-23T08:00:00.000Z',
      data: { workspace: 'acme', webhook: { id: target.body.webhook.id, url: 'https://hooks.example.com/target' } },
    });
  });

  test('POST /test works on an inactive webhook too', async () => {
    const created = await create({ url: 'https://hooks.example.com/off' });
    await t.request('PATCH', `${BASE}/${created.body.webhook.id}`, { key: t.apiKey, body: { isActive: false } });
    const response = await t.request('POST', `${BASE}/${created.body.webhook.id}/test`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect((await t.deps.storage.getMessage(response.body.messageId))?.webhookId).toBe(created.body.webhook.id);
  });

  test('GET /deliveries of a webhook never attempted -> empty list', async () => {
    const created = await create({ url: 'https://hooks.example.com/quiet' });
    const response = await t.request('GET', `${BASE}/${created.body.webhook.id}/deliveries`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, deliveries: [] });
  });
});

describeEachAdapter('webhook deliveries route', (adapter) => {
  let t: WebhookTestApp;
  let receiver: Receiver;

  beforeEach(async () => {
    t = await createWebhookTestApp(adapter, { config: { SVC_WEBHOOK_RETRY_SCHEDULE: '60,120' } });
    receiver = startReceiver();
  });
  afterEach(async () => {
    await t.close();
    await receiver.stop();
  });

  test('GET /deliveries lists every attempt newest first with status, error, duration and next retry; limit keeps the newest', async () => {
    const hook = await t.createWebhook(receiver.url);
    receiver.reply((_receipt, index) => new Response(null, { status: index === 0 ? 500 : 204 }));
    const sent = await t.request('POST', `/api/v1/workspaces/acme/webhooks/${hook.id}/test`, { key: t.apiKey });
    const start = t.clock.now();
    expect(await t.dispatcher.runOnce()).toBe(1);
    t.clock.advance(60_000);
    expect(await t.dispatcher.runOnce()).toBe(1);

    const response = await t.request('GET', `/api/v1/workspaces/acme/webhooks/${hook.id}/deliveries`, { key: t.apiKey });
    expect(response.status).toBe(200);
    const attempt = (at: number, statusCode: number, nextRetryAt: string | null) => ({
      id: expect.stringMatching(/^att_[0-9a-z]{26}$/),
      messageId: sent.body.messageId,
      eventType: 'webhook.test',
      attemptedAt: new Date(at).toISOString(),
      statusCode,
      error: null,
      durationMs: expect.any(Number),
      nextRetryAt,
    });
    expect(response.body).toEqual({
      success: true,
      deliveries: [attempt(start + 60_000, 204, null), attempt(start, 500, new Date(start + 60_000).toISOString())],
    });
    const limited = await t.request('GET', `/api/v1/workspaces/acme/webhooks/${hook.id}/deliveries?limit=1`, { key: t.apiKey });
    expect(limited.status).toBe(200);
    expect(limited.body).toEqual({ success: true, deliveries: [response.body.deliveries[0]] });
  });
});
