import type { HttpServer, ServeOptions } from './index.ts';

/** `Bun.serve`; the peer address comes from `server.requestIP(request)`. */
export function bunServe(options: ServeOptions): HttpServer {
  const server = Bun.serve({
    port: options.port,
    hostname: options.hostname,
    // Bun's own limit answers a bare 413 before the app sees the request.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch: (request, bunServer) => options.fetch(request, bunServer.requestIP(request)?.address),
  });
  return {
    port: server.port ?? options.port,
    stop: () => server.stop(false),
    forceStop: () => server.stop(true),
    pendingRequests: () => server.pendingRequests,
  };
}
