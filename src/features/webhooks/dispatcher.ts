import { hostname } from 'node:os';
import { Webhook as Signer } from 'standardwebhooks';
import { retrySchedule, type Config } from '../../platform/config.ts';
import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Storage, WebhookMessageRecord, WebhookRecord } from '../../ports/storage/index.ts';
import { DELIVERY_TIMEOUT_MS, planOutcome, sendAttempt, type AttemptResult } from './delivery.ts';
import { checkDestination, deliveryAddress, systemResolver, type Resolver } from '../../platform/destination.ts';
import { WEBHOOK_TEST_EVENT } from './events.ts';
import { openSigningSecret } from '../../platform/sealed-secrets.ts';

/*
 * The delivery loop: claims due messages from the outbox (storage.claimDueMessages, with a lease owned by this
 * process), attempts each one, and records the attempt (storage.recordAttempt, ignored unless the lease is
 * still ours). A crash loses nothing: an unrecorded attempt's lease lapses and another claimer retries it.
 * Concurrent claimers (processes, instances) never hold the same message at once, so each attempt is made
 * by exactly one of them.
 */

export interface DispatcherOptions {
  storage: Storage;
  config: Config;
  clock: Clock;
  logger: Logger;
  /** lease owner id; default: host, pid and a random suffix (one per dispatcher) */
  owner?: string;
  /** deliveries in flight at most; default 8 */
  concurrency?: number;
  /** how long a claimed message stays ours, ms; default 60 000 (well above the 15 s timeout) */
  leaseMs?: number;
  /** how often due retries and messages written by other instances are looked for, ms; default 1000 */
  pollIntervalMs?: number;
  /** per-attempt timeout, ms; default 15 000 */
  timeoutMs?: number;
  /** resolves destination host names (the private-address check); default node:dns lookup */
  resolve?: Resolver;
  /** jitter source, uniform in [0, 1); default Math.random */
  random?: () => number;
}

export interface Dispatcher {
  readonly owner: string;
  /** Starts the loop: a claim now, then one per poll interval and one on every wake(). */
  start(): void;
  /** Looks for due messages at once (called after every write that adds messages). */
  wake(): void;
  /**
   * For tests and tools: claims and attempts every message due at clock.now(), waiting for the attempts,
   * until none is left; resolves with the number of attempts made. Not to be mixed with start().
   */
  runOnce(): Promise<number>;
  /** Stops claiming, waits for the attempts in flight (each bounded by the timeout) and resolves. */
  stop(): Promise<void>;
  /** Attempts in flight now. */
  inFlight(): number;
}

/** A claimed message with its webhook (null when the webhook was deleted meanwhile). */
type Claimed = { message: WebhookMessageRecord; webhook: WebhookRecord | null };

const DEFAULT_CONCURRENCY = 8;
const DEFAULT_LEASE_MS = 60_000;
const DEFAULT_POLL_MS = 1_000;
/** Signers kept (decrypted secrets), by webhook id and sealed secret. */
const SIGNER_CACHE_SIZE = 1_000;

export function defaultOwnerId(): string {
  return `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { storage, config, clock, logger } = options;
  const owner = options.owner ?? defaultOwnerId();
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollIntervalMs ?? DEFAULT_POLL_MS;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const resolve = options.resolve ?? systemResolver;
  const random = options.random ?? Math.random;
  const schedule = retrySchedule(config);
  const signers = new Map<string, Signer>();

  const running = new Set<Promise<void>>();
  /** claimed messages waiting for a free slot */
  const queue: Claimed[] = [];
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  let pumping: Promise<void> | null = null;
  let wanted = false;
  /** the last claim came back full: more may be due as soon as the queue runs dry */
  let backlog = false;

  async function signerFor(webhook: WebhookRecord): Promise<Signer> {
    const key = `${webhook.id}:${webhook.secret}`;
    let signer = signers.get(key);
    if (!signer) {
      if (!config.SVC_SECRET) throw new Error('SVC_SECRET is not set: signing secrets cannot be opened');
      signer = new Signer(await openSigningSecret(webhook.secret, config.SVC_SECRET, webhook.id));
      if (signers.size >= SIGNER_CACHE_SIZE) signers.clear();
      signers.set(key, signer);
    }
    return signer;
  }

  /** The attempt itself; never throws. */
  async function attemptDelivery(message: WebhookMessageRecord, webhook: WebhookRecord, now: number): Promise<AttemptResult> {
    if (!webhook.isActive && message.eventType !== WEBHOOK_TEST_EVENT) {
      return { statusCode: null, error: 'the endpoint is disabled: the message was not sent', durationMs: 0, retryAfterMs: null };
    }
    const started = performance.now();
    const failed = (error: string): AttemptResult => ({ statusCode: null, error, durationMs: Math.round(performance.now() - started), retryAfterMs: null });
    let url: URL;
    try {
      url = new URL(webhook.url);
    } catch {
      return failed(`the webhook url ${webhook.url} is not a valid URL`);
    }
    // The name is resolved once, here, and the attempt connects to that address: what was checked is what is
    // reached (no second lookup that a rebinding DNS could answer differently).
    let pinnedAddress: string | undefined;
    if (!config.SVC_WEBHOOK_ALLOW_PRIVATE) {
      const destination = await checkDestination(url, resolve);
      if (!destination.ok) return failed(`refused: ${destination.reason}; webhooks are only sent to public addresses (SVC_WEBHOOK_ALLOW_PRIVATE)`);
      pinnedAddress = destination.addresses[0];
    } else {
      pinnedAddress = await deliveryAddress(url, resolve);
    }
    let signer: Signer;
    try {
      signer = await signerFor(webhook);
    } catch (error) {
      return failed(error instanceof Error ? error.message : String(error));
    }
    return sendAttempt(message, { url: url.href, signer, now, timeoutMs, pinnedAddress });
  }

  async function deliver(message: WebhookMessageRecord, webhook: WebhookRecord | null): Promise<void> {
    if (!webhook) {
      // Deleted with its messages (cascade) after the claim: nothing is left to record.
      logger.debug('webhook message without its webhook', { messageId: message.id, webhookId: message.webhookId });
      return;
    }
    const attemptedAt = clock.now();
    const result = await attemptDelivery(message, webhook, attemptedAt);
    const disabledSkip = !webhook.isActive && message.eventType !== WEBHOOK_TEST_EVENT;
    const planned = disabledSkip
      ? { status: 'failed' as const, nextAttemptAt: null }
      : planOutcome({ attempt: message.attempts + 1, schedule, result, attemptedAt, webhook, random });
    const recorded = await storage.recordAttempt(owner, message.id, {
      attempt: {
        id: newId('att', attemptedAt),
        messageId: message.id,
        webhookId: webhook.id,
        attemptedAt,
        statusCode: result.statusCode,
        error: result.error,
        durationMs: result.durationMs,
        nextRetryAt: planned.nextAttemptAt,
      },
      ...planned,
    });
    if (!recorded) {
      logger.warn('webhook attempt not recorded: the lease on the message lapsed', { messageId: message.id, owner });
      return;
    }
    logger.debug('webhook attempt', {
      messageId: message.id,
      webhookId: webhook.id,
      eventType: message.eventType,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
      status: planned.status,
      owner,
    });
    if (planned.webhook?.isActive === false) {
      logger.warn('webhook endpoint disabled', { webhookId: webhook.id, statusCode: result.statusCode, error: result.error });
    }
  }

  /** Claims up to `limit` due messages with their webhooks. */
  async function claim(limit: number): Promise<Claimed[]> {
    const now = clock.now();
    const messages = await storage.claimDueMessages(owner, now, now + leaseMs, limit);
    if (messages.length === 0) return [];
    const byId = new Map<string, Promise<WebhookRecord | null>>();
    for (const message of messages) {
      if (!byId.has(message.webhookId)) byId.set(message.webhookId, storage.getWebhook(message.workspaceId, message.webhookId));
    }
    return Promise.all(messages.map(async (message) => ({ message, webhook: await byId.get(message.webhookId)! })));
  }

  function launch({ message, webhook }: Claimed): Promise<void> {
    const task: Promise<void> = deliver(message, webhook)
      .catch((error) =>
        logger.error('webhook delivery failed unexpectedly', { messageId: message.id, error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        running.delete(task);
        fill();
        if (queue.length === 0 && backlog) wake();
      });
    running.add(task);
    return task;
  }

  /** Starts queued messages while there is room. */
  function fill() {
    while (running.size < concurrency && queue.length > 0) launch(queue.shift()!);
  }

  /*
   * Claims a batch of `concurrency` messages whenever the local queue is empty, so that a claim (a write)
   * serves a whole batch rather than each freed slot. At most two batches are held at once (one running, one
   * queued): a queued message waits for at most one round of attempts (each bounded by the timeout), well
   * inside its lease.
   */
  async function pump(): Promise<void> {
    while (wanted && !stopped) {
      wanted = false;
      while (!stopped && queue.length === 0) {
        let claimed: Claimed[];
        try {
          // Claiming is a write; most polls find nothing due, which a read can tell (no write lock, no lease churn).
          if (!backlog) {
            const due = await storage.nextDueAt();
            if (due === null) break;
            const wait = due - clock.now();
            if (wait > 0) {
              // Due before the next poll (a retry, or an event stamped a few ms ahead): wake for it then.
              if (wait < pollMs) wakeIn(wait);
              break;
            }
          }
          claimed = await claim(concurrency);
        } catch (error) {
          logger.error('claiming webhook messages failed', { error: error instanceof Error ? error.message : String(error) });
          break;
        }
        // Claimed just as stop() was called: attempted all the same, and stop() waits for them.
        queue.push(...claimed);
        fill();
        backlog = claimed.length === concurrency;
        if (!backlog) break;
      }
    }
  }

  let soon: ReturnType<typeof setTimeout> | undefined;
  let soonAt = Infinity;
  function wakeIn(ms: number) {
    const at = performance.now() + ms;
    if (soon && soonAt <= at) return;
    clearTimeout(soon);
    soonAt = at;
    soon = setTimeout(() => {
      soon = undefined;
      soonAt = Infinity;
      wake();
    }, Math.ceil(ms));
    soon.unref?.();
  }

  function wake() {
    if (stopped) return;
    wanted = true;
    pumping ??= pump().finally(() => {
      pumping = null;
      if (wanted && !stopped) wake();
    });
  }

  return {
    owner,
    start() {
      if (timer || stopped) return;
      timer = setInterval(wake, pollMs);
      timer.unref?.();
      wake();
    },
    wake,
    async runOnce() {
      let attempts = 0;
      for (;;) {
        const claimed = await claim(concurrency);
        if (claimed.length === 0) break;
        await Promise.all(claimed.map(launch));
        attempts += claimed.length;
      }
      return attempts;
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      clearTimeout(soon);
      timer = undefined;
      await pumping;
      while (running.size > 0 || queue.length > 0) {
        fill();
        await Promise.all([...running]);
      }
    },
    inFlight: () => running.size,
  };
}
