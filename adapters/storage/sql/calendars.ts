import { and, asc, eq, gt, inArray, isNull, lt, lte, ne, notInArray, or } from 'drizzle-orm';
import type {
  BusyInterval,
  CalendarConnectionKind,
  CalendarConnectionRecord,
  CalendarConnectionPatch,
  CalendarConnectionStatus,
  CalendarStatusEvents,
  CalendarStore,
  ConnectedCalendar,
} from '../../../src/ports/storage/index.ts';
import type { Dialect, Row, Tables, Tx } from './dialect.ts';
import { writeOutbox } from './outbox.ts';

function toConnection(row: Row<'calendarConnections'>): CalendarConnectionRecord {
  const { syncDueAt: _due, syncLeaseOwner: _owner, syncLeaseUntil: _until, failureNoticePending: _notice, ...rest } = row;
  return {
    ...rest,
    kind: row.kind as CalendarConnectionKind,
    status: row.status as CalendarConnectionStatus,
    calendars: row.calendars as ConnectedCalendar[],
    syncState: row.syncState as Record<string, string | null>,
  };
}

/**
 * The busy times of the providers' blocking calendars that can conflict with a slot inside [from, to) of a
 * service whose buffer is `buffer` ms (docs/contract/calendars.md §5: an event is widened like a booking), in
 * start order. Read by availability (CalendarStore.listCalendarBusy) and, inside a booking's transaction under
 * its provider lock, by the reservation.
 */
export async function calendarBusyIn(on: Tx, tables: Tables, providerIds: string[], from: number, to: number, buffer = 0): Promise<BusyInterval[]> {
  const c = tables.calendarBusyTimes;
  const rows = await on
    .select({ providerId: c.providerId, connectionId: c.connectionId, calendarId: c.calendarId, start: c.start, end: c.end })
    .from(c)
    .where(and(inArray(c.providerId, providerIds), eq(c.blocks, true), lt(c.start, to + buffer), gt(c.end, from - buffer)))
    .orderBy(asc(c.start));
  return rows.map((row) => ({
    bookingId: null,
    providerId: row.providerId,
    serviceId: null,
    startTime: row.start,
    endTime: row.end,
    bufferTime: 0,
    calendar: { connectionId: row.connectionId, calendarId: row.calendarId },
  }));
}

/** Rows of busy times inserted per statement (Postgres allows 65 535 parameters; a row has 7). */
const INSERT_CHUNK = 1000;

/** A provider's calendar connections and their stored busy times on either SQL dialect. */
export function calendarQueries(dialect: Dialect): CalendarStore {
  const { db, tables: t } = dialect;
  const c = t.calendarConnections;
  const b = t.calendarBusyTimes;

  async function locked(tx: Tx, id: string): Promise<CalendarConnectionRecord | null> {
    const [row] = await tx.select().from(c).where(eq(c.id, id));
    return row ? toConnection(row) : null;
  }

  /** Makes the stored busy times of each calendar block or not as the calendar does. */
  async function mirrorBlocks(tx: Tx, connection: CalendarConnectionRecord) {
    for (const calendar of connection.calendars) {
      await tx
        .update(b)
        .set({ blocks: calendar.blocks })
        .where(and(eq(b.connectionId, connection.id), eq(b.calendarId, calendar.id), ne(b.blocks, calendar.blocks)));
    }
  }

  /**
   * Moves the status compare-and-set when `patch` moves it to `error` (from another) or to `ok` (from `error`),
   * writing the move's events; the UPDATE's condition is checked again on the committed row by a racing writer,
   * so only one of them sees the move. A move to `error` marks the failure mail due, a move back clears it.
   */
  async function moveStatus(tx: Tx, id: string, patch: CalendarConnectionPatch, now: number, onStatus?: CalendarStatusEvents) {
    if (patch.status !== 'error' && patch.status !== 'ok') return;
    const moved = await tx
      .update(c)
      .set(
        patch.status === 'error'
          ? { status: 'error', failureNoticePending: true, updatedAt: now }
          : { status: 'ok', failureNoticePending: false, updatedAt: now },
      )
      .where(and(eq(c.id, id), patch.status === 'error' ? ne(c.status, 'error') : eq(c.status, 'error')))
      .returning({ id: c.id });
    if (moved.length === 0 || !onStatus) return;
    await writeOutbox(tx, t, onStatus((await writePatch(tx, id, patch, now))!));
  }

  /** Writes `patch` to the connection; resolves with the connection as it now is, or null when it is gone. */
  async function writePatch(tx: Tx, id: string, patch: CalendarConnectionPatch, now: number): Promise<CalendarConnectionRecord | null> {
    const [row] = await tx
      .update(c)
      .set({ ...patch, updatedAt: now })
      .where(eq(c.id, id))
      .returning();
    return row ? toConnection(row) : null;
  }

  return {
    async createCalendarConnection(connection) {
      await db.insert(c).values(connection);
    },

    async getCalendarConnection(workspaceId, providerId, id) {
      const [row] = await db
        .select()
        .from(c)
        .where(and(eq(c.workspaceId, workspaceId), eq(c.providerId, providerId), eq(c.id, id)));
      return row ? toConnection(row) : null;
    },

    async listCalendarConnections(workspaceId, providerId) {
      const rows = await db
        .select()
        .from(c)
        .where(and(eq(c.workspaceId, workspaceId), eq(c.providerId, providerId)))
        .orderBy(asc(c.createdAt), asc(c.id));
      return rows.map(toConnection);
    },

    async listAllCalendarConnections() {
      const rows = await db.select().from(c).orderBy(asc(c.createdAt), asc(c.id));
      return rows.map(toConnection);
    },

    updateCalendarConnection(id, patch, now, onStatus) {
      return dialect.write(async (tx) => {
        await moveStatus(tx, id, patch, now, onStatus);
        return writePatch(tx, id, patch, now);
      });
    },

    chooseCalendars(id, choices, now) {
      return dialect.write(async (tx) => {
        const found = await locked(tx, id);
        if (!found) return null;
        // Choices for one provider are made one at a time: two connections of the provider choosing a write
        // calendar at once would each clear the other and keep their own.
        await dialect.lockProviders(tx, [found.providerId]);
        const connection = await locked(tx, id);
        if (!connection) return null;
        const byId = new Map(choices.map((choice) => [choice.id, choice]));
        const calendars = connection.calendars.map((calendar) => {
          const choice = byId.get(calendar.id);
          return choice ? { ...calendar, blocks: choice.blocks ?? calendar.blocks, writes: choice.writes ?? calendar.writes } : calendar;
        });
        const writer = calendars.find((calendar) => calendar.writes && byId.get(calendar.id)?.writes === true);
        const final = writer ? calendars.map((calendar) => ({ ...calendar, writes: calendar === writer })) : calendars;
        if (writer) {
          // The provider's other connections give up their write calendar, in the same transaction.
          const others = await tx
            .select()
            .from(c)
            .where(and(eq(c.providerId, connection.providerId), ne(c.id, id)));
          for (const other of others.map(toConnection)) {
            if (!other.calendars.some((calendar) => calendar.writes)) continue;
            await tx
              .update(c)
              .set({ calendars: other.calendars.map((calendar) => ({ ...calendar, writes: false })), updatedAt: now })
              .where(eq(c.id, other.id));
          }
        }
        const [row] = await tx.update(c).set({ calendars: final, updatedAt: now }).where(eq(c.id, id)).returning();
        const updated = toConnection(row!);
        await mirrorBlocks(tx, updated);
        return updated;
      });
    },

    async deleteCalendarConnection(workspaceId, providerId, id) {
      return dialect.write(async (tx) => {
        await tx.delete(b).where(eq(b.connectionId, id));
        const deleted = await tx
          .delete(c)
          .where(and(eq(c.workspaceId, workspaceId), eq(c.providerId, providerId), eq(c.id, id)))
          .returning({ id: c.id });
        return deleted.length > 0;
      });
    },

    storeCalendarSync(id, patch, busy, now, onStatus) {
      return dialect.write(async (tx) => {
        const connection = await locked(tx, id);
        if (!connection) return null;
        await moveStatus(tx, id, patch, now, onStatus);
        const updated = (await writePatch(tx, id, patch, now))!;
        if (patch.calendars) {
          const kept = updated.calendars.map((calendar) => calendar.id);
          await tx.delete(b).where(kept.length > 0 ? and(eq(b.connectionId, id), notInArray(b.calendarId, kept)) : eq(b.connectionId, id));
        }
        const blocks = new Map(updated.calendars.map((calendar) => [calendar.id, calendar.blocks]));
        for (const { calendarId, intervals } of busy) {
          await tx.delete(b).where(and(eq(b.connectionId, id), eq(b.calendarId, calendarId)));
          const rows = intervals.map((interval) => ({
            connectionId: id,
            providerId: updated.providerId,
            calendarId,
            start: interval.start,
            end: interval.end,
            uid: interval.uid,
            blocks: blocks.get(calendarId) ?? false,
          }));
          for (let index = 0; index < rows.length; index += INSERT_CHUNK) await tx.insert(b).values(rows.slice(index, index + INSERT_CHUNK));
        }
        await mirrorBlocks(tx, updated);
        return updated;
      });
    },

    async claimCalendarSyncs(owner, now, leaseUntil, nextDueAt, limit) {
      const claimable = and(or(isNull(c.syncDueAt), lte(c.syncDueAt, now)), or(isNull(c.syncLeaseUntil), lt(c.syncLeaseUntil, now)));
      const due = await db.select({ id: c.id }).from(c).where(claimable).orderBy(asc(c.syncDueAt), asc(c.createdAt)).limit(limit);
      const claimed: CalendarConnectionRecord[] = [];
      for (const { id } of due) {
        // One row at a time, its condition tested again by the UPDATE: a claimer that lost the race gets no row.
        const [row] = await db
          .update(c)
          .set({ syncLeaseOwner: owner, syncLeaseUntil: leaseUntil, syncDueAt: nextDueAt })
          .where(and(eq(c.id, id), claimable))
          .returning();
        if (row) claimed.push(toConnection(row));
      }
      return claimed;
    },

    async releaseCalendarSync(owner, id) {
      const released = await db
        .update(c)
        .set({ syncLeaseOwner: null, syncLeaseUntil: null })
        .where(and(eq(c.id, id), eq(c.syncLeaseOwner, owner)))
        .returning({ id: c.id });
      return released.length > 0;
    },

    async listCalendarFailureNotices(limit) {
      const rows = await db
        .select()
        .from(c)
        .where(and(eq(c.failureNoticePending, true), eq(c.status, 'error')))
        .orderBy(asc(c.updatedAt), asc(c.id))
        .limit(limit);
      return rows.map(toConnection);
    },

    async claimCalendarFailureNotice(id) {
      const claimed = await db
        .update(c)
        .set({ failureNoticePending: false })
        .where(and(eq(c.id, id), eq(c.failureNoticePending, true)))
        .returning({ id: c.id });
      return claimed.length > 0;
    },

    async listCalendarBusy(providerIds, from, to, buffer) {
      if (providerIds.length === 0) return [];
      return calendarBusyIn(db, t, providerIds, from, to, buffer);
    },

    async busyTimesFor(providerIds, from, to) {
      if (providerIds.length === 0) return [];
      return db
        .select({ providerId: b.providerId, connectionId: b.connectionId, calendarId: b.calendarId, start: b.start, end: b.end, uid: b.uid })
        .from(b)
        .where(and(inArray(b.providerId, providerIds), eq(b.blocks, true), gt(b.end, from), lt(b.start, to)))
        .orderBy(asc(b.start), asc(b.end), asc(b.uid));
    },
  };
}
