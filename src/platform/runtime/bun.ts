import type { Server } from 'bun';
import { IDLE_TIMEOUT_SECONDS, internalErrorResponse } from './connections.ts';
import type { HttpServer, ServeOptions } from './types.ts';

/**
 * `Bun.serve`, as Bun offers it; the peer address comes from `server.requestIP(request)`. Bun answers
 * `Expect: 100-continue` itself. A request its parser refuses (a bad HTTP version, headers over its limit, a
 * malformed request line, HTTP/1.1 without `Host`) runs no JavaScript: Bun writes its own bare answer, or none.
 */
export function bunServe(options: ServeOptions): HttpServer {
  const server: Server<undefined> = Bun.serve({
    port: options.port,
    hostname: options.hostname,
    idleTimeout: IDLE_TIMEOUT_SECONDS,
    // Bun's own limit answers a bare 413 before the app sees the request.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch: (request, server) => options.fetch(request, server.requestIP(request)?.address),
    error: internalErrorResponse,
  });
  return {
    port: server.port ?? options.port,
    // Bun.serve's stop(false) is both: it closes the listener and the idle keep-alive connections
    listenerClosesAlone: false,
    stopAccepting: () => void server.stop(false),
    stop: () => server.stop(false),
    forceStop: () => server.stop(true),
    pendingRequests: () => server.pendingRequests,
  };
}
