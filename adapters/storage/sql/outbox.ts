import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DeliveryAttemptRecord, OutboxEvent, OutboxStore, WebhookMessageRecord } from '../../../src/ports/storage/index.ts';
import { newId } from '../../../src/core/ids.ts';
import type { Dialect, Row, Tables, Tx } from './dialect.ts';
import { extendLeases, earliestDueAt } from './leased.ts';

export const toMessage = (row: Row<'webhookMessages'>): WebhookMessageRecord => {
  const { payload, leaseOwner: _owner, leaseUntil: _until, ...rest } = row;
  return { ...rest, body: payload, status: row.status as WebhookMessageRecord['status'] };
};

type WebhookRow = Row<'webhooks'>;

/** The webhooks of the workspaces an outbox write is for: the active ones, or `webhookId` alone (a test delivery). */
function webhooksOf(tx: Tx, tables: Tables, workspaceIds: string[], webhookId?: string): Promise<WebhookRow[]> {
  const w = tables.webhooks;
  return tx
    .select()
    .from(w)
    .where(and(inArray(w.workspaceId, workspaceIds), webhookId ? eq(w.id, webhookId) : eq(w.isActive, true)));
}

/** The active webhooks of a workspace: read by a transaction beside its other reads, for writeOutbox. */
export const activeWebhooks = (tx: Tx, tables: Tables, workspaceId: string): Promise<WebhookRow[]> => webhooksOf(tx, tables, [workspaceId]);

/**
 * Which webhooks an outbox write is for: `webhookId` that one alone, whatever it subscribes to (a test delivery);
 * `active` the workspace's active ones as activeWebhooks read them earlier in the transaction (saves Postgres a
 * round trip; only for events of that one workspace). Without either, the active ones are read now.
 */
type Recipients = { webhookId: string } | { active: WebhookRow[] };

/**
 * Inside a write transaction: the events' messages, one per active webhook of the workspace subscribed to the
 * event's type (or per `recipients`).
 */
export async function writeOutbox(tx: Tx, tables: Tables, events: OutboxEvent[], recipients?: Recipients): Promise<WebhookMessageRecord[]> {
  if (events.length === 0) return [];
  const onlyWebhookId = recipients && 'webhookId' in recipients ? recipients.webhookId : undefined;
  const hooks =
    recipients && 'active' in recipients
      ? recipients.active
      : await webhooksOf(tx, tables, [...new Set(events.map((event) => event.workspaceId))], onlyWebhookId);
  const rows: Row<'webhookMessages'>[] = [];
  for (const event of events) {
    for (const hook of hooks) {
      if (hook.workspaceId !== event.workspaceId) continue;
      if (!onlyWebhookId && hook.events.length > 0 && !hook.events.includes(event.type)) continue;
      rows.push({
        id: newId('msg', event.occurredAt),
        webhookId: hook.id,
        workspaceId: event.workspaceId,
        eventType: event.type,
        payload: event.body,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: event.occurredAt,
        leaseUntil: null,
        leaseOwner: null,
        createdAt: event.occurredAt,
        deliveredAt: null,
      });
    }
  }
  if (rows.length > 0) await tx.insert(tables.webhookMessages).values(rows);
  return rows.map(toMessage);
}

export function outboxQueries(dialect: Dialect): OutboxStore {
  const { db, tables: t } = dialect;
  return {
    async createWebhook(webhook) {
      await db.insert(t.webhooks).values(webhook);
    },

    async getWebhook(workspaceId, id) {
      const w = t.webhooks;
      const [row] = await db
        .select()
        .from(w)
        .where(and(eq(w.workspaceId, workspaceId), eq(w.id, id)));
      return row ?? null;
    },

    async listWebhooks(workspaceId) {
      const w = t.webhooks;
      return db.select().from(w).where(eq(w.workspaceId, workspaceId)).orderBy(asc(w.createdAt), asc(w.id));
    },

    async updateWebhook(workspaceId, id, patch, at) {
      const w = t.webhooks;
      const [row] = await db
        .update(w)
        .set({ ...patch, updatedAt: at })
        .where(and(eq(w.workspaceId, workspaceId), eq(w.id, id)))
        .returning();
      return row ?? null;
    },

    async deleteWebhook(workspaceId, id) {
      const w = t.webhooks;
      const rows = await db
        .delete(w)
        .where(and(eq(w.workspaceId, workspaceId), eq(w.id, id)))
        .returning({ id: w.id });
      return rows.length > 0;
    },

    enqueueEvents(events, onlyWebhookId) {
      return dialect.write((tx) => writeOutbox(tx, t, events, onlyWebhookId ? { webhookId: onlyWebhookId } : undefined));
    },

    claimDueMessages(owner, now, leaseUntil, limit) {
      return dialect.claimDueMessages(owner, now, leaseUntil, limit);
    },

    extendMessageLeases(owner, ids, leaseUntil) {
      return extendLeases(db, t.webhookMessages, owner, ids, leaseUntil);
    },

    async recordAttempt(owner, messageId, outcome) {
      const m = t.webhookMessages;
      return dialect.write(async (tx) => {
        const [row] = await tx
          .update(m)
          .set({
            status: outcome.status,
            attempts: sql`${m.attempts} + 1`,
            nextAttemptAt: outcome.nextAttemptAt,
            leaseOwner: null,
            leaseUntil: null,
            deliveredAt: outcome.status === 'delivered' ? outcome.attempt.attemptedAt : null,
          })
          .where(and(eq(m.id, messageId), eq(m.leaseOwner, owner)))
          .returning({ webhookId: m.webhookId, workspaceId: m.workspaceId });
        if (!row) return false;
        await tx.insert(t.webhookAttempts).values(outcome.attempt);
        if (outcome.webhook) {
          await tx
            .update(t.webhooks)
            .set({ ...outcome.webhook, updatedAt: outcome.attempt.attemptedAt })
            .where(eq(t.webhooks.id, row.webhookId));
        }
        return true;
      });
    },

    nextDueAt() {
      return earliestDueAt(db, t.webhookMessages);
    },

    async getMessage(id) {
      const [row] = await db.select().from(t.webhookMessages).where(eq(t.webhookMessages.id, id));
      return row ? toMessage(row) : null;
    },

    async listAttempts(webhookId, limit): Promise<DeliveryAttemptRecord[]> {
      const a = t.webhookAttempts;
      return db.select().from(a).where(eq(a.webhookId, webhookId)).orderBy(desc(a.attemptedAt), desc(a.id)).limit(limit);
    },
  };
}
