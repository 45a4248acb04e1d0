import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { t } from 'elysia';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestApp, send, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/wait.ts';

describe('error bodies and limits', () => {
  let ctx: TestApp;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    ctx = await createTestApp('libsql', { logger: createLogger('info', (line) => logLines.push(JSON.parse(line))) });
    // A route with a body, to exercise parsing and validation in isolation from any feature.
    ctx.app.post('/api/test-echo', ({ body }) => ({ success: true, body }), {
      body: t.Object({
        email: t.String({ format: 'email' }),
        count: Type.Integer({ minimum: 1, maximum: 10 }),
        meta: t.Optional(t.Object({ tag: t.String() })),
      }),
    });
  });
  afterAll(() => ctx.close());

  test('unknown route -> 404 NOT_FOUND in the contract body', async () => {
    const response = await ctx.request('GET', '/nowhere');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, error: 'route not found', code: 'NOT_FOUND' });
  });

  test('unknown v1 route -> 404 NOT_FOUND in the contract body', async () => {
    const response = await ctx.request('GET', '/api/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, error: 'route not found', code: 'NOT_FOUND' });
  });

  test('malformed JSON -> 400 VALIDATION_ERROR', async () => {
    const response = await ctx.request('POST', '/api/test-echo', { rawBody: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: 'request body is not valid JSON', code: 'VALIDATION_ERROR' });
  });

  test('a JSON body that is not an object -> 400 VALIDATION_ERROR', async () => {
    for (const rawBody of ['[1]', '"x"', '42', 'null']) {
      const response = await ctx.request('POST', '/api/test-echo', { rawBody, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, error: 'request body must be a JSON object', code: 'VALIDATION_ERROR' });
    }
  });

  test('a number sent as a string in a JSON body -> 400, not coerced', async () => {
    const response = await ctx.request('POST', '/api/test-echo', { body: { email: 'a@b.co', count: '2' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('count must be an integer');
    const service = await ctx.request('POST', '/api/v1/workspaces/acme/services', {
      key: ctx.apiKey,
      body: { name: 'Cut', duration: '30', price: 10, currency: 'EUR' },
    });
    expect(service.status).toBe(400);
    expect(service.body).toMatchObject({ error: 'duration must be an integer', code: 'VALIDATION_ERROR' });
  });

  test('a field of the wrong format -> 400 naming the field', async () => {
    const response = await ctx.request('POST', '/api/test-echo', { body: { email: 'nope', count: 1 } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'email must be an email address',
      code: 'VALIDATION_ERROR',
      details: [{ path: '/email', message: 'email must be an email address' }],
    });
  });

  test('a missing field and an out-of-range number -> 400 listing both', async () => {
    const response = await ctx.request('POST', '/api/test-echo', { body: { count: 11 } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.details).toEqual(
      expect.arrayContaining([
        { path: '/email', message: 'email is required' },
        { path: '/count', message: 'count must be an integer between 1 and 10' },
      ]),
    );
  });

  test('a string where an object belongs -> 400, not silently emptied', async () => {
    const response = await ctx.request('POST', '/api/test-echo', { body: { email: 'a@b.co', count: 1, meta: 'x' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'meta must be an object',
      code: 'VALIDATION_ERROR',
      details: [{ path: '/meta', message: 'meta must be an object' }],
    });
  });

  test('unknown JSON fields are ignored', async () => {
    const response = await ctx.request('POST', '/api/test-echo', { body: { email: 'a@b.co', count: 2, extra: true, meta: { tag: 't', more: 1 } } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, body: { email: 'a@b.co', count: 2, meta: { tag: 't' } } });
  });

  test('a body over 64 KiB (Content-Length) -> 413 PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ email: 'a@b.co', count: 1, pad: 'x'.repeat(70_000) });
    const response = await ctx.request('POST', '/api/test-echo', { rawBody: big, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ success: false, error: 'request body must be at most 64 KiB', code: 'PAYLOAD_TOO_LARGE' });
  });

  test('a streamed body over 64 KiB without Content-Length -> 413 PAYLOAD_TOO_LARGE', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await ctx.app.handle(
      new Request('http://localhost/api/test-echo', {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/json' },
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ success: false, error: 'request body must be at most 64 KiB', code: 'PAYLOAD_TOO_LARGE' });
  });

  test('a body of exactly 64 KiB is accepted', async () => {
    const base = JSON.stringify({ email: 'a@b.co', count: 1, pad: '' });
    const body = JSON.stringify({ email: 'a@b.co', count: 1, pad: 'x'.repeat(64 * 1024 - base.length) });
    expect(body.length).toBe(64 * 1024);
    const response = await ctx.request('POST', '/api/test-echo', { rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(200);
  });

  test('every request is logged once with method, path, status, ms and request id', async () => {
    const response = await ctx.request('GET', '/api/v1/workspaces/nope');
    // The line is written after the response is sent, on a later turn of the event loop.
    const ofThisRequest = () => logLines.filter((line) => line.msg === 'request' && line.requestId === response.headers.get('x-request-id'));
    await waitFor(() => ofThisRequest().length > 0, { what: 'the request log line' });
    const requests = ofThisRequest();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      level: 'info',
      method: 'GET',
      path: '/api/v1/workspaces/nope',
      status: 404,
      requestId: response.headers.get('x-request-id'),
    });
    expect(typeof requests[0]!.ms).toBe('number');
  });

  test("a caller's well-formed X-Request-Id is kept: echoed in the response and written in the log line", async () => {
    const given = 'trace-7f3a.b:9_Z';
    const response = await ctx.request('GET', '/healthz', { headers: { 'x-request-id': given } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe(given);
    await waitFor(() => logLines.some((line) => line.msg === 'request' && line.requestId === given), { what: 'the log line with the given id' });
    expect(logLines.filter((line) => line.msg === 'request' && line.requestId === given)).toMatchObject([{ path: '/healthz', status: 200 }]);
    const longest = 'a'.repeat(128);
    expect((await ctx.request('GET', '/healthz', { headers: { 'x-request-id': longest } })).headers.get('x-request-id')).toBe(longest);
  });

  test('a malformed X-Request-Id (too long, empty, spaces, an address, quotes) is replaced by a new id', async () => {
    for (const given of ['a'.repeat(129), '', 'has space', 'ada@example.org', 'x"y', 'ümlaut', 'a/b']) {
      const response = await ctx.request('GET', '/healthz', { headers: { 'x-request-id': given } });
      const id = response.headers.get('x-request-id');
      expect(id).not.toBe(given);
      expect(id).toMatch(/^req_[0-9a-z]{26}$/);
      await waitFor(() => logLines.some((line) => line.msg === 'request' && line.requestId === id), { what: 'the log line with the new id' });
      expect(JSON.stringify(logLines)).not.toContain('ada@example.org');
    }
  });
});

describe('unexpected errors', () => {
  test('an unexpected error -> 500 INTERNAL_ERROR naming the request id, logged with it, never leaked', async () => {
    const lines: Record<string, unknown>[] = [];
    const ctx = await createTestApp('libsql', { logger: createLogger('info', (line) => lines.push(JSON.parse(line))) });
    try {
      const storage = ctx.deps.storage;
      storage.getWorkspaceBySlug = async () => {
        throw new Error('database exploded: secret detail');
      };
      const response = await send(ctx.app, 'GET', '/api/v1/workspaces/acme', { key: ctx.apiKey });
      const requestId = response.headers.get('x-request-id');
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ success: false, error: `internal error (request ${requestId})`, code: 'INTERNAL_ERROR' });
      expect(JSON.stringify(response.body)).not.toContain('secret detail');
      const logged = lines.find((line) => line.msg === 'unhandled error');
      expect(logged).toMatchObject({ level: 'error', requestId, error: 'database exploded: secret detail' });
    } finally {
      await ctx.close();
    }
  });

  test('/readyz answers 503 UNAVAILABLE with Retry-After when the database fails, and within 2 s when it does not answer at all', async () => {
    const ctx = await createTestApp('libsql');
    try {
      expect((await ctx.request('GET', '/readyz')).body).toEqual({ success: true, status: 'ready' });
      ctx.deps.storage.ping = async () => {
        throw new Error('down');
      };
      const failed = await ctx.request('GET', '/readyz');
      expect({ status: failed.status, retryAfter: failed.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '5' });
      expect(failed.body).toEqual({ success: false, error: 'the database is not available', code: 'UNAVAILABLE' });

      ctx.deps.storage.ping = () => new Promise<void>(() => {});
      const began = performance.now();
      const silent = await ctx.request('GET', '/readyz');
      const ms = performance.now() - began;
      expect(silent.status).toBe(503);
      expect(silent.body).toEqual({ success: false, error: 'the database did not answer in time', code: 'UNAVAILABLE' });
      expect(ms).toBeGreaterThanOrEqual(1900);
      expect(ms).toBeLessThan(3000);
      expect((await ctx.request('GET', '/healthz')).body).toEqual({ success: true, status: 'ok' });
    } finally {
      await ctx.close();
    }
  });
});
