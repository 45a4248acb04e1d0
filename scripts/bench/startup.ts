/**
 * Start-up time: from spawning `svc serve` to its first 200 on GET /healthz, on a fresh libSQL database (a new
 * empty directory each run, so migrations, the generated secret and the demo seed all happen), for the source
 * (`bun src/main.ts serve`) and for the compiled binary (dist/svc, built first when missing).
 *
 *   bun scripts/bench/startup.ts [--runs 10] [--binary dist/svc] [--compare another-binary] [--demo false]
 *
 * Prints the median, p90, min and max over the runs: to the first /healthz 200, to "ready" (GET /readyz and, with
 * the demo on, the demo's config answering), and the CPU time the process used until its first 200 (Linux), which
 * a busy machine changes far less than the wall-clock times.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuMs } from './load.ts';

const ROOT = join(import.meta.dir, '..', '..');
const { values } = parseArgs({ options: { runs: { type: 'string' }, binary: { type: 'string' }, compare: { type: 'string' }, demo: { type: 'string' } } });
const runs = Number(values.runs ?? 10);
const binary = resolvePath(values.binary ?? join(ROOT, 'dist', 'svc'));
const demo = values.demo ?? 'true';

if (!existsSync(binary)) {
  console.log(`${binary} is missing: npm run build`);
  const build = spawn('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  await new Promise((resolve) => build.on('exit', resolve));
}

/** A port nobody listens on right now. */
function freePort(): number {
  const listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

/** Whether something accepts TCP connections on the port: cheaper to poll than an HTTP request. */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function status(url: string): Promise<number> {
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

interface Run {
  /** spawn to the first 200 on /healthz, ms */
  healthz: number;
  /** CPU time the process used until then, all its threads, ms (Linux only; NaN elsewhere) */
  cpu: number;
  /** spawn to /readyz 200 and, with the demo on, the demo workspace's config answering, ms */
  ready: number;
}

async function once(cmd: string[]): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-startup-'));
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(cmd[0]!, [...cmd.slice(1), 'serve', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, LOG_LEVEL: 'warn', SVC_DEMO: demo },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let failed: Error | undefined;
  child.once('error', (error) => (failed = error));
  try {
    let healthz = 0;
    let cpu = Number.NaN;
    for (;;) {
      if (failed) throw failed;
      if (child.exitCode !== null) throw new Error(`${cmd.join(' ')} exited with ${child.exitCode}`);
      if (performance.now() - started > 10_000) throw new Error(`${cmd.join(' ')}: no answer within 10 s`);
      if ((await accepting(port)) && (await status(`${url}/healthz`)) === 200) {
        healthz = performance.now() - started;
        cpu = cpuMs(child.pid!);
        break;
      }
      await Bun.sleep(1);
    }
    for (;;) {
      const ready = (await status(`${url}/readyz`)) === 200 && (demo !== 'true' || (await status(`${url}/api/v1/workspaces/demo/config`)) === 200);
      if (ready) return { healthz, cpu, ready: performance.now() - started };
      if (performance.now() - started > 10_000) throw new Error(`${cmd.join(' ')}: not ready within 10 s`);
      await Bun.sleep(1);
    }
  } finally {
    if (!failed) {
      child.kill('SIGTERM');
      await new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done)));
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const f = (ms: number) => ms.toFixed(0).padStart(5);
  return `median ${f(quantile(sorted, 0.5))}  p90 ${f(quantile(sorted, 0.9))}  min ${f(sorted[0]!)}  max ${f(sorted.at(-1)!)}`;
}

const cases: [string, string[]][] = [
  ['bun src/main.ts', [process.execPath, join(ROOT, 'src', 'main.ts')]],
  [binary.replace(`${ROOT}/`, ''), [binary]],
  ...(values.compare ? [[values.compare, [resolvePath(values.compare)]] as [string, string[]]] : []),
];
console.log(`start-up on a fresh database, ${runs} runs each, SVC_DEMO=${demo} (ms from spawn); load average ${loadavg()[0]!.toFixed(1)}`);
// Round robin, one run of each case in turn, so a busy moment of the machine falls on all of them alike.
const results = new Map<string, Run[]>(cases.map(([name]) => [name, []]));
for (const [, cmd] of cases) await once(cmd); // warm the file cache
for (let i = 0; i < runs; i++) for (const [name, cmd] of cases) results.get(name)!.push(await once(cmd));
console.log(`load average after: ${loadavg()[0]!.toFixed(1)}`);
for (const [name, runs] of results) {
  console.log(
    `${name}\n  /healthz 200: ${summary(runs.map((r) => r.healthz))}\n  ready:        ${summary(runs.map((r) => r.ready))}\n`
      + `  CPU until /healthz 200: ${summary(runs.map((r) => r.cpu))}`,
  );
}
