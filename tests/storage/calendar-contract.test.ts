import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { newId } from '../../src/core/ids.ts';
import type { BusyInterval, CalendarConnectionRecord, ProviderRecord, ReserveRequest, Storage, WorkspaceRecord } from '../../src/ports/storage/index.ts';
import { createTestDatabase, describeEachAdapter, type TestDatabase } from '../support/storage.ts';
import { aBooking, aProvider, aService, aWorkspace, dueMessages, anEvent, aWebhook } from './contract/fixtures.ts';

/*
 * The calendar part of the storage contract (src/ports/storage/calendar-store.ts), run unchanged on libSQL and
 * Postgres: connections, the choice of blocking and write calendars, and the busy times a sync stores.
 */

const T0 = Date.parse('2030-03-04T09:00:00.000Z');
const HOUR = 3_600_000;
const DATABASE_TIMEOUT_MS = 30_000;

function aConnection(ws: WorkspaceRecord, prv: ProviderRecord, overrides: Partial<CalendarConnectionRecord> = {}): CalendarConnectionRecord {
  return {
    id: newId('cal'),
    workspaceId: ws.id,
    providerId: prv.id,
    kind: 'caldav',
    name: 'dav.example.com',
    url: 'https://dav.example.com/alex/',
    account: 'alex',
    username: 'alex',
    sealedSecret: 'v1.sealed',
    status: 'ok',
    lastSyncedAt: T0,
    lastError: null,
    failures: 0,
    calendars: [
      { id: 'https://dav.example.com/alex/work/', name: 'Work', blocks: true, writes: false, readOnly: false },
      { id: 'https://dav.example.com/alex/home/', name: 'Home', blocks: true, writes: false, readOnly: false },
    ],
    syncState: {},
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

const WORK = 'https://dav.example.com/alex/work/';
const HOME = 'https://dav.example.com/alex/home/';
const busy = (startHour: number, hours: number, uid: string) => ({ start: T0 + startHour * HOUR, end: T0 + (startHour + hours) * HOUR, uid });

describeEachAdapter('calendar storage contract', (adapter) => {
  let db: TestDatabase;
  let storage: Storage;
  let ws: WorkspaceRecord;
  let prv: ProviderRecord;

  beforeEach(async () => {
    db = await createTestDatabase(adapter);
    storage = db.storage;
    ws = aWorkspace();
    await storage.createWorkspace(ws);
    prv = aProvider(ws);
    await storage.createProvider(prv);
  }, DATABASE_TIMEOUT_MS);

  afterEach(async () => {
    await db.drop();
  }, DATABASE_TIMEOUT_MS);

  test('a created connection reads back whole, by its provider only, and lists oldest first', async () => {
    const first = aConnection(ws, prv);
    const second = aConnection(ws, prv, { kind: 'ics', createdAt: T0 + 1, url: 'https://example.com/feed.ics', username: null, sealedSecret: null });
    await storage.createCalendarConnection(second);
    await storage.createCalendarConnection(first);
    expect(await storage.getCalendarConnection(ws.id, prv.id, first.id)).toEqual(first);
    const other = aProvider(ws);
    await storage.createProvider(other);
    expect(await storage.getCalendarConnection(ws.id, other.id, first.id)).toBeNull();
    expect((await storage.listCalendarConnections(ws.id, prv.id)).map((c) => c.id)).toEqual([first.id, second.id]);
    expect((await storage.listAllCalendarConnections()).map((c) => c.id)).toEqual([first.id, second.id]);
  });

  test('a sync replaces the busy times of the calendars it names and busyTimesFor returns the overlapping ones in start order', async () => {
    const connection = aConnection(ws, prv);
    await storage.createCalendarConnection(connection);
    await storage.storeCalendarSync(
      connection.id,
      { lastSyncedAt: T0 },
      [
        { calendarId: WORK, intervals: [busy(5, 1, 'b'), busy(1, 2, 'a')] },
        { calendarId: HOME, intervals: [busy(10, 1, 'c')] },
      ],
      T0,
    );
    await storage.storeCalendarSync(connection.id, { syncState: { [WORK]: 'ctag-2' } }, [{ calendarId: WORK, intervals: [busy(2, 1, 'd')] }], T0 + 1);

    const all = await storage.busyTimesFor([prv.id], T0, T0 + 24 * HOUR);
    expect(all).toEqual([
      { providerId: prv.id, connectionId: connection.id, calendarId: WORK, ...busy(2, 1, 'd') },
      { providerId: prv.id, connectionId: connection.id, calendarId: HOME, ...busy(10, 1, 'c') },
    ]);
    // [from, to) overlap: an interval ending at `from` or starting at `to` is not included
    expect(await storage.busyTimesFor([prv.id], T0 + 3 * HOUR, T0 + 10 * HOUR)).toEqual([]);
    expect(await storage.busyTimesFor([], T0, T0 + 24 * HOUR)).toEqual([]);
    expect((await storage.getCalendarConnection(ws.id, prv.id, connection.id))!.syncState).toEqual({ [WORK]: 'ctag-2' });
  });

  test('a sync whose calendars no longer list one drops that calendar busy times', async () => {
    const connection = aConnection(ws, prv);
    await storage.createCalendarConnection(connection);
    await storage.storeCalendarSync(
      connection.id,
      {},
      [
        { calendarId: WORK, intervals: [busy(1, 1, 'a')] },
        { calendarId: HOME, intervals: [busy(2, 1, 'b')] },
      ],
      T0,
    );
    await storage.storeCalendarSync(connection.id, { calendars: connection.calendars.filter((calendar) => calendar.id === WORK) }, [], T0);
    expect((await storage.busyTimesFor([prv.id], T0, T0 + 24 * HOUR)).map((entry) => entry.uid)).toEqual(['a']);
  });

  test('blocks: false hides a calendar busy times at once, blocks: true brings them back without a sync', async () => {
    const connection = aConnection(ws, prv);
    await storage.createCalendarConnection(connection);
    await storage.storeCalendarSync(
      connection.id,
      {},
      [
        { calendarId: WORK, intervals: [busy(1, 1, 'a')] },
        { calendarId: HOME, intervals: [busy(2, 1, 'b')] },
      ],
      T0,
    );
    const chosen = await storage.chooseCalendars(connection.id, [{ id: HOME, blocks: false }], T0 + 1);
    expect(chosen!.calendars.find((calendar) => calendar.id === HOME)!.blocks).toBe(false);
    expect((await storage.busyTimesFor([prv.id], T0, T0 + 24 * HOUR)).map((entry) => entry.uid)).toEqual(['a']);
    // a later sync stores that calendar's busy times as not blocking too
    await storage.storeCalendarSync(connection.id, {}, [{ calendarId: HOME, intervals: [busy(3, 1, 'c')] }], T0 + 2);
    expect((await storage.busyTimesFor([prv.id], T0, T0 + 24 * HOUR)).map((entry) => entry.uid)).toEqual(['a']);
    await storage.chooseCalendars(connection.id, [{ id: HOME, blocks: true }], T0 + 3);
    expect((await storage.busyTimesFor([prv.id], T0, T0 + 24 * HOUR)).map((entry) => entry.uid)).toEqual(['a', 'c']);
  });

  test('writes: true makes that calendar the provider one write calendar, clearing it in their other connections only', async () => {
    const first = aConnection(ws, prv);
    const second = aConnection(ws, prv, { createdAt: T0 + 1 });
    const otherProvider = aProvider(ws);
    await storage.createProvider(otherProvider);
    const theirs = aConnection(ws, otherProvider, { calendars: first.calendars.map((calendar) => ({ ...calendar, writes: calendar.id === WORK })) });
    for (const connection of [first, second, theirs]) await storage.createCalendarConnection(connection);

    await storage.chooseCalendars(first.id, [{ id: WORK, writes: true }], T0 + 1);
    await storage.chooseCalendars(second.id, [{ id: HOME, writes: true }], T0 + 2);
    const writers = async (providerId: string) =>
      (await storage.listCalendarConnections(ws.id, providerId)).flatMap((connection) =>
        connection.calendars.filter((calendar) => calendar.writes).map((calendar) => `${connection.id} ${calendar.id}`),
      );
    expect(await writers(prv.id)).toEqual([`${second.id} ${HOME}`]);
    expect(await writers(otherProvider.id)).toEqual([`${theirs.id} ${WORK}`]);
    // racing PATCHes still leave one write calendar
    await Promise.all([
      storage.chooseCalendars(first.id, [{ id: HOME, writes: true }], T0 + 3),
      storage.chooseCalendars(second.id, [{ id: WORK, writes: true }], T0 + 3),
    ]);
    expect((await writers(prv.id)).length).toBe(1);
    expect(await storage.chooseCalendars(newId('cal'), [{ id: WORK, writes: true }], T0)).toBeNull();
  });

  test('delete removes the connection and its busy times; another provider or a second delete finds nothing', async () => {
    const connection = aConnection(ws, prv);
    await storage.createCalendarConnection(connection);
    await storage.storeCalendarSync(connection.id, {}, [{ calendarId: WORK, intervals: [busy(1, 1, 'a')] }], T0);
    const other = aProvider(ws);
    await storage.createProvider(other);
    expect(await storage.deleteCalendarConnection(ws.id, other.id, connection.id)).toBe(false);
    expect(await storage.deleteCalendarConnection(ws.id, prv.id, connection.id)).toBe(true);
    expect(await storage.deleteCalendarConnection(ws.id, prv.id, connection.id)).toBe(false);
    expect(await storage.busyTimesFor([prv.id], T0, T0 + 24 * HOUR)).toEqual([]);
    expect(await storage.storeCalendarSync(connection.id, {}, [{ calendarId: WORK, intervals: [busy(1, 1, 'a')] }], T0)).toBeNull();
    expect(await storage.updateCalendarConnection(connection.id, { status: 'error' }, T0)).toBeNull();
  });

  test('updateCalendarConnection sets the fields given and keeps the others', async () => {
    const connection = aConnection(ws, prv);
    await storage.createCalendarConnection(connection);
    const updated = await storage.updateCalendarConnection(
      connection.id,
      { status: 'error', lastError: 'the server refused the password', failures: 3 },
      T0 + 5,
    );
    expect(updated).toEqual({ ...connection, status: 'error', lastError: 'the server refused the password', failures: 3, updatedAt: T0 + 5 });
  });

  test('a sync of thousands of busy times stores them all', async () => {
    const connection = aConnection(ws, prv);
    await storage.createCalendarConnection(connection);
    const many = Array.from({ length: 2500 }, (_, index) => busy(index, 1, `e${index}`));
    await storage.storeCalendarSync(connection.id, {}, [{ calendarId: WORK, intervals: many }], T0);
    expect((await storage.busyTimesFor([prv.id], T0, T0 + 3000 * HOUR)).length).toBe(2500);
  });

  describe('busy times block the reservation', () => {
    /** A booking of [start, start + 1 h) that `fits` refuses when any busy interval overlaps it widened by `buffer`. */
    async function reserveAt(startHour: number, buffer = 0) {
      const srv = aService(ws, { providerIds: [prv.id] });
      await storage.createService(srv);
      const seen: BusyInterval[] = [];
      const start = T0 + startHour * HOUR;
      const request: ReserveRequest = {
        booking: aBooking(srv, prv, { startTime: start, endTime: start + HOUR }),
        candidates: [prv.id],
        margin: 24 * HOUR,
        fits: (_providerId, busy) => {
          seen.push(...busy);
          return busy.some((interval) => interval.startTime < start + HOUR + buffer && interval.endTime > start - buffer) ? 'busy' : null;
        },
        emit: () => [],
      };
      return { result: await storage.reserveBooking(request), seen };
    }

    test('the reservation sees a blocking calendar busy time (no booking id, its connection and calendar) and is refused', async () => {
      const connection = aConnection(ws, prv);
      await storage.createCalendarConnection(connection);
      await storage.storeCalendarSync(connection.id, {}, [{ calendarId: WORK, intervals: [busy(2, 1, 'dentist')] }], T0);
      const { result, seen } = await reserveAt(2);
      expect(result).toEqual({ ok: false, reason: 'busy' });
      expect(seen).toEqual([
        {
          bookingId: null,
          providerId: prv.id,
          serviceId: null,
          startTime: T0 + 2 * HOUR,
          endTime: T0 + 3 * HOUR,
          bufferTime: 0,
          calendar: { connectionId: connection.id, calendarId: WORK },
        },
      ]);
    });

    test('a calendar whose blocks is false does not block the reservation', async () => {
      const connection = aConnection(ws, prv);
      await storage.createCalendarConnection(connection);
      await storage.storeCalendarSync(connection.id, {}, [{ calendarId: HOME, intervals: [busy(2, 1, 'gym')] }], T0);
      await storage.chooseCalendars(connection.id, [{ id: HOME, blocks: false }], T0);
      const { result, seen } = await reserveAt(2);
      expect(result.ok).toBe(true);
      expect(seen).toEqual([]);
    });

    test('deleting the connection frees the time at once', async () => {
      const connection = aConnection(ws, prv);
      await storage.createCalendarConnection(connection);
      await storage.storeCalendarSync(connection.id, {}, [{ calendarId: WORK, intervals: [busy(2, 1, 'dentist')] }], T0);
      expect((await reserveAt(2)).result.ok).toBe(false);
      await storage.deleteCalendarConnection(ws.id, prv.id, connection.id);
      expect((await reserveAt(2)).result.ok).toBe(true);
    });

    /** A weekly series of three one-hour occurrences from `startHour`, refused where a busy interval overlaps one. */
    async function reserveSeriesAt(startHour: number) {
      const srv = aService(ws, { providerIds: [prv.id] });
      await storage.createService(srv);
      const WEEK = 7 * 24 * HOUR;
      const bookings = [0, 1, 2].map((week) => {
        const start = T0 + startHour * HOUR + week * WEEK;
        return aBooking(srv, prv, { startTime: start, endTime: start + HOUR, seriesId: 'ser_contract' });
      });
      return storage.reserveSeries({
        bookings,
        candidates: [prv.id],
        margin: HOUR,
        fits: (_providerId, busy, index) => {
          const booking = bookings[index]!;
          return busy.some((interval) => interval.startTime < booking.endTime && interval.endTime > booking.startTime) ? 'busy' : null;
        },
        emit: () => [],
      });
    }

    test('a series is refused whole when a calendar busy time blocks one of its occurrences, naming that one', async () => {
      const connection = aConnection(ws, prv);
      await storage.createCalendarConnection(connection);
      const secondWeek = 7 * 24;
      await storage.storeCalendarSync(connection.id, {}, [{ calendarId: WORK, intervals: [busy(secondWeek + 2, 1, 'dentist')] }], T0);
      const result = await reserveSeriesAt(2);
      expect(result).toEqual({ ok: false, conflicts: [1], reason: 'busy' });
      expect(await storage.listSeries(ws.id, 'ser_contract')).toEqual([]);
    });

    test('a series on a provider with a write calendar queues one calendar write per occurrence', async () => {
      const connection = aConnection(ws, prv);
      await storage.createCalendarConnection(connection);
      await storage.chooseCalendars(connection.id, [{ id: WORK, writes: true }], T0);
      const result = await reserveSeriesAt(2);
      expect(result.ok).toBe(true);
      const claimed = await storage.claimDueCalendarWrites('contract', T0 + 365 * 24 * HOUR, T0 + 366 * 24 * HOUR, 10);
      expect(claimed.map((write) => write.bookingId).sort()).toEqual(result.ok ? result.bookings.map((booking) => booking.id).sort() : []);
    });

    test('listCalendarBusy: the busy times a slot with that buffer can touch, widened by the buffer only; listBusy has none', async () => {
      const connection = aConnection(ws, prv);
      await storage.createCalendarConnection(connection);
      await storage.storeCalendarSync(connection.id, {}, [{ calendarId: WORK, intervals: [busy(0, 1, 'early'), busy(5, 1, 'late')] }], T0);
      const from = T0 + 2 * HOUR;
      const to = T0 + 3 * HOUR;
      expect(await storage.listCalendarBusy([prv.id], from, to, 0)).toEqual([]);
      expect(await storage.listBusy([prv.id], from, to, HOUR)).toEqual([]);
      expect((await storage.listCalendarBusy([prv.id], from, to, HOUR + 1)).map((interval) => interval.startTime)).toEqual([T0]);
      expect((await storage.listCalendarBusy([prv.id], from, to, 2 * HOUR + 1)).map((interval) => interval.startTime)).toEqual([T0, T0 + 5 * HOUR]);
    });
  });

  describe('scheduled sync leases', () => {
    test('of two claimers on one database each connection goes to exactly one, and is not due again before nextDueAt', async () => {
      const connections = Array.from({ length: 6 }, (_, index) => aConnection(ws, prv, { createdAt: T0 + index }));
      for (const connection of connections) await storage.createCalendarConnection(connection);
      const other = db.reopen();
      const [a, b] = await Promise.all([
        storage.claimCalendarSyncs('a', T0, T0 + 60_000, T0 + 300_000, 100),
        other.claimCalendarSyncs('b', T0, T0 + 60_000, T0 + 300_000, 100),
      ]);
      expect([...a, ...b].map((connection) => connection.id).sort()).toEqual(connections.map((connection) => connection.id).sort());
      // released, but not due again until nextDueAt
      for (const connection of a) expect(await storage.releaseCalendarSync('a', connection.id)).toBe(true);
      for (const connection of a) expect(await storage.releaseCalendarSync('a', connection.id)).toBe(false);
      expect(await storage.claimCalendarSyncs('c', T0 + 1000, T0 + 61_000, T0 + 301_000, 100)).toEqual([]);
      // due again; a lease still running (b's, until T0 + 60 s) is honoured only while it runs
      expect((await storage.claimCalendarSyncs('c', T0 + 300_000, T0 + 360_000, T0 + 600_000, 100)).length).toBe(6);
    });

    test('a lapsed lease of a dead claimer is taken over once the connection is due', async () => {
      const connection = aConnection(ws, prv);
      await storage.createCalendarConnection(connection);
      expect((await storage.claimCalendarSyncs('dead', T0, T0 + 60_000, T0 + 30_000, 10)).length).toBe(1);
      expect(await storage.claimCalendarSyncs('next', T0 + 40_000, T0 + 100_000, T0 + 340_000, 10)).toEqual([]);
      expect((await storage.claimCalendarSyncs('next', T0 + 60_001, T0 + 120_000, T0 + 360_000, 10)).map((claimed) => claimed.id)).toEqual([connection.id]);
    });
  });

  describe('health moves', () => {
    test('a move to error writes its events once and marks the failure mail due once; a move back to ok writes restored', async () => {
      await storage.createWebhook(aWebhook(ws));
      const connection = aConnection(ws, prv, { status: 'ok' });
      await storage.createCalendarConnection(connection);
      const failed = (moved: CalendarConnectionRecord) => [anEvent(ws, `calendar.connection.failed:${moved.lastError}`)];
      const other = db.reopen();
      await Promise.all([
        storage.updateCalendarConnection(connection.id, { status: 'error', lastError: 'one' }, T0, failed),
        other.updateCalendarConnection(connection.id, { status: 'error', lastError: 'one' }, T0, failed),
      ]);
      await storage.updateCalendarConnection(connection.id, { status: 'error', lastError: 'two' }, T0, failed);
      expect((await dueMessages(storage)).map((message) => message.eventType)).toEqual(['calendar.connection.failed:one']);
      expect((await storage.listCalendarFailureNotices(10)).map((notice) => notice.id)).toEqual([connection.id]);
      const claims = await Promise.all([storage.claimCalendarFailureNotice(connection.id), other.claimCalendarFailureNotice(connection.id)]);
      expect(claims.sort()).toEqual([false, true]);
      expect(await storage.listCalendarFailureNotices(10)).toEqual([]);

      const restored = () => [anEvent(ws, 'calendar.connection.restored')];
      await storage.storeCalendarSync(connection.id, { status: 'ok', lastError: null }, [], T0 + 1, restored);
      await storage.storeCalendarSync(connection.id, { status: 'ok', lastError: null }, [], T0 + 2, restored);
      expect((await dueMessages(storage)).map((message) => message.eventType)).toEqual(['calendar.connection.restored']);
    });

    test('a pending connection that syncs well is ok without a restored event', async () => {
      await storage.createWebhook(aWebhook(ws));
      const connection = aConnection(ws, prv, { status: 'pending' });
      await storage.createCalendarConnection(connection);
      await storage.storeCalendarSync(connection.id, { status: 'ok' }, [], T0, () => [anEvent(ws, 'calendar.connection.restored')]);
      expect(await dueMessages(storage)).toEqual([]);
      expect((await storage.getCalendarConnection(ws.id, prv.id, connection.id))!.status).toBe('ok');
    });
  });
});
