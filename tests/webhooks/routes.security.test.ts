import { afterEach, beforeEach, expect, test } from 'bun:test';
import { ensureDemoWorkspace } from '../../src/features/demo/seed.ts';
import { openSigningSecret } from '../../src/platform/sealed-secrets.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';

const BASE = '/api/v1/workspaces/acme/webhooks';

/** Every webhook route, with a body where it takes one. */
function routes(webhookId: string): [method: string, path: string, body?: unknown][] {
  return [
    ['GET', BASE],
    ['POST', BASE, { url: 'https://hooks.example.com/x' }],
    ['GET', `${BASE}/${webhookId}`],
    ['PATCH', `${BASE}/${webhookId}`, { name: 'x' }],
    ['DELETE', `${BASE}/${webhookId}`],
    ['POST', `${BASE}/${webhookId}/test`],
    ['GET', `${BASE}/${webhookId}/deliveries`],
  ];
}

const PRIVATE_URLS: [url: string, reason: string][] = [
  ['http://127.0.0.1:8080/hook', '127.0.0.1 is not a public address (loopback)'],
  ['http://localhost/hook', 'localhost is not a public address (loopback)'],
  ['http://api.localhost/hook', 'api.localhost is not a public address (loopback)'],
  ['http://10.1.2.3/hook', '10.1.2.3 is not a public address (private)'],
  ['http://172.20.0.5/hook', '172.20.0.5 is not a public address (private)'],
  ['http://192.168.0.10/hook', '192.168.0.10 is not a public address (private)'],
  ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is not a public address (link-local)'],
  ['http://100.64.0.7/hook', '100.64.0.7 is not a public address (carrier-grade NAT)'],
  ['http://0.0.0.0/hook', '0.0.0.0 is not a public address (unspecified)'],
  ['http://[::1]/hook', '::1 is not a public address (loopback)'],
  ['http://[fd12:3456::1]/hook', 'fd12:3456::1 is not a public address (unique-local)'],
  ['http://[fe80::1]/hook', 'fe80::1 is not a public address (link-local)'],
  ['http://[::]/hook', ':: is not a public address (unspecified)'],
  ['http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1 is not a public address (loopback)'],
  ['http://2130706433/hook', '127.0.0.1 is not a public address (loopback)'],
  ['http://0x7f.1/hook', '127.0.0.1 is not a public address (loopback)'],
];

describeEachAdapter('webhook routes, security', (adapter) => {
  let t: TestApp;
  let webhookId: string;

  beforeEach(async () => {
    t = await createTestApp(adapter);
    const created = await t.request('POST', BASE, { key: t.apiKey, body: { url: 'https://hooks.example.com/acme' } });
    webhookId = created.body.webhook.id;
  });
  afterEach(async () => {
    await t.close();
  });

  test('every webhook route without an API key -> 401, nothing changed', async () => {
    for (const [method, path, body] of routes(webhookId)) {
      const response = await t.request(method, path, { body });
      expect([method, path, response.status]).toEqual([method, path, 401]);
      expect(response.body).toEqual({ success: false, error: 'missing API key: send it in the x-svc-api-key header', code: 'UNAUTHORIZED' });
    }
    expect(await t.deps.storage.listWebhooks(t.workspace.id)).toEqual([expect.objectContaining({ id: webhookId, name: null, isActive: true })]);
  });

  test('every webhook route with a wrong key -> 401', async () => {
    for (const [method, path, body] of routes(webhookId)) {
      const response = await t.request(method, path, { body, key: 'svc_live_not-a-real-key' });
      expect([method, path, response.status]).toEqual([method, path, 401]);
      expect(response.body).toEqual({ success: false, error: 'invalid API key', code: 'UNAUTHORIZED' });
    }
  });

  test("every webhook route with another workspace's key -> 401", async () => {
    const other = await createWorkspace(t.deps, { slug: 'other', name: 'Other' });
    for (const [method, path, body] of routes(webhookId)) {
      const response = await t.request(method, path, { body, key: other.apiKey });
      expect([method, path, response.status]).toEqual([method, path, 401]);
      expect(response.body).toEqual({ success: false, error: 'invalid API key', code: 'UNAUTHORIZED' });
    }
  });

  test('unknown slug -> 404 before the key is looked at', async () => {
    for (const [method, path, body] of routes(webhookId)) {
      const response = await t.request(method, path.replace('/acme/', '/nope/'), { body });
      expect([method, response.status]).toEqual([method, 404]);
      expect(response.body).toEqual({ success: false, error: 'workspace nope not found', code: 'NOT_FOUND' });
    }
  });

  test("a webhook of another workspace is not found with this workspace's key", async () => {
    const other = await createWorkspace(t.deps, { slug: 'other', name: 'Other' });
    const theirs = await t.request('POST', '/api/v1/workspaces/other/webhooks', { key: other.apiKey, body: { url: 'https://hooks.example.com/other' } });
    const id = theirs.body.webhook.id;
    for (const [method, path, body] of routes(id).slice(2)) {
      const response = await t.request(method, path, { body, key: t.apiKey });
      expect([method, path, response.status]).toEqual([method, path, 404]);
      expect(response.body).toEqual({ success: false, error: `webhook ${id} not found`, code: 'NOT_FOUND' });
    }
    expect(await t.deps.storage.getWebhook(other.workspace.id, id)).toMatchObject({ name: null, url: 'https://hooks.example.com/other', isActive: true });
  });

  test('the demo workspace lists no webhooks without a key (its keyless reads stop at webhooks)', async () => {
    await ensureDemoWorkspace(t.deps);
    const response = await t.request('GET', '/api/v1/workspaces/demo/webhooks');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
  });

  test('the secret appears only in the POST answer: never in GET, list, PATCH or deliveries', async () => {
    const created = await t.request('POST', BASE, { key: t.apiKey, body: { url: 'https://hooks.example.com/s' } });
    const { secret } = created.body.webhook;
    const id = created.body.webhook.id;
    const answers = await Promise.all([
      t.request('GET', BASE, { key: t.apiKey }),
      t.request('GET', `${BASE}/${id}`, { key: t.apiKey }),
      t.request('PATCH', `${BASE}/${id}`, { key: t.apiKey, body: { name: 'renamed' } }),
      t.request('GET', `${BASE}/${id}/deliveries`, { key: t.apiKey }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain('secret');
      expect(text).not.toContain(secret.slice('whsec_'.length));
    }
  });

  test('the secret is stored sealed (AES-256-GCM under SVC_SECRET, bound to the webhook), never in clear', async () => {
    const created = await t.request('POST', BASE, { key: t.apiKey, body: { url: 'https://hooks.example.com/sealed' } });
    const { secret, id } = created.body.webhook;
    const record = (await t.deps.storage.getWebhook(t.workspace.id, id))!;
    expect(record.secret).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(record.secret).not.toContain(secret.slice('whsec_'.length, 20));
    expect(Buffer.from(record.secret.split('.')[2]!, 'base64url').toString('latin1')).not.toContain('whsec_');
    expect(await openSigningSecret(record.secret, t.deps.config.SVC_SECRET!, id)).toBe(secret);
    await expect(openSigningSecret(record.secret, 'another-secret-another-secret-another-secret', id)).rejects.toThrow('does not open');
    await expect(openSigningSecret(record.secret, t.deps.config.SVC_SECRET!, webhookId)).rejects.toThrow('does not open');
  });

  for (const [url, reason] of PRIVATE_URLS) {
    test(`POST ${url} -> 400: not a public address (without SVC_WEBHOOK_ALLOW_PRIVATE)`, async () => {
      const response = await t.request('POST', BASE, { key: t.apiKey, body: { url } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: `url must point to a public host: ${reason} (private networks are allowed only with SVC_WEBHOOK_ALLOW_PRIVATE=true)`,
        code: 'VALIDATION_ERROR',
      });
    });
  }

  test('PATCH to a private url -> 400, url unchanged', async () => {
    const response = await t.request('PATCH', `${BASE}/${webhookId}`, { key: t.apiKey, body: { url: 'http://192.168.1.1/admin' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(
      'url must point to a public host: 192.168.1.1 is not a public address (private) (private networks are allowed only with SVC_WEBHOOK_ALLOW_PRIVATE=true)',
    );
    expect((await t.deps.storage.getWebhook(t.workspace.id, webhookId))?.url).toBe('https://hooks.example.com/acme');
  });
});

describeEachAdapter('webhook routes with SVC_WEBHOOK_ALLOW_PRIVATE', (adapter) => {
  test('private and loopback URLs are accepted when the server allows them', async () => {
    const t = await createTestApp(adapter, { config: { SVC_WEBHOOK_ALLOW_PRIVATE: true } });
    try {
      for (const url of ['http://127.0.0.1:9000/hook', 'http://localhost:9000/hook', 'http://10.0.0.8/hook', 'http://[::1]:9000/hook']) {
        const response = await t.request('POST', BASE, { key: t.apiKey, body: { url } });
        expect([url, response.status]).toEqual([url, 200]);
        expect(response.body.webhook.url).toBe(new URL(url).href);
      }
    } finally {
      await t.close();
    }
  });
});
