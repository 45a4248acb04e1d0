import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import net from 'node:net';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { denoMissing, startServe, type ServeProcess } from '../support/process.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';
import { workdayAt } from '../webhooks/support.ts';

/*
 * SIGTERM while every keep-alive connection has a request written that the server may not have read yet: svc
 * answers each one before it exits 0, on Bun and on Deno (those it reads after the signal with `Connection:
 * close`, which tests/server/shutdown.test.ts checks).
 * A server that closes "idle" keep-alive connections as soon as it is told to stop loses those requests.
 */

const CONNECTIONS = 100;
const ROUNDS = 5;

interface Answer {
  status: number;
  head: string;
  body: string;
}

/** A raw keep-alive connection that collects what the server sends and notes when it closes. */
async function openConnection(port: number) {
  const socket = net.connect({ port, host: '127.0.0.1' });
  let received = '';
  let closed = false;
  let wake = () => {};
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    wake();
  });
  // a reset ends the connection as a close does: 'close' follows it
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
    wake();
  });
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return {
    write: (bytes: string) => socket.write(bytes),
    get closed() {
      return closed;
    },
    /** the complete answers received so far (heads lower-cased), in order */
    answers(): Answer[] {
      const found: Answer[] = [];
      let rest = received;
      for (;;) {
        const end = rest.indexOf('\r\n\r\n');
        if (end < 0) return found;
        const head = rest.slice(0, end).toLowerCase();
        const length = Number(/content-length: *(\d+)/.exec(head)?.[1] ?? 0);
        if (rest.length < end + 4 + length) return found;
        found.push({ status: Number(head.slice(9, 12)), head, body: rest.slice(end + 4, end + 4 + length) });
        rest = rest.slice(end + 4 + length);
      }
    },
    /** resolves once `condition` holds, or rejects after `timeoutMs` */
    until(condition: () => boolean, timeoutMs: number): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`condition not met within ${timeoutMs} ms; received: ${received.slice(0, 300)}`)), timeoutMs);
        wake = () => {
          if (!condition()) return;
          clearTimeout(timer);
          resolve();
        };
        wake();
      });
    },
  };
}

type Connection = Awaited<ReturnType<typeof openConnection>>;

/**
 * Opens CONNECTIONS keep-alive connections to `server`, each used once (GET /healthz), writes `request(index)`
 * on every one and sends SIGTERM at once. Resolves with each connection's second answer (undefined: lost) and
 * svc's exit code, once every connection has closed.
 */
async function signalWithRequestsWritten(server: ServeProcess, request: (index: number) => string) {
  const connections: Connection[] = await Promise.all(Array.from({ length: CONNECTIONS }, () => openConnection(server.port)));
  for (const connection of connections) connection.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await Promise.all(connections.map((connection) => connection.until(() => connection.answers().length === 1, 10_000)));
  expect(connections.map((connection) => connection.answers()[0]!.status)).toEqual(Array(CONNECTIONS).fill(200));

  for (const [index, connection] of connections.entries()) connection.write(request(index));
  server.signal('SIGTERM');

  // svc closes every connection once it has answered there (or, having lost a request, without an answer)
  await Promise.all(connections.map((connection) => connection.until(() => connection.closed, 15_000)));
  const code = await server.stop();
  return { code, answers: connections.map((connection) => connection.answers()[1]) };
}

const runtimes = ['bun', 'deno'] as const;

for (const runtime of runtimes) {
  const skip = runtime === 'deno' ? denoMissing() : null;
  (skip ? describe.skip : describe)(`svc serve on ${runtime}: SIGTERM with a request written on each of ${CONNECTIONS} keep-alive connections`, () => {
    let db: TestDatabase;
    let apiKey = '';
    let workspaceId = '';
    const start = () =>
      startServe({
        runtime,
        // the first start of Deno on a machine compiles the sources
        timeoutMs: 25_000,
        env: { ...db.env, SVC_DEMO: 'true', LOG_LEVEL: 'warn', SVC_RATE_LIMIT: '1000000' },
      });

    beforeAll(async () => {
      db = await createTestDatabase('libsql');
      ({
        apiKey,
        workspace: { id: workspaceId },
      } = await createWorkspace({ storage: db.storage, clock: systemClock }, { slug: 'acme', name: 'Acme', timezone: 'Europe/Berlin' }));
    });
    afterAll(async () => {
      await db.drop();
    });

    for (let round = 1; round <= ROUNDS; round++) {
      test(`round ${round}: every GET is answered 200, none lost, every connection closed by svc, exit 0`, async () => {
        const server = await start();
        const { code, answers } = await signalWithRequestsWritten(server, () => 'GET /api/v1/workspaces/demo/config HTTP/1.1\r\nHost: localhost\r\n\r\n');
        const lost = answers.filter((answer) => answer === undefined).length;
        expect({ lost, code }).toEqual({ lost: 0, code: 0 });
        for (const answer of answers) {
          expect(answer!.status).toBe(200);
          expect(JSON.parse(answer!.body)).toMatchObject({ success: true, workspace: { slug: 'demo' } });
        }
      }, 40_000);
    }

    test(`${ROUNDS} rounds of POST /bookings: every booking written got an answer, and the bookings stored are exactly those answered 2xx`, async () => {
      const setup = await start();
      const call = async (method: string, path: string, body: unknown) => {
        const response = await fetch(`${setup.url}/api/v1/workspaces/acme${path}`, {
          method,
          headers: { 'x-svc-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(200);
        return (await response.json()) as any;
      };
      const provider = (await call('POST', '/providers', { name: 'Robin', email: 'robin@example.com' })).provider;
      const service = (await call('POST', '/services', { name: 'Class', duration: 60, price: 0, currency: 'EUR', capacity: 1000, providerIds: [provider.id] }))
        .service;
      const day = [{ start: '08:00', end: '18:00' }];
      await call('PUT', '/schedule', { weekly: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: [], sun: [] }, exceptions: [] });
      expect(await setup.stop()).toBe(0);

      const date = workdayAt(Date.now(), '10:00');
      const stored = async () => (await db.storage.listBookings(workspaceId, { serviceId: service.id, limit: 10_000 })).length;
      for (let round = 1; round <= ROUNDS; round++) {
        const before = await stored();
        const server = await start();
        const { code, answers } = await signalWithRequestsWritten(server, (index) => {
          const body = JSON.stringify({ serviceId: service.id, email: `guest-${round}-${index}@example.com`, name: `Guest ${index}`, date });
          return [
            'POST /api/v1/workspaces/acme/bookings HTTP/1.1',
            'Host: localhost',
            `x-svc-api-key: ${apiKey}`,
            'Content-Type: application/json',
            `Content-Length: ${Buffer.byteLength(body)}`,
            '',
            body,
          ].join('\r\n');
        });
        const lost = answers.filter((answer) => answer === undefined).length;
        const created = answers.filter((answer) => answer !== undefined && answer.status >= 200 && answer.status < 300).length;
        expect({ round, lost, code, statuses: [...new Set(answers.map((answer) => answer?.status))] }).toEqual({ round, lost: 0, code: 0, statuses: [200] });
        expect({ round, stored: (await stored()) - before }).toEqual({ round, stored: created });
      }
    }, 180_000);
  });
}
