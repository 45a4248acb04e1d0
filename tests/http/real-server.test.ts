import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { RunningServer } from '../../src/server.ts';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { startTestServer } from '../support/server.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';
import { headOf, quietConnections, rawRequest, postAfterContinue, unfinishedLargeBodies, untilClosed } from './raw-http.ts';

/*
 * What a probe of the running server found, checked against `svc serve`'s own Bun.serve over raw sockets:
 * these requests cannot be built with `fetch` (a Host of one letter, no Host, another source address, bytes
 * Bun's parser refuses).
 */

const LIMIT = 3;
const RATE_LIMITED = {
  success: false,
  error: expect.stringMatching(/^rate limit of 3 requests per minute exceeded; retry in \d+ seconds$/),
  code: 'RATE_LIMITED',
};

describe('svc serve over raw HTTP', () => {
  let db: TestDatabase;
  let server: RunningServer;
  let apiKey: string;
  const get = (path: string, headers: string[] = ['Host: localhost'], options: { localAddress?: string; version?: string } = {}) =>
    rawRequest(server.port, [`GET ${path} ${options.version ?? 'HTTP/1.1'}`, ...headers, 'Connection: close', '', ''].join('\r\n'), options);

  beforeAll(async () => {
    db = await createTestDatabase('libsql');
    server = await startTestServer(db, { SVC_RATE_LIMIT: LIMIT });
    ({ apiKey } = await createWorkspace({ storage: server.deps.storage, clock: systemClock }, { slug: 'acme', name: 'Acme Studio' }));
  });
  afterAll(async () => {
    await server.stop();
    await db.drop();
  });

  test('keyless clients at two addresses have two budgets (the socket address, not one shared "unknown")', async () => {
    // Different paths per test keep the buckets apart: each test uses its own source addresses.
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await get('/api/v1/workspaces/acme/config', ['Host: localhost'], { localAddress: '127.0.0.11' })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const other = await get('/api/v1/workspaces/acme/config', ['Host: localhost'], { localAddress: '127.0.0.12' });
    expect(other.status).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  test('X-Forwarded-For is not trusted without SVC_TRUST_PROXY: a forged header buys no budget', async () => {
    for (let i = 0; i < LIMIT; i++)
      await get('/api/v1/workspaces/acme/config', ['Host: localhost', `X-Forwarded-For: 198.51.100.${i}`], { localAddress: '127.0.0.13' });
    const forged = await get('/api/v1/workspaces/acme/config', ['Host: localhost', 'X-Forwarded-For: 198.51.100.77'], { localAddress: '127.0.0.13' });
    expect(forged.status).toBe(429);
    expect(forged.body).toEqual(RATE_LIMITED);
  });

  test('a Host of one to three characters: the request is routed by its real path and counted like any other', async () => {
    for (const host of ['a', 'ab', 'svc']) {
      const prefixed = await get('/xx/api/v1/workspaces/acme/config', [`Host: ${host}`], { localAddress: '127.0.0.14' });
      expect({ host, status: prefixed.status, body: prefixed.body }).toEqual({
        host,
        status: 404,
        body: { success: false, error: 'route not found', code: 'NOT_FOUND' },
      });
    }
    const remaining: string[] = [];
    for (const host of ['a', 'ab', 'svc']) {
      const response = await get('/api/v1/workspaces/acme/config', [`Host: ${host}`], { localAddress: '127.0.0.15' });
      expect(response.status).toBe(200);
      remaining.push(response.headers['x-ratelimit-remaining']!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    expect((await get('/api/v1/workspaces/acme/config', ['Host: a'], { localAddress: '127.0.0.15' })).status).toBe(429);
  });

  test('HTTP/1.0 without a Host header is served: /healthz, a public route, a keyed route', async () => {
    const health = await get('/healthz', [], { version: 'HTTP/1.0' });
    expect({ status: health.status, body: health.body }).toEqual({ status: 200, body: { success: true, status: 'ok' } });
    const config = await get('/api/v1/workspaces/acme/config', [], { version: 'HTTP/1.0', localAddress: '127.0.0.16' });
    expect(config.status).toBe(200);
    expect(config.body.workspace.name).toBe('Acme Studio');
    const keyed = await get('/api/v1/workspaces/acme', [`x-svc-api-key: ${apiKey}`], { version: 'HTTP/1.0', localAddress: '127.0.0.16' });
    expect(keyed.status).toBe(200);
    expect(keyed.body.workspace.slug).toBe('acme');
  });

  test("HTTP/1.1 without a Host header -> 400 (RFC 9112), Bun's parser's own answer, and the connection closes", async () => {
    const answer = await untilClosed(server.port, `GET /api/v1/workspaces/acme HTTP/1.1\r\nx-svc-api-key: ${apiKey}\r\n\r\n`, 5000);
    expect(answer).toStartWith('HTTP/1.1 400 ');
    expect(answer).not.toContain('x-request-id');
  });

  /** A workspace and key of its own, so that a test's requests have a budget of their own. */
  const freshKey = async (slug: string) => (await createWorkspace({ storage: server.deps.storage, clock: systemClock }, { slug, name: slug })).apiKey;

  test('a declared body over 64 KiB gets the contract 413 body, also past 1 MiB (no bare answer of Bun)', async () => {
    const apiKey = await freshKey('declared-bodies');
    for (const size of [70 * 1024, 2 * 1024 * 1024]) {
      const response = await rawRequest(
        server.port,
        [
          'POST /api/v1/workspaces/declared-bodies/services HTTP/1.1',
          'Host: localhost',
          `x-svc-api-key: ${apiKey}`,
          'Content-Type: application/json',
          `Content-Length: ${size}`,
          'Connection: close',
          '',
          'x'.repeat(size),
        ].join('\r\n'),
      );
      expect({ size, status: response.status, body: response.body }).toEqual({
        size,
        status: 413,
        body: { success: false, error: 'request body must be at most 64 KiB', code: 'PAYLOAD_TOO_LARGE' },
      });
    }
  });

  test('a 413 says Connection: close and closes at once, while the rest of the body is still owed (declared or chunked)', async () => {
    const apiKey = await freshKey('unfinished-bodies');
    for (const [framing, request] of Object.entries(unfinishedLargeBodies('/api/v1/workspaces/unfinished-bodies/services', apiKey))) {
      const started = performance.now();
      // the idle timeout would close it after 10 s: this closes well before
      const answer = await untilClosed(server.port, request, 3000);
      const { status, headers } = headOf(answer);
      expect({ framing, status, connection: headers.connection }).toEqual({ framing, status: 413, connection: 'close' });
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        success: false,
        error: 'request body must be at most 64 KiB',
        code: 'PAYLOAD_TOO_LARGE',
      });
      expect(performance.now() - started).toBeLessThan(3000);
    }
  });

  test('a chunked body over 64 KiB gets the contract 413 body', async () => {
    const apiKey = await freshKey('chunked-bodies');
    const chunk = 'x'.repeat(70 * 1024);
    const response = await rawRequest(
      server.port,
      [
        'POST /api/v1/workspaces/chunked-bodies/services HTTP/1.1',
        'Host: localhost',
        `x-svc-api-key: ${apiKey}`,
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
        'Connection: close',
        '',
        `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`,
      ].join('\r\n'),
    );
    expect({ status: response.status, body: response.body }).toEqual({
      status: 413,
      body: { success: false, error: 'request body must be at most 64 KiB', code: 'PAYLOAD_TOO_LARGE' },
    });
  });

  test("requests Bun's parser refuses get Bun's own answer (a bare status line) or none, and the server goes on serving", async () => {
    const apiKey = await freshKey('parser-refusals');
    const refusals = {
      badVersion: 'GET /healthz HTTP/2.7\r\nHost: localhost\r\n\r\n',
      hugeHeaders: `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      malformedLine: 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n',
      notHttp: 'NOT HTTP AT ALL\r\n\r\n',
      unknownMethod: 'FOO /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n',
      badChunk: `POST /api/v1/workspaces/parser-refusals/services HTTP/1.1\r\nHost: localhost\r\nx-svc-api-key: ${apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nxx\r\n0\r\n\r\n`,
      hugeChunkExtension: `POST /api/v1/workspaces/parser-refusals/services HTTP/1.1\r\nHost: localhost\r\nx-svc-api-key: ${apiKey}\r\nTransfer-Encoding: chunked\r\n\r\n3;${'e'.repeat(20_000)}\r\nabc\r\n0\r\n\r\n`,
    };
    const answers = Object.fromEntries(
      await Promise.all(Object.entries(refusals).map(async ([name, request]) => [name, await untilClosed(server.port, request, 5000)] as const)),
    );
    // what Bun writes is Bun's to choose (these were 505, 431, 400, 400, none, 400 and 413 on Bun 1.4): a bare
    // refusal, never an answer of svc's
    for (const [name, answer] of Object.entries(answers))
      expect({ name, answer }).toEqual({ name, answer: expect.stringMatching(/^(HTTP\/1\.1 (4\d\d|505) [A-Za-z ]+\r\nConnection: close\r\n\r\n)?$/) });
    // nothing was written, and the server goes on serving
    const services = await get('/api/v1/workspaces/parser-refusals/services', ['Host: localhost', `x-svc-api-key: ${apiKey}`]);
    expect({ status: services.status, services: services.body.services }).toEqual({ status: 200, services: [] });
    const health = await get('/healthz');
    expect({ status: health.status, body: health.body }).toEqual({ status: 200, body: { success: true, status: 'ok' } });
  });

  test('bytes after a request that said Connection: close get no answer of their own: one answer, then the connection closes', async () => {
    const answer = await untilClosed(
      server.port,
      'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\nGET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n',
    );
    expect(answer.match(/HTTP\/1\.1 \d{3} /g)).toEqual(['HTTP/1.1 200 ']);
  });

  test('Expect: 100-continue gets 100 Continue before the body is sent, then the answer', async () => {
    const apiKey = await freshKey('expect-continue');
    const body = JSON.stringify({ name: 'Sent after 100 Continue', duration: 30, price: 35, currency: 'EUR' });
    const response = await postAfterContinue(server.port, { path: '/api/v1/workspaces/expect-continue/services', apiKey, body });
    expect({ status: response.status, name: response.body.service?.name }).toEqual({ status: 200, name: 'Sent after 100 Continue' });
  });

  test('connections that go quiet are closed by the server (no answer owed): silent, half a request head, idle keep-alive', async () => {
    const { silent, halfHead, keptAlive } = await quietConnections(server.port);
    expect([silent, halfHead]).toEqual(['', '']);
    expect(keptAlive).toStartWith('HTTP/1.1 200 OK');
  }, 40_000);
});
