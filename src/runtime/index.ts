/**
 * Everything that differs between the runtimes svc runs on, Bun (`bun src/main.ts`, the compiled binary) and
 * Deno 2 (`deno run -A src/main.ts`): nothing else in src/ or adapters/ calls `Bun.*` or `Deno.*`
 * (tests/runtime/runtime-calls.test.ts checks it). What both runtimes offer alike (node:crypto, node:fs,
 * node:http, `process`, signals through `process.on`, `import.meta.main`) is used directly.
 */
import { bunServe } from './bun.ts';
import { nodeHttpServe } from './node-http.ts';

/** The runtime this process runs on. */
export const runtimeName: 'bun' | 'deno' = 'Bun' in globalThis ? 'bun' : 'deno';

export interface ServeOptions {
  /** TCP port; 0 picks a free one (HttpServer.port tells which) */
  port: number;
  /** address to bind, such as 0.0.0.0 or 127.0.0.1 */
  hostname: string;
  /** answers one request; `peerAddress` is the socket's remote address, when the runtime knows it */
  fetch(request: Request, peerAddress: string | undefined): Response | Promise<Response>;
}

/** A listening HTTP server. */
export interface HttpServer {
  /** the port it listens on (the one chosen when asked for 0) */
  port: number;
  /**
   * Stops accepting connections at once and resolves when the requests already received have been answered;
   * idle keep-alive connections are closed.
   */
  stop(): Promise<void>;
  /** Closes every connection still open, answered or not, and resolves when stop() would have. */
  forceStop(): Promise<void>;
  /** requests received whose answer is not yet complete */
  pendingRequests(): number;
}

/**
 * Serves HTTP/1.1 on `options.port`: Bun.serve on Bun, node:http on Deno (src/runtime/node-http.ts says why
 * not Deno.serve). The runtime's own request body limit is lifted: svc reads bodies as streams and refuses any
 * over 64 KiB itself (src/http/body-limit.ts), with the contract's error body.
 */
export async function serve(options: ServeOptions): Promise<HttpServer> {
  return runtimeName === 'bun' ? await bunServe(options) : await nodeHttpServe(options);
}
