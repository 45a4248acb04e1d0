import type { HttpServer, ServeOptions } from './index.ts';

/** The part of Deno's API used here (the project type-checks against Bun's types, not Deno's). */
interface DenoApi {
  serve(
    options: { port: number; hostname: string; onListen(address: unknown): void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> };
}

/** `Deno.serve`; the peer address comes from the handler's `info.remoteAddr`. Deno sets no request body limit. */
export function denoServe(options: ServeOptions): HttpServer {
  const { Deno } = globalThis as unknown as { Deno: DenoApi };
  // Deno keeps no count of the requests it is answering: counted here, from the handler's start until it
  // returns the response (a body still streaming out is not counted).
  let pending = 0;
  const server = Deno.serve(
    // without onListen, Deno prints "Listening on ..." to stdout, which belongs to the commands' output
    { port: options.port, hostname: options.hostname, onListen() {} },
    async (request, info) => {
      pending++;
      try {
        return await options.fetch(request, info.remoteAddr.hostname);
      } finally {
        pending--;
      }
    },
  );
  return {
    port: server.addr.port,
    // graceful: no new connections, requests in progress are answered, idle connections close
    stop: () => server.shutdown(),
    forceStop: async () => {},
    pendingRequests: () => pending,
  };
}
