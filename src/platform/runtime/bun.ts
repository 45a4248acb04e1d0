import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import type { Server } from 'bun';
import { answerClientError, IDLE_TIMEOUT_SECONDS, internalErrorResponse } from './connections.ts';
import type { HttpServer, ServeOptions } from './types.ts';

type Fetch = (request: Request, server: Server<undefined>) => Response | Promise<Response>;

/**
 * `Bun.serve`; the peer address comes from `server.requestIP(request)`. A request Bun's parser refuses still
 * gets the contract's error body (serveWithClientErrors says how).
 */
export async function bunServe(options: ServeOptions): Promise<HttpServer> {
  const fetch: Fetch = (request, server) => options.fetch(request, server.requestIP(request)?.address);
  const server =
    (await serveWithClientErrors(options, fetch))
    ?? Bun.serve({
      port: options.port,
      hostname: options.hostname,
      idleTimeout: IDLE_TIMEOUT_SECONDS,
      // Bun's own limit answers a bare 413 before the app sees the request.
      maxRequestBodySize: Number.MAX_SAFE_INTEGER,
      fetch,
      error: internalErrorResponse,
    });
  return {
    port: server.port ?? options.port,
    stop: () => {
      const stopped = server.stop(false);
      // a server node:http made leaves its idle keep-alive connections open when it stops (node:http closes them)
      server.closeIdleConnections();
      return stopped;
    },
    forceStop: () => server.stop(true),
    pendingRequests: () => server.pendingRequests,
  };
}

/*
 * A request that Bun.serve's parser refuses (a bad HTTP version, headers over its limit, a malformed request
 * line) runs no JavaScript: Bun writes a bare status line. Bun's node:http server is a Bun.serve created with a
 * hook that sends those refusals to node:http's `clientError` event instead, and that hook outlives a reload of
 * the server's handlers. So node:http creates the server (svc catches it as Bun.serve makes it, to keep Bun's
 * idle timeout, which node:http turns off), then svc reloads it with its own `fetch`: requests take Bun.serve's
 * path at Bun.serve's speed (node:http's request objects cost more than half the throughput in
 * scripts/bench/http.ts), and refusals reach `clientError`. This leans on how Bun builds node:http:
 * tests/http/real-server.test.ts fails when it stops working, and svc then falls back to plain Bun.serve (bare
 * refusals) rather than failing to start.
 *
 * Such a server leaves `Expect: 100-continue` to node:http, which no longer sees the requests: svc writes the
 * interim answer to the connection itself (found by the client's address and port), or a client that asks for
 * it would wait for its own timeout (curl 1 s, .NET Framework 350 ms) before it sent its body.
 */
async function serveWithClientErrors(options: ServeOptions, fetch: Fetch): Promise<Server<undefined> | undefined> {
  const host = createServer({ requireHostHeader: false });
  host.on('clientError', answerClientError);
  const connections = new Map<string, Socket>();
  host.on('connection', (socket: Socket) => {
    const peer = `${socket.remoteAddress}|${socket.remotePort}`;
    connections.set(peer, socket);
    socket.once('close', () => connections.delete(peer));
  });
  const bun = Bun as { serve: typeof Bun.serve };
  const originalServe = bun.serve;
  let created: Server<undefined> | undefined;
  bun.serve = ((config: Parameters<typeof Bun.serve>[0]) =>
    (created = originalServe({ ...config, idleTimeout: IDLE_TIMEOUT_SECONDS } as Parameters<typeof Bun.serve>[0]) as Server<undefined>)) as typeof Bun.serve;
  try {
    // node:http's listen() makes its Bun.serve before it returns
    host.listen(options.port, options.hostname);
  } finally {
    bun.serve = originalServe;
  }
  await once(host, 'listening');
  if (typeof created?.reload !== 'function') {
    await new Promise((closed) => host.close(closed));
    return undefined;
  }
  const answeringExpect: Fetch = (request, server) => {
    if (request.headers.get('expect')?.toLowerCase() === '100-continue') {
      const peer = server.requestIP(request);
      if (peer) connections.get(`${peer.address}|${peer.port}`)?.write('HTTP/1.1 100 Continue\r\n\r\n');
    }
    return fetch(request, server);
  };
  created.reload({ fetch: answeringExpect, error: internalErrorResponse } as Parameters<Server<undefined>['reload']>[0]);
  return created;
}
