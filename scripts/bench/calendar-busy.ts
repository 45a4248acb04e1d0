/**
 * Issue #23's two figures, on libSQL and (with SVC_TEST_POSTGRES_URL or SVC_BENCH_POSTGRES_URL) Postgres:
 *
 * 1. Availability with a provider's connected calendars: a provider with 3 connected calendars holding 2,000 busy
 *    events over the next year, against the same provider without any. Availability is computed without its
 *    answer cache (every call reads the bookings from the database), through the app's storage as buildDeps makes
 *    it, so the calendar busy times come from the read cache (src/platform/storage-effects/calendar-busy-cache.ts).
 * 2. A full sync of an iCalendar URL of 2,000 events (recurring ones with RRULE and EXDATE, a VTIMEZONE, all-day,
 *    transparent and cancelled ones) served by Bun.serve on loopback, connected as the API connects one and synced
 *    by syncConnection as the scheduler does: CPU time of this process (process.cpuUsage, user + system: the
 *    fetch, parse, expansion and the storage client; with libSQL the database itself, which runs in-process) and
 *    wall time per full sync.
 *
 * Prints both tables and the machine's load.
 *
 *   bun scripts/bench/calendar-busy.ts [--rounds 200] [--syncs 5]
 */
import { loadavg } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { openPayments } from '../../adapters/payments/index.ts';
import { memoryRateLimiter } from '../../adapters/ratelimit/memory.ts';
import { libsqlStorage } from '../../adapters/storage/libsql/index.ts';
import { postgresStorage } from '../../adapters/storage/postgres/index.ts';
import { systemClock } from '../../src/core/clock.ts';
import { newId } from '../../src/core/ids.ts';
import { buildDeps } from '../../src/deps.ts';
import { createConnection } from '../../src/features/calendars/service.ts';
import { syncConnection } from '../../src/features/calendars/index.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { availableDays, availableSlots, resolveOffering } from '../../src/features/scheduling/availability.ts';
import type { AppDeps } from '../../src/platform/app-deps.ts';
import { parseConfig } from '../../src/platform/config.ts';
import { silentLogger } from '../../src/platform/logger.ts';
import type { Storage } from '../../src/ports/storage/index.ts';
import { machine } from './load.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '200' }, syncs: { type: 'string', default: '5' } } });
const ROUNDS = Number(values.rounds);
const SYNCS = Number(values.syncs);
const EVENTS = 2000;
const CALENDARS = 3;
const DAY = 86_400_000;
const HOUR = 3_600_000;

/** A workspace with one provider offering one service (30 minutes, 10 minutes' buffer, a year ahead). */
async function fixture(storage: Storage, slug: string, withCalendars: boolean) {
  const clock = systemClock;
  const { workspace } = await createWorkspace({ storage, clock }, { slug, name: 'Bench', timezone: 'Europe/Berlin' });
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
  return { workspace, providerId, offering: await resolveOffering({ storage }, workspace, serviceId) };
}

interface Timing {
  mean: number;
  p50: number;
  p99: number;
  /** CPU time of this process per call (user + system), ms: less moved by other processes than wall time */
  cpu: number;
}

/**
 * Times each of `works` over ROUNDS rounds, taking turns call by call, so a change of the machine's load during the
 * run falls on all of them alike (this machine is shared).
 */
async function timeAlternating(works: (() => Promise<unknown>)[]): Promise<Timing[]> {
  for (let i = 0; i < 10; i++) for (const work of works) await work();
  const samples: number[][] = works.map(() => []);
  const cpu: number[] = works.map(() => 0);
  for (let i = 0; i < ROUNDS; i++) {
    for (const [index, work] of works.entries()) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await work();
      samples[index]!.push(performance.now() - started);
      const used = process.cpuUsage(cpuBefore);
      cpu[index]! += (used.user + used.system) / 1000;
    }
  }
  return samples.map((each, index) => {
    each.sort((a, b) => a - b);
    return {
      mean: each.reduce((sum, value) => sum + value, 0) / each.length,
      p50: each[Math.floor(each.length / 2)]!,
      p99: each[Math.floor(each.length * 0.99)]!,
      cpu: cpu[index]! / ROUNDS,
    };
  });
}

/** The app's dependencies over `storage`, as `svc serve` builds them (read cache included), with private calendar URLs allowed. */
function appDeps(storage: Storage): AppDeps {
  const config = parseConfig({ SVC_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789', SVC_DEMO: false, SVC_CALENDAR_ALLOW_PRIVATE: true });
  return buildDeps({ storage, config, clock: systemClock, logger: silentLogger, rateLimiter: memoryRateLimiter(), payments: openPayments(config) });
}

async function benchAvailability(name: string, deps: AppDeps) {
  // without availabilityCache: every call computes, reading the bookings from the database
  const reads = { storage: deps.storage, clock: deps.clock };
  const day = Temporal.Now.plainDateISO('Europe/Berlin').add({ days: 14 });
  const without = await fixture(deps.storage, 'bench-none', false);
  const withCalendars = await fixture(deps.storage, 'bench-cal', true);
  const fixtures = [without, withCalendars];
  const slots = await timeAlternating(
    fixtures.map(
      ({ workspace, offering }) =>
        () =>
          availableSlots(reads, workspace, offering, day.toString()),
    ),
  );
  const days = await timeAlternating(
    fixtures.map(
      ({ workspace, offering }) =>
        () =>
          availableDays(reads, workspace, offering, day.toString(), day.add({ days: 30 }).toString()),
    ),
  );
  const row = (label: string, call: string, timing: Timing) =>
    `| ${name} | ${label} | ${call} | ${timing.mean.toFixed(2)} | ${timing.p50.toFixed(2)} | ${timing.p99.toFixed(2)} | ${timing.cpu.toFixed(2)} |`;
  const change = (call: string, timings: Timing[]) =>
    `| ${name} | with calendars vs without | ${call} | ${percent(timings[1]!.mean, timings[0]!.mean)} | ${percent(timings[1]!.p50, timings[0]!.p50)} | | ${percent(timings[1]!.cpu, timings[0]!.cpu)} |`;
  return [
    row('no calendars', 'availability, one day', slots[0]!),
    row(`3 calendars, ${EVENTS} events`, 'availability, one day', slots[1]!),
    change('availability, one day', slots),
    row('no calendars', 'availability/days, 31 days', days[0]!),
    row(`3 calendars, ${EVENTS} events`, 'availability/days, 31 days', days[1]!),
    change('availability/days, 31 days', days),
  ];
}

const percent = (value: number, base: number) => `${value >= base ? '+' : ''}${(((value - base) / base) * 100).toFixed(0)} %`;

/** iCalendar local time (YYYYMMDDTHHMMSS) of an instant in Europe/Berlin, or in UTC with `Z`. */
function icalTime(at: number, utc = false): string {
  const text = utc
    ? new Date(at).toISOString().slice(0, 19)
    : Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO('Europe/Berlin').toPlainDateTime().toString().slice(0, 19);
  return `${text.replace(/[-:]/g, '')}${utc ? 'Z' : ''}`;
}

/**
 * An iCalendar feed of `EVENTS` events over the next year, shaped like a real export (Google's): a VTIMEZONE,
 * X-WR-TIMEZONE, summaries, descriptions, attendees; most events in Europe/Berlin, some in UTC, some all-day, 40
 * weekly series of 26 (RRULE, two EXDATEs each), some transparent or cancelled. Returns the text and how many of
 * its occurrences block.
 */
function icsFeed(now: number): { text: string; blocking: number } {
  const lines = [
    'BEGIN:VCALENDAR',
    'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'X-WR-CALNAME:Alex (bench)',
    'X-WR-TIMEZONE:Europe/Berlin',
    'BEGIN:VTIMEZONE',
    'TZID:Europe/Berlin',
    'X-LIC-LOCATION:Europe/Berlin',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'TZNAME:CEST',
    'DTSTART:19700329T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'TZNAME:CET',
    'DTSTART:19701025T030000',
    'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    'END:STANDARD',
    'END:VTIMEZONE',
  ];
  const start = Math.floor(now / DAY) * DAY + DAY;
  let blocking = 0;
  for (let n = 0; n < EVENTS; n++) {
    const at = start + Math.floor((n * 365) / EVENTS) * DAY + (7 + (n % 9)) * HOUR + (n % 4) * 15 * 60_000;
    const uid = `${n.toString(36).padStart(6, '0')}bench${n}@google.com`;
    const event = ['BEGIN:VEVENT'];
    if (n % 50 === 0) {
      // a weekly series of 26 in Berlin time starting within the first 160 days (so it ends inside the year, and
      // most cross a DST change), two occurrences taken out by EXDATE in the series' wall-clock time
      const first = Temporal.Instant.fromEpochMilliseconds(start + (n / 50) * 4 * DAY + (9 + (n % 3)) * HOUR).toZonedDateTimeISO('Europe/Berlin');
      const local = (weeks: number) => first.toPlainDateTime().add({ weeks }).toString().slice(0, 19).replace(/[-:]/g, '');
      event.push(`DTSTART;TZID=Europe/Berlin:${local(0)}`, `DURATION:PT1H`, 'RRULE:FREQ=WEEKLY;COUNT=26');
      event.push(`EXDATE;TZID=Europe/Berlin:${local(3)}`, `EXDATE;TZID=Europe/Berlin:${local(7)}`);
      blocking += 24;
    } else if (n % 50 === 25) {
      const date = new Date(at).toISOString().slice(0, 10).replace(/-/g, '');
      const next = new Date(at + DAY).toISOString().slice(0, 10).replace(/-/g, '');
      event.push(`DTSTART;VALUE=DATE:${date}`, `DTEND;VALUE=DATE:${next}`);
      blocking++;
    } else if (n % 7 === 0) {
      event.push(`DTSTART:${icalTime(at, true)}`, `DTEND:${icalTime(at + HOUR, true)}`);
      blocking++;
    } else {
      event.push(`DTSTART;TZID=Europe/Berlin:${icalTime(at)}`, `DTEND;TZID=Europe/Berlin:${icalTime(at + 45 * 60_000)}`);
      if (n % 40 === 13) event.push('TRANSP:TRANSPARENT');
      else if (n % 97 === 5) event.push('STATUS:CANCELLED');
      else blocking++;
    }
    event.push(
      `DTSTAMP:${icalTime(now, true)}`,
      `UID:${uid}`,
      `CREATED:${icalTime(now - 30 * DAY, true)}`,
      `LAST-MODIFIED:${icalTime(now - DAY, true)}`,
      'ORGANIZER;CN=Alex Example:mailto:alex@example.com',
      'ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=Alex Example;X-NUM-GUESTS=0:mailto:alex@example.com',
      'ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;CN=Sam Client;X-NUM-GUESTS=0:mailto:sam@example.org',
      `SUMMARY:Meeting ${n}`,
      'DESCRIPTION:Agenda: status\\, next steps and open questions. Join: https://meet.example.com/abc-defg-hij',
      'LOCATION:Room 4.12\\, Example House',
      'SEQUENCE:0',
      'END:VEVENT',
    );
    lines.push(...event);
  }
  lines.push('END:VCALENDAR', '');
  return { text: lines.join('\r\n'), blocking };
}

/**
 * Full syncs of an iCalendar URL of `EVENTS` events: connected as POST …/calendars connects one (discover, store,
 * first sync), then synced `SYNCS` times by syncConnection as the scheduler's job does. The feed sends no ETag,
 * so each sync reads, parses, expands and stores it all.
 */
async function benchSync(name: string, deps: AppDeps) {
  const feed = icsFeed(Date.now());
  const body = new TextEncoder().encode(feed.text);
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () => new Response(body, { headers: { 'content-type': 'text/calendar; charset=utf-8' } }),
  });
  try {
    const { workspace, providerId } = await fixture(deps.storage, 'bench-sync', false);
    const measure = async (work: () => Promise<unknown>) => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      await work();
      const used = process.cpuUsage(cpu);
      return { cpu: (used.user + used.system) / 1000, wall: performance.now() - started };
    };
    let connectionId = '';
    const connect = await measure(async () => {
      connectionId = (await createConnection(deps, workspace, providerId, { kind: 'ics', url: `http://127.0.0.1:${server.port}/alex.ics` })).id;
    });
    const stored = await deps.storage.busyTimesFor([providerId], 0, Number.MAX_SAFE_INTEGER);
    if (stored.length !== feed.blocking) throw new Error(`the sync stored ${stored.length} busy times, the feed has ${feed.blocking} blocking occurrences`);
    const syncs: { cpu: number; wall: number }[] = [];
    for (let round = 0; round < SYNCS; round++) {
      const connection = await deps.storage.getCalendarConnection(workspace.id, providerId, connectionId);
      syncs.push(await measure(() => syncConnection(deps, connection!)));
      const after = await deps.storage.getCalendarConnection(workspace.id, providerId, connectionId);
      if (after?.status !== 'ok' || after.lastError !== null) throw new Error(`the sync failed: ${after?.lastError}`);
    }
    const mean = (values: number[]) => values.reduce((sum, each) => sum + each, 0) / values.length;
    const kb = Math.round(body.byteLength / 1024);
    return [
      `| ${name} | connect (discover, store, first sync) | ${EVENTS} events, ${kb} kB, ${feed.blocking} busy times | ${connect.cpu.toFixed(0)} | ${connect.wall.toFixed(0)} |`,
      `| ${name} | full sync, mean of ${SYNCS} | ${EVENTS} events, ${kb} kB, ${feed.blocking} busy times | ${mean(syncs.map((each) => each.cpu)).toFixed(0)} (max ${Math.max(...syncs.map((each) => each.cpu)).toFixed(0)}) | ${mean(syncs.map((each) => each.wall)).toFixed(0)} (max ${Math.max(...syncs.map((each) => each.wall)).toFixed(0)}) |`,
    ];
  } finally {
    server.stop(true);
  }
}

async function bench(name: string, storage: Storage) {
  await storage.migrate();
  const deps = appDeps(storage);
  return { availability: await benchAvailability(name, deps), sync: await benchSync(name, deps) };
}

const availability: string[] = [];
const sync: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const libsql = libsqlStorage(`file:${join(dir, 'bench.db')}`);
const onLibsql = await bench('libSQL', libsql);
availability.push(...onLibsql.availability);
sync.push(...onLibsql.sync);
await libsql.close();
rmSync(dir, { recursive: true, force: true });
const pgUrl = process.env.SVC_BENCH_POSTGRES_URL ?? process.env.SVC_TEST_POSTGRES_URL;
if (pgUrl) {
  const schema = `svc_bench_${Date.now().toString(36)}`;
  const pg = postgresStorage(pgUrl, { schema });
  const onPostgres = await bench('Postgres', pg);
  availability.push(...onPostgres.availability);
  sync.push(...onPostgres.sync);
  await pg.close();
  const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop schema if exists "${schema}" cascade`);
  await admin.end();
}
console.log(
  `${machine()}; load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}; ${ROUNDS} rounds each, no availability cache (calendar busy times through the read cache)\n`,
);
console.log('| database | provider | call | mean ms | p50 ms | p99 ms | CPU ms |\n|---|---|---|---|---|---|---|');
for (const row of availability) console.log(row);
console.log('\n| database | run | feed | CPU ms | wall ms |\n|---|---|---|---|---|');
for (const row of sync) console.log(row);
