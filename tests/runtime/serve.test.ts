import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { BUN, DENO, denoMissing } from '../support/process.ts';

/*
 * The runtime layer's promise on both runtimes: a handler that throws instead of answering (a bug; the app
 * answers its own errors) still gets the contract's 500, never the runtime's own error page (Bun's shows source
 * code), and the server goes on answering.
 */
const FIXTURE = join(import.meta.dir, 'fixtures', 'throwing-server.ts');
const runtimes = { bun: [BUN, FIXTURE], deno: [DENO, 'run', '-A', FIXTURE] };

for (const [runtime, cmd] of Object.entries(runtimes)) {
  const skip = runtime === 'deno' ? denoMissing() : null;
  (skip ? describe.skip : describe)(`svc's server on ${runtime}: a handler that throws`, () => {
    test('gets the contract 500 body, and the server goes on answering', async () => {
      const child = Bun.spawn({ cmd, stdout: 'pipe', stderr: 'inherit' });
      try {
        const reader = child.stdout.getReader();
        let printed = '';
        while (!printed.includes('\n')) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`the server exited before printing its port: ${printed}`);
          printed += new TextDecoder().decode(value);
        }
        const base = `http://127.0.0.1:${Number(printed.trim())}`;
        for (const path of ['/throws', '/rejects']) {
          const response = await fetch(`${base}${path}`);
          const text = await response.text();
          expect({ path, status: response.status, type: response.headers.get('content-type'), body: JSON.parse(text) }).toEqual({
            path,
            status: 500,
            type: 'application/json;charset=utf-8',
            body: { success: false, error: 'internal error', code: 'INTERNAL_ERROR' },
          });
          expect(text).not.toContain('secret');
        }
        expect(await (await fetch(`${base}/`)).text()).toBe('fine');
      } finally {
        child.kill();
        await child.exited;
      }
    }, 30_000);
  });
}
