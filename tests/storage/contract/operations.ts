import { describe, expect, test } from 'bun:test';
import { DAY, SECOND, T0, aBooking, aWebhook, anEvent, anOutcome, book, claimOne, seed } from './fixtures.ts';
import { storage } from './database.ts';

/** OperationsStore: the counts the metrics read, across every workspace. */
export function operationsContract() {
  describe('operations snapshot', () => {
    test('an empty database: no bookings, no connections, both outboxes empty', async () => {
      expect(await storage.operationsSnapshot()).toEqual({
        bookingsByStatus: {},
        outbox: [
          { kind: 'webhook', pending: 0, oldestCreatedAt: null },
          { kind: 'mail', pending: 0, oldestCreatedAt: null },
        ],
        calendarConnectionsByStatus: {},
      });
    });

    test('bookings per status; pending webhook messages and the oldest one, a delivered one no longer counted', async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      await book(storage, aBooking(srv, prv), [anEvent(ws, 'booking.created', T0 + 5 * SECOND)]);
      await book(storage, aBooking(srv, prv, { startTime: T0 + 2 * DAY, endTime: T0 + 2 * DAY + 3_600_000 }), [anEvent(ws, 'booking.created', T0)]);
      await book(storage, aBooking(srv, prv, { status: 'CANCELLED', startTime: T0 + 3 * DAY, endTime: T0 + 3 * DAY + 3_600_000 }), [
        anEvent(ws, 'booking.cancelled', T0 + 9 * SECOND),
      ]);
      const snapshot = await storage.operationsSnapshot();
      expect(snapshot.bookingsByStatus).toEqual({ CONFIRMED: 2, CANCELLED: 1 });
      expect(snapshot.outbox[0]).toEqual({ kind: 'webhook', pending: 3, oldestCreatedAt: T0 });
      expect(snapshot.outbox[1]).toEqual({ kind: 'mail', pending: 0, oldestCreatedAt: null });

      const oldest = await claimOne(storage, 'deliverer', T0 + 1);
      expect(oldest.createdAt).toBe(T0);
      expect(await storage.recordAttempt('deliverer', oldest.id, anOutcome(oldest, { status: 'delivered', nextAttemptAt: null }))).toBe(true);
      expect((await storage.operationsSnapshot()).outbox[0]).toEqual({ kind: 'webhook', pending: 2, oldestCreatedAt: T0 + 5 * SECOND });
    });
  });
}
