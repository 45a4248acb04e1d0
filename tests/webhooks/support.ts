import type { Server } from 'bun';
import { setSystemTime } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../../src/platform/config.ts';
import { createDispatcher, type Dispatcher, type DispatcherOptions } from '../../src/features/webhooks/dispatcher.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { AdapterName } from '../support/storage.ts';

/** One request a receiver got. */
export interface Receipt {
  id: string;
  timestamp: string;
  signature: string;
  contentType: string | null;
  /** the Host header: the name the webhook's URL gave, whatever address was reached */
  host: string | null;
  body: string;
  /** when it arrived, performance.now() */
  at: number;
}

export type Reply = (receipt: Receipt, index: number) => Response | Promise<Response>;

export interface Receiver {
  url: string;
  port: number;
  receipts: Receipt[];
  /** what the next requests are answered with; default 200 */
  reply(fn: Reply): void;
  /** resolves once `count` requests arrived; rejects after `timeoutMs` */
  waitFor(count: number, timeoutMs?: number): Promise<Receipt[]>;
  /** requests being answered right now */
  open(): number;
  stop(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 (port 0 unless given) that records every request. */
export function startReceiver(options: { port?: number; reply?: Reply } = {}): Receiver {
  const receipts: Receipt[] = [];
  let reply: Reply = options.reply ?? (() => new Response('ok'));
  let open = 0;
  /** waitFor's pending checks, run on every arrival */
  const arrivals = new Set<() => void>();
  const server: Server<undefined> = Bun.serve({
    hostname: '127.0.0.1',
    port: options.port ?? 0,
    async fetch(request) {
      open++;
      try {
        const receipt: Receipt = {
          id: request.headers.get('webhook-id') ?? '',
          timestamp: request.headers.get('webhook-timestamp') ?? '',
          signature: request.headers.get('webhook-signature') ?? '',
          contentType: request.headers.get('content-type'),
          host: request.headers.get('host'),
          body: await request.text(),
          at: performance.now(),
        };
        receipts.push(receipt);
        for (const arrived of arrivals) arrived();
        return await reply(receipt, receipts.length - 1);
      } finally {
        open--;
      }
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hooks`,
    port: server.port!,
    receipts,
    reply(fn) {
      reply = fn;
    },
    waitFor(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const deadline = setTimeout(() => {
          arrivals.delete(check);
          reject(new Error(`receiver got ${receipts.length} of ${count} requests within ${timeoutMs} ms`));
        }, timeoutMs);
        function check() {
          if (receipts.length < count) return;
          clearTimeout(deadline);
          arrivals.delete(check);
          resolve(receipts);
        }
        arrivals.add(check);
        check();
      });
    },
    open: () => open,
    stop: () => server.stop(true),
  };
}

/**
 * Verifies a receipt with the Standard Webhooks library, as an integrator would, and returns the parsed body.
 * The library refuses timestamps more than 5 minutes from its own clock; `receivedAt` (epoch ms, default the
 * real time) is the receiver's "now", so tests that move a manual clock verify at the clock's time.
 */
export function verify(secret: string, receipt: Receipt, receivedAt?: number): unknown {
  if (receivedAt !== undefined) setSystemTime(new Date(receivedAt));
  try {
    return new Webhook(secret).verify(receipt.body, {
      'webhook-id': receipt.id,
      'webhook-timestamp': receipt.timestamp,
      'webhook-signature': receipt.signature,
    });
  } finally {
    if (receivedAt !== undefined) setSystemTime();
  }
}

/** A promise with its resolve, for holding a receiver's answer until a test lets it go. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

export interface WebhookTestApp extends TestApp {
  /** a dispatcher on the app's database and clock, not started: tests drive it with runOnce() */
  dispatcher: Dispatcher;
  createWebhook(url: string, body?: { events?: string[]; name?: string }): Promise<{ id: string; secret: string }>;
}

/**
 * createTestApp with webhooks to 127.0.0.1 allowed, a fast retry schedule, and the clock set to the real
 * time (Standard Webhooks verifiers refuse timestamps more than 5 minutes off), plus a dispatcher with no
 * jitter (random 0.5) on the same clock.
 */
export async function createWebhookTestApp(
  adapter: AdapterName,
  options: {
    config?: Partial<Config>;
    dispatcher?: Partial<DispatcherOptions>;
    /** called after every write that added webhook messages (as `svc serve` wakes its delivery loop) */
    onOutbox?: () => void;
    /** `test`: bookings with a sum due start PENDING with a hold and svc's own checkout page */
    payments?: 'none' | 'test';
  } = {},
): Promise<WebhookTestApp> {
  const t = await createTestApp(adapter, {
    config: { SVC_WEBHOOK_ALLOW_PRIVATE: true, SVC_WEBHOOK_RETRY_SCHEDULE: '1,2,4', ...options.config },
    payments: options.payments,
    onOutboxWrite: options.onOutbox,
  });
  t.clock.set(Math.floor(Date.now() / 1000) * 1000);
  const dispatcher = createDispatcher({
    storage: t.deps.storage,
    config: t.deps.config,
    clock: t.clock,
    logger: t.deps.logger,
    random: () => 0.5,
    ...options.dispatcher,
  });
  return {
    ...t,
    dispatcher,
    async createWebhook(url, body = {}) {
      const response = await t.request('POST', '/api/v1/workspaces/acme/webhooks', { key: t.apiKey, body: { url, ...body } });
      if (response.status !== 200) throw new Error(`creating the webhook answered ${response.status}: ${JSON.stringify(response.body)}`);
      return { id: response.body.webhook.id, secret: response.body.webhook.secret };
    },
    async close() {
      await dispatcher.stop();
      await t.close();
    },
  };
}

/** A provider and a 30-minute service it offers, through the catalogue routes; `price` in EUR (default 40). */
export async function createCatalogue(t: Pick<TestApp, 'request' | 'apiKey'>, options: { price?: number; name?: string } = {}) {
  const provider = await t.request('POST', '/api/v1/workspaces/acme/providers', { key: t.apiKey, body: { name: 'Robin' } });
  const service = await t.request('POST', '/api/v1/workspaces/acme/services', {
    key: t.apiKey,
    body: { name: options.name ?? 'Massage', duration: 30, price: options.price ?? 40, currency: 'EUR', providerIds: [provider.body.provider.id] },
  });
  if (provider.status !== 200 || service.status !== 200) throw new Error(`catalogue: ${JSON.stringify([provider.body, service.body])}`);
  return { providerId: provider.body.provider.id as string, serviceId: service.body.service.id as string };
}

/**
 * An RFC 3339 instant on the first Tuesday to Friday at least two days after `now`, at `time` in
 * Europe/Berlin (the test workspace's zone, open Mon–Fri 09:00–17:00).
 */
export function workdayAt(now: number, time: string, daysAhead = 2): string {
  let day = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO('Europe/Berlin').toPlainDate().add({ days: daysAhead });
  while (day.dayOfWeek === 1 || day.dayOfWeek > 5) day = day.add({ days: 1 });
  return day
    .toZonedDateTime({ timeZone: 'Europe/Berlin', plainTime: Temporal.PlainTime.from(time) })
    .toInstant()
    .toString();
}
