/** The part of Elysia's context a prebuilt response takes its headers from. */
export interface HeaderSet {
  headers: Record<string, string | number> | Headers;
  status?: unknown;
  cookie?: Record<string, unknown>;
}

/**
 * A 200 JSON response of text already made, carrying the headers the request's hooks have set so far (request id,
 * rate limits, CORS), which then leave `set`. Elysia copies a returned Response, through its body stream, whenever
 * `set` still holds a header or a cookie jar, as every request's does: a tenth of the server time of a cached
 * availability answer (scripts/bench/README.md). A header a later hook sets is merged by Elysia as before; a
 * cookie to set, a set-cookie header or a status other than 200 takes that path too.
 */
export function jsonText(set: HeaderSet, text: string): Response {
  const headers = set.headers;
  const plain =
    !(headers instanceof Headers)
    && !('set-cookie' in headers)
    && (set.status === undefined || set.status === 200)
    && (set.cookie === undefined || Object.keys(set.cookie).length === 0);
  if (!plain) return new Response(text, { headers: { 'content-type': 'application/json;charset=utf-8' } });
  const own: Record<string, string> = { 'content-type': 'application/json;charset=utf-8' };
  for (const name in headers) own[name] = String(headers[name]);
  set.headers = {};
  set.cookie = undefined;
  return new Response(text, { headers: own });
}
