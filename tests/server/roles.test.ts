import { afterEach, describe, expect, test } from 'bun:test';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { freePort, startServe, type ServeProcess } from '../support/process.ts';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from '../support/storage.ts';
import { startReceiver, type Receiver } from '../webhooks/support.ts';
import { call, createCatalogue, slotAt } from './ops-support.ts';

/*
 * svc serve --role web | worker on one PostgreSQL database (docs/contract/operations.md §12): the web instance
 * serves the API and delivers nothing; the worker delivers and answers only the operations routes.
 */

const ENV = { SVC_WEBHOOK_ALLOW_PRIVATE: 'true', SVC_DEMO: 'false', LOG_LEVEL: 'debug' };

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => {});
});

async function serve(env: Record<string, string>, role: string): Promise<ServeProcess> {
  const port = freePort();
  const server = await startServe({ env, port, args: ['--port', String(port), '--host', '127.0.0.1', '--role', role] });
  cleanup.push(async () => {
    if (server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.child.exited;
    }
  });
  return server;
}

/** Resolves once `check` has held on every look for `ms`; rejects as soon as it fails once. */
async function holdsFor(ms: number, check: () => Promise<boolean>, what: string): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (!(await check())) throw new Error(`no longer true: ${what}`);
    await Bun.sleep(100);
  }
}

const attempts = (server: ServeProcess) => server.logs().filter((line) => line.msg === 'webhook attempt');
const bookingIdOf = (receipt: { body: string }) => (JSON.parse(receipt.body) as { data: { booking?: { id: string } } }).data.booking?.id;

describe.skipIf(!POSTGRES_URL)('svc serve --role web and --role worker on one PostgreSQL', () => {
  let db: TestDatabase;
  let receiver: Receiver;

  test('a booking made through web is delivered by the worker; with the worker stopped its webhook stays pending until a worker runs again', async () => {
    db = await createTestDatabase('postgres');
    cleanup.push(() => db.drop());
    receiver = startReceiver();
    cleanup.push(() => receiver.stop());
    const { apiKey } = await createWorkspace({ storage: db.storage, clock: systemClock }, { slug: 'acme', name: 'Acme Studio', timezone: 'Europe/Berlin' });
    const env = { ...db.env, ...ENV };
    const web = await serve(env, 'web');
    const worker = await serve(env, 'worker');
    expect(web.logs().find((line) => line.msg === 'svc listening')).toMatchObject({ role: 'web' });
    expect(worker.logs().find((line) => line.msg === 'svc listening')).toMatchObject({ role: 'worker' });

    // The worker answers the operations routes only.
    expect((await fetch(`${worker.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${worker.url}/readyz`)).status).toBe(200);
    const refused = await fetch(`${worker.url}/api/v1/workspaces/acme`, { headers: { 'x-svc-api-key': apiKey } });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ success: false, error: 'route not found', code: 'NOT_FOUND' });
    expect((await fetch(`${worker.url}/book/acme`)).status).toBe(404);

    const hook = (await call(web.url, 'POST', '/webhooks', { key: apiKey, body: { url: receiver.url, events: ['booking.created'] } })).webhook;
    const { service } = await createCatalogue(web.url, apiKey);
    const first = (await call(web.url, 'POST', '/bookings', { key: apiKey, body: { serviceId: service.id, email: 'ada@example.com', date: slotAt(0) } }))
      .booking;
    const [delivered] = await receiver.waitFor(1, 10_000);
    expect(bookingIdOf(delivered!)).toBe(first.id);
    await worker.waitForLog((line) => line.msg === 'webhook attempt' && line.status === 'delivered');
    expect(attempts(worker)).toHaveLength(1);

    // Without a worker, a booking's webhook waits: the web instance does not send it (an `all` instance would at once).
    expect(await worker.stop()).toBe(0);
    const second = (await call(web.url, 'POST', '/bookings', { key: apiKey, body: { serviceId: service.id, email: 'bo@example.com', date: slotAt(1) } }))
      .booking;
    await holdsFor(3000, async () => receiver.receipts.length === 1 && (await db.storage.nextDueAt()) !== null, 'one receipt, a message pending');
    expect(attempts(web)).toEqual([]);
    expect(web.logs().filter((line) => line.msg === 'job ran')).toEqual([]);

    const again = await serve(env, 'worker');
    const receipts = await receiver.waitFor(2, 10_000);
    expect(bookingIdOf(receipts[1]!)).toBe(second.id);
    await again.waitForLog((line) => line.msg === 'webhook attempt' && line.status === 'delivered');
    expect(attempts(again)).toHaveLength(1);
    expect(attempts(web)).toEqual([]);
    expect(hook.id).toMatch(/^wh_/);
    expect(await Promise.all([web.stop(), again.stop()])).toEqual([0, 0]);
  }, 60_000);
});
