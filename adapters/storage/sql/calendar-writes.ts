import { and, eq, inArray } from 'drizzle-orm';
import { newId } from '../../../src/core/ids.ts';
import type { BookingRecord, CalendarWriteRecord, CalendarWriteStatus, CalendarWriteStore, ConnectedCalendar } from '../../../src/ports/storage/index.ts';
import { HOLDING, type Dialect, type Row, type Tables, type Tx } from './dialect.ts';
import { claimDue, extendLeases, earliestDueAt } from './leased.ts';

const toWrite = (row: Row<'calendarWrites'>): CalendarWriteRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  bookingId: row.bookingId,
  revision: row.revision,
  status: row.status as CalendarWriteStatus,
  attempts: row.attempts,
  nextAttemptAt: row.nextAttemptAt,
  lastError: row.lastError,
  written:
    row.writtenConnectionId !== null && row.writtenCalendarId !== null ? { connectionId: row.writtenConnectionId, calendarId: row.writtenCalendarId } : null,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/**
 * Inside a booking change's transaction: the booking's event is to follow `saved`. A booking svc wrote an event
 * for already has its row, which is raised to the new revision (whatever the status: a cancel removes the event);
 * otherwise a row is written only when the booking holds time and its provider has a write calendar.
 */
export async function followInCalendar(tx: Tx, tables: Tables, saved: BookingRecord): Promise<void> {
  const w = tables.calendarWrites;
  const raised = await tx
    .update(w)
    .set({ revision: saved.revision, status: 'pending', attempts: 0, nextAttemptAt: saved.updatedAt, lastError: null, updatedAt: saved.updatedAt })
    .where(eq(w.bookingId, saved.id))
    .returning({ id: w.id });
  if (raised.length > 0 || !(HOLDING as readonly string[]).includes(saved.status)) return;
  if (!(await connectedProviders(tx, tables, [saved.providerId])).writing.has(saved.providerId)) return;
  await queueCalendarWrite(tx, tables, saved);
}

/** New bookings (a series' occurrences, all on one provider) whose events are to be written: one row each. */
export async function followNewInCalendar(tx: Tx, tables: Tables, saved: readonly BookingRecord[], connected?: ConnectedProviders): Promise<void> {
  const holding = saved.filter((booking) => (HOLDING as readonly string[]).includes(booking.status));
  if (holding.length === 0) return;
  const providerId = holding[0]!.providerId;
  const writes = connected ? connected.writing.has(providerId) : (await connectedProviders(tx, tables, [providerId])).writing.has(providerId);
  if (!writes) return;
  for (const booking of holding) await queueCalendarWrite(tx, tables, booking);
}

/** Which of some providers have a calendar connection at all, and which have one with a calendar written to. */
export interface ConnectedProviders {
  any: Set<string>;
  writing: Set<string>;
}

/**
 * One read of the providers' connections inside a booking's transaction: a provider without any has no busy
 * times to read and no event to write, which spares a booking two statements in the common case.
 */
export async function connectedProviders(tx: Tx, tables: Tables, providerIds: readonly string[]): Promise<ConnectedProviders> {
  const c = tables.calendarConnections;
  const rows = await tx
    .select({ providerId: c.providerId, calendars: c.calendars })
    .from(c)
    .where(inArray(c.providerId, [...providerIds]));
  const connected: ConnectedProviders = { any: new Set(), writing: new Set() };
  for (const row of rows) {
    connected.any.add(row.providerId);
    if ((row.calendars as ConnectedCalendar[]).some((calendar) => calendar.writes)) connected.writing.add(row.providerId);
  }
  return connected;
}

async function queueCalendarWrite(tx: Tx, tables: Tables, saved: BookingRecord): Promise<void> {
  const w = tables.calendarWrites;
  await tx
    .insert(w)
    .values({
      id: newId('cwr', saved.updatedAt),
      workspaceId: saved.workspaceId,
      bookingId: saved.id,
      revision: saved.revision,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: saved.updatedAt,
      leaseUntil: null,
      leaseOwner: null,
      lastError: null,
      writtenConnectionId: null,
      writtenCalendarId: null,
      createdAt: saved.updatedAt,
      updatedAt: saved.updatedAt,
    })
    .onConflictDoNothing();
}

export function calendarWriteQueries(dialect: Dialect): CalendarWriteStore {
  const { db, tables: t } = dialect;
  const w = t.calendarWrites;
  return {
    async claimDueCalendarWrites(owner, now, leaseUntil, limit) {
      const rows = await dialect.write((tx) => claimDue(tx, w, owner, now, leaseUntil, limit));
      return rows.map(toWrite);
    },

    extendCalendarWriteLeases(owner, ids, leaseUntil) {
      return extendLeases(db, w, owner, ids, leaseUntil);
    },

    recordCalendarWrite(owner, id, outcome) {
      return dialect.write(async (tx) => {
        const [row] = await tx
          .select({ revision: w.revision, attempts: w.attempts })
          .from(w)
          .where(and(eq(w.id, id), eq(w.leaseOwner, owner)));
        if (!row) return false;
        const current = row.revision === outcome.revision;
        await tx
          .update(w)
          .set({
            // A booking change raised the row meanwhile: it is attempted again at once, from a fresh count.
            status: current ? outcome.status : 'pending',
            attempts: current && outcome.status !== 'done' ? row.attempts + 1 : 0,
            nextAttemptAt: current ? outcome.nextAttemptAt : outcome.at,
            lastError: current ? outcome.error : null,
            writtenConnectionId: outcome.written?.connectionId ?? null,
            writtenCalendarId: outcome.written?.calendarId ?? null,
            updatedAt: outcome.at,
            leaseOwner: null,
            leaseUntil: null,
          })
          .where(eq(w.id, id));
        return true;
      });
    },

    nextCalendarWriteDueAt() {
      return earliestDueAt(db, w);
    },

    async getCalendarWrite(bookingId) {
      const [row] = await db.select().from(w).where(eq(w.bookingId, bookingId));
      return row ? toWrite(row) : null;
    },
  };
}
