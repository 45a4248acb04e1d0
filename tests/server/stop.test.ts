import { afterEach, expect, test } from 'bun:test';
import net from 'node:net';
import type { RunningServer } from '../../src/server.ts';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { startTestServer } from '../support/server.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';
import { waitFor } from '../support/wait.ts';

let db: TestDatabase | undefined;
let server: RunningServer | undefined;

afterEach(async () => {
  await server?.stop();
  await db?.drop();
  server = undefined;
  db = undefined;
});

async function start(options: { demo?: boolean; before?: (db: TestDatabase) => Promise<void> } = {}) {
  db = await createTestDatabase('libsql');
  await options.before?.(db);
  server = await startTestServer(db, { SVC_DEMO: options.demo ?? true });
  return server;
}

/**
 * Makes the server's own storage wait at its next workspace lookup until `open()`: a request that reaches
 * the database stays in flight, its handler suspended inside the real storage call.
 */
function holdNextWorkspaceLookup(running: RunningServer, order: string[]) {
  const storage = running.deps.storage;
  const lookup = storage.getWorkspaceBySlug.bind(storage);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let entered!: () => void;
  const reached = new Promise<void>((resolve) => (entered = resolve));
  storage.getWorkspaceBySlug = async (slug) => {
    entered();
    await gate;
    const found = await lookup(slug);
    order.push('handler read the database');
    return found;
  };
  return { reached, open };
}

test('startServer serves /healthz on the port it reports, with PORT 0 picking a free one', async () => {
  const running = await start();
  expect(running.port).toBeGreaterThan(0);
  expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
  const response = await fetch(`${running.url}/healthz`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ success: true, status: 'ok' });
});

test('stop() with a request in flight: the request completes with 200, a request arriving meanwhile is answered with Connection: close, stop resolves after its handler and the database closes only then; then connections are refused', async () => {
  const running = await start();
  const order: string[] = [];
  const held = holdNextWorkspaceLookup(running, order);
  const pending = fetch(`${running.url}/api/v1/workspaces/demo/config`).then(async (response) => ({ status: response.status, body: await response.json() }));
  await held.reached;

  const stopping = running.stop().then(() => order.push('stopped'));
  // stop() cannot resolve while the handler is held: the order recorded below shows it waited. Bun.serve cannot
  // stop listening and keep its connections open, so on Bun a new connection is still answered until stop() is
  // quiet, and told to close.
  const meanwhile = await fetch(`${running.url}/healthz`);
  expect({ status: meanwhile.status, connection: meanwhile.headers.get('connection') }).toEqual({ status: 200, connection: 'close' });

  held.open();
  const answered = await pending;
  await stopping;
  expect(answered.status).toBe(200);
  expect(answered.body).toMatchObject({ success: true, workspace: { name: 'Demo Hair & Wellness' } });
  // (the route may look the workspace up more than once; every lookup finished before stop resolved)
  expect(order.at(-1)).toBe('stopped');
  expect(order.slice(0, -1)).toContain('handler read the database');
  expect(order.filter((step) => step === 'stopped')).toHaveLength(1);
  await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
});

test('stop() keeps an idle keep-alive connection open while requests are in flight, answers a request written on it with Connection: close, and closes the connection', async () => {
  const running = await start();
  const idle = net.connect({ port: running.port, host: '127.0.0.1' });
  let answered = '';
  idle.on('data', (chunk) => (answered += chunk.toString()));
  let closed = false;
  idle.on('close', () => (closed = true));
  idle.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await waitFor(() => answered.includes('"status":"ok"'), { what: 'the answer on the keep-alive connection' });

  const held = holdNextWorkspaceLookup(running, []);
  const pending = fetch(`${running.url}/api/v1/workspaces/demo/config`);
  await held.reached;
  const stopping = running.stop();
  // a server that closed "idle" keep-alive connections at once would lose this request, written after stop()
  answered = '';
  idle.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await waitFor(() => closed, { what: 'the server to answer and close the connection' });
  expect(answered).toStartWith('HTTP/1.1 200 OK');
  expect(answered.toLowerCase()).toContain('\r\nconnection: close\r\n');
  held.open();
  expect((await pending).status).toBe(200);
  await stopping;
});

test('stop() with nothing in flight: an idle keep-alive connection is closed once quiet, well before the grace period', async () => {
  const running = await start();
  const idle = net.connect({ port: running.port, host: '127.0.0.1' });
  let answered = '';
  idle.on('data', (chunk) => (answered += chunk.toString()));
  let closed = false;
  idle.on('close', () => (closed = true));
  idle.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await waitFor(() => answered.includes('"status":"ok"'), { what: 'the answer on the keep-alive connection' });
  const stoppedAt = performance.now();
  await running.stop();
  // the grace period is 10 s
  expect(performance.now() - stoppedAt).toBeLessThan(3000);
  await waitFor(() => closed, { timeoutMs: 1000, what: 'the server to close the idle connection' });
});

test('stop() twice is one shutdown: both calls resolve', async () => {
  const running = await start();
  await Promise.all([running.stop(), running.stop()]);
  await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
});

test('stop() while a request body is still arriving: the request completes with 200 and its change is kept', async () => {
  let apiKey = '';
  const running = await start({
    demo: false,
    before: async (fresh) => {
      apiKey = (await createWorkspace({ storage: fresh.storage, clock: systemClock }, { slug: 'acme', name: 'Acme' })).apiKey;
    },
  });
  const encoder = new TextEncoder();
  let sendRest!: () => void;
  const rest = new Promise<void>((resolve) => (sendRest = resolve));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode('{"name":'));
      await rest;
      controller.enqueue(encoder.encode('"Renamed while stopping"}'));
      controller.close();
    },
  });
  // The server has taken the request once its access step counts it, before the body is read.
  const limiter = running.deps.rateLimiter;
  const countRequest = limiter.hit.bind(limiter);
  const taken = new Promise<void>((resolve) => {
    limiter.hit = (...args) => {
      resolve();
      return countRequest(...args);
    };
  });
  const pending = fetch(`${running.url}/api/v1/workspaces/acme`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', 'x-svc-api-key': apiKey },
    body,
    duplex: 'half',
  } as RequestInit).then(async (response) => ({ status: response.status, body: await response.json() }));
  await taken;

  let stopped = false;
  const stopping = running.stop().then(() => (stopped = true));
  // answered while stop() waits for the rest of the body
  expect((await fetch(`${running.url}/healthz`)).headers.get('connection')).toBe('close');
  expect(stopped).toBe(false);

  sendRest();
  const answered = await pending;
  await stopping;
  expect(answered).toEqual({
    status: 200,
    body: expect.objectContaining({ success: true, workspace: expect.objectContaining({ slug: 'acme', name: 'Renamed while stopping' }) }),
  });
  expect((await db!.storage.getWorkspaceBySlug('acme'))!.name).toBe('Renamed while stopping');
});
