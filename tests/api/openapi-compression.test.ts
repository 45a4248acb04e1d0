import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chosenEncoding } from '../../src/platform/openapi/compressed.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

/* GET /api/v1/openapi.json is served compressed to clients that accept it (docs/contract/first-day.md §7). */
describe('openapi.json compression', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('libsql');
  });
  afterAll(() => app.close());

  const get = (acceptEncoding?: string) =>
    app.app.handle(new Request('http://localhost/api/v1/openapi.json', { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }));

  test('plain without Accept-Encoding; Brotli when accepted, else gzip; the same document every way, much smaller', async () => {
    const plain = await get();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-type')).toBe('application/json');
    const text = await plain.text();
    const document = JSON.parse(text);
    expect(document.openapi).toMatch(/^3\.1/);

    const br = await get('gzip, deflate, br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const brBytes = new Uint8Array(await br.arrayBuffer());
    expect(JSON.parse(brotliDecompressSync(brBytes).toString())).toEqual(document);
    expect(brBytes.length).toBeLessThan(text.length / 5);

    const gzip = await get('gzip');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(new Uint8Array(await gzip.arrayBuffer())).toString())).toEqual(document);
  });

  test('Accept-Encoding is read with its weights', () => {
    expect(chosenEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chosenEncoding('identity')).toBeNull();
    expect(chosenEncoding('*')).toBe('br');
    expect(chosenEncoding('gzip;q=0')).toBeNull();
    expect(chosenEncoding(null)).toBeNull();
  });
});
