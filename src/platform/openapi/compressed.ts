import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/*
 * The OpenAPI document is a few hundred kilobytes of JSON that compresses tenfold: it is served as Brotli or gzip
 * when the client accepts one (Brotli first), compressed once per process, and plain otherwise.
 */

export interface CompressedJson {
  plain: string;
  gzip?: Uint8Array<ArrayBuffer>;
  br?: Uint8Array<ArrayBuffer>;
}

/** The encoding to answer with for an `Accept-Encoding` header: `br`, `gzip` or none (q=0 refuses one). */
export function chosenEncoding(acceptEncoding: string | null): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

/** A JSON response of `json`, compressed as the request accepts; `cache` keeps the compressed bytes between calls. */
export function compressedJsonResponse(request: Request, cache: CompressedJson): Response {
  const encoding = chosenEncoding(request.headers.get('accept-encoding'));
  const headers: Record<string, string> = { 'content-type': 'application/json', vary: 'Accept-Encoding' };
  if (encoding === 'br') {
    cache.br ??= new Uint8Array(brotliCompressSync(cache.plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }));
    return new Response(cache.br, { headers: { ...headers, 'content-encoding': 'br' } });
  }
  if (encoding === 'gzip') {
    cache.gzip ??= new Uint8Array(gzipSync(cache.plain, { level: 9 }));
    return new Response(cache.gzip, { headers: { ...headers, 'content-encoding': 'gzip' } });
  }
  return new Response(cache.plain, { headers });
}
