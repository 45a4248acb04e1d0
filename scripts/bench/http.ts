/**
 * HTTP benchmark (issue 4): availability and createBooking under 50 concurrent connections against a real
 * `svc serve` process, on libSQL and (with SVC_TEST_POSTGRES_URL or SVC_BENCH_POSTGRES_URL) Postgres, next to a
 * bare Bun.serve JSON endpoint in the same run. Prints a table; checks that no slot was overbooked.
 *
 *   bun scripts/bench/http.ts [--seconds 5] [--connections 50] [--warmup 1] (seconds of unmeasured load before each case)
 *                             [--cases bare,availability,create] [--databases libsql,postgres] (to profile one case)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { libsqlStorage } from '../../adapters/storage/libsql/index.ts';
import { postgresStorage } from '../../adapters/storage/postgres/index.ts';
import { systemClock } from '../../src/core/clock.ts';
import { newId } from '../../src/core/ids.ts';
import type { Storage } from '../../src/ports/storage/index.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { cpuMs, machine, runLoad, type LoadOptions, type LoadResult } from './load.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    cases: { type: 'string', default: 'bare,availability,create' },
    databases: { type: 'string', default: 'libsql,postgres' },
    warmup: { type: 'string', default: '1' },
  },
});
const CASES = new Set(values.cases.split(','));
const DATABASES = new Set(values.databases.split(','));
const WARMUP = Number(values.warmup);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const PROVIDERS = 10;
const root = join(import.meta.dir, '..', '..');

async function freePort(): Promise<number> {
  const listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

async function waitHealthy(url: string) {
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await Bun.sleep(50);
  }
  throw new Error(`no answer from ${url}`);
}

interface Fixture {
  slug: string;
  apiKey: string;
  serviceId: string;
  providerIds: string[];
  /** a Monday, far enough ahead that every slot is bookable */
  firstDay: Temporal.PlainDate;
}

/** A workspace open 08:00–20:00 every day with a 30-minute service on 10 providers: 240 distinct slots a day. */
async function seed(storage: Storage): Promise<Fixture> {
  await storage.migrate();
  const deps = { storage, clock: systemClock };
  const { workspace, apiKey } = await createWorkspace(deps, { slug: 'bench', name: 'Bench', timezone: 'Europe/Berlin' });
  const allDay = [{ start: '08:00', end: '20:00' }];
  await storage.updateWorkspace(
    workspace.id,
    { hours: { weekly: { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay }, exceptions: [] } },
    Date.now(),
  );
  const now = Date.now();
  const providerIds: string[] = [];
  for (let i = 0; i < PROVIDERS; i++) {
    const id = newId('prv');
    providerIds.push(id);
    await storage.createProvider({
      id,
      workspaceId: workspace.id,
      name: `Provider ${i}`,
      email: null,
      active: true,
      hours: null,
      serviceIds: [],
      createdAt: now,
      updatedAt: now,
    });
  }
  const serviceId = newId('srv');
  await storage.createService({
    id: serviceId,
    workspaceId: workspace.id,
    name: 'Consultation',
    description: null,
    duration: 30,
    priceMinor: 0,
    currency: 'EUR',
    active: true,
    category: null,
    capacity: 1,
    bufferTime: 0,
    minNotice: 0,
    maxAdvance: null,
    depositMinor: null,
    order: 0,
    slotInterval: null,
    waitlist: false,
    providerIds,
    createdAt: now,
    updatedAt: now,
  });
  const today = Temporal.Now.plainDateISO('Europe/Berlin');
  const firstDay = today.add({ days: 8 - today.dayOfWeek + 7 });
  return { slug: 'bench', apiKey, serviceId, providerIds, firstDay };
}

const SLOTS_PER_DAY = 24;

/** The i-th distinct (provider, start) pair: providers first, then 30-minute steps from 08:00, then days. */
function slotStart(fixture: Fixture, i: number): { providerId: string; date: string } {
  const provider = i % PROVIDERS;
  const step = Math.floor(i / PROVIDERS);
  const day = fixture.firstDay.add({ days: Math.floor(step / SLOTS_PER_DAY) });
  const minutes = 8 * 60 + (step % SLOTS_PER_DAY) * 30;
  const start = day.toZonedDateTime({
    timeZone: 'Europe/Berlin',
    plainTime: Temporal.PlainTime.from({ hour: Math.floor(minutes / 60), minute: minutes % 60 }),
  });
  return { providerId: fixture.providerIds[provider]!, date: start.toInstant().toString() };
}

async function benchSvc(label: string, databaseUrl: string, storage: Storage): Promise<{ rows: Row[]; overbooked: number }> {
  const fixture = await seed(storage);
  const port = await freePort();
  const child = Bun.spawn({
    cmd: [process.execPath, join(root, 'src/main.ts'), 'serve', '--port', String(port), '--host', '127.0.0.1'],
    // The rate limit is lifted: this measures the server, not the limiter's refusals.
    // Availability is asked by many browsers: each connection is its own client (SVC_TRUST_PROXY with one
    // X-Forwarded-For address per connection), so the rate limiter counts them apart as it would in production.
    // (SVC_SECRET: required on Postgres; a libSQL file would keep a generated one beside itself)
    env: {
      SVC_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
      ...process.env,
      DATABASE_URL: databaseUrl,
      SVC_DEMO: 'false',
      LOG_LEVEL: 'warn',
      SVC_RATE_LIMIT: '1000000000',
      SVC_TRUST_PROXY: 'true',
    },
    stdout: 'ignore',
    stderr: 'inherit',
  });
  const base = `http://127.0.0.1:${port}/api/v1/workspaces/${fixture.slug}`;
  try {
    await waitHealthy(`http://127.0.0.1:${port}/healthz`);
    const rows: Row[] = [];
    if (CASES.has('availability')) {
      const availability = await runLoadOn(child.pid, {
        connections: CONNECTIONS,
        seconds: SECONDS,
        next: (i) =>
          new Request(`${base}/availability?serviceId=${fixture.serviceId}&date=${fixture.firstDay.add({ days: i % 28 }).toString()}`, {
            headers: { 'x-forwarded-for': `198.51.100.${i % CONNECTIONS}` },
          }),
      });
      rows.push(row(`${label}: availability`, availability));
    }
    if (CASES.has('create')) {
      // Each slot is asked for twice, by different connections: half the answers must be 409.
      const bookings = await runLoadOn(child.pid, {
        connections: CONNECTIONS,
        seconds: SECONDS,
        next: (i) => {
          const { providerId, date } = slotStart(fixture, Math.floor(i / 2));
          return new Request(`${base}/bookings`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-svc-api-key': fixture.apiKey },
            body: JSON.stringify({ serviceId: fixture.serviceId, providerId, email: `c${i}@example.com`, date }),
          });
        },
      });
      rows.push(row(`${label}: createBooking`, bookings, `${bookings.statuses[200] ?? 0} booked, ${bookings.statuses[409] ?? 0} refused as taken`));
    }
    return { rows, overbooked: await countOverbooked(storage, fixture) };
  } finally {
    child.kill('SIGTERM');
    await child.exited;
  }
}

/** runLoad (after WARMUP seconds), and the CPU time the server process `pid` spent per measured request (µs). */
async function runLoadOn(pid: number, options: LoadOptions): Promise<LoadResult & { serverCpuUs: number }> {
  let before = Number.NaN;
  const result = await runLoad({ warmupSeconds: WARMUP, ...options, onMeasure: () => (before = cpuMs(pid)) });
  return { ...result, serverCpuUs: ((cpuMs(pid) - before) * 1000) / result.requests };
}

async function countOverbooked(storage: Storage, fixture: Fixture): Promise<number> {
  const busy = await storage.listBusy(fixture.providerIds, 0, Number.MAX_SAFE_INTEGER);
  const seen = new Map<string, number>();
  for (const interval of busy) {
    const key = `${interval.providerId}@${interval.startTime}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen.values()].filter((count) => count > 1).length;
}

interface Row {
  case: string;
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  requests: number;
  'server CPU µs/req': number;
  note: string;
}

function row(label: string, result: LoadResult & { serverCpuUs: number }, note = ''): Row {
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    case: label,
    'req/s': Math.round(result.perSecond),
    'p50 ms': round(result.p50),
    'p99 ms': round(result.p99),
    requests: result.requests,
    'server CPU µs/req': Math.round(result.serverCpuUs),
    note: note || JSON.stringify(result.statuses),
  };
}

async function benchBare(): Promise<Row> {
  const child = Bun.spawn({ cmd: [process.execPath, join(import.meta.dir, 'bare-server.ts')], stdout: 'pipe', stderr: 'inherit' });
  const reader = child.stdout.getReader();
  const port = Number(new TextDecoder().decode((await reader.read()).value).trim());
  try {
    const result = await runLoadOn(child.pid, { connections: CONNECTIONS, seconds: SECONDS, next: () => new Request(`http://127.0.0.1:${port}/`) });
    return row('bare Bun.serve JSON', result);
  } finally {
    child.kill();
    await child.exited;
  }
}

console.log(`svc HTTP benchmark: ${CONNECTIONS} connections, ${SECONDS} s per case; ${machine()}`);
const rows: Row[] = CASES.has('bare') ? [await benchBare()] : [];
const problems: string[] = [];

if (DATABASES.has('libsql')) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const libsqlUrl = `file:${join(dir, 'svc.db')}`;
  const libsql = libsqlStorage(libsqlUrl);
  const libsqlRun = await benchSvc('libSQL', libsqlUrl, libsql);
  rows.push(...libsqlRun.rows);
  if (libsqlRun.overbooked) problems.push(`libSQL: ${libsqlRun.overbooked} overbooked slots`);
  await libsql.close();
  rmSync(dir, { recursive: true, force: true });
}

const pgUrl = process.env.SVC_BENCH_POSTGRES_URL ?? process.env.SVC_TEST_POSTGRES_URL;
if (pgUrl && DATABASES.has('postgres')) {
  const schema = `svc_bench_${Date.now().toString(36)}`;
  const pg = postgresStorage(pgUrl, { schema });
  const url = new URL(pgUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const pgRun = await benchSvc('Postgres', url.toString(), pg);
  rows.push(...pgRun.rows);
  if (pgRun.overbooked) problems.push(`Postgres: ${pgRun.overbooked} overbooked slots`);
  await pg.close();
  const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop schema "${schema}" cascade`);
  await admin.end();
} else if (!pgUrl) {
  console.log('(set SVC_TEST_POSTGRES_URL to include Postgres)');
}

const bare = CASES.has('bare') ? rows[0]!['req/s'] : Number.NaN;
console.table(rows.map((each) => ({ ...each, 'vs bare': `${Math.round((each['req/s'] / bare) * 100)}%` })));
console.log(problems.length ? `PROBLEMS: ${problems.join('; ')}` : 'overbooking: none (every provider slot holds at most one booking)');
