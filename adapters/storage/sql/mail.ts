import { and, asc, eq, gt, gte, inArray, lte, notExists, sql } from 'drizzle-orm';
import { newId } from '../../../src/core/ids.ts';
import type { BookingRecord, MailEntry, MailMessageRecord, MailSnapshot, MailStatus, MailStore } from '../../../src/ports/storage/index.ts';
import { HOLDING, type Dialect, type Row, type Tables, type Tx } from './dialect.ts';
import { claimDue, extendLeases, earliestDueAt } from './leased.ts';

const toMail = (row: Row<'mailMessages'>): MailMessageRecord => {
  const { leaseOwner: _owner, leaseUntil: _until, snapshot, ...rest } = row;
  return { ...rest, kind: row.kind as MailMessageRecord['kind'], status: row.status as MailStatus, snapshot: JSON.parse(snapshot) as MailSnapshot };
};

/**
 * Inside a write transaction: the mails, each unless its (booking, kind, revision) was written before (the
 * unique index decides, so racing writers on any instance write it once). Returns how many were written.
 */
export async function writeMails(tx: Tx, tables: Tables, entries: MailEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  const rows = entries.map((entry) => ({
    id: newId('mail', entry.createdAt),
    workspaceId: entry.workspaceId,
    bookingId: entry.bookingId,
    kind: entry.kind,
    revision: entry.revision,
    snapshot: JSON.stringify(entry.snapshot),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: entry.dueAt ?? entry.createdAt,
    leaseUntil: null,
    leaseOwner: null,
    lastError: null,
    createdAt: entry.createdAt,
    sentAt: null,
  }));
  const written = await tx.insert(tables.mailMessages).values(rows).onConflictDoNothing().returning({ id: tables.mailMessages.id });
  return written.length;
}

export function mailQueries(dialect: Dialect): MailStore {
  const { db, tables: t } = dialect;
  const m = t.mailMessages;
  return {
    enqueueMails(entries) {
      return dialect.write((tx) => writeMails(tx, t, entries));
    },

    async claimDueMails(owner, now, leaseUntil, limit) {
      const rows = await dialect.write((tx) => claimDue(tx, m, owner, now, leaseUntil, limit));
      return rows.map(toMail);
    },

    extendMailLeases(owner, ids, leaseUntil) {
      return extendLeases(db, m, owner, ids, leaseUntil);
    },

    async recordMailAttempt(owner, id, outcome) {
      const rows = await db
        .update(m)
        .set({
          status: outcome.status,
          attempts: sql`${m.attempts} + 1`,
          nextAttemptAt: outcome.nextAttemptAt,
          lastError: outcome.error,
          sentAt: outcome.status === 'sent' ? outcome.at : null,
          leaseOwner: null,
          leaseUntil: null,
        })
        .where(and(eq(m.id, id), eq(m.leaseOwner, owner)))
        .returning({ id: m.id });
      return rows.length > 0;
    },

    nextMailDueAt() {
      return earliestDueAt(db, m);
    },

    async listBookingMails(bookingId) {
      const rows = await db.select().from(m).where(eq(m.bookingId, bookingId)).orderBy(asc(m.createdAt), asc(m.id));
      return rows.map(toMail);
    },

    async listDueReminders(now, withinMs, limit) {
      const b = t.bookings;
      const reminded = db
        .select({ one: sql`1` })
        .from(m)
        .where(and(eq(m.bookingId, b.id), eq(m.kind, 'reminder'), eq(m.revision, b.revision)));
      const rows = await db
        .select()
        .from(b)
        .where(
          and(
            eq(b.status, 'CONFIRMED'),
            gt(b.startTime, now),
            lte(b.startTime, now + withinMs),
            lte(b.updatedAt, sql`${b.startTime} - ${withinMs}`),
            notExists(reminded),
          ),
        )
        .orderBy(asc(b.startTime), asc(b.id))
        .limit(limit);
      return rows as BookingRecord[];
    },

    async findBookingByManageToken(hash) {
      const [row] = await db.select().from(t.bookings).where(eq(t.bookings.manageTokenHash, hash));
      return (row as BookingRecord | undefined) ?? null;
    },

    async putCalendarFeed(feed) {
      const f = t.calendarFeeds;
      await db
        .insert(f)
        .values(feed)
        .onConflictDoUpdate({ target: f.providerId, set: { tokenHash: feed.tokenHash, createdAt: feed.createdAt, workspaceId: feed.workspaceId } });
    },

    async findCalendarFeed(hash) {
      const [row] = await db.select().from(t.calendarFeeds).where(eq(t.calendarFeeds.tokenHash, hash));
      return row ?? null;
    },

    async listProviderBookings(workspaceId, providerId, from, limit) {
      const b = t.bookings;
      const rows = await db
        .select()
        .from(b)
        .where(and(eq(b.workspaceId, workspaceId), eq(b.providerId, providerId), inArray(b.status, [...HOLDING]), gte(b.startTime, from)))
        .orderBy(asc(b.startTime), asc(b.id))
        .limit(limit);
      return rows as BookingRecord[];
    },
  };
}
