import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import net from 'node:net';
import { connects, headOf } from '../http/raw-http.ts';
import { denoMissing, startServe } from '../support/process.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';

/*
 * While `svc serve` drains after SIGTERM, /readyz answers 503 so that a load balancer stops sending it work
 * (docs/contract/operations.md §8, §9), while the requests on its open connections are still answered.
 */

/** A keep-alive connection that sends requests one at a time and collects the answers' raw text. */
function keepAlive(port: number) {
  const socket = net.connect({ port, host: '127.0.0.1' });
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => {});
  const answered = (count: number) => received.split('HTTP/1.1 ').length - 1 >= count && received.endsWith('}');
  return {
    async get(path: string, answers: number): Promise<string> {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      const deadline = performance.now() + 5000;
      while (!answered(answers)) {
        if (performance.now() > deadline) throw new Error(`no answer to ${path}; received ${received}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return received.slice(received.lastIndexOf('HTTP/1.1 '));
    },
    close: () => socket.destroy(),
  };
}

(denoMissing() ? describe.skip : describe)('/readyz while draining on deno', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('libsql');
  });
  afterAll(() => db.drop());

  test('ready before SIGTERM; 503 UNAVAILABLE with Retry-After and Connection: close on an open connection after it', async () => {
    const server = await startServe({ runtime: 'deno', timeoutMs: 25_000, env: { ...db.env, SVC_DEMO: 'false', LOG_LEVEL: 'info' } });
    const connection = keepAlive(server.port);
    try {
      const ready = await connection.get('/readyz', 1);
      expect(headOf(ready).status).toBe(200);
      server.signal('SIGTERM');
      await server.waitForLog((line) => line.msg === 'shutting down');
      const draining = await connection.get('/readyz', 2);
      const { status, headers } = headOf(draining);
      expect({ status, retryAfter: headers['retry-after'], connection: headers.connection }).toEqual({ status: 503, retryAfter: '5', connection: 'close' });
      expect(JSON.parse(draining.slice(draining.indexOf('\r\n\r\n') + 4))).toEqual({ success: false, error: 'svc is shutting down', code: 'UNAVAILABLE' });
      expect(await server.stop()).toBe(0);
    } finally {
      connection.close();
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 40_000);
});

// Bun.serve closes its idle keep-alive connections when it stops listening (docs/contract/operations.md §9): after
// its short read window a balancer learns of the drain by a refused connection, not by a 503 on an open one.
describe('/readyz while draining on bun', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('libsql');
  });
  afterAll(() => db.drop());

  test('ready before SIGTERM; once svc says it is shutting down, a health check on a new connection is refused', async () => {
    const server = await startServe({ runtime: 'bun', timeoutMs: 25_000, env: { ...db.env, SVC_DEMO: 'false', LOG_LEVEL: 'info' } });
    const connection = keepAlive(server.port);
    try {
      expect(headOf(await connection.get('/readyz', 1)).status).toBe(200);
      server.signal('SIGTERM');
      await server.waitForLog((line) => line.msg === 'shutting down');
      expect(await connects(server.port)).toBe('refused');
      expect(await server.stop()).toBe(0);
    } finally {
      connection.close();
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 40_000);
});
