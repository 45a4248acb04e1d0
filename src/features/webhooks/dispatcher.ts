import { Webhook as Signer } from 'standardwebhooks';
import { retrySchedule } from '../../platform/config.ts';
import { newId } from '../../core/ids.ts';
import type { Metrics } from '../../platform/metrics.ts';
import { createKindWorker, type OutboxKindOptions } from '../../platform/outbox/kind.ts';
import type { OutboxHandler, OutboxQueue, OutboxWorker } from '../../platform/outbox/worker.ts';
import type { AttemptOutcome, Storage, WebhookMessageRecord, WebhookRecord } from '../../ports/storage/index.ts';
import { DELIVERY_TIMEOUT_MS, planOutcome, sendAttempt, type AttemptResult } from './delivery.ts';
import { checkDestination, deliveryAddress, systemResolver, type Resolver } from '../../platform/destination.ts';
import { WEBHOOK_TEST_EVENT } from './events.ts';
import { openSigningSecret } from '../../platform/sealed-secrets.ts';

/*
 * Webhook delivery on the outbox worker (platform/outbox/worker.ts): the queue is the webhook outbox
 * (storage.claimDueMessages, extendMessageLeases, recordAttempt), the handler signs and sends one message and
 * plans its next state (delivery.ts: the retry schedule, Retry-After, the endpoint disabled after 5 days of
 * failures or a 410). Every attempt of a message carries its id as `webhook-id`, retries included, so a
 * receiver drops the repeat an at-least-once delivery may bring.
 */

/** What createDispatcher takes (concurrency: deliveries in flight at most, default 8). */
export interface DispatcherOptions extends OutboxKindOptions {
  /** per-attempt timeout, ms; default 15 000 */
  timeoutMs?: number;
  /** resolves destination host names (the private-address check); default node:dns lookup */
  resolve?: Resolver;
  /** where failed attempts are counted (svc_outbox_delivery_failures_total) */
  metrics?: Pick<Metrics, 'deliveryFailed'>;
}

/** The webhook delivery loop: an outbox worker. */
export type Dispatcher = OutboxWorker;

/** A claimed message with its webhook (null when the webhook was deleted meanwhile). */
type Claimed = { message: WebhookMessageRecord; webhook: WebhookRecord | null };

const DEFAULT_CONCURRENCY = 8;
/** Signers kept (decrypted secrets), by webhook id and sealed secret. */
const SIGNER_CACHE_SIZE = 1_000;

/** The webhook outbox as the worker's queue: a claim comes with each message's webhook. */
function messageQueue(storage: Storage): OutboxQueue<Claimed, AttemptOutcome> {
  return {
    kind: 'webhook message',
    idOf: ({ message }) => message.id,
    nextDueAt: () => storage.nextDueAt(),
    async claim(owner, now, leaseUntil, limit) {
      const messages = await storage.claimDueMessages(owner, now, leaseUntil, limit);
      if (messages.length === 0) return [];
      const byId = new Map<string, Promise<WebhookRecord | null>>();
      for (const message of messages) {
        if (!byId.has(message.webhookId)) byId.set(message.webhookId, storage.getWebhook(message.workspaceId, message.webhookId));
      }
      return Promise.all(messages.map(async (message) => ({ message, webhook: await byId.get(message.webhookId)! })));
    },
    extendLeases: (owner, ids, leaseUntil) => storage.extendMessageLeases(owner, ids, leaseUntil),
    record: (owner, { message }, outcome) => storage.recordAttempt(owner, message.id, outcome),
  };
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { storage, config, clock, logger } = options;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const resolve = options.resolve ?? systemResolver;
  const random = options.random ?? Math.random;
  const schedule = retrySchedule(config);
  const signers = new Map<string, Signer>();

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

  const handler: OutboxHandler<Claimed, AttemptOutcome> = {
    async attempt({ message, webhook }) {
      if (!webhook) {
        // Deleted with its messages (cascade) after the claim: nothing is left to record.
        logger.debug('webhook message without its webhook', { messageId: message.id, webhookId: message.webhookId });
        return null;
      }
      const attemptedAt = clock.now();
      const result = await attemptDelivery(message, webhook, attemptedAt);
      const disabledSkip = !webhook.isActive && message.eventType !== WEBHOOK_TEST_EVENT;
      const planned = disabledSkip
        ? { status: 'failed' as const, nextAttemptAt: null }
        : planOutcome({ attempt: message.attempts + 1, schedule, result, attemptedAt, webhook, random });
      return {
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
      };
    },
    recorded({ message }, outcome) {
      if (outcome.status !== 'delivered') options.metrics?.deliveryFailed('webhook');
      logger.debug('webhook attempt', {
        messageId: message.id,
        webhookId: message.webhookId,
        eventType: message.eventType,
        statusCode: outcome.attempt.statusCode,
        error: outcome.attempt.error,
        durationMs: outcome.attempt.durationMs,
        status: outcome.status,
      });
      if (outcome.webhook?.isActive === false) {
        logger.warn('webhook endpoint disabled', { webhookId: message.webhookId, statusCode: outcome.attempt.statusCode, error: outcome.attempt.error });
      }
    },
  };

  return createKindWorker(options, DEFAULT_CONCURRENCY, messageQueue(storage), handler);
}
