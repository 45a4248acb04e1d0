/**
 * Availability with a provider's connected calendars: a provider with 3 connected calendars holding 2,000 busy
 * events over the next year, against the same provider without any, on libSQL and (with SVC_TEST_POSTGRES_URL or
 * SVC_BENCH_POSTGRES_URL) Postgres. Availability is computed without its cache (every call reads the database).
 * Prints a table and the machine's load.
 *
 *   bun scripts/bench/calendar-busy.ts [--rounds 200]
 */
import { loadavg } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { libsqlStorage } from '../../adapters/storage/libsql/index.ts';
import { postgresStorage } from '../../adapters/storage/postgres/index.ts';
import { systemClock } from '../../src/core/clock.ts';
import { newId } from '../../src/core/ids.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { availableDays, availableSlots, resolveOffering } from '../../src/features/scheduling/availability.ts';
import type { Storage } from '../../src/ports/storage/index.ts';
import { machine } from './load.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '200' } } });
const ROUNDS = Number(values.rounds);
const EVENTS = 2000;
const CALENDARS = 3;
const DAY = 86_400_000;
const HOUR = 3_600_000;

async function fixture(storage: Storage, withCalendars: boolean) {
  const clock = systemClock;
  const { workspace } = await createWorkspace(
    { storage, clock },
    { slug: `bench-${withCalendars ? 'cal' : 'none'}`, name: 'Bench', timezone: 'Europe/Berlin' },
  );
  const now = clock.now();
  const providerId = newId('prv');
  await storage.createProvider({
    id: providerId,
    workspaceId: workspace.id,
    name: 'Alex',
    email: null,
    active: true,
    hours: null,
    serviceIds: [],
    createdAt: now,
    updatedAt: now,
  } as never);
  const serviceId = newId('srv');
  await storage.createService({
    id: serviceId,
    workspaceId: workspace.id,
    name: 'Cut',
    description: null,
    duration: 30,
    priceMinor: 3000,
    currency: 'EUR',
    active: true,
    category: null,
    capacity: 1,
    bufferTime: 10,
    minNotice: 0,
    maxAdvance: 365,
    depositMinor: null,
    order: 0,
    slotInterval: null,
    providerIds: [providerId],
    createdAt: now,
    updatedAt: now,
  } as never);
  if (withCalendars) {
    const ids = Array.from({ length: CALENDARS }, (_, index) => `https://dav.example.com/alex/${index}/`);
    const id = newId('cal');
    await storage.createCalendarConnection({
      id,
      workspaceId: workspace.id,
      providerId,
      kind: 'caldav',
      name: 'dav.example.com',
      url: 'https://dav.example.com/alex/',
      account: 'alex',
      username: 'alex',
      sealedSecret: null,
      status: 'ok',
      lastSyncedAt: now,
      lastError: null,
      failures: 0,
      calendars: ids.map((calendarId, index) => ({ id: calendarId, name: `Calendar ${index}`, blocks: true, writes: false, readOnly: false })),
      syncState: {},
      createdAt: now,
      updatedAt: now,
    });
    // 2,000 one-hour events over the next 365 days, spread over the calendars, in working hours
    const start = Math.floor(now / DAY) * DAY;
    const busy = ids.map((calendarId, calendar) => ({
      calendarId,
      intervals: Array.from({ length: Math.ceil(EVENTS / CALENDARS) }, (_, index) => {
        const n = index * CALENDARS + calendar;
        const at = start + Math.floor((n * 365) / EVENTS) * DAY + (8 + (n % 8)) * HOUR;
        return { start: at, end: at + HOUR, uid: `e${n}@example.com` };
      }).slice(0, calendar < EVENTS % CALENDARS || EVENTS % CALENDARS === 0 ? undefined : -1),
    }));
    await storage.storeCalendarSync(id, {}, busy, now);
  }
  return { workspace, offering: await resolveOffering({ storage }, workspace, serviceId) };
}

async function time(work: () => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { mean: samples.reduce((sum, each) => sum + each, 0) / samples.length, p99: samples[Math.floor(samples.length * 0.99)]! };
}

async function bench(name: string, storage: Storage) {
  await storage.migrate();
  const deps = { storage, clock: systemClock };
  const day = Temporal.Now.plainDateISO('Europe/Berlin').add({ days: 14 });
  const rows: string[] = [];
  for (const withCalendars of [false, true]) {
    const { workspace, offering } = await fixture(storage, withCalendars);
    const label = withCalendars ? `3 calendars, ${EVENTS} events` : 'no calendars';
    const slots = await time(() => availableSlots(deps, workspace, offering, day.toString()));
    const days = await time(() => availableDays(deps, workspace, offering, day.toString(), day.add({ days: 30 }).toString()));
    rows.push(`| ${name} | ${label} | availability, one day | ${slots.mean.toFixed(2)} | ${slots.p99.toFixed(2)} |`);
    rows.push(`| ${name} | ${label} | availability/days, 31 days | ${days.mean.toFixed(2)} | ${days.p99.toFixed(2)} |`);
  }
  return rows;
}

const rows: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const libsql = libsqlStorage(`file:${join(dir, 'bench.db')}`);
rows.push(...(await bench('libSQL', libsql)));
await libsql.close();
rmSync(dir, { recursive: true, force: true });
const pgUrl = process.env.SVC_BENCH_POSTGRES_URL ?? process.env.SVC_TEST_POSTGRES_URL;
if (pgUrl) {
  const schema = `svc_bench_${Date.now().toString(36)}`;
  const pg = postgresStorage(pgUrl, { schema });
  rows.push(...(await bench('Postgres', pg)));
  await pg.close();
  const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop schema if exists "${schema}" cascade`);
  await admin.end();
}
console.log(
  `${machine()}; load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}; ${ROUNDS} rounds each, no availability cache\n`,
);
console.log('| database | provider | call | mean ms | p99 ms |\n|---|---|---|---|---|');
for (const row of rows) console.log(row);
