/** An event for the outbox; the adapter writes one message per subscribed active webhook of the workspace. */
export interface OutboxEvent {
  workspaceId: string;
  type: string;
  /** the JSON body delivered, already serialised, so every attempt sends the same bytes */
  body: string;
  occurredAt: number;
}

export interface WebhookRecord {
  id: string;
  workspaceId: string;
  name: string | null;
  url: string;
  /** the signing secret, encrypted by the caller; adapters store it as given */
  secret: string;
  /** event types subscribed to; empty = all */
  events: string[];
  isActive: boolean;
  /** first failure of the current run of failed deliveries; null when the last delivery succeeded */
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

export type WebhookPatch = Partial<Pick<WebhookRecord, 'name' | 'url' | 'events' | 'isActive' | 'failingSince'>>;

export type MessageStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookMessageRecord {
  id: string;
  webhookId: string;
  workspaceId: string;
  eventType: string;
  body: string;
  status: MessageStatus;
  attempts: number;
  nextAttemptAt: number | null;
  createdAt: number;
  deliveredAt: number | null;
}

export interface DeliveryAttemptRecord {
  id: string;
  messageId: string;
  webhookId: string;
  attemptedAt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  nextRetryAt: number | null;
}

export interface AttemptOutcome {
  attempt: DeliveryAttemptRecord;
  /** the message's new state after this attempt */
  status: MessageStatus;
  nextAttemptAt: number | null;
  /** change to the endpoint caused by this attempt (410, or 5 days of failures) */
  webhook?: WebhookPatch;
}

/**
 * Webhook endpoints and the outbox: messages written with the change that causes them (BookingStore,
 * PaymentStore, enqueueEvents), claimed under a lease by exactly one deliverer at a time, and their attempts.
 */
export interface OutboxStore {
  createWebhook(webhook: WebhookRecord): Promise<void>;
  getWebhook(workspaceId: string, id: string): Promise<WebhookRecord | null>;
  /** Ordered by createdAt. */
  listWebhooks(workspaceId: string): Promise<WebhookRecord[]>;
  updateWebhook(workspaceId: string, id: string, patch: WebhookPatch, at: number): Promise<WebhookRecord | null>;
  /** Removes the webhook with its messages and attempts. */
  deleteWebhook(workspaceId: string, id: string): Promise<boolean>;
  /** Writes events outside of a booking change (webhook.test); with `onlyWebhookId`, to that webhook alone, whatever it subscribes to. */
  enqueueEvents(events: OutboxEvent[], onlyWebhookId?: string): Promise<WebhookMessageRecord[]>;
  /**
   * Claims up to `limit` pending messages due at `now` whose lease is free or lapsed, leasing them to `owner`
   * until `leaseUntil`. Guarantee: concurrent claimers (any process or instance) never receive the same
   * message while its lease runs.
   */
  claimDueMessages(owner: string, now: number, leaseUntil: number, limit: number): Promise<WebhookMessageRecord[]>;
  /**
   * The heartbeat of a live claimer: moves the lease of each of `ids` that `owner` still holds to `leaseUntil`
   * and returns those ids. A message another claimer took over, or whose attempt was recorded, is left as it
   * is (and not returned).
   */
  extendMessageLeases(owner: string, ids: string[], leaseUntil: number): Promise<string[]>;
  /**
   * Records an attempt and the message's new state, applies the webhook patch (its updatedAt = attemptedAt)
   * and releases the lease, in one transaction. Ignored (false) unless `owner` holds the lease.
   */
  recordAttempt(owner: string, messageId: string, outcome: AttemptOutcome): Promise<boolean>;
  /** Earliest nextAttemptAt of pending messages, for the scheduler's sleep. */
  nextDueAt(): Promise<number | null>;
  getMessage(id: string): Promise<WebhookMessageRecord | null>;
  /** Newest first. */
  listAttempts(webhookId: string, limit: number): Promise<DeliveryAttemptRecord[]>;
}
