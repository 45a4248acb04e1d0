import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import net from 'node:net';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { denoMissing, startServe, type ServeProcess } from '../support/process.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';
import { headOf, unfinishedLargeBodies, untilClosed } from './raw-http.ts';

/*
 * How `svc serve` ends connections whose request it will not read to the end, on Bun and on Deno, over raw
 * sockets (docs/contract/limits.md §5): a 413 closes at once; a request head that stops arriving, or trickles
 * in and never ends, is closed after the idle timeout (10 s), with a 408 where the runtime lets svc write one.
 */

const missingDeno = denoMissing();
const BODY_TOO_LARGE = { success: false, error: 'request body must be at most 64 KiB', code: 'PAYLOAD_TOO_LARGE' };

/** Writes half a request head and then one more header byte a second, never ending the head. */
function trickledHead(port: number, giveUpMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: '));
    const drip = setInterval(() => socket.writable && socket.write('x'), 1000);
    const chunks: Buffer[] = [];
    const gaveUp = setTimeout(() => {
      clearInterval(drip);
      socket.destroy();
      reject(new Error(`the trickled head was still open after ${giveUpMs} ms`));
    }, giveUpMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(gaveUp);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

for (const runtime of ['bun', 'deno'] as const) {
  (runtime === 'deno' && missingDeno ? describe.skip : describe)(`connection edges on ${runtime}`, () => {
    let db: TestDatabase;
    let server: ServeProcess;
    let apiKey: string;

    beforeAll(async () => {
      db = await createTestDatabase('libsql');
      server = await startServe({ runtime, timeoutMs: 25_000, env: { ...db.env, SVC_DEMO: 'false', LOG_LEVEL: 'warn' } });
      ({ apiKey } = await createWorkspace({ storage: db.storage, clock: systemClock }, { slug: 'acme', name: 'Acme Studio' }));
    }, 30_000);
    afterAll(async () => {
      await server?.stop();
      await db?.drop();
    });

    test('a body over 64 KiB that never finishes arriving: 413 with Connection: close, and the connection closes at once', async () => {
      for (const [framing, request] of Object.entries(unfinishedLargeBodies('/api/v1/workspaces/acme/services', apiKey))) {
        const started = performance.now();
        const answer = await untilClosed(server.port, request, 3000);
        const { status, headers } = headOf(answer);
        expect({ framing, status, connection: headers.connection, body: bodyOf(answer) }).toEqual({
          framing,
          status: 413,
          connection: 'close',
          body: BODY_TOO_LARGE,
        });
        expect(performance.now() - started).toBeLessThan(3000);
      }
    });

    test('a request head that stops arriving, and one that trickles in and never ends, are closed after the idle timeout', async () => {
      const started = performance.now();
      const [halfHead, trickled] = await Promise.all([
        untilClosed(server.port, 'GET /healthz HTTP/1.1\r\nHost: loc', 15_000),
        trickledHead(server.port, 15_000),
      ]);
      expect(performance.now() - started).toBeGreaterThanOrEqual(9_000);
      if (runtime === 'deno') {
        // svc owns the sockets there: it answers 408 with the contract's body before closing
        for (const answer of [halfHead, trickled]) {
          const { status, headers } = headOf(answer);
          expect({ status, connection: headers.connection, body: bodyOf(answer) }).toEqual({
            status: 408,
            connection: 'close',
            body: { success: false, error: 'the request did not arrive in time', code: 'VALIDATION_ERROR' },
          });
        }
      } else {
        // Bun.serve's parser holds a head until it is whole and runs no JavaScript before: it closes them itself,
        // without an answer (docs/contract/limits.md §5)
        expect([halfHead, trickled]).toEqual(['', '']);
      }
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
    }, 30_000);
  });
}
