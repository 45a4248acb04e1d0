// npm test: every test file in a `bun test` process of its own, several at a time.
// A process per file keeps one file's leftovers (servers, timers, a runtime crash) from reaching the others, and
// lets the files that wait on Postgres, a browser or WordPress overlap. With arguments it is plain `bun test`.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { ensureWebAssets } from './build-web.ts';

const ROOT = join(import.meta.dirname, '..');
const TIMEOUT_ARGS = ['--timeout', '30000'];
const TIMES_FILE = join(ROOT, 'node_modules/.cache/svc/test-times.json');
/** A file still running after this long is stuck (a server left open keeps `bun test` alive): it fails. */
const FILE_DEADLINE_MS = 15 * 60_000;
/** Files known to be slow, started first on a machine that has no timings yet (a fresh clone in CI). */
const SLOW_FIRST = [/wordpress/, /browser/, /multi-instance/, /concurrency/, /runtime/, /release/, /docker/, /contract/];

interface FileResult {
  file: string;
  code: number | null;
  signal: string | null;
  output: string;
  ms: number;
}

const args = process.argv.slice(2);
if (args.length > 0) {
  const child = spawn(process.execPath, ['test', ...TIMEOUT_ARGS, ...args], { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  process.exit(await runAll());
}

async function runAll(): Promise<number> {
  await ensureWebAssets();
  const started = performance.now();
  const previousTimes = readTimes();
  const files = ordered(testFiles(join(ROOT, 'tests')), previousTimes);
  const jobs = Number(process.env.SVC_TEST_JOBS) || Math.max(2, availableParallelism() + 1);
  console.log(`${files.length} test files, ${jobs} at a time`);

  const results: FileResult[] = [];
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      let result = await runFile(file);
      if (crashed(result)) {
        console.log(`\n!! bun itself crashed running ${file} (${result.signal ?? `exit ${result.code}`}); running the file once more`);
        console.log(lastLines(result.output, 25));
        result = await runFile(file);
      }
      report(result);
      results.push(result);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));

  writeTimes({ ...previousTimes, ...Object.fromEntries(results.map((r) => [r.file, r.ms])) });
  return summarize(results, performance.now() - started);
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => relative(ROOT, join(dir, name)))
    .sort();
}

function ordered(files: string[], times: Record<string, number>): string[] {
  const weight = (file: string) => times[file] ?? (SLOW_FIRST.some((pattern) => pattern.test(file)) ? 60_000 : 5_000);
  return [...files].sort((a, b) => weight(b) - weight(a));
}

function runFile(file: string): Promise<FileResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['test', ...TIMEOUT_ARGS, `./${file}`], {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, FILE_DEADLINE_MS);
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      let output = Buffer.concat(chunks).toString('utf8');
      if (timedOut) output += `\n!! ${file} still ran after ${FILE_DEADLINE_MS / 60_000} minutes and was stopped\n`;
      resolve({ file, code, signal, output, ms: performance.now() - started });
    });
  });
}

/** Bun's own segfaults and panics (a runtime bug, not a test failure) end the process by a signal or say so. */
function crashed(result: FileResult): boolean {
  if (result.code === 0) return false;
  const bySignal = result.signal !== null || (result.code !== null && result.code >= 128);
  return bySignal || result.output.includes('Bun has crashed');
}

function report(result: FileResult) {
  const status = passed(result) ? 'ok' : 'FAILED';
  console.log(`\n── ${result.file} ${status} (${(result.ms / 1000).toFixed(1)} s)`);
  console.log(result.output.trimEnd());
}

function passed(result: FileResult): boolean {
  return result.code === 0 && result.signal === null;
}

function count(output: string, label: string): number {
  const match = output.match(new RegExp(`^\\s*(\\d+) ${label}$`, 'm'));
  return match ? Number(match[1]) : 0;
}

function summarize(results: FileResult[], ms: number): number {
  const total = (label: string) => results.reduce((sum, r) => sum + count(r.output, label), 0);
  const failed = results.filter((r) => !passed(r));
  console.log(`\n== ${results.length} files, ${(ms / 1000).toFixed(0)} s`);
  for (const result of failed) {
    console.log(`FAILED ${result.file}`);
    for (const line of result.output.split('\n').filter((l) => l.startsWith('(fail)'))) console.log(`  ${line}`);
  }
  const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(`slowest: ${slowest.map((r) => `${r.file} ${(r.ms / 1000).toFixed(0)} s`).join(', ')}`);
  // The closing line in the plain form CI reads; a file that failed without a (fail) line (a crash, a deadline)
  // counts as one failure.
  const failures = Math.max(total('fail'), failed.length);
  console.log(`tests: ${total('pass')} passed, ${failures} failed, ${total('skip')} skipped`);
  return failed.length === 0 ? 0 : 1;
}

function lastLines(text: string, n: number): string {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}

function readTimes(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(TIMES_FILE, 'utf8'));
  } catch {
    return {};
  }
}

function writeTimes(times: Record<string, number>) {
  mkdirSync(dirname(TIMES_FILE), { recursive: true });
  writeFileSync(TIMES_FILE, JSON.stringify(times, null, 2));
}
