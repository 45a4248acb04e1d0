/**
 * Webhook delivery benchmark: `bun scripts/bench/webhooks.ts [--messages N] [--concurrency C] [--postgres]`.
 *
 * A local receiver (Bun.serve on 127.0.0.1 in a child process, answering 204), one workspace with one webhook, and the real
 * delivery loop (src/features/webhooks/dispatcher.ts) on a real database, as `svc serve` wires it (the storage wakes
 * the loop after every outbox write). Two measurements per database:
 * - latency: events written one by one at a steady pace (booking.created-sized bodies); for each, the time
 *   from the write's commit (the storage call resolved) to the receiver having the request: p50, p99, max;
 * - throughput: N messages already due (written in batches of 100), then the loop started; deliveries per
 *   second until the receiver has them all, each attempt recorded.
 * libSQL always (a temp file); Postgres too with --postgres or SVC_TEST_POSTGRES_URL (a temp schema).
 * Targets: p50 < 50 ms, >= 1,000 deliveries/s. Figures only, no assertions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { libsqlStorage } from '../../adapters/storage/libsql/index.ts';
import { postgresStorage } from '../../adapters/storage/postgres/index.ts';
import { parseConfig } from '../../src/platform/config.ts';
import { systemClock } from '../../src/core/clock.ts';
import { silentLogger } from '../../src/platform/logger.ts';
import type { OutboxEvent, Storage } from '../../src/ports/storage/index.ts';
import { createDispatcher } from '../../src/features/webhooks/dispatcher.ts';
import { signalOutboxWrites } from '../../src/features/webhooks/outbox-signal.ts';
import { createWebhook } from '../../src/features/webhooks/service.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '5000' },
    latency: { type: 'string', default: '500' },
    pace: { type: 'string', default: '5', description: 'ms between writes in the latency run' },
    concurrency: { type: 'string', default: '8' },
    postgres: { type: 'boolean', default: false },
    receiver: { type: 'boolean', default: false },
  },
});
const MESSAGES = Number(values.messages);
const LATENCY_MESSAGES = Number(values.latency);
const PACE_MS = Number(values.pace);
const CONCURRENCY = Number(values.concurrency);
const POSTGRES_URL = process.env.SVC_TEST_POSTGRES_URL ?? (values.postgres ? 'postgres://postgres@127.0.0.1:5432/test' : undefined);

const config = parseConfig({ SVC_SECRET: 'bench-secret-bench-secret-bench-secret-0000', SVC_WEBHOOK_ALLOW_PRIVATE: true, SVC_DEMO: false });

/** A body of the size of a booking.created event. */
function event(workspaceId: string, index: number): OutboxEvent {
  const at = Date.now();
  const booking = {
    id: `bk_bench${index}`,
    startTime: '2026-12-01T09:00:00.000Z',
    endTime: '2026-12-01T09:30:00.000Z',
    status: 'CONFIRMED',
    customerName: 'Ada Lovelace',
    customerEmail: 'ada@example.com',
    serviceName: 'Massage',
    providerName: 'Robin',
    amount: 40,
    serviceId: 'srv_bench',
    providerId: 'prv_bench',
    phone: null,
    notes: null,
    customFields: {},
    createdAt: new Date(at).toISOString(),
  };
  return {
    workspaceId,
    type: 'booking.created',
    body: JSON.stringify({ type: 'booking.created', timestamp: new Date(at).toISOString(), data: { workspace: 'bench', booking } }),
    occurredAt: at,
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * The receiver runs in its own process (as a real endpoint would), answering 204 and writing one line per
 * request, `<webhook-id> <epoch ms, sub-ms>`, to stdout.
 */
async function receiverMain() {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      await request.arrayBuffer();
      process.stdout.write(`${request.headers.get('webhook-id')} ${performance.timeOrigin + performance.now()}\n`);
      return new Response(null, { status: 204 });
    },
  });
  process.stdout.write(`port ${server.port}\n`);
}

/** Starts the receiver process; resolves with its port and the arrival times it reports (epoch ms). */
async function startReceiver() {
  const child = Bun.spawn({ cmd: [process.execPath, import.meta.path, '--receiver'], stdout: 'pipe', stderr: 'inherit', stdin: 'ignore' });
  const arrivals = new Map<string, number>();
  let port!: number;
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  void (async () => {
    let buffered = '';
    for await (const chunk of child.stdout) {
      buffered += new TextDecoder().decode(chunk);
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [first, second] = line.split(' ');
        if (first === 'port') {
          port = Number(second);
          ready();
        } else {
          arrivals.set(first!, Number(second));
        }
      }
    }
  })();
  await started;
  return { port, arrivals, stop: () => child.kill() };
}

const wallNow = () => performance.timeOrigin + performance.now();

async function run(name: string, open: () => { storage: Storage; drop(): Promise<void> }) {
  const { storage, drop } = open();
  await storage.migrate();
  const receiver = await startReceiver();
  const { arrivals } = receiver;
  let wake = () => {};
  signalOutboxWrites(storage, () => wake());
  const dispatcher = createDispatcher({ storage, config, clock: systemClock, logger: silentLogger, concurrency: CONCURRENCY });
  wake = () => dispatcher.wake();
  try {
    const deps = { storage, config, clock: systemClock };
    const { workspace } = await createWorkspace(deps, { slug: 'bench', name: 'Bench' });
    await createWebhook(deps, workspace, { url: `http://127.0.0.1:${receiver.port}/hooks` });

    // Latency: one write at a time, at a steady pace, the loop running.
    dispatcher.start();
    const committed = new Map<string, number>();
    for (let index = 0; index < LATENCY_MESSAGES; index++) {
      const [message] = await storage.enqueueEvents([event(workspace.id, index)]);
      committed.set(message!.id, wallNow());
      await Bun.sleep(PACE_MS);
    }
    for (const until = performance.now() + 30_000; arrivals.size < LATENCY_MESSAGES && performance.now() < until; ) await Bun.sleep(5);
    const latencies = [...committed].map(([id, at]) => (arrivals.get(id) ?? Infinity) - at).sort((a, b) => a - b);
    await dispatcher.stop();

    // Throughput: N messages due, then the loop started.
    arrivals.clear();
    const backlog = createDispatcher({ storage, config, clock: systemClock, logger: silentLogger, concurrency: CONCURRENCY });
    for (let written = 0; written < MESSAGES; written += 100) {
      await storage.enqueueEvents(Array.from({ length: Math.min(100, MESSAGES - written) }, (_, i) => event(workspace.id, written + i)));
    }
    const started = performance.now();
    backlog.start();
    for (const until = started + 120_000; arrivals.size < MESSAGES && performance.now() < until; ) await Bun.sleep(2);
    // Until every attempt is recorded too.
    await backlog.stop();
    const elapsed = (performance.now() - started) / 1000;
    const recorded = (await storage.listAttempts((await storage.listWebhooks(workspace.id))[0]!.id, 1)).length > 0;

    console.log(`\n${name} (concurrency ${CONCURRENCY})`);
    console.log(
      `  latency, commit -> receipt (${LATENCY_MESSAGES} writes, one every ${PACE_MS} ms): p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(latencies.at(-1)!)}`,
    );
    console.log(
      `  throughput (${MESSAGES} due messages): ${arrivals.size} delivered in ${elapsed.toFixed(2)} s = ${Math.round(arrivals.size / elapsed)} deliveries/s${recorded ? '' : ' (attempts NOT recorded!)'}`,
    );
  } finally {
    await dispatcher.stop();
    receiver.stop();
    await drop();
  }
}

async function main() {
  const cpu =
    (
      await Bun.file('/proc/cpuinfo')
        .text()
        .catch(() => '')
    ).match(/model name\s*:\s*(.*)/)?.[1]
    ?? cpus()[0]?.model
    ?? 'unknown';
  console.log(`webhook delivery benchmark: ${cpus().length} CPUs (${cpu}), bun ${Bun.version}`);

  await run('libSQL (file, WAL)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
    const storage = libsqlStorage(`file:${join(dir, 'svc.db')}`);
    return {
      storage,
      async drop() {
        await storage.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });

  if (POSTGRES_URL) {
    await run('Postgres', () => {
      const schema = `svc_bench_${Date.now().toString(36)}`;
      const storage = postgresStorage(POSTGRES_URL, { schema });
      return {
        storage,
        async drop() {
          await storage.close();
          const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
          await admin.unsafe(`drop schema if exists "${schema}" cascade`);
          await admin.end();
        },
      };
    });
  }
}

if (values.receiver) await receiverMain();
else await main();
