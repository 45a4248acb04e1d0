import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Socket } from 'bun';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { connects } from '../http/raw-http.ts';
import { startServe, type ServeProcess } from '../support/process.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';
import { waitFor } from '../support/wait.ts';

/** A raw HTTP/1.1 connection that collects what the server sends and notes when it closes. */
async function openConnection(port: number) {
  let received = '';
  let closed = false;
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const wake of waiters) wake();
  };
  const socket: Socket = await Bun.connect({
    hostname: '127.0.0.1',
    port,
    socket: {
      data(_socket, chunk) {
        received += chunk.toString();
        changed();
      },
      close() {
        closed = true;
        changed();
      },
      error() {
        closed = true;
        changed();
      },
    },
  });
  const connection = {
    socket,
    get received() {
      return received;
    },
    get closed() {
      return closed;
    },
    /** the complete responses received so far (heads lower-cased), in order */
    responses(): { status: number; head: string; body: string }[] {
      const found: { status: number; head: string; body: string }[] = [];
      let rest = received;
      for (;;) {
        const end = rest.indexOf('\r\n\r\n');
        if (end < 0) return found;
        const head = rest.slice(0, end).toLowerCase();
        const length = Number(/content-length: (\d+)/.exec(head)?.[1] ?? 0);
        if (rest.length < end + 4 + length) return found;
        found.push({ status: Number(head.slice(9, 12)), head, body: rest.slice(end + 4, end + 4 + length) });
        rest = rest.slice(end + 4 + length);
      }
    },
    /** resolves once `condition` holds, or rejects after `timeoutMs` */
    async until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
      if (condition()) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`condition not met within ${timeoutMs} ms; received: ${received.slice(0, 300)}`));
        }, timeoutMs);
        const check = () => {
          if (!condition()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
  };
  return connection;
}

const CONFIG_PATH = '/api/v1/workspaces/demo/config';
/** SVC_SHUTDOWN_GRACE_SECONDS here: the slow clients hold the server until it ends */
const GRACE_SECONDS = 3;

let db: TestDatabase;
let server: ServeProcess;

beforeAll(async () => {
  db = await createTestDatabase('libsql');
  // a limit no test reaches: every request here must be answered by the route itself
  server = await startServe({ env: { ...db.env, LOG_LEVEL: 'info', SVC_RATE_LIMIT: '100000', SVC_SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS) } });
});
afterAll(async () => {
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await db.drop();
});

test('SIGTERM with 40 keep-alive requests in flight, slow clients and new connections arriving: new connections are refused, every request received is answered 200 with Connection: close, the log is written as requests are served, the slow clients are closed at the grace period and the process exits 0 within a second of it', async () => {
  // 40 keep-alive connections, each already used once
  const connections = await Promise.all(Array.from({ length: 40 }, () => openConnection(server.port)));
  for (const connection of connections) connection.socket.write(`GET ${CONFIG_PATH} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  await Promise.all(connections.map((connection) => connection.until(() => connection.responses().length === 1)));
  expect(connections.map((connection) => connection.responses()[0]!.status)).toEqual(Array(40).fill(200));
  // the request log is written as requests are served, not at exit
  const firstIds = connections.map((connection) => /x-request-id: (\S+)/.exec(connection.responses()[0]!.head)![1]);
  await server.waitForLog(() => firstIds.every((id) => server.logs().some((line) => line.msg === 'request' && line.requestId === id)));

  // each connection's second request is in flight: the server has its first line, the rest follows after SIGTERM
  for (const connection of connections) connection.socket.write(`GET ${CONFIG_PATH} HTTP/1.1\r\n`);
  // clients that opened a connection and send their request slowly (or never)
  const slowClients = await Promise.all(Array.from({ length: 5 }, () => openConnection(server.port)));
  for (const slow of slowClients) slow.socket.write('GET /healthz HTTP/1.1\r\n');
  // and a stream of new connections, each with one whole request
  let streaming = true;
  let drainLogged = false;
  const outcomes: string[] = [];
  /** what the new connections opened once svc had logged its drain got */
  const outcomesOnceDraining: string[] = [];
  const stream = Array.from({ length: 3 }, async () => {
    while (streaming) {
      const opensWhileDraining = drainLogged;
      const outcome = await fetch(`${server.url}/healthz`, { headers: { connection: 'close' } }).then(
        async (response) => `${response.status} ${await response.text()}`,
        () => 'no connection',
      );
      outcomes.push(outcome);
      if (opensWhileDraining) outcomesOnceDraining.push(outcome);
    }
  });
  // the stream is flowing: new connections are being answered
  await waitFor(() => outcomes.filter((outcome) => outcome.startsWith('200')).length >= 3);

  const signalledAt = performance.now();
  server.signal('SIGTERM');
  await server.waitForLog((line) => line.msg === 'shutting down');
  drainLogged = true;
  for (const connection of connections) connection.socket.write('Host: localhost\r\nUser-Agent: svc-tests\r\n\r\n');

  await Promise.all(connections.map((connection) => connection.until(() => connection.responses().length === 2)));
  for (const connection of connections) {
    const answer = connection.responses()[1]!;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ success: true, workspace: { name: 'Demo Hair & Wellness' } });
    // without it a keep-alive client sends its next request on a connection the server is closing, and loses it
    expect(answer.head).toContain('\r\nconnection: close');
  }

  const code = await server.stop();
  const exitedAfterMs = performance.now() - signalledAt;
  streaming = false;
  await Promise.all(stream);
  expect(code).toBe(0);
  expect(exitedAfterMs).toBeLessThan(GRACE_SECONDS * 1000 + 1500);
  expect(outcomes.length).toBeGreaterThan(0);
  for (const outcome of new Set(outcomes)) expect(['200 {"success":true,"status":"ok"}', 'no connection']).toContain(outcome);
  // new connections are refused once svc drains
  expect(outcomesOnceDraining.length).toBeGreaterThan(0);
  expect(new Set(outcomesOnceDraining)).toEqual(new Set(['no connection']));
  for (const slow of slowClients) expect(slow.closed).toBe(true);
  expect(server.logs().at(-1)).toMatchObject({ msg: 'stopped' });
}, 15_000);

test('SIGTERM while a request body is still arriving and an idle keep-alive connection is open: new connections are refused, the request is answered 200 with Connection: close and kept, the idle connection is closed, the process exits 0 within 5 s', async () => {
  const own = await createTestDatabase('libsql');
  try {
    const { apiKey } = await createWorkspace({ storage: own.storage, clock: systemClock }, { slug: 'acme', name: 'Acme' });
    const served = await startServe({ env: { ...own.env, SVC_DEMO: 'false' }, timeoutMs: 25_000 });
    const idle = await openConnection(served.port);
    idle.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await idle.until(() => idle.responses().length === 1);

    const uploading = await openConnection(served.port);
    const body = JSON.stringify({ name: 'Renamed while stopping' });
    uploading.socket.write(
      `PATCH /api/v1/workspaces/acme HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nX-Svc-Api-Key: ${apiKey}\r\n`
        + `Expect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // the server has the request once it asks for the body
    await uploading.until(() => uploading.received.includes('100 Continue'));

    const signalledAt = performance.now();
    served.signal('SIGTERM');
    await served.waitForLog((line) => line.msg === 'shutting down');
    expect(await connects(served.port)).toBe('refused');
    uploading.socket.write(body);
    await uploading.until(() => uploading.closed);
    const answer = uploading.received.slice(uploading.received.indexOf('HTTP/1.1 200'));
    expect(answer).toStartWith('HTTP/1.1 200');
    expect(answer.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(answer).toContain('"name":"Renamed while stopping"');

    expect(await served.stop()).toBe(0);
    expect(performance.now() - signalledAt).toBeLessThan(5000);
    await idle.until(() => idle.closed);
    expect(idle.responses()).toHaveLength(1);
    expect((await own.storage.getWorkspaceBySlug('acme'))?.name).toBe('Renamed while stopping');
    expect(served.logs().at(-1)).toMatchObject({ msg: 'stopped' });
  } finally {
    await own.drop();
  }
}, 40_000);
