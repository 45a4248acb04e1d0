import { describe, expect, test } from 'bun:test';
import { Elysia } from 'elysia';
import { type HeaderSet, jsonText } from '../../src/platform/http/json-text.ts';

/*
 * jsonText (src/platform/http/json-text.ts, decision 0031): prebuilt JSON sent as it is, carrying the headers the
 * request's hooks set; whatever Elysia must still merge (a cookie, a set-cookie header, another status) it merges.
 */

describe('jsonText', () => {
  test('moves the headers set so far into the response and leaves none behind', async () => {
    const set = { headers: { 'x-request-id': 'req_1', 'x-ratelimit-limit': 120 } as Record<string, string | number>, cookie: {} };
    const response = jsonText(set, '{"success":true}');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(response.headers.get('x-ratelimit-limit')).toBe('120');
    expect(set.headers).toEqual({});
    expect(set.cookie).toBeUndefined();
    expect(await response.text()).toBe('{"success":true}');
  });

  test('leaves the headers to Elysia when a cookie is to be set, a set-cookie header is there, or the status is not 200', () => {
    const cases: HeaderSet[] = [
      { headers: { 'x-request-id': 'req_2' }, cookie: { session: { value: 'x' } } },
      { headers: { 'x-request-id': 'req_3', 'set-cookie': 'a=b' } },
      { headers: { 'x-request-id': 'req_4' }, status: 201 },
    ];
    for (const set of cases) {
      const before = structuredClone(set);
      const response = jsonText(set, '{}');
      expect(set).toEqual(before);
      expect(response.headers.get('x-request-id')).toBeNull();
      expect(response.headers.get('content-type')).toBe('application/json;charset=utf-8');
    }
  });

  test('through Elysia: hook headers arrive, and so does a cookie the route sets', async () => {
    const app = new Elysia()
      .onRequest(({ set }) => {
        set.headers['x-request-id'] = 'req_5';
      })
      .get('/plain', ({ set }) => jsonText(set, '{"a":1}'))
      .get('/cookie', ({ set, cookie: { seen } }) => {
        seen!.value = 'yes';
        return jsonText(set, '{"b":2}');
      });
    const plain = await app.handle(new Request('http://localhost/plain'));
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-request-id')).toBe('req_5');
    expect(plain.headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(await plain.json()).toEqual({ a: 1 });
    const withCookie = await app.handle(new Request('http://localhost/cookie'));
    expect(withCookie.headers.get('x-request-id')).toBe('req_5');
    expect(withCookie.headers.get('set-cookie')).toContain('seen=yes');
    expect(await withCookie.json()).toEqual({ b: 2 });
  });
});
