/**
 * Everything that differs between the runtimes svc runs on, Bun (`bun src/main.ts`, the compiled binary) and
 * Deno 2 (`deno run -A src/main.ts`): nothing else in src/ or adapters/ calls `Bun.*` or `Deno.*`
 * (tests/runtime/runtime-calls.test.ts checks it). What both runtimes offer alike (node:crypto, node:fs,
 * `process`, signals through `process.on`) is used directly and needs nothing here.
 */
import { bunServe } from './bun.ts';
import { denoServe } from './deno.ts';

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
  /**
   * Closes what stop() still waits for. On Bun the open connections close now; Deno cannot close them from
   * inside the process, so they close when the process exits (svc serve exits right after its stop).
   */
  forceStop(): Promise<void>;
  /** requests received whose answer is not yet complete */
  pendingRequests(): number;
}

/**
 * Serves HTTP/1.1 on `options.port`. The runtime's own request body limit is lifted: svc reads bodies as
 * streams and refuses any over 64 KiB itself (src/http/body-limit.ts), with the contract's error body.
 */
export function serve(options: ServeOptions): HttpServer {
  return runtimeName === 'bun' ? bunServe(options) : denoServe(options);
}
