import { createClient } from '@libsql/client';
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { ConfigSchema } from '../../src/platform/config.ts';
import { waitFor } from './wait.ts';

/** The bun that runs the tests runs svc too (unless a test asks for Deno). */
export const BUN = process.execPath;
export const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts');
/** The Deno that `npm ci` installs (the `deno` dev dependency). */
export const DENO = join(import.meta.dir, '..', '..', 'node_modules', '.bin', 'deno');

/**
 * What runs svc in a child process: Bun (`bun src/main.ts`), Deno (`deno run -A src/main.ts`), or a compiled
 * binary (`{ binary: path }`, tests/release).
 */
export type Runtime = 'bun' | 'deno' | { binary: string };

/**
 * The runtime child processes use unless a test names one: SVC_TEST_RUNTIME=deno runs every process-level test
 * against `deno run -A src/main.ts` (default bun).
 */
export const DEFAULT_RUNTIME: Runtime = process.env.SVC_TEST_RUNTIME === 'deno' ? 'deno' : 'bun';

/** Why Deno cannot run here, or null when it can. */
export function denoMissing(): string | null {
  return existsSync(DENO) ? null : `${DENO} is missing (npm ci installs it with the deno dev dependency)`;
}

/** The command line that runs `svc ...args` on `runtime`. */
export function svcCommand(args: string[], runtime: Runtime = DEFAULT_RUNTIME): string[] {
  if (typeof runtime === 'object') return [runtime.binary, ...args];
  return runtime === 'deno' ? [DENO, 'run', '-A', MAIN, ...args] : [BUN, MAIN, ...args];
}

/**
 * The directory child processes run in unless told otherwise: outside the repository, so a command that fell
 * back to the default DATABASE_URL (file:./data/svc.db) would not write into it. Tests that check that
 * nothing is written there pass a `cwd` of their own.
 */
export const CHILD_CWD = join(tmpdir(), 'svc-test-cwd');
mkdirSync(CHILD_CWD, { recursive: true });

/** The test runner's environment without any svc setting, plus `env`: a child sees only what a test gives it. */
export function childEnv(env: Record<string, string> = {}): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !(key in ConfigSchema.properties)) clean[key] = value;
  }
  return { ...clean, ...env };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `svc ...args` (`bun src/main.ts`, or Deno: see DEFAULT_RUNTIME) to completion, in `cwd` (default CHILD_CWD). */
export async function runCli(args: string[], env: Record<string, string> = {}, cwd = CHILD_CWD, runtime: Runtime = DEFAULT_RUNTIME): Promise<CliResult> {
  const child = Bun.spawn({ cmd: svcCommand(args, runtime), env: childEnv(env), cwd, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

/** A TCP port nobody listens on right now: bind port 0, note what the system gave, close it. */
export function freePort(): number {
  const listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

/**
 * SVC_TEST_SERVER_LOG=/path/file appends the log of every `svc serve` a test starts to that file, so the logs of
 * a whole suite run can be searched afterwards (README, "Logs").
 */
const SERVER_LOG = process.env.SVC_TEST_SERVER_LOG;

export interface ServeProcess {
  child: Subprocess<'ignore', 'ignore', 'pipe'>;
  port: number;
  /** http://127.0.0.1:port */
  url: string;
  /** everything written to stderr so far */
  stderr(): string;
  /** the JSON log lines written so far */
  logs(): Record<string, unknown>[];
  /** resolves with the first log line that matches, or rejects after `timeoutMs` */
  waitForLog(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** sends `signal` once, without waiting */
  signal(signal: NodeJS.Signals): void;
  /** sends `signal` (unless a signal was sent already: a second one would force the exit) and resolves with the exit code */
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/**
 * Starts `svc serve --port N` (a free port unless `port` is given; `args` replace the default flags) on `runtime`
 * (default DEFAULT_RUNTIME) in `cwd` (default CHILD_CWD) and resolves once GET /healthz answers 200.
 */
export async function startServe(options: {
  env: Record<string, string>;
  port?: number;
  args?: string[];
  timeoutMs?: number;
  runtime?: Runtime;
  cwd?: string;
}): Promise<ServeProcess> {
  const port = options.port ?? freePort();
  const args = options.args ?? ['--port', String(port), '--host', '127.0.0.1'];
  const child = Bun.spawn({
    cmd: svcCommand(['serve', ...args], options.runtime),
    env: childEnv(options.env),
    cwd: options.cwd ?? CHILD_CWD,
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'pipe',
  });
  let text = '';
  const collecting = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      text += decoder.decode(chunk, { stream: true });
      if (SERVER_LOG) appendFileSync(SERVER_LOG, chunk);
    }
  })();
  const logs = () =>
    text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const url = `http://127.0.0.1:${port}`;

  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`svc serve exited with ${child.exitCode} before answering:\n${text}`);
        return fetch(`${url}/healthz`).then(
          (response) => response.status === 200,
          () => false,
        );
      },
      { timeoutMs: options.timeoutMs ?? 15_000, what: `svc serve to answer /healthz on ${url}` },
    );
  } catch (error) {
    if (child.exitCode !== null) throw error;
    child.kill('SIGKILL');
    throw new Error(`svc serve did not answer /healthz on ${url}:\n${text}`);
  }

  let signalled = false;
  return {
    child,
    port,
    url,
    stderr: () => text,
    logs,
    waitForLog(match, timeoutMs = 5000) {
      return waitFor(() => logs().find(match), { timeoutMs, what: `a matching log line; the log so far:\n${text}` });
    },
    signal(signal) {
      signalled = true;
      child.kill(signal);
    },
    async stop(signal = 'SIGTERM') {
      if (!signalled && child.exitCode === null) child.kill(signal);
      signalled = true;
      const code = await Promise.race([child.exited, deadline(10_000)]);
      if (code === 'timeout') {
        child.kill('SIGKILL');
        throw new Error(`svc serve did not exit within 10 s of ${signal}:\n${text}`);
      }
      await collecting;
      return code;
    },
  };
}

/**
 * Every row of every table of a libSQL database file, by table, in a stable order: what a child process
 * left behind, compared before and after a command that must write nothing.
 */
export async function readLibsqlRows(url: string): Promise<Record<string, Record<string, unknown>[]>> {
  const client = createClient({ url, intMode: 'number' });
  try {
    const tables = await client.execute(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`);
    const rows: Record<string, Record<string, unknown>[]> = {};
    for (const { name } of tables.rows) {
      const result = await client.execute(`SELECT * FROM "${String(name)}" ORDER BY 1`);
      rows[String(name)] = result.rows.map((row) => Object.fromEntries(result.columns.map((column, index) => [column, row[index]])));
    }
    return rows;
  } finally {
    client.close();
  }
}

/** Resolves with 'timeout' after `ms`: the bound on a wait, never a wait itself. */
function deadline(ms: number): Promise<'timeout'> {
  return new Promise((resolve) => setTimeout(() => resolve('timeout'), ms).unref());
}
