/**
 * Series benchmark: createBooking with `repeat` of 52 weekly occurrences on libSQL (a file database, as `svc
 * serve` runs it), in process through the app (`app.handle`, routing, validation and JSON included), so the
 * figure is the server's own time for one request. Each round books a series on a time of its own (a
 * different hour and weekday), on a workspace that already holds the earlier rounds' series, every occurrence
 * checked under the provider lock and written in one transaction with its webhook events. Target: under 50 ms.
 * Prints the figures and the machine's load average; asserts nothing.
 *
 *   bun scripts/bench/series.ts [--rounds 40]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openPayments } from '../../adapters/payments/index.ts';
import { memoryRateLimiter } from '../../adapters/ratelimit/memory.ts';
import { libsqlStorage } from '../../adapters/storage/libsql/index.ts';
import { createApp } from '../../src/app.ts';
import { systemClock } from '../../src/core/clock.ts';
import { newId } from '../../src/core/ids.ts';
import { buildDeps } from '../../src/deps.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { parseConfig } from '../../src/platform/config.ts';
import { silentLogger } from '../../src/platform/logger.ts';
import { machine } from './load.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const ROUNDS = Number(values.rounds);
const WARMUP = 3;

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-series-'));
const storage = libsqlStorage(`file:${join(dir, 'svc.db')}`);
await storage.migrate();
const config = parseConfig({ SVC_SECRET: 'bench-secret-bench-secret-bench-secret-0123', SVC_DEMO: false, SVC_RATE_LIMIT: 1_000_000 });
const deps = buildDeps({
  storage,
  config,
  clock: systemClock,
  logger: silentLogger,
  rateLimiter: memoryRateLimiter(),
  payments: openPayments({ ...config, SVC_PAYMENTS: 'none' }),
});
const { workspace, apiKey } = await createWorkspace(deps, { slug: 'bench', name: 'Bench', timezone: 'Europe/Berlin' });
await storage.updateWorkspace(
  workspace.id,
  {
    hours: {
      weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [{ start: '00:00', end: '24:00' }]])) as never,
      exceptions: [],
    },
  },
  Date.now(),
);
const now = Date.now();
const providerId = newId('prv', now);
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
});
const serviceId = newId('srv', now);
await storage.createService({
  id: serviceId,
  workspaceId: workspace.id,
  name: 'Lesson',
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
  repeatable: true,
  providerIds: [providerId],
  createdAt: now,
  updatedAt: now,
});
const app = createApp(deps);
// The storage's share: the one transaction (lock, busy read, 52 checks, 52 inserts, their events).
const reserveMs: number[] = [];
const reserveSeries = deps.storage.reserveSeries.bind(deps.storage);
deps.storage.reserveSeries = async (request) => {
  const started = performance.now();
  const result = await reserveSeries(request);
  reserveMs.push(performance.now() - started);
  return result;
};

/** Round `i`'s first start: day `i % 7` of next week at hour 8 + ⌊i / 7⌋, Berlin, so no two rounds collide. */
function firstStart(i: number): string {
  const monday = Temporal.Now.plainDateISO('Europe/Berlin').add({ weeks: 1 });
  const day = monday.subtract({ days: monday.dayOfWeek - 1 }).add({ days: i % 7 });
  const at = day.toPlainDateTime({ hour: 6 + Math.floor(i / 7) }).toZonedDateTime('Europe/Berlin');
  return at.toString({ timeZoneName: 'never' });
}

const times: number[] = [];
for (let i = 0; i < ROUNDS + WARMUP; i++) {
  const body = { serviceId, email: 'bench@example.com', date: firstStart(i), repeat: { frequency: 'weekly', interval: 1, count: 52 } };
  const started = performance.now();
  const response = await app.handle(
    new Request('http://localhost/api/v1/workspaces/bench/bookings', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-api-key': apiKey },
      body: JSON.stringify(body),
    }),
  );
  const answer = (await response.json()) as { series?: { bookings: unknown[] }; error?: string };
  const elapsed = performance.now() - started;
  if (response.status !== 200 || answer.series?.bookings.length !== 52) throw new Error(`round ${i}: ${response.status} ${answer.error ?? ''}`);
  if (i >= WARMUP) times.push(elapsed);
}
const rows = await storage.listBookings(workspace.id, { limit: 100_000 });
function row(label: string, values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return `| ${label} | ${mean.toFixed(1)} | ${pick(0.5)} | ${pick(0.95)} | ${sorted.at(-1)!.toFixed(1)} |`;
}
console.log(`series of 52 on libSQL (file), ${ROUNDS} rounds after ${WARMUP} warm-up, ${rows.length} bookings in the end`);
console.log(
  `machine: ${machine()}; load average (1, 5, 15 min): ${loadavg()
    .map((load) => load.toFixed(2))
    .join(', ')}`,
);
console.log('| case | mean ms | p50 ms | p95 ms | max ms |');
console.log('|---|---|---|---|---|');
console.log(row('createBooking, repeat 52 weekly (whole request)', times));
console.log(row('of which storage.reserveSeries (one transaction)', reserveMs.slice(WARMUP)));
await storage.close();
rmSync(dir, { recursive: true, force: true });
