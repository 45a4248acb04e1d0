import { describe, expect, test } from 'bun:test';
import { newId } from '../../../src/core/ids.ts';
import type { BookingRecord, BusyInterval } from '../../../src/ports/storage/index.ts';
import { MINUTE, HOUR, DAY, T0, SLOT, RACE_TIMEOUT_MS, aBooking, aWebhook, anEvent, seed, addProvider, book, dueMessages, ids, warm } from './fixtures.ts';
import { storage } from './database.ts';

const WEEK = 7 * DAY;

/** `count` weekly occurrences of one series from SLOT (half an hour each). */
function occurrences(srv: Parameters<typeof aBooking>[0], prv: { id: string }, count: number, extra: Partial<BookingRecord> = {}) {
  const seriesId = newId('ser');
  return Array.from({ length: count }, (_, index) =>
    aBooking(srv, prv, { startTime: SLOT + index * WEEK, endTime: SLOT + index * WEEK + 30 * MINUTE, seriesId, ...extra }),
  );
}

const free = (_providerId: string, busy: BusyInterval[]) => (busy.length > 0 ? 'taken' : null);

/** BookingStore.reserveSeries, listSeries and lastBookedAt. */
export function seriesContract() {
  describe('series', () => {
    test('reserveSeries writes every occurrence on the first candidate where all fit, with their events, and listSeries reads them in order', async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      await storage.createWebhook(aWebhook(ws));
      // prv is busy on the third occurrence: the series goes to `second` whole
      await book(storage, aBooking(srv, prv, { startTime: SLOT + 2 * WEEK, endTime: SLOT + 2 * WEEK + HOUR }));
      const bookings = occurrences(srv, prv, 4);
      const result = await storage.reserveSeries({
        bookings,
        candidates: [prv.id, second.id],
        margin: 0,
        fits: free,
        emit: (saved) => saved.map((b) => anEvent(ws, 'booking.created', b.createdAt)),
      });
      const placed = bookings.map((booking) => ({ ...booking, providerId: second.id }));
      expect(result).toEqual({ ok: true, bookings: placed });
      expect(await storage.listSeries(ws.id, bookings[0]!.seriesId!)).toEqual(placed);
      expect(await storage.listSeries(ws.id, 'ser_unknown')).toEqual([]);
      expect(await dueMessages(storage)).toHaveLength(4);
    });

    test('when an occurrence fits nowhere, reserveSeries writes nothing and names the conflicts of the best candidate', async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      await storage.createWebhook(aWebhook(ws));
      const taken = [
        await book(storage, aBooking(srv, prv, { startTime: SLOT + WEEK, endTime: SLOT + WEEK + HOUR })),
        await book(storage, aBooking(srv, second, { startTime: SLOT + WEEK, endTime: SLOT + WEEK + HOUR })),
        await book(storage, aBooking(srv, second, { startTime: SLOT + 3 * WEEK, endTime: SLOT + 3 * WEEK + HOUR })),
      ];
      const seen: number[] = [];
      const result = await storage.reserveSeries({
        bookings: occurrences(srv, prv, 5),
        candidates: [second.id, prv.id],
        margin: 0,
        fits: (providerId, busy, index) => {
          seen.push(index);
          return free(providerId, busy);
        },
        emit: (saved) => saved.map((b) => anEvent(ws, 'booking.created', b.createdAt)),
      });
      expect(result).toEqual({ ok: false, conflicts: [1], reason: 'taken' });
      expect(seen).toEqual([0, 1, 2, 3, 4, 0, 1, 2, 3, 4]);
      expect(ids(await storage.listBookings(ws.id, { limit: 100 })).sort()).toEqual(ids(taken).sort());
      expect(await dueMessages(storage)).toEqual([]);
    });

    test('fits sees, for each occurrence, the busy intervals overlapping [start - margin, end + margin] only', async () => {
      const { srv, prv } = await seed(storage);
      const near = await book(storage, aBooking(srv, prv, { startTime: SLOT + WEEK - HOUR, endTime: SLOT + WEEK - 10 * MINUTE }));
      await book(storage, aBooking(srv, prv, { startTime: SLOT + WEEK - 3 * HOUR, endTime: SLOT + WEEK - 2 * HOUR }));
      const seen: string[][] = [];
      await storage.reserveSeries({
        bookings: occurrences(srv, prv, 3),
        candidates: [prv.id],
        margin: 15 * MINUTE,
        fits: (_providerId, busy) => {
          seen.push(busy.flatMap((b) => (b.bookingId ? [b.bookingId] : [])));
          return null;
        },
        emit: () => [],
      });
      expect(seen).toEqual([[], [near.id], []]);
    });

    test('lastBookedAt gives the newest createdAt per provider, any status; providers never booked are absent', async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      const third = await addProvider(storage, ws);
      await book(storage, aBooking(srv, prv, { createdAt: T0 + MINUTE }));
      await book(storage, aBooking(srv, prv, { createdAt: T0 + 5 * MINUTE, startTime: SLOT + DAY, endTime: SLOT + DAY + HOUR, status: 'CANCELLED' }));
      await book(storage, aBooking(srv, second, { createdAt: T0 + 2 * MINUTE }));
      expect(await storage.lastBookedAt([prv.id, second.id, third.id])).toEqual({ [prv.id]: T0 + 5 * MINUTE, [second.id]: T0 + 2 * MINUTE });
      expect(await storage.lastBookedAt([])).toEqual({});
    });

    test(
      'a series of 52 weekly occurrences racing single bookings on the same times is written whole or not at all',
      async () => {
        for (let round = 0; round < 3; round++) {
          const { ws, srv, prv } = await seed(storage);
          const series = occurrences(srv, prv, 52);
          await warm([storage]);
          const singles = series
            .filter((_, index) => index % 5 === round)
            .map((occurrence) => aBooking(srv, prv, { startTime: occurrence.startTime, endTime: occurrence.endTime }));
          const [seriesResult, ...singleResults] = await Promise.all([
            storage.reserveSeries({ bookings: series, candidates: [prv.id], margin: 0, fits: free, emit: () => [] }),
            ...singles.map((booking) => storage.reserveBooking({ booking, candidates: [prv.id], margin: 0, fits: free, emit: () => [] })),
          ]);
          const rows = await storage.listBookings(ws.id, { limit: 100 });
          const ofSeries = rows.filter((row) => row.seriesId === series[0]!.seriesId);
          const singlesWon = singleResults.filter((result) => result.ok).length;
          if (seriesResult!.ok) {
            expect(ofSeries).toHaveLength(52);
            expect(singlesWon).toBe(0);
            expect(rows).toHaveLength(52);
          } else {
            expect(ofSeries).toHaveLength(0);
            expect(singlesWon).toBe(singles.length);
            expect(rows).toHaveLength(singles.length);
            expect(seriesResult!.conflicts.length).toBeGreaterThan(0);
          }
        }
      },
      RACE_TIMEOUT_MS,
    );
  });
}
