/**
 * Scale benchmark: availability, deep keyset pages and createBooking as a workspace's bookings grow from 0 to
 * 10,000 to 100,000, with 10 and 50 providers, on libSQL and (with SVC_TEST_POSTGRES_URL or
 * SVC_BENCH_POSTGRES_URL) Postgres, against a real `svc serve` process per tree, database and provider count.
 * With several trees (`--trees /work/main,.`) the same cases run against each tree in turn (A/B in one run, so
 * both see the same machine). Prints one table; asserts nothing.
 *
 *   bun scripts/bench/scale.ts [--trees .] [--seconds 5] [--connections 10] [--sizes 0,10000,100000] [--providers 10,50]
 *                              [--cases day,days,page,create] (the others print as 0, for profiling one of them)
 *                              [--warmup 1] (seconds of the same load before each figure, not counted)
 *
 * The workspace is open 24 hours every day (Europe/Berlin) with one 30-minute service on every provider. Bookings
 * are written **in bulk through the storage schema** (multi-row inserts, 500 a statement, CONFIRMED, one every
 * hour of every provider's day from a Monday ahead, so every day stays half free): 100,000 through the API would
 * take minutes per case on this machine. Then the planner's statistics are refreshed (ANALYZE on Postgres, as
 * autovacuum would) for every tree alike, and a new server process starts for the size (svc analyses a libSQL
 * file when it starts and every hour, and SQLite connections read statistics when they open); its RSS after the
 * size's four loads shows whether memory grows with the bookings.
 *
 * The four figures, each a closed loop of `connections` clients for `seconds`:
 * - availability, one day: `GET …/availability`, a day among the 365 from the first booked one;
 * - availability/days, 31 days: `GET …/availability/days` over 31 days from such a day;
 * - deep keyset page: `GET …/bookings?limit=50&cursor=…`, a cursor in the last tenth of the bookings;
 * - createBooking: `POST …/bookings` into a free half-hour (distinct per request), with the API key.
 * Every availability request also varies `duration` (30–85 minutes; slot starts stay on the 30-minute grid),
 * so that, with the days, no question repeats within the server's 1-second availability cache: each answer is
 * computed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '@libsql/client';
import { drizzle as drizzleLibsql } from 'drizzle-orm/libsql';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as libsqlSchema from '../../adapters/storage/libsql/schema.ts';
import * as postgresSchema from '../../adapters/storage/postgres/schema.ts';
import { cpuMs, machine, runLoad, type LoadOptions, type LoadResult } from './load.ts';

const { values } = parseArgs({
  options: {
    trees: { type: 'string', default: '.' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    sizes: { type: 'string', default: '0,10000,100000' },
    providers: { type: 'string', default: '10,50' },
    databases: { type: 'string', default: 'libsql,postgres' },
    cases: { type: 'string', default: 'day,days,page,create' },
    warmup: { type: 'string', default: '1' },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const SIZES = values.sizes.split(',').map(Number);
const PROVIDER_COUNTS = values.providers.split(',').map(Number);
const CASES = new Set(values.cases.split(','));
const WARMUP = Number(values.warmup);
const TREES = values.trees.split(',').map((tree) => resolve(tree));
const ZONE = 'Europe/Berlin';
const HOUR = 3_600_000;
const DAY_HOURS = 24;

interface Tree {
  path: string;
  label: string;
}

function treeOf(path: string): Tree {
  const rev = Bun.spawnSync(['git', '-C', path, 'rev-parse', '--short', 'HEAD']).stdout.toString().trim();
  const branch = Bun.spawnSync(['git', '-C', path, 'rev-parse', '--abbrev-ref', 'HEAD']).stdout.toString().trim();
  return { path, label: `${branch}@${rev}` };
}

async function freePort(): Promise<number> {
  const listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

async function waitHealthy(url: string) {
  for (let i = 0; i < 400; i++) {
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

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

/** What the tree's own code needs to create the workspace (each tree migrates its database itself). */
interface TreeModules {
  storage: {
    migrate(): Promise<void>;
    updateWorkspace(id: string, patch: object, at: number): Promise<unknown>;
    createProvider(provider: object): Promise<unknown>;
    createService(service: object): Promise<unknown>;
    close(): Promise<void>;
  };
  createWorkspace(deps: object, input: object): Promise<{ workspace: { id: string }; apiKey: string }>;
  newId(prefix: string): string;
}

async function treeModules(tree: Tree, database: Database): Promise<TreeModules> {
  const ids = await import(join(tree.path, 'src/core/ids.ts'));
  const workspaces = await import(join(tree.path, 'src/features/workspaces/service.ts'));
  const storage =
    database.kind === 'libsql'
      ? (await import(join(tree.path, 'adapters/storage/libsql/index.ts'))).libsqlStorage(database.url)
      : (await import(join(tree.path, 'adapters/storage/postgres/index.ts'))).postgresStorage(database.adminUrl, { schema: database.schema });
  return { storage, createWorkspace: workspaces.createWorkspace, newId: ids.newId };
}

interface Database {
  kind: 'libsql' | 'postgres';
  /** DATABASE_URL for the server */
  url: string;
  adminUrl: string;
  schema: string;
  insert(rows: object[]): Promise<void>;
  analyze(): Promise<void>;
  drop(): Promise<void>;
}

function openDatabase(kind: 'libsql' | 'postgres', pgUrl: string | undefined): Database {
  if (kind === 'libsql') {
    const dir = mkdtempSync(join(tmpdir(), 'svc-scale-'));
    const url = `file:${join(dir, 'svc.db')}`;
    const client = createClient({ url });
    const db = drizzleLibsql(client, { schema: libsqlSchema });
    return {
      kind,
      url,
      adminUrl: url,
      schema: '',
      async insert(rows) {
        await db.insert(libsqlSchema.bookings).values(rows as never);
      },
      async analyze() {
        await client.execute('ANALYZE');
      },
      async drop() {
        client.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `svc_scale_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const client = postgres(pgUrl!, { max: 1, onnotice: () => {}, connection: { search_path: schema } });
  const db = drizzlePostgres(client, { schema: postgresSchema });
  const url = new URL(pgUrl!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    kind,
    url: url.toString(),
    adminUrl: pgUrl!,
    schema,
    async insert(rows) {
      await db.insert(postgresSchema.bookings).values(rows as never);
    },
    async analyze() {
      for (const table of ['bookings', 'providers', 'services', 'service_providers', 'workspaces']) await client.unsafe(`analyze "${table}"`);
    },
    async drop() {
      await client.unsafe(`drop schema if exists "${schema}" cascade`);
      await client.end();
    },
  };
}

interface Fixture {
  workspaceId: string;
  apiKey: string;
  serviceId: string;
  providerIds: string[];
  /** 00:00 of a Monday at least two weeks ahead, epoch ms, and that day */
  firstDay: Temporal.PlainDate;
}

async function seedWorkspace(modules: TreeModules, providers: number): Promise<Fixture> {
  const { storage, newId } = modules;
  await storage.migrate();
  const { workspace, apiKey } = await modules.createWorkspace({ storage, clock: { now: () => Date.now() } }, { slug: 'bench', name: 'Bench', timezone: ZONE });
  const allDay = [{ start: '00:00', end: '24:00' }];
  await storage.updateWorkspace(
    workspace.id,
    { hours: { weekly: { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay }, exceptions: [] } },
    Date.now(),
  );
  const now = Date.now();
  const providerIds: string[] = [];
  for (let i = 0; i < providers; i++) {
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
  const today = Temporal.Now.plainDateISO(ZONE);
  const firstDay = today.add({ days: 8 - today.dayOfWeek + 7 });
  return { workspaceId: workspace.id, apiKey, serviceId, providerIds, firstDay };
}

/** The i-th bulk booking: provider i % P, then whole hours, then days (every full hour of every day). */
function bulkSlot(fixture: Fixture, i: number): { providerId: string; start: number } {
  const providers = fixture.providerIds.length;
  const step = Math.floor(i / providers);
  const day = fixture.firstDay.add({ days: Math.floor(step / DAY_HOURS) });
  const start = day.toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from({ hour: step % DAY_HOURS, minute: 0 }) });
  return { providerId: fixture.providerIds[i % providers]!, start: start.epochMilliseconds };
}

/** The i-th free half hour (hh:30) for createBooking, in the same order. */
function freeSlot(fixture: Fixture, i: number): { providerId: string; start: number } {
  const slot = bulkSlot(fixture, i);
  return { providerId: slot.providerId, start: slot.start + HOUR / 2 };
}

async function addBookings(
  database: Database,
  modules: TreeModules,
  fixture: Fixture,
  from: number,
  to: number,
  positions: { startTime: number; id: string }[],
) {
  const now = Date.now();
  for (let i = from; i < to; i += 500) {
    const rows = [];
    for (let j = i; j < Math.min(to, i + 500); j++) {
      const { providerId, start } = bulkSlot(fixture, j);
      const id = modules.newId('bk');
      positions.push({ startTime: start, id });
      rows.push({
        id,
        workspaceId: fixture.workspaceId,
        serviceId: fixture.serviceId,
        providerId,
        status: 'CONFIRMED',
        startTime: start,
        endTime: start + HOUR / 2,
        bufferTime: 0,
        customerName: 'Bench',
        customerEmail: `c${j}@example.com`,
        phone: null,
        notes: null,
        customFields: {},
        amountMinor: null,
        currency: null,
        cancelReason: null,
        holdExpiresAt: null,
        createdAt: now,
        updatedAt: now,
        revision: 0,
        manageTokenHash: null,
        manageTokenSealed: null,
        priceMinor: null,
        paidMinor: 0,
        refundedMinor: 0,
      });
    }
    await database.insert(rows);
  }
  await database.analyze();
}

interface Row {
  tree: string;
  db: string;
  providers: number;
  bookings: number;
  'day p50': number;
  'day p99': number;
  'day/s': number;
  'days31 p50': number;
  'days31 p99': number;
  'days31/s': number;
  'page p50': number;
  'page p99': number;
  'page/s': number;
  /** the server process's CPU time per page request, µs (its share of the machine, beside the load and the database) */
  'page µs': number;
  'create/s': number;
  'RSS MB': number;
  errors: string;
}

/** runLoad for a case of --cases; a case left out counts as no requests. */
const caseLoad = (name: string, options: LoadOptions): Promise<LoadResult> =>
  CASES.has(name)
    ? runLoad({ warmupSeconds: WARMUP, ...options })
    : Promise.resolve({ requests: 0, seconds: 0, perSecond: 0, p50: 0, p99: 0, statuses: {}, asked: 0 });

const round = (value: number) => Math.round(value * 10) / 10;

/** `svc serve` of `tree` on `database`, listening on `port`. */
function startServer(tree: Tree, database: Database, port: number) {
  return Bun.spawn({
    cmd: [process.execPath, join(tree.path, 'src/main.ts'), 'serve', '--port', String(port), '--host', '127.0.0.1'],
    env: {
      SVC_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
      ...process.env,
      DATABASE_URL: database.url,
      SVC_DEMO: 'false',
      LOG_LEVEL: 'warn',
      SVC_RATE_LIMIT: '1000000000',
      SVC_TRUST_PROXY: 'true',
    },
    stdout: 'ignore',
    stderr: 'inherit',
  });
}

async function benchCase(tree: Tree, kind: 'libsql' | 'postgres', providers: number, pgUrl: string | undefined): Promise<Row[]> {
  const database = openDatabase(kind, pgUrl);
  const modules = await treeModules(tree, database);
  const fixture = await seedWorkspace(modules, providers);
  await modules.storage.close();
  const rows: Row[] = [];
  const positions: { startTime: number; id: string }[] = [];
  let inserted = 0;
  let created = 0;
  let child: ReturnType<typeof Bun.spawn> | null = null;
  try {
    for (const size of SIZES) {
      if (size > inserted) {
        await addBookings(database, modules, fixture, inserted, size, positions);
        inserted = size;
      }
      child?.kill('SIGTERM');
      await child?.exited;
      const port = await freePort();
      child = startServer(tree, database, port);
      const base = `http://127.0.0.1:${port}/api/v1/workspaces/bench`;
      await waitHealthy(`http://127.0.0.1:${port}/healthz`);
      const question = (i: number) => {
        const day = fixture.firstDay.add({ days: i % 365 });
        const duration = 30 + 5 * (Math.floor(i / 365) % 12);
        return { day, duration };
      };
      const client = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i % 200}` });
      const day = await caseLoad('day', {
        connections: CONNECTIONS,
        seconds: SECONDS,
        next: (i) => {
          const q = question(i);
          return new Request(`${base}/availability?serviceId=${fixture.serviceId}&date=${q.day}&duration=${q.duration}`, { headers: client(i) });
        },
      });
      const days = await caseLoad('days', {
        connections: CONNECTIONS,
        seconds: SECONDS,
        next: (i) => {
          const q = question(i);
          return new Request(`${base}/availability/days?serviceId=${fixture.serviceId}&from=${q.day}&to=${q.day.add({ days: 30 })}&duration=${q.duration}`, {
            headers: client(i),
          });
        },
      });
      const sorted = [...positions].sort((a, b) => a.startTime - b.startTime || (a.id < b.id ? -1 : 1));
      const deep = sorted.slice(Math.floor(sorted.length * 0.9));
      let pageCpuBefore = 0;
      const page = await caseLoad('page', {
        connections: CONNECTIONS,
        seconds: SECONDS,
        onMeasure: () => {
          pageCpuBefore = cpuMs(child!.pid);
        },
        next: (i) => {
          const at = deep.length === 0 ? undefined : deep[i % deep.length]!;
          const cursor = at ? `&cursor=${Buffer.from(JSON.stringify([at.startTime, at.id])).toString('base64url')}` : '';
          return new Request(`${base}/bookings?limit=50${cursor}`, { headers: { 'x-svc-api-key': fixture.apiKey } });
        },
      });
      const pageCpuUs = page.requests > 0 ? ((cpuMs(child.pid) - pageCpuBefore) * 1000) / page.requests : 0;
      const start = created;
      const create = await caseLoad('create', {
        connections: CONNECTIONS,
        seconds: SECONDS,
        next: (i) => {
          const { providerId, start: at } = freeSlot(fixture, start + i);
          return new Request(`${base}/bookings`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-svc-api-key': fixture.apiKey },
            body: JSON.stringify({ serviceId: fixture.serviceId, providerId, email: `n${start + i}@example.com`, date: new Date(at).toISOString() }),
          });
        },
      });
      created += create.asked;
      const errors = (
        [
          ['day', day, 200],
          ['days', days, 200],
          ['page', page, 200],
          ['create', create, 200],
        ] as [string, LoadResult, number][]
      )
        .filter(([, result, ok]) => Object.keys(result.statuses).some((status) => Number(status) !== ok))
        .map(([name, result]) => `${name} ${JSON.stringify(result.statuses)}`)
        .join('; ');
      rows.push({
        tree: tree.label,
        db: kind,
        providers,
        bookings: size,
        'day p50': round(day.p50),
        'day p99': round(day.p99),
        'day/s': Math.round(day.perSecond),
        'days31 p50': round(days.p50),
        'days31 p99': round(days.p99),
        'days31/s': Math.round(days.perSecond),
        'page p50': round(page.p50),
        'page p99': round(page.p99),
        'page/s': Math.round(page.perSecond),
        'page µs': Math.round(pageCpuUs),
        'create/s': Math.round(create.perSecond),
        'RSS MB': rssMb(child.pid),
        errors,
      });
      console.log(JSON.stringify(rows.at(-1)));
    }
  } finally {
    child?.kill('SIGTERM');
    await child?.exited;
    await database.drop();
  }
  return rows;
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const trees = TREES.map(treeOf);
console.log(`svc scale benchmark: ${CONNECTIONS} connections, ${SECONDS} s per figure; ${machine()}; load average ${loadavg()}`);
const pgUrl = process.env.SVC_BENCH_POSTGRES_URL ?? process.env.SVC_TEST_POSTGRES_URL;
const kinds = values.databases.split(',').filter((kind): kind is 'libsql' | 'postgres' => kind === 'libsql' || (kind === 'postgres' && pgUrl !== undefined));
const rows: Row[] = [];
for (const kind of kinds) {
  for (const providers of PROVIDER_COUNTS) {
    // Trees alternate case by case, so a busy moment of the machine falls on all of them.
    for (const tree of trees) {
      console.log(`# ${tree.label} ${kind} ${providers} providers (load average ${loadavg()})`);
      rows.push(...(await benchCase(tree, kind, providers, pgUrl)));
    }
  }
}
console.table(rows);
console.log(`load average at the end: ${loadavg()}`);
