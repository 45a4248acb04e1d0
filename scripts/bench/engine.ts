/**
 * Slot engine benchmark: `bun scripts/bench/engine.ts`.
 *
 * One provider in Europe/Berlin, Mon-Fri 09:00-12:00 + 13:00-18:00, a 30-minute service, and 10,000 existing
 * bookings spread over about two years around `now`. Prints mean, p50 and p99 per call and per day.
 * Target: under 1 ms per day. Figures only, no assertions.
 */
import { daySlots, daysWithSlots, whyUnavailable, type BusyBooking, type ProviderDay, type SlotRules } from '../../src/core/slot-engine.ts';

const TIMEZONE = 'Europe/Berlin';
/** Fixed clock: Monday 2026-06-01 08:00 Berlin. */
const NOW = Date.parse('2026-06-01T06:00:00.000Z');
const BOOKINGS = 10_000;
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function buildProvider(): ProviderDay {
  const next = random(42);
  const services = ['srv_cut', 'srv_color', 'srv_beard'];
  const bookings: BusyBooking[] = [];
  // Start times on a 15-minute grid, anywhere in [now - 1 year, now + 1 year), unsorted.
  for (let index = 0; index < BOOKINGS; index++) {
    const start = NOW - 365 * DAY + Math.floor(next() * 730 * 96) * 15 * MINUTE;
    const minutes = [30, 45, 60, 90][Math.floor(next() * 4)]!;
    bookings.push({
      serviceId: services[Math.floor(next() * services.length)]!,
      start,
      end: start + minutes * MINUTE,
      bufferTime: [0, 5, 10][Math.floor(next() * 3)]!,
    });
  }
  const workday = [
    { start: '09:00', end: '12:00' },
    { start: '13:00', end: '18:00' },
  ];
  return {
    timezone: TIMEZONE,
    hours: {
      weekly: { mon: workday, tue: workday, wed: workday, thu: workday, fri: workday, sat: [], sun: [] },
      exceptions: [{ date: '2026-12-24', intervals: [] }],
    },
    bookings,
  };
}

const rules: SlotRules = {
  serviceId: 'srv_cut',
  duration: 30,
  bufferTime: 10,
  minNotice: 60,
  maxAdvance: null,
  capacity: 1,
};

interface Row {
  name: string;
  iterations: number;
  mean: number;
  p50: number;
  p99: number;
  perDay: number;
}

let sink = 0;

function measure(name: string, days: number, iterations: number, run: () => number): Row {
  for (let index = 0; index < Math.max(50, iterations / 10); index++) sink += run(); // warm-up (JIT)
  const samples = new Float64Array(iterations);
  for (let index = 0; index < iterations; index++) {
    const started = performance.now();
    sink += run();
    samples[index] = performance.now() - started;
  }
  samples.sort();
  const mean = samples.reduce((sum, value) => sum + value, 0) / iterations;
  const quantile = (q: number) => samples[Math.min(iterations - 1, Math.floor(q * iterations))]!;
  return { name, iterations, mean, p50: quantile(0.5), p99: quantile(0.99), perDay: mean / days };
}

const provider = buildProvider();
const month = Array.from({ length: 31 }, (_, index) => Temporal.PlainDate.from('2026-07-01').add({ days: index }).toString());
const july = { from: '2026-07-01', to: '2026-07-31' };
const aSlot = daySlots(provider, rules, '2026-07-15', NOW)[0]?.start ?? NOW;

const rows: Row[] = [
  measure('daySlots, one weekday', 1, 5000, () => daySlots(provider, rules, '2026-07-15', NOW).length),
  measure('daySlots, one weekend day', 1, 5000, () => daySlots(provider, rules, '2026-07-18', NOW).length),
  measure('daySlots, capacity 3', 1, 5000, () => daySlots(provider, { ...rules, capacity: 3 }, '2026-07-15', NOW).length),
  measure('whyUnavailable, one start', 1, 5000, () => (whyUnavailable(provider, rules, aSlot, NOW) === null ? 1 : 0)),
  measure('daysWithSlots, 31 days', 31, 1000, () => daysWithSlots(provider, rules, july.from, july.to, NOW).length),
  measure('daySlots x 31 days', 31, 500, () => month.reduce((count, date) => count + daySlots(provider, rules, date, NOW).length, 0)),
  measure('daysWithSlots, 62 days', 62, 500, () => daysWithSlots(provider, rules, '2026-07-01', '2026-08-31', NOW).length),
];

const format = (value: number) => value.toFixed(4);
console.log(`slot engine: ${BOOKINGS} bookings, ${TIMEZONE}, Mon-Fri 09:00-12:00 + 13:00-18:00, 30-minute service`);
console.table(
  rows.map((row) => ({
    case: row.name,
    iterations: row.iterations,
    'mean ms': format(row.mean),
    'p50 ms': format(row.p50),
    'p99 ms': format(row.p99),
    'ms per day': format(row.perDay),
  })),
);
console.log(`target: < 1 ms per day; worst: ${format(Math.max(...rows.map((row) => row.perDay)))} ms per day (checksum ${sink})`);
