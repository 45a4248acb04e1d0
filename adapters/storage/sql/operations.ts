import { count, eq, min } from 'drizzle-orm';
import type { OperationsStore } from '../../../src/ports/storage/index.ts';
import type { Dialect } from './dialect.ts';

/** Grouped counts; every one filters or groups on an indexed status column. */
export function operationsQueries(dialect: Dialect): OperationsStore {
  const { db, tables: t } = dialect;
  const byStatus = (rows: { status: string; n: number }[]) => Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  return {
    async operationsSnapshot() {
      const [bookings, webhooks, mails, connections] = await Promise.all([
        db.select({ status: t.bookings.status, n: count() }).from(t.bookings).groupBy(t.bookings.status),
        db
          .select({ n: count(), oldest: min(t.webhookMessages.createdAt) })
          .from(t.webhookMessages)
          .where(eq(t.webhookMessages.status, 'pending')),
        db
          .select({ n: count(), oldest: min(t.mailMessages.createdAt) })
          .from(t.mailMessages)
          .where(eq(t.mailMessages.status, 'pending')),
        db.select({ status: t.calendarConnections.status, n: count() }).from(t.calendarConnections).groupBy(t.calendarConnections.status),
      ]);
      const backlog = (rows: { n: number; oldest: number | null }[]) => ({
        pending: Number(rows[0]?.n ?? 0),
        oldestCreatedAt: rows[0]?.oldest == null ? null : Number(rows[0].oldest),
      });
      return {
        bookingsByStatus: byStatus(bookings),
        outbox: [
          { kind: 'webhook', ...backlog(webhooks) },
          { kind: 'mail', ...backlog(mails) },
        ],
        calendarConnectionsByStatus: byStatus(connections),
      };
    },
  };
}
