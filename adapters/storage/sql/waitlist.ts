import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { BusyInterval, WaitedTime, WaitlistEntryRecord, WaitlistStore } from '../../../src/ports/storage/index.ts';
import { busyWindow, HOLDING, type BusyReadArgs, type Dialect, type Row, type Tables, type Tx } from './dialect.ts';
import { writeOutbox } from './outbox.ts';

const toEntry = (row: Row<'waitlistEntries'>): WaitlistEntryRecord => row as WaitlistEntryRecord;

/**
 * The seats OFFERED waiting-list entries hold on these providers around [from, to), as busy intervals (see
 * BookingStore.listBusy: the same window and buffer rule as bookings). `excluding`: an entry left out (its claim).
 */
export async function heldSeatsQuery(
  on: Tx,
  t: Tables,
  providerIds: string[],
  from: number,
  to: number,
  excluding?: string,
  buffer?: number,
): Promise<BusyInterval[]> {
  const w = t.waitlistEntries;
  const rows = await on
    .select({ id: w.id, providerId: w.heldProviderId, serviceId: w.serviceId, startTime: w.startTime, endTime: w.endTime, bufferTime: w.bufferTime })
    .from(w)
    .where(and(inArray(w.heldProviderId, providerIds), eq(w.status, 'OFFERED'), busyWindow(w, from, to, buffer), excluding ? ne(w.id, excluding) : undefined));
  return rows.map((row) => ({
    bookingId: row.id,
    providerId: row.providerId!,
    serviceId: row.serviceId,
    startTime: row.startTime,
    endTime: row.endTime,
    bufferTime: row.bufferTime,
  }));
}

/**
 * heldSeatsQuery as busyQuery's rows (adapters/storage/sql/bookings.ts): per provider, its held seats as one JSON
 * array of [start, end, buffer, service, entry id], to be read in the same statement as the bookings. Every row
 * it keeps has a held provider (one of `providerIds`), hence its type.
 */
export function heldSeatsJsonQuery(...[on, t, jsonRows, providerIds, from, to, excluding, buffer]: BusyReadArgs) {
  const w = t.waitlistEntries;
  return on
    .select({ providerId: sql<string>`${w.heldProviderId}`, bookings: jsonRows([w.startTime, w.endTime, w.bufferTime, w.serviceId, w.id]) })
    .from(w)
    .where(and(inArray(w.heldProviderId, providerIds), eq(w.status, 'OFFERED'), busyWindow(w, from, to, buffer), excluding ? ne(w.id, excluding) : undefined))
    .groupBy(w.heldProviderId);
}

/**
 * Inside reserveBooking, with the provider locked: the entry's offer becomes BOOKED by `bookingId` if it is still
 * OFFERED on `providerId` with its hold running at `at`. Whether it did.
 */
export async function claimOfferIn(tx: Tx, t: Tables, entryId: string, bookingId: string, providerId: string, at: number): Promise<boolean> {
  const w = t.waitlistEntries;
  const rows = await tx
    .update(w)
    .set({ status: 'BOOKED', bookingId, mailDueAt: null, updatedAt: at })
    .where(and(eq(w.id, entryId), eq(w.status, 'OFFERED'), eq(w.heldProviderId, providerId), gt(w.offerExpiresAt, at)))
    .returning({ id: w.id });
  return rows.length === 1;
}

export function waitlistQueries(dialect: Dialect): WaitlistStore {
  const { db, tables: t } = dialect;
  const w = t.waitlistEntries;

  return {
    addWaitlistEntry(entry, events) {
      return dialect.write(async (tx) => {
        const [row] = await tx.insert(w).values(entry).returning();
        await writeOutbox(tx, t, events);
        return toEntry(row!);
      });
    },

    async getWaitlistEntry(workspaceId, id) {
      const [row] = await db
        .select()
        .from(w)
        .where(and(eq(w.workspaceId, workspaceId), eq(w.id, id)));
      return row ? toEntry(row) : null;
    },

    async findWaitlistEntryByToken(tokenHash) {
      const [row] = await db.select().from(w).where(eq(w.offerTokenHash, tokenHash));
      return row ? toEntry(row) : null;
    },

    async listWaitlistEntries(workspaceId, filter) {
      const rows = await db
        .select()
        .from(w)
        .where(
          and(
            eq(w.workspaceId, workspaceId),
            filter.serviceId ? eq(w.serviceId, filter.serviceId) : undefined,
            filter.from !== undefined ? sql`${w.startTime} >= ${filter.from}` : undefined,
            filter.to !== undefined ? lt(w.startTime, filter.to) : undefined,
          ),
        )
        .orderBy(asc(w.startTime), asc(w.createdAt), asc(w.id))
        .limit(filter.limit);
      return rows.map(toEntry);
    },

    async deleteWaitlistEntry(workspaceId, id) {
      const rows = await db
        .delete(w)
        .where(and(eq(w.workspaceId, workspaceId), eq(w.id, id)))
        .returning({ id: w.id });
      return rows.length > 0;
    },

    offerSeats(request) {
      return dialect.write(async (tx) => {
        await dialect.lockProviders(tx, [request.providerId]);
        const b = t.bookings;
        // The busy intervals as reserveBooking reads them (bookings and held seats), under the same lock.
        const from = request.startTime - request.margin;
        const to = request.startTime + request.margin;
        const booked = await tx
          .select({ bookingId: b.id, providerId: b.providerId, serviceId: b.serviceId, startTime: b.startTime, endTime: b.endTime, bufferTime: b.bufferTime })
          .from(b)
          .where(and(eq(b.providerId, request.providerId), inArray(b.status, [...HOLDING]), busyWindow(b, from, to)));
        const held = await heldSeatsQuery(tx, t, [request.providerId], from, to);
        const free = request.seats([...booked, ...held].sort((x, y) => x.startTime - y.startTime));
        if (free <= 0) return [];
        const waiting = await tx
          .select()
          .from(w)
          .where(
            and(
              eq(w.workspaceId, request.workspaceId),
              eq(w.serviceId, request.serviceId),
              eq(w.startTime, request.startTime),
              eq(w.status, 'WAITING'),
              or(isNull(w.providerId), eq(w.providerId, request.providerId)),
            ),
          )
          .orderBy(asc(w.createdAt), asc(w.id))
          .limit(free);
        const offered: WaitlistEntryRecord[] = [];
        for (const row of waiting) {
          const fields = await request.offer(toEntry(row));
          const [updated] = await tx
            .update(w)
            .set({ ...fields, status: 'OFFERED', heldProviderId: request.providerId, updatedAt: request.at })
            .where(and(eq(w.id, row.id), eq(w.status, 'WAITING')))
            .returning();
          if (!updated) continue;
          const entry = toEntry(updated);
          await writeOutbox(tx, t, request.emit(entry));
          offered.push(entry);
        }
        return offered;
      });
    },

    expireOffer(id, now, emit) {
      return dialect.write(async (tx) => {
        const [current] = await tx.select().from(w).where(eq(w.id, id));
        if (!current?.heldProviderId) return null;
        await dialect.lockProviders(tx, [current.heldProviderId]);
        const [row] = await tx
          .update(w)
          .set({ status: 'EXPIRED', mailDueAt: null, updatedAt: now })
          .where(and(eq(w.id, id), eq(w.status, 'OFFERED'), lte(w.offerExpiresAt, now)))
          .returning();
        if (!row) return null;
        const entry = toEntry(row);
        await writeOutbox(tx, t, emit(entry));
        return entry;
      });
    },

    async listLapsedOffers(now, limit) {
      const rows = await db
        .select()
        .from(w)
        .where(and(eq(w.status, 'OFFERED'), lte(w.offerExpiresAt, now)))
        .orderBy(asc(w.offerExpiresAt))
        .limit(limit);
      return rows.map(toEntry);
    },

    async listWaitedTimes(now, limit): Promise<WaitedTime[]> {
      const rows = await db
        .selectDistinct({ workspaceId: w.workspaceId, serviceId: w.serviceId, providerId: w.providerId, startTime: w.startTime })
        .from(w)
        .where(and(eq(w.status, 'WAITING'), gt(w.startTime, now)))
        .orderBy(asc(w.startTime))
        .limit(limit);
      return rows;
    },

    async listDueWaitlistMails(now, limit) {
      const rows = await db
        .select()
        .from(w)
        .where(and(eq(w.status, 'OFFERED'), isNotNull(w.mailDueAt), lte(w.mailDueAt, now)))
        .orderBy(asc(w.mailDueAt))
        .limit(limit);
      return rows.map(toEntry);
    },

    async moveWaitlistMail(id, from, to) {
      const rows = await db
        .update(w)
        .set({ mailDueAt: to })
        .where(and(eq(w.id, id), from === null ? and(isNull(w.mailDueAt), eq(w.status, 'OFFERED')) : eq(w.mailDueAt, from)))
        .returning({ id: w.id });
      return rows.length === 1;
    },
  };
}
