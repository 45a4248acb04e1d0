import { afterEach, describe, expect, test } from 'bun:test';
import type { RunningServer } from '../../src/server.ts';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { freePort, startServe, type ServeProcess } from '../support/process.ts';
import { startTestServer } from '../support/server.ts';
import { createTestDatabase, describeEachAdapter, POSTGRES_URL, type TestDatabase } from '../support/storage.ts';
import { gate, startReceiver, verify, workdayAt, type Receiver } from './support.ts';
import { waitFor } from '../support/wait.ts';

/*
 * The delivery loop inside real servers: `svc serve` processes killed with SIGKILL and restarted, two
 * processes sharing one Postgres, and the in-process server's shutdown.
 */

const SERVE_ENV = { SVC_WEBHOOK_ALLOW_PRIVATE: 'true', SVC_DEMO: 'false', LOG_LEVEL: 'debug' };

async function call(baseUrl: string, method: string, path: string, options: { key?: string; body?: unknown } = {}) {
  const response = await fetch(`${baseUrl}/api/v1/workspaces/acme${path}`, {
    method,
    headers: { ...(options.key ? { 'x-svc-api-key': options.key } : {}), ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = (await response.json()) as any;
  if (response.status !== 200) throw new Error(`${method} ${path} -> ${response.status} ${JSON.stringify(body)}`);
  return body;
}

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => {});
});

function killOnCleanup(server: ServeProcess) {
  cleanup.push(async () => {
    if (server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.child.exited;
    }
  });
  return server;
}

async function setup(adapter: 'libsql' | 'postgres') {
  const db = await createTestDatabase(adapter);
  cleanup.push(() => db.drop());
  const { apiKey } = await createWorkspace({ storage: db.storage, clock: systemClock }, { slug: 'acme', name: 'Acme Studio', timezone: 'Europe/Berlin' });
  return { db, apiKey };
}

describeEachAdapter('svc serve: webhook messages survive kill -9', (adapter) => {
  test('messages due while the receiver is down are all delivered, exactly as stored, by the restarted server', async () => {
    const { db, apiKey } = await setup(adapter);
    const receiverPort = freePort();
    const env = { ...db.env, ...SERVE_ENV, SVC_WEBHOOK_RETRY_SCHEDULE: '4,4,4,4,4,4,4,4' };
    const first = killOnCleanup(await startServe({ env }));

    const hook = (await call(first.url, 'POST', '/webhooks', { key: apiKey, body: { url: `http://127.0.0.1:${receiverPort}/hooks` } })).webhook;
    const provider = (await call(first.url, 'POST', '/providers', { key: apiKey, body: { name: 'Robin' } })).provider;
    const service = (
      await call(first.url, 'POST', '/services', {
        key: apiKey,
        body: { name: 'Massage', duration: 30, price: 40, currency: 'EUR', providerIds: [provider.id] },
      })
    ).service;
    for (const time of ['10:00', '10:30', '11:00', '11:30', '12:00']) {
      await call(first.url, 'POST', '/bookings', { key: apiKey, body: { serviceId: service.id, email: 'ada@example.com', date: workdayAt(Date.now(), time) } });
      await call(first.url, 'POST', `/webhooks/${hook.id}/test`, { key: apiKey });
    }
    // Every message has been tried once (the receiver is down) and waits for its retry: kill the process now.
    await waitFor(
      async () => {
        const { deliveries } = await call(first.url, 'GET', `/webhooks/${hook.id}/deliveries?limit=100`, { key: apiKey });
        return new Set(deliveries.map((delivery: { messageId: string }) => delivery.messageId)).size === 10;
      },
      { what: 'one attempt of each of the 10 messages' },
    );
    first.signal('SIGKILL');
    expect(await first.child.exited).not.toBe(0);

    const attempts = await db.storage.listAttempts(hook.id, 100);
    const stored = await Promise.all([...new Set(attempts.map((attempt) => attempt.messageId))].map((id) => db.storage.getMessage(id)));
    expect(stored).toHaveLength(10);
    for (const message of stored) expect(message).toMatchObject({ status: 'pending', deliveredAt: null });
    expect(stored.map((message) => message!.eventType).sort()).toEqual([...Array(5).fill('booking.created'), ...Array(5).fill('webhook.test')]);

    const receiver = startReceiver({ port: receiverPort });
    cleanup.push(() => receiver.stop());
    const second = killOnCleanup(await startServe({ env }));
    await receiver.waitFor(10, 15_000);
    // Once every message is recorded delivered nothing is left to send: the receipts are final.
    await waitFor(
      async () => (await Promise.all(stored.map((message) => db.storage.getMessage(message!.id)))).every((message) => message?.status === 'delivered'),
      { what: 'every message recorded delivered' },
    );
    expect(receiver.receipts).toHaveLength(10);
    const byId = new Map(stored.map((message) => [message!.id, message!]));
    for (const receipt of receiver.receipts) {
      expect(receipt.body).toBe(byId.get(receipt.id)!.body);
      expect(verify(hook.secret, receipt)).toEqual(JSON.parse(receipt.body));
    }
    expect(new Set(receiver.receipts.map((receipt) => receipt.id))).toEqual(new Set(byId.keys()));
    expect(await second.stop()).toBe(0);
    for (const id of byId.keys()) {
      const message = await db.storage.getMessage(id);
      expect(message).toMatchObject({ status: 'delivered', deliveredAt: expect.any(Number) });
      expect(message!.attempts).toBeGreaterThanOrEqual(2);
    }
  }, 40_000);
});

(POSTGRES_URL ? describe : describe.skip)('two svc serve processes on one Postgres', () => {
  test('deliver each of 100 messages exactly once, both taking part', async () => {
    const { db, apiKey } = await setup('postgres');
    const receiver: Receiver = startReceiver({
      reply: async () => {
        await Bun.sleep(2);
        return new Response('ok');
      },
    });
    cleanup.push(() => receiver.stop());
    const env = { ...db.env, ...SERVE_ENV };
    const [a, b] = await Promise.all([startServe({ env }), startServe({ env })]);
    killOnCleanup(a!);
    killOnCleanup(b!);

    const hook = (await call(a!.url, 'POST', '/webhooks', { key: apiKey, body: { url: receiver.url } })).webhook;
    const sent: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => call((i % 2 === 0 ? a! : b!).url, 'POST', `/webhooks/${hook.id}/test`, { key: apiKey })),
      );
      sent.push(...answers.map((answer) => answer.messageId));
    }
    await receiver.waitFor(100, 20_000);
    // Once every message is recorded delivered nothing is left to send: the receipts are final.
    await waitFor(async () => (await Promise.all(sent.map((id) => db.storage.getMessage(id)))).every((message) => message?.status === 'delivered'), {
      timeoutMs: 20_000,
      what: 'every message recorded delivered',
    });

    const counts = new Map<string, number>();
    for (const receipt of receiver.receipts) counts.set(receipt.id, (counts.get(receipt.id) ?? 0) + 1);
    expect(receiver.receipts).toHaveLength(100);
    expect(new Set(counts.keys())).toEqual(new Set(sent));
    expect([...counts.values()].filter((count) => count !== 1)).toEqual([]);
    for (const receipt of receiver.receipts.slice(0, 5)) verify(hook.secret, receipt);

    const attemptsBy = (server: ServeProcess) => server.logs().filter((line) => line.msg === 'webhook attempt' && line.status === 'delivered').length;
    expect(attemptsBy(a!) + attemptsBy(b!)).toBe(100);
    expect(attemptsBy(a!)).toBeGreaterThan(0);
    expect(attemptsBy(b!)).toBeGreaterThan(0);
    expect(await Promise.all([a!.stop(), b!.stop()])).toEqual([0, 0]);
  }, 60_000);
});

describe('startServer shutdown', () => {
  let db: TestDatabase | undefined;
  let server: RunningServer | undefined;

  afterEach(async () => {
    await server?.stop();
    await db?.drop();
    server = undefined;
    db = undefined;
  });

  test('stop() waits for a webhook delivery in flight; it is recorded before the database closes', async () => {
    db = await createTestDatabase('libsql');
    const held = gate();
    const receiver = startReceiver({
      reply: async () => {
        await held.opened;
        return new Response('ok');
      },
    });
    cleanup.push(() => receiver.stop());
    server = await startTestServer(db, { SVC_WEBHOOK_ALLOW_PRIVATE: true });
    const { apiKey } = await createWorkspace(server.deps, { slug: 'acme', name: 'Acme Studio' });
    const hook = (await call(server.url, 'POST', '/webhooks', { key: apiKey, body: { url: receiver.url } })).webhook;
    const { messageId } = await call(server.url, 'POST', `/webhooks/${hook.id}/test`, { key: apiKey });
    // The outbox write woke the loop: the delivery is in flight, held by the receiver.
    await receiver.waitFor(1, 2000);

    let stopped = false;
    const stopping = server.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    held.open();
    await stopping;
    expect(await db.storage.getMessage(messageId)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(verify(hook.secret, receiver.receipts[0]!)).toMatchObject({ type: 'webhook.test' });
  });
});
