import { describe, expect, test } from 'bun:test';
import { newId } from '../../../src/core/ids.ts';
import type { CalendarConnectionRecord, ProviderRecord, WorkspaceRecord } from '../../../src/ports/storage/index.ts';
import { MINUTE, SECOND, T0, aBooking, seed } from './fixtures.ts';
import { db, storage } from './database.ts';

/** CalendarWriteStore: the calendar-write outbox, one row per booking, written with the booking changes. */
export function calendarWritesContract() {
  describe('calendar-write outbox', () => {
    const aConnection = (ws: WorkspaceRecord, prv: ProviderRecord, writes: boolean): CalendarConnectionRecord => ({
      id: newId('cal', T0),
      workspaceId: ws.id,
      providerId: prv.id,
      kind: 'caldav',
      name: 'dav.example.com',
      url: 'https://dav.example.com/',
      account: 'alex',
      username: 'alex',
      sealedSecret: null,
      status: 'ok',
      lastSyncedAt: T0,
      lastError: null,
      failures: 0,
      calendars: [
        { id: 'https://dav.example.com/work/', name: 'Work', blocks: true, writes, readOnly: false },
        { id: 'https://dav.example.com/home/', name: 'Home', blocks: true, writes: false, readOnly: false },
      ],
      syncState: {},
      createdAt: T0,
      updatedAt: T0,
    });
    async function booked(writes: boolean) {
      const { ws, srv, prv } = await seed(storage);
      await storage.createCalendarConnection(aConnection(ws, prv, writes));
      const result = await storage.reserveBooking({
        booking: aBooking(srv, prv),
        candidates: [prv.id],
        margin: 0,
        fits: () => null,
        emit: () => [],
        calendarWrite: true,
      });
      if (!result.ok) throw new Error(result.reason);
      return { ws, booking: result.booking };
    }
    const cancel = (workspaceId: string, id: string, at: number) =>
      storage.transitionBooking(workspaceId, id, { from: ['CONFIRMED', 'PENDING'], to: 'CANCELLED', at, emit: () => [], calendarWrite: true });

    test('a booking change writes the row only when the provider has a write calendar; later changes raise it to their revision', async () => {
      const without = await booked(false);
      expect(await storage.getCalendarWrite(without.booking.id)).toBeNull();
      await cancel(without.ws.id, without.booking.id, T0 + MINUTE);
      expect(await storage.getCalendarWrite(without.booking.id)).toBeNull();

      const { ws, booking } = await booked(true);
      expect(await storage.getCalendarWrite(booking.id)).toEqual({
        id: expect.stringMatching(/^cwr_/),
        workspaceId: ws.id,
        bookingId: booking.id,
        revision: 0,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: booking.updatedAt,
        lastError: null,
        written: null,
        createdAt: booking.updatedAt,
        updatedAt: booking.updatedAt,
      });
      await cancel(ws.id, booking.id, T0 + MINUTE);
      expect(await storage.getCalendarWrite(booking.id)).toMatchObject({ revision: 1, status: 'pending', nextAttemptAt: T0 + MINUTE });
      expect(await storage.nextCalendarWriteDueAt()).toBe(T0 + MINUTE);
    });

    test('claims never overlap while a lease runs; only the owner records; a row raised meanwhile stays pending and due', async () => {
      const { ws, booking } = await booked(true);
      const other = db.reopen();
      const [first, second] = await Promise.all([
        storage.claimDueCalendarWrites('a', T0 + SECOND, T0 + 20 * SECOND, 10),
        other.claimDueCalendarWrites('b', T0 + SECOND, T0 + 20 * SECOND, 10),
      ]);
      expect(first.length + second.length).toBe(1);
      const owner = first.length === 1 ? 'a' : 'b';
      const intruder = owner === 'a' ? 'b' : 'a';
      const written = { connectionId: 'cal_x', calendarId: 'https://dav.example.com/work/' };
      expect(await storage.extendCalendarWriteLeases(intruder, [first[0]?.id ?? second[0]!.id], T0 + 30 * SECOND)).toEqual([]);
      expect(
        await storage.recordCalendarWrite(intruder, (first[0] ?? second[0])!.id, {
          revision: 0,
          status: 'done',
          nextAttemptAt: null,
          error: null,
          written,
          at: T0,
        }),
      ).toBe(false);

      // The booking moves while the attempt for revision 0 runs: the record keeps the row due for revision 1.
      await cancel(ws.id, booking.id, T0 + 2 * SECOND);
      const id = (first[0] ?? second[0])!.id;
      expect(
        await storage.recordCalendarWrite(owner, id, { revision: 0, status: 'done', nextAttemptAt: null, error: null, written, at: T0 + 3 * SECOND }),
      ).toBe(true);
      expect(await storage.getCalendarWrite(booking.id)).toMatchObject({
        revision: 1,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: T0 + 3 * SECOND,
        written,
      });

      const [again] = await storage.claimDueCalendarWrites('a', T0 + 4 * SECOND, T0 + 24 * SECOND, 10);
      expect(again!.written).toEqual(written);
      expect(
        await storage.recordCalendarWrite('a', again!.id, {
          revision: 1,
          status: 'pending',
          nextAttemptAt: T0 + 9 * SECOND,
          error: 'boom',
          written,
          at: T0 + 4 * SECOND,
        }),
      ).toBe(true);
      expect(await storage.getCalendarWrite(booking.id)).toMatchObject({ status: 'pending', attempts: 1, lastError: 'boom' });
      expect(await storage.claimDueCalendarWrites('a', T0 + 5 * SECOND, T0 + 25 * SECOND, 10)).toEqual([]);
      const [retry] = await storage.claimDueCalendarWrites('a', T0 + 9 * SECOND, T0 + 29 * SECOND, 10);
      expect(
        await storage.recordCalendarWrite('a', retry!.id, {
          revision: 1,
          status: 'done',
          nextAttemptAt: null,
          error: null,
          written: null,
          at: T0 + 9 * SECOND,
        }),
      ).toBe(true);
      expect(await storage.getCalendarWrite(booking.id)).toMatchObject({ status: 'done', attempts: 0, lastError: null, written: null });
      expect(await storage.nextCalendarWriteDueAt()).toBeNull();
    });
  });
}
