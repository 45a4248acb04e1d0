// npm test: every test file in a `bun test` process of its own, several at a time.
// A process per file keeps one file's leftovers (servers, timers, a runtime crash) from reaching the others, and
// lets the files that wait on Postgres, a browser or WordPress overlap. With arguments it is plain `bun test`.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { ensureWebAssets } from './build-web.ts';
import { failsRun, isCi, judgeRerun, parseQuarantine, type Quarantine, type RerunVerdict } from './test-verdict.ts';

const ROOT = join(import.meta.dirname, '..');
const TIMEOUT_ARGS = ['--timeout', '30000'];
const TIMES_FILE = join(ROOT, 'node_modules/.cache/svc/test-times.json');
/** Files tolerated when they fail beside others and pass alone; the rule is in scripts/test-verdict.ts. */
const QUARANTINE_FILE = 'tests/quarantine.txt';
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

/** Everything one file went through: a run Bun crashed in, the run beside other files, the run alone. */
interface FileRuns {
  file: string;
  crash?: FileResult;
  beside: FileResult;
  alone?: FileResult;
  verdict?: RerunVerdict;
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
  const all = testFiles(join(ROOT, 'tests'));
  const quarantine = readQuarantine(all);
  if (quarantine.problems.length > 0) {
    console.log(`${QUARANTINE_FILE} cannot be read:`);
    for (const problem of quarantine.problems) console.log(`  ${problem}`);
    return 1;
  }
  const ci = isCi(process.env.CI);
  const files = ordered(all, previousTimes);
  const jobs = Number(process.env.SVC_TEST_JOBS) || Math.max(2, availableParallelism() + 1);
  console.log(`${files.length} test files, ${jobs} at a time`);
  console.log(
    ci
      ? 'CI is set: a file that fails beside others and passes alone still fails the run, unless quarantined'
      : 'CI is not set: a file that fails beside others and passes alone lets the run pass here (CI would fail it)',
  );
  for (const [file, reason] of quarantine.reasons) console.log(`quarantined (${QUARANTINE_FILE}): ${file}: ${reason}`);

  const runs: FileRuns[] = [];
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      let result = await runFile(file);
      let crash: FileResult | undefined;
      if (crashed(result)) {
        console.log(`\n!! bun itself crashed running ${file} (${crashCause(result)}); running the file once more`);
        console.log(lastLines(result.output, 25));
        crash = result;
        result = await runFile(file);
      }
      report(result);
      runs.push({ file, crash, beside: result });
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));

  // A file that failed while others ran beside it runs once more alone, so the summary can tell a failure from a
  // test that depends on the machine's load. What that second run decides is in scripts/test-verdict.ts.
  for (const run of runs) {
    if (passed(run.beside)) continue;
    console.log(`\n!! ${run.file} failed with ${jobs} files at a time; running it once more, alone`);
    run.alone = await runFile(run.file);
    report(run.alone);
    run.verdict = judgeRerun(passed(run.alone), ci, quarantine.reasons.get(run.file));
  }

  writeTimes({ ...previousTimes, ...Object.fromEntries(runs.map((r) => [r.file, r.beside.ms])) });
  return summarize(runs, performance.now() - started, { jobs, quarantine });
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

function readQuarantine(files: string[]): Quarantine {
  let text = '';
  try {
    text = readFileSync(join(ROOT, QUARANTINE_FILE), 'utf8');
  } catch {
    // No file: nothing is quarantined.
  }
  return parseQuarantine(text, files);
}

/** Bun's own segfaults and panics (a runtime bug, not a test failure) end the process by a signal or say so. */
function crashed(result: FileResult): boolean {
  if (result.code === 0) return false;
  const bySignal = result.signal !== null || (result.code !== null && result.code >= 128);
  return bySignal || result.output.includes('Bun has crashed');
}

function crashCause(result: FileResult): string {
  return result.signal ?? `exit ${result.code}`;
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

/** The run whose test counts stand for the file: the failing one for a file whose flakiness fails the run. */
function counted(run: FileRuns): FileResult {
  return run.alone && run.verdict !== 'flaky' ? run.alone : run.beside;
}

function failed(run: FileRuns): boolean {
  return run.verdict ? failsRun(run.verdict) : !passed(run.beside);
}

function summarize(runs: FileRuns[], ms: number, context: { jobs: number; quarantine: Quarantine }): number {
  const results = runs.map(counted);
  const total = (label: string) => results.reduce((sum, r) => sum + count(r.output, label), 0);
  const failing = runs.filter(failed);
  const beside = `failed with ${context.jobs} files at a time, then passed alone`;
  console.log(`\n== ${runs.length} files, ${(ms / 1000).toFixed(0)} s`);
  for (const run of runs) {
    if (run.crash) {
      const then = passed(run.beside) ? 'passed' : 'failed';
      console.log(`CRASHED ${run.file}: bun itself crashed (${crashCause(run.crash)}), not a test; the file ran once more and ${then}`);
    }
    if (run.verdict === 'flaky') console.log(`FLAKY ${run.file}: ${beside}; this fails the run in CI (or quarantine it in ${QUARANTINE_FILE})`);
    if (run.verdict === 'flaky-tolerated') console.log(`FLAKY ${run.file}: ${beside}; passes here only because CI is not set, CI would fail the run`);
    if (run.verdict === 'quarantined') console.log(`QUARANTINED ${run.file}: ${beside}; tolerated: ${context.quarantine.reasons.get(run.file)}`);
  }
  for (const run of failing) {
    console.log(`FAILED ${run.file}`);
    for (const line of counted(run)
      .output.split('\n')
      .filter((l) => l.startsWith('(fail)')))
      console.log(`  ${line}`);
  }
  const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(`slowest: ${slowest.map((r) => `${r.file} ${(r.ms / 1000).toFixed(0)} s`).join(', ')}`);
  // The closing line in the plain form CI reads; a file that failed without a (fail) line (a crash, a deadline)
  // counts as one failure.
  const failures = Math.max(total('fail'), failing.length);
  console.log(`tests: ${total('pass')} passed, ${failures} failed, ${total('skip')} skipped`);
  return failing.length === 0 ? 0 : 1;
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
