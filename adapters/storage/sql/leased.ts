import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db, Tables, Tx } from './dialect.ts';

/*
 * The lease of an outbox table (webhook messages, mails, calendar writes; platform/outbox/worker.ts): its rows
 * are `pending` until done with, due at `nextAttemptAt`, and held by `leaseOwner` until `leaseUntil`. What the
 * three tables do alike is written here once; what a row records is each table's own.
 */

export type LeasedTable = Tables['webhookMessages'] | Tables['mailMessages'] | Tables['calendarWrites'];

/** Pending, due at `now`, and not leased by a live claimer. */
export function dueCondition(table: LeasedTable, now: number) {
  return and(eq(table.status, 'pending'), lte(table.nextAttemptAt, now), or(isNull(table.leaseUntil), lt(table.leaseUntil, now)));
}

/**
 * Inside a write transaction: leases up to `limit` due rows (the earliest due first) to `owner` until
 * `leaseUntil`; resolves with them as stored.
 */
export async function claimDue<T extends LeasedTable>(
  tx: Tx,
  table: T,
  owner: string,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<T['$inferSelect'][]> {
  const leased: LeasedTable = table;
  const ids = await tx.select({ id: leased.id }).from(leased).where(dueCondition(leased, now)).orderBy(asc(leased.nextAttemptAt), asc(leased.id)).limit(limit);
  if (ids.length === 0) return [];
  // The condition again: on Postgres a racing claimer's UPDATE re-reads the row after ours commits and skips it.
  const rows = await tx
    .update(leased)
    .set({ leaseOwner: owner, leaseUntil })
    .where(
      and(
        inArray(
          leased.id,
          ids.map((row) => row.id),
        ),
        dueCondition(leased, now),
      ),
    )
    .returning();
  return rows as T['$inferSelect'][];
}

/** Moves the leases `owner` still holds among `ids` to `leaseUntil`; resolves with those ids. */
export async function extendLeases(db: Db, table: LeasedTable, owner: string, ids: string[], leaseUntil: number): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(table)
    .set({ leaseUntil })
    .where(and(inArray(table.id, ids), eq(table.leaseOwner, owner)))
    .returning({ id: table.id });
  return rows.map((row) => row.id);
}

/** The earliest next attempt of the pending rows, or null when none is pending. */
export async function earliestDueAt(db: Db, table: LeasedTable): Promise<number | null> {
  const [row] = await db
    .select({ at: sql<number | string | null>`min(${table.nextAttemptAt})` })
    .from(table)
    .where(eq(table.status, 'pending'));
  return row?.at == null ? null : Number(row.at);
}
