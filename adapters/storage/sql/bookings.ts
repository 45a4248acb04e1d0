import { and, asc, eq, getTableColumns, gt, gte, inArray, lt, lte, max, ne, or, type Placeholder, sql, type SQL } from 'drizzle-orm';
import {
  MAX_BOOKING_MS,
  type BookingFilter,
  type BookingRecord,
  type BookingStore,
  type BookingTransition,
  type BusyInterval,
  type ListedBooking,
  type SeriesReserveResult,
} from '../../../src/ports/storage/index.ts';
import { busyWindow, type BusyReadArgs, HOLDING, type Db, type Dialect, type Row, type Tables, type Tx } from './dialect.ts';
import { connectedProviders, followInCalendar, followNewInCalendar } from './calendar-writes.ts';
import { calendarBusyIn } from './calendars.ts';
import { writeMails } from './mail.ts';
import { activeWebhooks, writeOutbox } from './outbox.ts';
import { claimOfferIn, heldSeatsJsonQuery, heldSeatsQuery } from './waitlist.ts';

const toBooking = (row: Row<'bookings'>): BookingRecord => row as BookingRecord;

/**
 * Inside a write transaction: moves the booking's status compare-and-set and writes the transition's events.
 * Returns null (and writes nothing) when the booking is missing or no longer in `transition.from`.
 */
export async function transitionIn(tx: Tx, tables: Tables, workspaceId: string, id: string, transition: BookingTransition): Promise<BookingRecord | null> {
  const b = tables.bookings;
  const [row] = await tx
    .update(b)
    .set({
      status: transition.to,
      updatedAt: transition.at,
      revision: sql`${b.revision} + 1`,
      ...(transition.cancelReason !== undefined ? { cancelReason: transition.cancelReason } : {}),
    })
    .where(and(eq(b.workspaceId, workspaceId), eq(b.id, id), inArray(b.status, transition.from)))
    .returning();
  if (!row) return null;
  const booking = toBooking(row);
  await writeOutbox(tx, tables, transition.emit(booking));
  await writeMails(tx, tables, transition.mails?.(booking) ?? []);
  if (transition.calendarWrite) await followInCalendar(tx, tables, booking);
  return booking;
}

/** The columns of a listed booking: all but the manage link's secrets (ListedBooking). */
function listedColumns(t: Tables) {
  const { manageTokenHash: _hash, manageTokenSealed: _sealed, ...listed } = getTableColumns(t.bookings);
  return listed;
}

type ListedColumn = keyof ReturnType<typeof listedColumns>;

/**
 * The query of BookingStore.listBookings (exported so tests can check its plan): the page's rows, ordered and
 * limited in a subquery, handed over as one JSON array of arrays (Dialect.jsonRows), columns in `keys` order.
 * Fifty rows of twenty-four columns handed over value by value cost a page more than finding them: libSQL made
 * each value a JavaScript one through N-API, postgres.js decoded each from text, drizzle mapped each again
 * (scripts/bench/README.md, "Scale"). Values may be drizzle placeholders (listBookingsStatement).
 */
export function listBookingsQuery(db: Db, t: Tables, jsonRows: Dialect['jsonRows'], workspaceId: string | Placeholder, filter: ListFilter) {
  const b = t.bookings;
  const conditions: (SQL | undefined)[] = [eq(b.workspaceId, workspaceId)];
  if (filter.status) conditions.push(eq(b.status, filter.status));
  if (filter.from !== undefined) conditions.push(gte(b.startTime, filter.from));
  if (filter.to !== undefined) conditions.push(lt(b.startTime, filter.to));
  if (filter.serviceId) conditions.push(eq(b.serviceId, filter.serviceId));
  if (filter.providerId) conditions.push(eq(b.providerId, filter.providerId));
  if (filter.after) {
    // A row-value comparison, which both databases take as a range of the (workspace, start, id) index.
    conditions.push(sql`(${b.startTime}, ${b.id}) > (${filter.after.startTime}, ${filter.after.id})`);
  }
  const listed = listedColumns(t);
  const keys = Object.keys(listed) as ListedColumn[];
  const page = db
    .select(listed)
    .from(b)
    .where(and(...conditions))
    .orderBy(asc(b.startTime), asc(b.id))
    .limit(filter.limit)
    .as('page');
  return { keys, query: db.select({ rows: jsonRows(keys.map((key) => page[key])) }).from(page) };
}

/** A BookingFilter whose values may be placeholders of a prepared statement. */
type ListFilter = {
  [K in keyof BookingFilter]: K extends 'after' ? { startTime: number | Placeholder; id: string | Placeholder } | undefined : BookingFilter[K] | Placeholder;
};

/** The optional filters a page uses, as bits: pages of one shape share a prepared statement (64 at most). */
const FILTER_BITS = ['status', 'from', 'to', 'serviceId', 'providerId', 'after'] as const satisfies (keyof BookingFilter)[];

const filterShape = (filter: BookingFilter) =>
  FILTER_BITS.reduce((shape, name, bit) => (filter[name] === undefined || filter[name] === '' ? shape : shape | (1 << bit)), 0);

/**
 * listBookingsQuery of one filter shape, prepared once with placeholders: building the query with drizzle took
 * as long as running it (two lists of twenty-four columns, each condition rendered anew).
 */
function listBookingsStatement(db: Db, t: Tables, jsonRows: Dialect['jsonRows'], shape: number) {
  const has = (name: (typeof FILTER_BITS)[number]) => (shape & (1 << FILTER_BITS.indexOf(name))) !== 0;
  const { keys, query } = listBookingsQuery(db, t, jsonRows, sql.placeholder('workspaceId'), {
    status: has('status') ? sql.placeholder('status') : undefined,
    from: has('from') ? sql.placeholder('from') : undefined,
    to: has('to') ? sql.placeholder('to') : undefined,
    serviceId: has('serviceId') ? sql.placeholder('serviceId') : undefined,
    providerId: has('providerId') ? sql.placeholder('providerId') : undefined,
    after: has('after') ? { startTime: sql.placeholder('afterStart'), id: sql.placeholder('afterId') } : undefined,
    limit: sql.placeholder('limit'),
  });
  return { keys, statement: query.prepare(`svc_list_bookings_${shape}`) };
}

/**
 * The rows of a Dialect.jsonRows aggregate: libSQL hands the JSON over as text, postgres.js has parsed it already,
 * and Postgres's json_agg of no rows is null.
 */
const aggregatedRows = <Row>(json: unknown): Row[] => (typeof json === 'string' ? JSON.parse(json) : (json ?? [])) as Row[];

/** listBookingsQuery's JSON rows as bookings, ordered by start time, then id. */
function readListed(keys: ListedColumn[], json: unknown): ListedBooking[] {
  const bookings = aggregatedRows<unknown[]>(json).map((row) => {
    const booking: Record<string, unknown> = {};
    for (let index = 0; index < keys.length; index++) booking[keys[index]!] = row[index];
    // SQLite keeps JSON columns as text, which json_array() carries as a string
    if (typeof booking.customFields === 'string') booking.customFields = JSON.parse(booking.customFields);
    return booking as unknown as ListedBooking;
  });
  // An aggregate promises no order of its input (the subquery's ORDER BY picks the page, this orders it)
  return bookings.sort((x, y) => x.startTime - y.startTime || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

/**
 * The bookings part of BookingStore.listBusy (exported so tests can check its plan): one row per provider, its busy
 * bookings as one JSON array of [start, end, buffer, service, id] (Dialect.jsonRows). A window of a full calendar
 * holds thousands of bookings, and handing SQLite's or Postgres's rows to JavaScript one by one cost more than
 * finding them (scripts/bench/README.md, "Scale"); one string per provider, parsed at once, costs a third.
 */
export function busyQuery(...[on, t, jsonRows, providerIds, from, to, excluding, buffer]: BusyReadArgs) {
  const b = t.bookings;
  return on
    .select({ providerId: b.providerId, bookings: jsonRows([b.startTime, b.endTime, b.bufferTime, b.serviceId, b.id]) })
    .from(b)
    .where(
      and(inArray(b.providerId, providerIds), inArray(b.status, [...HOLDING]), busyWindow(b, from, to, buffer), excluding ? ne(b.id, excluding) : undefined),
    )
    .groupBy(b.providerId);
  // No ORDER BY: the port promises no order (the engine sorts what it keeps).
}

/**
 * What listBusy and the reservation run (exported so tests can check its plan): busyQuery's bookings and the seats
 * waiting-list offers hold (heldSeatsJsonQuery, in the same rows), as one statement: a second one cost Postgres a
 * query and a round trip for a handful of rows.
 */
export function busyAndHeldQuery(...args: BusyReadArgs) {
  return busyQuery(...args).unionAll(heldSeatsJsonQuery(...args));
}

type BusyRow = [startTime: number, endTime: number, bufferTime: number, serviceId: string, bookingId: string];

/** busyQuery's groups as busy intervals. */
async function readBusy(query: PromiseLike<{ providerId: string; bookings: unknown }[]>): Promise<BusyInterval[]> {
  const intervals: BusyInterval[] = [];
  for (const group of await query) {
    for (const [startTime, endTime, bufferTime, serviceId, bookingId] of aggregatedRows<BusyRow>(group.bookings)) {
      intervals.push({ bookingId, providerId: group.providerId, serviceId, startTime, endTime, bufferTime });
    }
  }
  return intervals;
}

export function bookingQueries(dialect: Dialect): BookingStore {
  const { db, tables: t } = dialect;
  const listStatements = new Map<number, ReturnType<typeof listBookingsStatement>>();

  /** The bookings of busyQuery and the seats waiting-list offers hold (they count as taken, like bookings). */
  const busyAndHeld = (on: Tx, providerIds: string[], from: number, to: number, excluding?: string, buffer?: number): Promise<BusyInterval[]> =>
    readBusy(busyAndHeldQuery(on, t, dialect.jsonRows, providerIds, from, to, excluding, buffer));

  return {
    async getBooking(workspaceId, id) {
      const b = t.bookings;
      const [row] = await db
        .select()
        .from(b)
        .where(and(eq(b.workspaceId, workspaceId), eq(b.id, id)));
      return row ? toBooking(row) : null;
    },

    async listBookings(workspaceId, filter) {
      const shape = filterShape(filter);
      let prepared = listStatements.get(shape);
      if (!prepared) listStatements.set(shape, (prepared = listBookingsStatement(db, t, dialect.jsonRows, shape)));
      const [page] = await prepared.statement.execute({
        workspaceId,
        ...filter,
        afterStart: filter.after?.startTime,
        afterId: filter.after?.id,
      });
      return readListed(prepared.keys, page?.rows);
    },

    async listBusy(providerIds, from, to, buffer): Promise<BusyInterval[]> {
      if (providerIds.length === 0) return [];
      return busyAndHeld(db, providerIds, from, to, undefined, buffer);
    },

    async reserveBooking(request) {
      const { booking, margin } = request;
      const candidates = [...new Set(request.candidates)];
      if (candidates.length === 0) return { ok: false, reason: 'no provider offers this service' };
      return dialect.write(async (tx) => {
        const from = booking.startTime - margin;
        const to = booking.endTime + margin;
        // The lock and the reads under it go out together, in this order: on Postgres they share one round trip
        // (postgres.js pipelines the queries of a connection, and Postgres runs them one after the other, so each
        // read starts, and takes its snapshot, once every lock is held). The calendars' busy times are read
        // under the same lock as the bookings: a DELETE or a PATCH of `blocks` that committed before is seen,
        // one that commits after does not unmake this booking.
        const [, connected, booked, hooks] = await Promise.all([
          dialect.lockProviders(tx, candidates),
          connectedProviders(tx, t, candidates),
          busyAndHeld(tx, candidates, from, to, request.replacing ?? request.claiming?.entryId),
          activeWebhooks(tx, t, booking.workspaceId),
        ]);
        const busy = connected.any.size > 0 ? [...booked, ...(await calendarBusyIn(tx, t, [...connected.any], from, to))] : booked;
        let reason = 'no provider is free at this time';
        for (const providerId of candidates) {
          const misfit = request.fits(
            providerId,
            busy.filter((interval) => interval.providerId === providerId),
          );
          if (misfit) {
            reason = misfit;
            continue;
          }
          const placed = { ...booking, providerId };
          let saved: BookingRecord;
          if (request.replacing) {
            const b = t.bookings;
            const [row] = await tx
              .update(b)
              .set({
                providerId,
                startTime: placed.startTime,
                endTime: placed.endTime,
                updatedAt: placed.updatedAt,
                revision: sql`${b.revision} + 1`,
              })
              .where(and(eq(b.id, request.replacing), eq(b.workspaceId, booking.workspaceId), inArray(b.status, [...HOLDING])))
              .returning();
            if (!row) return { ok: false, reason: 'the booking can no longer be moved' };
            saved = toBooking(row);
          } else {
            if (request.claiming && !(await claimOfferIn(tx, t, request.claiming.entryId, placed.id, providerId, request.claiming.at))) {
              return { ok: false, reason: 'the offer has lapsed or was taken back' };
            }
            // every column but the optional series is given: the row is what was written, without reading it back
            await tx.insert(t.bookings).values(placed);
            saved = { ...placed, seriesId: placed.seriesId ?? null };
          }
          await writeOutbox(tx, t, request.emit(saved), { active: hooks });
          await writeMails(tx, t, request.mails?.(saved) ?? []);
          if (request.calendarWrite) {
            // A moved booking may have an event already (its row is raised); a new one has none yet.
            if (request.replacing) await followInCalendar(tx, t, saved);
            else await followNewInCalendar(tx, t, [saved], connected);
          }
          return { ok: true, booking: saved };
        }
        return { ok: false, reason };
      });
    },

    async reserveSeries(request): Promise<SeriesReserveResult> {
      const { bookings, margin } = request;
      const candidates = [...new Set(request.candidates)];
      if (bookings.length === 0 || candidates.length === 0)
        return { ok: false, conflicts: bookings.map((_, index) => index), reason: 'no provider offers this service' };
      return dialect.write(async (tx) => {
        await dialect.lockProviders(tx, candidates);
        // One read for every occurrence's window (each a range of the (provider, start) index), split per
        // occurrence below: the provider's other bookings between the occurrences are never read.
        const b = t.bookings;
        const booked = await tx
          .select({ bookingId: b.id, providerId: b.providerId, serviceId: b.serviceId, startTime: b.startTime, endTime: b.endTime, bufferTime: b.bufferTime })
          .from(b)
          .where(
            and(
              inArray(b.providerId, candidates),
              inArray(b.status, [...HOLDING]),
              or(
                ...bookings.map((booking) =>
                  and(
                    lt(b.startTime, booking.endTime + margin),
                    gt(b.startTime, booking.startTime - margin - MAX_BOOKING_MS),
                    gt(b.endTime, booking.startTime - margin),
                  ),
                ),
              ),
            ),
          );
        // Held waiting-list seats and calendar busy times over the series' whole span: the few that fall between
        // the occurrences are filtered out below with the bookings.
        const spanFrom = bookings[0]!.startTime - margin;
        const spanTo = bookings.at(-1)!.endTime + margin;
        const connected = await connectedProviders(tx, t, candidates);
        const busy: BusyInterval[] = [
          ...booked,
          ...(await heldSeatsQuery(tx, t, candidates, spanFrom, spanTo)),
          ...(connected.any.size > 0 ? await calendarBusyIn(tx, t, [...connected.any], spanFrom, spanTo) : []),
        ];
        let best: { conflicts: number[]; reason: string } | null = null;
        for (const providerId of candidates) {
          const own = busy.filter((interval) => interval.providerId === providerId);
          const conflicts: number[] = [];
          let reason = '';
          bookings.forEach((booking, index) => {
            const from = booking.startTime - margin;
            const to = booking.endTime + margin;
            const near = own.filter((interval) => interval.startTime < to && interval.endTime > from);
            const misfit = request.fits(providerId, near, index);
            if (misfit !== null) {
              if (conflicts.length === 0) reason = misfit;
              conflicts.push(index);
            }
          });
          if (conflicts.length > 0) {
            if (!best || conflicts.length < best.conflicts.length) best = { conflicts, reason };
            continue;
          }
          const rows = await tx
            .insert(t.bookings)
            .values(bookings.map((booking) => ({ ...booking, providerId })))
            .returning();
          const saved = rows.map(toBooking).sort((a, b) => a.startTime - b.startTime);
          await writeOutbox(tx, t, request.emit(saved));
          await writeMails(tx, t, request.mails?.(saved) ?? []);
          await followNewInCalendar(tx, t, saved, connected);
          return { ok: true, bookings: saved };
        }
        return { ok: false, ...best! };
      });
    },

    async listSeries(workspaceId, seriesId) {
      const b = t.bookings;
      const rows = await db
        .select()
        .from(b)
        .where(and(eq(b.seriesId, seriesId), eq(b.workspaceId, workspaceId)))
        .orderBy(asc(b.startTime), asc(b.id));
      return rows.map(toBooking);
    },

    async lastBookedAt(providerIds) {
      if (providerIds.length === 0) return {};
      const b = t.bookings;
      const rows = await db
        .select({ providerId: b.providerId, at: max(b.createdAt) })
        .from(b)
        .where(inArray(b.providerId, providerIds))
        .groupBy(b.providerId);
      return Object.fromEntries(rows.flatMap((row) => (row.at === null ? [] : [[row.providerId, Number(row.at)]])));
    },

    transitionBooking(workspaceId, id, transition) {
      return dialect.write((tx) => transitionIn(tx, t, workspaceId, id, transition));
    },

    async listExpiredHolds(now, limit) {
      const b = t.bookings;
      const rows = await db
        .select()
        .from(b)
        .where(and(eq(b.status, 'PENDING'), lte(b.holdExpiresAt, now)))
        .orderBy(asc(b.holdExpiresAt))
        .limit(limit);
      return rows.map(toBooking);
    },

    async listEndedConfirmed(now, limit) {
      const b = t.bookings;
      const rows = await db
        .select()
        .from(b)
        .where(and(eq(b.status, 'CONFIRMED'), lte(b.endTime, now)))
        .orderBy(asc(b.endTime))
        .limit(limit);
      return rows.map(toBooking);
    },
  };
}
