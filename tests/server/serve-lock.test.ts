import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { denoMissing, freePort, runCli, startServe, type ServeProcess } from '../support/process.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';
import { waitFor } from '../support/wait.ts';

/*
 * One `svc serve` per libSQL file (docs/decisions/0012-one-server-per-libsql-file.md): a second one is refused
 * with exit code 2 and a message naming the first one's PID; the lock dies with its holder, kill -9 included;
 * the short CLI commands still run beside a server.
 */

const ENV = { SVC_DEMO: 'false', LOG_LEVEL: 'info' };
const serveArgs = () => ['serve', '--port', String(freePort()), '--host', '127.0.0.1'];

const running: ServeProcess[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.child.exited;
    }
  }
});

describe('two svc serve on one libSQL file', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('libsql');
  });
  afterAll(() => db.drop());

  test('the second is refused: exit 2, one line naming the first one by PID and the file; the first serves on', async () => {
    const first = await startServe({ env: { ...db.env, ...ENV } });
    running.push(first);
    const second = await runCli(serveArgs(), { ...db.env, ...ENV });
    const file = db.env.DATABASE_URL!.slice('file:'.length);
    expect(second.code).toBe(2);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(
      `svc serve: another svc (PID ${first.child.pid}) is serving ${file}: a libSQL file is served by one svc serve at a time; stop that one first, or use PostgreSQL for several instances\n`,
    );
    expect(existsSync(`${file}.lock`)).toBe(true);
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    expect(await first.stop()).toBe(0);
  });

  test('after the holder stopped, or was killed with SIGKILL, the next start takes the file over: no stale lock', async () => {
    const stopped = await startServe({ env: { ...db.env, ...ENV } });
    running.push(stopped);
    expect(await stopped.stop()).toBe(0);

    const killed = await startServe({ env: { ...db.env, ...ENV } });
    running.push(killed);
    killed.signal('SIGKILL');
    expect(await killed.child.exited).not.toBe(0);

    const next = await startServe({ env: { ...db.env, ...ENV } });
    running.push(next);
    expect((await fetch(`${next.url}/readyz`)).status).toBe(200);
    expect(await next.stop()).toBe(0);
  });

  test('the CLI runs beside a server: workspace create exits 0 and the server serves the new workspace', async () => {
    const server = await startServe({ env: { ...db.env, ...ENV } });
    running.push(server);
    const created = await runCli(['workspace', 'create', '--slug', 'beside', '--name', 'Beside', '--json'], db.env);
    expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
    const { apiKey } = JSON.parse(created.stdout);
    // The server's catalogue cache may take up to 2 s to see another process's new workspace.
    await waitFor(async () => (await fetch(`${server.url}/api/v1/workspaces/beside`, { headers: { 'x-svc-api-key': apiKey } })).status === 200, {
      what: 'the server to see the workspace the CLI created',
    });
    expect(await server.stop()).toBe(0);
  });

  test.skipIf(denoMissing() !== null)(
    'the lock holds across runtimes: svc serve on Deno is refused while Bun serves the file',
    async () => {
      const bun = await startServe({ env: { ...db.env, ...ENV }, runtime: 'bun' });
      running.push(bun);
      const deno = await runCli(serveArgs(), { ...db.env, ...ENV }, undefined, 'deno');
      expect(deno.code).toBe(2);
      expect(deno.stderr).toContain(`svc serve: another svc (PID ${bun.child.pid}) is serving`);
      expect(await bun.stop()).toBe(0);
    },
    60_000,
  );

  test('--role web or worker on a libSQL file: exit 2, nothing started (roles need a shared database)', async () => {
    for (const role of ['web', 'worker']) {
      const result = await runCli([...serveArgs(), '--role', role], { ...db.env, ...ENV });
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `svc serve: --role ${role} needs a database several servers share (PostgreSQL): a libSQL file is served by one svc serve --role all\n`,
      });
    }
    const wrong = await runCli([...serveArgs(), '--role', 'cook'], { ...db.env, ...ENV });
    expect(wrong).toEqual({ code: 2, stdout: '', stderr: 'svc serve: --role must be one of all, web, worker (got "cook")\n' });
  });
});
