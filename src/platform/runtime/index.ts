/**
 * Everything that differs between the runtimes svc runs on, Bun (`bun src/main.ts`, the compiled binary) and
 * Deno 2 (`deno run -A src/main.ts`): nothing else in src/ or adapters/ calls `Bun.*` or `Deno.*`
 * (tests/runtime/runtime-calls.test.ts checks it). What both runtimes offer alike (node:crypto, node:fs,
 * node:http, `process`, signals through `process.on`, `import.meta.main`) is used directly.
 */
import { bunServe } from './bun.ts';
import { nodeHttpServe } from './node-http.ts';
import type { HttpServer, ServeOptions } from './types.ts';

export type { HttpServer, ServeOptions } from './types.ts';

/** The runtime this process runs on. */
export const runtimeName: 'bun' | 'deno' = 'Bun' in globalThis ? 'bun' : 'deno';

/**
 * Serves HTTP/1.1 on `options.port`: Bun.serve on Bun, node:http on Deno (src/platform/runtime/node-http.ts says why
 * not Deno.serve). The runtime's own request body limit is lifted: svc reads bodies as streams and refuses any
 * over 64 KiB itself (src/platform/http/body-limit.ts), with the contract's error body.
 */
export async function serve(options: ServeOptions): Promise<HttpServer> {
  return runtimeName === 'bun' ? bunServe(options) : await nodeHttpServe(options);
}
