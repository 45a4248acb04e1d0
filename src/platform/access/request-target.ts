/**
 * The path and query of a request, read once from `request.url` exactly as the router reads them (raw, still
 * percent-encoded, dot segments kept), whatever the Host header was: Bun gives `http://<host>/<path>` and,
 * for an HTTP/1.0 request without a Host header, the bare `/<path>`.
 */
export interface RequestTarget {
  /** raw path, starting with `/` */
  path: string;
  /** raw query with its `?`, or '' */
  search: string;
}

export function requestTarget(url: string): RequestTarget {
  let start = 0;
  if (!url.startsWith('/')) {
    const scheme = url.indexOf('://');
    const slash = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
    if (slash < 0) {
      const query = url.indexOf('?', scheme < 0 ? 0 : scheme + 3);
      return { path: '/', search: query < 0 ? '' : url.slice(query) };
    }
    start = slash;
  }
  const query = url.indexOf('?', start);
  return query < 0 ? { path: url.slice(start), search: '' } : { path: url.slice(start, query), search: url.slice(query) };
}

/**
 * Elysia reads the path as what follows the first `/` from the 12th character on, which assumes a host of
 * four characters or more: with `Host: a` or no Host at all it routes a different path than the request
 * names. Such a request gets a URL Elysia reads right (the Host header itself is kept).
 */
export function routableUrl(url: string): string | null {
  const { path, search } = requestTarget(url);
  const elysiaStart = url.indexOf('/', 11);
  const elysiaQuery = url.indexOf('?', elysiaStart + 1);
  const elysiaPath = url.substring(elysiaStart, elysiaQuery === -1 ? undefined : elysiaQuery);
  if (elysiaStart >= 0 && elysiaPath === path) return null;
  return `http://localhost${path}${search}`;
}
