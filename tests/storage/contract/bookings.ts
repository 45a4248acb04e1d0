import { describe, expect, test } from 'bun:test';
import type { BookingStatus } from '../../../src/core/lifecycle.ts';
import { newId } from '../../../src/core/ids.ts';
import { MAX_BOOKING_MS, type BookingRecord, type BusyInterval, type ListedBooking } from '../../../src/ports/storage/index.ts';
import {
  SECOND,
  MINUTE,
  HOUR,
  DAY,
  T0,
  SLOT,
  RACE_TIMEOUT_MS,
  aService,
  aProvider,
  aBooking,
  aWebhook,
  anEvent,
  seed,
  addProvider,
  book,
  dueMessages,
  ids,
  sortedIds,
  byBookingId,
  busyOf,
  bookingOrder,
  warm,
  listed,
} from './fixtures.ts';
import { db, storage } from './database.ts';

/** BookingStore: reading bookings, reserving provider time, moving their status, the scheduler's listings. */
export function bookingsContract() {
  describe('bookings', () => {
    test('a reserved booking reads back as written; getBooking is scoped to its workspace', async () => {
      const { ws, srv, prv } = await seed(storage);
      const other = await seed(storage);
      const booking = aBooking(srv, prv, {
        status: 'PENDING',
        bufferTime: 10,
        customerName: null,
        phone: null,
        notes: 'Window seat, please',
        customFields: { allergies: 'nuts', guests: 3, newsletter: true, extras: { parking: 'yes' }, tags: ['a', 'b'] },
        amountMinor: 3550,
        currency: 'EUR',
        holdExpiresAt: T0 + 30 * MINUTE,
      });
      expect(await book(storage, booking)).toEqual(booking);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
      expect(await storage.getBooking(other.ws.id, booking.id)).toBeNull();
      expect(await storage.getBooking(ws.id, newId('bk'))).toBeNull();
    });

    test('the booking reserveBooking answers is the stored row, a series left out included (null)', async () => {
      const { ws, srv, prv } = await seed(storage);
      const { seriesId: _series, ...alone } = aBooking(srv, prv, { customFields: { guests: 2, allergies: 'none' } });
      const reserved = await book(storage, alone);
      expect(reserved.seriesId).toBeNull();
      expect(reserved).toEqual((await storage.getBooking(ws.id, alone.id))!);
    });

    test('listBookings filters by status', async () => {
      const { ws, srv, prv } = await seed(storage);
      const made: Record<string, BookingRecord> = {};
      for (const [i, status] of (['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] as BookingStatus[]).entries()) {
        made[status] = await book(storage, aBooking(srv, prv, { status, startTime: SLOT + i * HOUR }));
      }
      for (const status of ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] as BookingStatus[]) {
        expect(await storage.listBookings(ws.id, { status, limit: 10 })).toEqual(listed([made[status]!]));
      }
      expect(await storage.listBookings(ws.id, { limit: 10 })).toHaveLength(4);
    });

    test('listBookings filters by from (startTime >= from) and to (startTime < to)', async () => {
      const { ws, srv, prv } = await seed(storage);
      const early = await book(storage, aBooking(srv, prv, { startTime: SLOT - HOUR, endTime: SLOT + HOUR }));
      const atFrom = await book(storage, aBooking(srv, prv, { startTime: SLOT }));
      const middle = await book(storage, aBooking(srv, prv, { startTime: SLOT + HOUR }));
      const atTo = await book(storage, aBooking(srv, prv, { startTime: SLOT + 2 * HOUR }));
      expect(await storage.listBookings(ws.id, { from: SLOT, limit: 10 })).toEqual(listed([atFrom, middle, atTo]));
      expect(await storage.listBookings(ws.id, { to: SLOT + 2 * HOUR, limit: 10 })).toEqual(listed([early, atFrom, middle]));
      expect(await storage.listBookings(ws.id, { from: SLOT, to: SLOT + 2 * HOUR, limit: 10 })).toEqual(listed([atFrom, middle]));
      expect(await storage.listBookings(ws.id, { from: SLOT + 1, to: SLOT + HOUR, limit: 10 })).toEqual(listed([]));
    });

    test('listBookings filters by serviceId', async () => {
      const { ws, srv, prv } = await seed(storage);
      const other = aService(ws, { name: 'Other', providerIds: [prv.id] });
      await storage.createService(other);
      const mine = await book(storage, aBooking(srv, prv));
      const theirs = await book(storage, aBooking(other, prv, { startTime: SLOT + HOUR }));
      expect(await storage.listBookings(ws.id, { serviceId: srv.id, limit: 10 })).toEqual(listed([mine]));
      expect(await storage.listBookings(ws.id, { serviceId: other.id, limit: 10 })).toEqual(listed([theirs]));
      expect(await storage.listBookings(ws.id, { serviceId: other.id, status: 'CANCELLED', limit: 10 })).toEqual(listed([]));
    });

    test('listBookings filters by providerId', async () => {
      const { ws, srv, prv } = await seed(storage);
      const other = aProvider(ws, { name: 'Other', serviceIds: [srv.id] });
      await storage.createProvider(other);
      const mine = await book(storage, aBooking(srv, prv));
      const theirs = await book(storage, aBooking(srv, other, { startTime: SLOT + HOUR }));
      expect(await storage.listBookings(ws.id, { providerId: prv.id, limit: 10 })).toEqual(listed([mine]));
      expect(await storage.listBookings(ws.id, { providerId: other.id, limit: 10 })).toEqual(listed([theirs]));
      expect(await storage.listBookings(ws.id, { providerId: other.id, serviceId: srv.id, status: 'CANCELLED', limit: 10 })).toEqual(listed([]));
    });

    test("listBookings leaves a booking's manage-link secrets in the database: the token's hash and its sealed copy", async () => {
      const { ws, srv, prv } = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv, { manageTokenHash: 'a'.repeat(64), manageTokenSealed: 'v1.sealed.copy' }));
      const [row] = await storage.listBookings(ws.id, { limit: 10 });
      expect(row).toEqual(listed([booking])[0]!);
      expect(Object.keys(row!)).not.toContain('manageTokenHash');
      expect(Object.keys(row!)).not.toContain('manageTokenSealed');
      expect((await storage.getBooking(ws.id, booking.id))?.manageTokenHash).toBe('a'.repeat(64));
    });

    test('listBookings reads back every value as written: quoted and non-Latin text, nested custom fields, nulls and zeros', async () => {
      // A page travels from the database as one JSON text (adapters/storage/sql/bookings.ts): nothing may change on the way.
      const { ws, srv, prv } = await seed(storage);
      const full = aBooking(srv, prv, {
        status: 'PENDING',
        bufferTime: 15,
        customerName: 'Zoë "Zo" O\'Brien-Łukasiewicz',
        customerEmail: 'zoe+tag@example.com',
        phone: '+48 22 123 45 67',
        notes: 'Line one\nLine two\t"quoted" \\ back\\slash, emoji 🎉, 東京, </script>',
        customFields: { allergies: 'nuts', guests: 3, ratio: 0.5, newsletter: false, none: null, extras: { parking: 'yes' }, tags: ['a', 'b'] },
        amountMinor: 0,
        currency: 'JPY',
        priceMinor: 1200,
        paidMinor: 0,
        refundedMinor: 0,
        cancelReason: null,
        holdExpiresAt: T0 + 30 * MINUTE,
        seriesId: newId('ser'),
      });
      const bare = aBooking(srv, prv, {
        startTime: SLOT + HOUR,
        customerName: null,
        phone: null,
        notes: null,
        customFields: {},
        amountMinor: null,
        currency: null,
      });
      for (const booking of [full, bare]) await book(storage, booking);
      const rows = await storage.listBookings(ws.id, { limit: 10 });
      expect(rows).toEqual(listed([full, bare].sort(bookingOrder)));
      // the same through each filter, which each run a statement of their own
      expect(await storage.listBookings(ws.id, { status: 'PENDING', serviceId: srv.id, providerId: prv.id, from: SLOT, to: SLOT + DAY, limit: 10 })).toEqual(
        listed([full]),
      );
      expect(await storage.listBookings(ws.id, { limit: 10, after: { startTime: full.startTime, id: full.id } })).toEqual(listed([bare]));
    });

    test("listBookings orders by startTime, then id, honours limit and lists only the workspace's bookings", async () => {
      const { ws, srv, prv } = await seed(storage);
      const other = await seed(storage);
      await book(storage, aBooking(other.srv, other.prv, { startTime: SLOT - DAY }));
      const starts = [SLOT + 2 * HOUR, SLOT, SLOT + HOUR, SLOT, SLOT + HOUR, SLOT];
      const made: BookingRecord[] = [];
      for (const startTime of starts) made.push(await book(storage, aBooking(srv, prv, { startTime })));
      const expected = [...made].sort(bookingOrder);
      expect(await storage.listBookings(ws.id, { limit: 100 })).toEqual(listed(expected));
      expect(await storage.listBookings(ws.id, { limit: 4 })).toEqual(listed(expected.slice(0, 4)));
      expect(await storage.listBookings(ws.id, { limit: 1 })).toEqual(listed(expected.slice(0, 1)));
    });

    test('keyset pagination with `after` returns every booking once, in order, while bookings are inserted between pages', async () => {
      const { ws, srv, prv } = await seed(storage);
      const made: BookingRecord[] = [];
      for (const startTime of [SLOT, SLOT, SLOT + HOUR, SLOT + HOUR, SLOT + HOUR, SLOT + 2 * HOUR, SLOT + 3 * HOUR, SLOT + 3 * HOUR]) {
        made.push(await book(storage, aBooking(srv, prv, { startTime })));
      }
      const seen: ListedBooking[] = [];
      const added: BookingRecord[] = [];
      let after: { startTime: number; id: string } | undefined;
      for (let page = 0; page < 20; page++) {
        const rows = await storage.listBookings(ws.id, { limit: 3, after });
        seen.push(...rows);
        if (rows.length < 3) break;
        const last = rows.at(-1)!;
        after = { startTime: last.startTime, id: last.id };
        // Behind the cursor: never shown. Ahead of it (a later start, or the same start and a greater id): shown once, in its place.
        await book(storage, aBooking(srv, prv, { startTime: last.startTime - MINUTE }));
        await book(storage, aBooking(srv, prv, { id: newId('bk', 0), startTime: last.startTime }));
        added.push(await book(storage, aBooking(srv, prv, { id: newId('bk', T0 + 365 * DAY + page), startTime: last.startTime })));
        added.push(await book(storage, aBooking(srv, prv, { startTime: SLOT + 10 * HOUR + page * MINUTE })));
      }
      const expected = [...made, ...added].sort(bookingOrder);
      expect(ids(seen)).toEqual(ids(expected));
      expect(new Set(ids(seen)).size).toBe(seen.length);
    });
  });

  describe('listBusy', () => {
    test('listBusy returns PENDING and CONFIRMED bookings only, as busy intervals', async () => {
      const { srv, prv } = await seed(storage);
      const pending = await book(storage, aBooking(srv, prv, { status: 'PENDING', bufferTime: 15 }));
      const confirmed = await book(storage, aBooking(srv, prv, { status: 'CONFIRMED', startTime: SLOT + HOUR }));
      await book(storage, aBooking(srv, prv, { status: 'CANCELLED' }));
      await book(storage, aBooking(srv, prv, { status: 'COMPLETED', startTime: SLOT + HOUR }));
      const busy = await storage.listBusy([prv.id], SLOT - DAY, SLOT + DAY);
      expect(busy.sort(byBookingId)).toEqual([busyOf(pending), busyOf(confirmed)].sort(byBookingId));
    });

    test('listBusy overlap is half-open: a booking ending at `from` or starting at `to` is not busy; one overlapping by 1 ms is', async () => {
      const { srv, prv } = await seed(storage);
      const from = SLOT;
      const to = SLOT + HOUR;
      await book(storage, aBooking(srv, prv, { startTime: from - HOUR, endTime: from }));
      await book(storage, aBooking(srv, prv, { startTime: to, endTime: to + HOUR }));
      const inside = [
        await book(storage, aBooking(srv, prv, { startTime: from - HOUR, endTime: from + 1 })),
        await book(storage, aBooking(srv, prv, { startTime: to - 1, endTime: to + HOUR })),
        await book(storage, aBooking(srv, prv, { startTime: from + MINUTE, endTime: from + 2 * MINUTE })),
        // the longest booking the port allows (MAX_BOOKING_MS), spanning the whole window
        await book(storage, aBooking(srv, prv, { startTime: from - 12 * HOUR, endTime: from - 12 * HOUR + MAX_BOOKING_MS })),
        await book(storage, aBooking(srv, prv, { startTime: from, endTime: to })),
      ];
      expect((await storage.listBusy([prv.id], from, to)).sort(byBookingId)).toEqual(inside.map(busyOf).sort(byBookingId));
    });

    test('listBusy with a buffer widens each booking by the larger of that buffer and its own, no further', async () => {
      const { srv, prv } = await seed(storage);
      const from = SLOT;
      const to = SLOT + HOUR;
      const ownBufferBefore = await book(storage, aBooking(srv, prv, { startTime: from - 2 * HOUR, endTime: from - 30 * MINUTE, bufferTime: 31 }));
      const plainBefore = await book(storage, aBooking(srv, prv, { startTime: from - 2 * HOUR, endTime: from - 30 * MINUTE, bufferTime: 0 }));
      const ownBufferAfter = await book(storage, aBooking(srv, prv, { startTime: to + 20 * MINUTE, endTime: to + HOUR, bufferTime: 20 }));
      const plainAfter = await book(storage, aBooking(srv, prv, { startTime: to + 20 * MINUTE, endTime: to + HOUR, bufferTime: 0 }));
      // a day-long buffer (the most a service has) reaches a window a day away
      const farBuffer = await book(storage, aBooking(srv, prv, { startTime: from - DAY, endTime: from - DAY + HOUR, bufferTime: 1440 }));
      const sorted = (list: BusyInterval[]) => list.sort(byBookingId);
      expect(sorted(await storage.listBusy([prv.id], from, to, 0))).toEqual(sorted([ownBufferBefore, farBuffer].map(busyOf)));
      expect(sorted(await storage.listBusy([prv.id], from, to, 30 * MINUTE))).toEqual(
        sorted([ownBufferBefore, ownBufferAfter, plainAfter, farBuffer].map(busyOf)),
      );
      expect(sorted(await storage.listBusy([prv.id], from, to, 31 * MINUTE))).toEqual(
        sorted([ownBufferBefore, plainBefore, ownBufferAfter, plainAfter, farBuffer].map(busyOf)),
      );
      // without a buffer, plain overlap as before
      expect(await storage.listBusy([prv.id], from, to)).toEqual([]);
    });

    test('listBusy covers only the given providers; no providers -> []', async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      const third = await addProvider(storage, ws);
      const a = await book(storage, aBooking(srv, prv));
      const b = await book(storage, aBooking(srv, second));
      await book(storage, aBooking(srv, third));
      expect((await storage.listBusy([prv.id, second.id], SLOT, SLOT + HOUR)).sort(byBookingId)).toEqual([busyOf(a), busyOf(b)].sort(byBookingId));
      expect(await storage.listBusy([second.id], SLOT, SLOT + HOUR)).toEqual([busyOf(b)]);
      expect(await storage.listBusy([], SLOT, SLOT + HOUR)).toEqual([]);
    });
  });

  describe('reserveBooking', () => {
    test('reserveBooking puts the booking on the first candidate that fits and returns it as stored', async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      const third = await addProvider(storage, ws);
      const asked: string[] = [];
      const booking = aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: T0 + 30 * MINUTE });
      const result = await storage.reserveBooking({
        booking,
        candidates: [prv.id, second.id, third.id],
        margin: 0,
        emit: () => [],
        fits: (providerId) => {
          asked.push(providerId);
          return providerId === prv.id ? 'away today' : null;
        },
      });
      const placed = { ...booking, providerId: second.id };
      expect(result).toEqual({ ok: true, booking: placed });
      expect(asked).toEqual([prv.id, second.id]);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(placed);
      expect(await storage.listBookings(ws.id, { limit: 10 })).toEqual(listed([placed]));
    });

    test("fits sees only that provider's PENDING/CONFIRMED bookings overlapping [start - margin, end + margin]", async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      const margin = 15 * MINUTE;
      const start = SLOT;
      const end = SLOT + 30 * MINUTE;
      await book(storage, aBooking(srv, prv, { startTime: start - HOUR, endTime: start - margin }));
      const touchingBefore = await book(storage, aBooking(srv, prv, { startTime: start - HOUR, endTime: start - margin + 1, bufferTime: 15 }));
      await book(storage, aBooking(srv, prv, { startTime: end + margin, endTime: end + HOUR }));
      const touchingAfter = await book(storage, aBooking(srv, prv, { startTime: end + margin - 1, endTime: end + HOUR, status: 'PENDING' }));
      await book(storage, aBooking(srv, prv, { startTime: start, endTime: end, status: 'CANCELLED' }));
      await book(storage, aBooking(srv, prv, { startTime: start, endTime: end, status: 'COMPLETED' }));
      const othersBooking = await book(storage, aBooking(srv, second, { startTime: start, endTime: end }));
      const before = await storage.listBookings(ws.id, { limit: 100 });

      const seen = new Map<string, BusyInterval[]>();
      const result = await storage.reserveBooking({
        booking: aBooking(srv, prv, { startTime: start, endTime: end }),
        candidates: [prv.id, second.id],
        margin,
        emit: () => [],
        fits: (providerId, busy) => {
          seen.set(providerId, [...busy].sort(byBookingId));
          return `${providerId} is busy`;
        },
      });
      expect(result).toEqual({ ok: false, reason: `${second.id} is busy` });
      expect(seen.get(prv.id)).toEqual([busyOf(touchingBefore), busyOf(touchingAfter)].sort(byBookingId));
      expect(seen.get(second.id)).toEqual([busyOf(othersBooking)]);
      expect(await storage.listBookings(ws.id, { limit: 100 })).toEqual(listed(before));
    });

    test('when no candidate fits, reserveBooking returns the fits reason and writes neither booking nor events', async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      let emitted = 0;
      const booking = aBooking(srv, prv);
      const result = await storage.reserveBooking({
        booking,
        candidates: [prv.id],
        margin: 0,
        fits: () => 'outside working hours',
        emit: (b) => {
          emitted++;
          return [anEvent(ws, 'booking.created', b.createdAt)];
        },
      });
      expect(result).toEqual({ ok: false, reason: 'outside working hours' });
      expect(emitted).toBe(0);
      expect(await storage.getBooking(ws.id, booking.id)).toBeNull();
      expect(await storage.listBookings(ws.id, { limit: 10 })).toEqual(listed([]));
      expect(await dueMessages(storage)).toEqual([]);
    });

    test('reserveBooking with no candidates -> not ok and writes nothing', async () => {
      const { ws, srv, prv } = await seed(storage);
      const booking = aBooking(srv, prv);
      const result = await storage.reserveBooking({ booking, candidates: [], margin: 0, fits: () => null, emit: () => [] });
      expect(result.ok).toBe(false);
      expect(await storage.listBookings(ws.id, { limit: 10 })).toEqual(listed([]));
    });

    test('replacing moves the booking, is left out of the busy intervals, and keeps a single record', async () => {
      const { ws, srv, prv } = await seed(storage);
      const original = await book(storage, aBooking(srv, prv, { status: 'PENDING', amountMinor: 1000, currency: 'EUR' }));
      const seen: BusyInterval[][] = [];
      const moved = { ...original, startTime: SLOT + 15 * MINUTE, endTime: SLOT + 45 * MINUTE, updatedAt: T0 + MINUTE, revision: 1 };
      const result = await storage.reserveBooking({
        booking: moved,
        candidates: [prv.id],
        margin: 10 * MINUTE,
        replacing: original.id,
        emit: () => [],
        fits: (_providerId, busy) => {
          seen.push(busy);
          return busy.length > 0 ? 'taken' : null;
        },
      });
      expect(seen).toEqual([[]]);
      expect(result).toEqual({ ok: true, booking: moved });
      expect(await storage.getBooking(ws.id, original.id)).toEqual(moved);
      expect(await storage.listBookings(ws.id, { limit: 10 })).toEqual(listed([moved]));
    });

    test('replacing with another provider as candidate moves the booking to that provider and frees the old one', async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      const original = await book(storage, aBooking(srv, prv));
      const moved = { ...original, providerId: second.id, startTime: SLOT + HOUR, endTime: SLOT + 90 * MINUTE, updatedAt: T0 + MINUTE, revision: 1 };
      const result = await storage.reserveBooking({
        booking: { ...moved, providerId: prv.id },
        candidates: [second.id],
        margin: 0,
        replacing: original.id,
        emit: () => [],
        fits: (_providerId, busy) => (busy.length > 0 ? 'taken' : null),
      });
      expect(result).toEqual({ ok: true, booking: moved });
      expect(await storage.getBooking(ws.id, original.id)).toEqual(moved);
      expect(await storage.listBusy([prv.id], SLOT - DAY, SLOT + DAY)).toEqual([]);
      expect(await storage.listBusy([second.id], SLOT - DAY, SLOT + DAY)).toEqual([busyOf(moved)]);
    });

    test("replacing still sees the provider's other bookings: a move onto another booking is refused and changes nothing", async () => {
      const { ws, srv, prv } = await seed(storage);
      const original = await book(storage, aBooking(srv, prv));
      const blocker = await book(storage, aBooking(srv, prv, { startTime: SLOT + HOUR }));
      const result = await storage.reserveBooking({
        booking: { ...original, startTime: SLOT + HOUR, endTime: SLOT + 90 * MINUTE },
        candidates: [prv.id],
        margin: 0,
        replacing: original.id,
        emit: () => [],
        fits: (_providerId, busy) => (busy.some((interval) => interval.bookingId === blocker.id) ? 'taken' : null),
      });
      expect(result).toEqual({ ok: false, reason: 'taken' });
      expect(await storage.getBooking(ws.id, original.id)).toEqual(original);
    });

    test('replacing a booking that is no longer PENDING or CONFIRMED -> not ok, it is unchanged and no events are written', async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      const cancelled = await book(storage, aBooking(srv, prv, { status: 'CANCELLED', cancelReason: 'ill' }));
      const result = await storage.reserveBooking({
        booking: { ...cancelled, startTime: SLOT + HOUR, endTime: SLOT + 90 * MINUTE },
        candidates: [prv.id],
        margin: 0,
        replacing: cancelled.id,
        fits: () => null,
        emit: () => [anEvent(ws, 'booking.rescheduled')],
      });
      expect(result.ok).toBe(false);
      expect(await storage.getBooking(ws.id, cancelled.id)).toEqual(cancelled);
      expect(await storage.listBookings(ws.id, { limit: 10 })).toEqual(listed([cancelled]));
      expect(await dueMessages(storage)).toEqual([]);
    });

    test('replacing a booking of another workspace -> not ok and that booking is unchanged', async () => {
      const mine = await seed(storage);
      const theirs = await seed(storage);
      const victim = await book(storage, aBooking(theirs.srv, theirs.prv));
      const result = await storage.reserveBooking({
        booking: { ...aBooking(mine.srv, mine.prv), id: victim.id, startTime: SLOT + HOUR, endTime: SLOT + 90 * MINUTE },
        candidates: [mine.prv.id],
        margin: 0,
        replacing: victim.id,
        fits: () => null,
        emit: () => [],
      });
      expect(result.ok).toBe(false);
      expect(await storage.getBooking(theirs.ws.id, victim.id)).toEqual(victim);
      expect(await storage.listBookings(mine.ws.id, { limit: 10 })).toEqual(listed([]));
    });

    test("the events of a reservation go, built from the stored booking, to the workspace's active webhooks subscribed to their type or to all", async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      const all = aWebhook(ws, { events: [] });
      const created = aWebhook(ws, { events: ['booking.created', 'booking.cancelled'] });
      const cancelledOnly = aWebhook(ws, { events: ['booking.cancelled'] });
      const inactive = aWebhook(ws, { events: [], isActive: false });
      const otherWs = await seed(storage);
      const elsewhere = aWebhook(otherWs.ws, { events: [] });
      for (const hook of [all, created, cancelledOnly, inactive, elsewhere]) await storage.createWebhook(hook);

      const emittedFor: BookingRecord[] = [];
      const body = (type: string, booking: BookingRecord) => JSON.stringify({ type, booking: booking.id, provider: booking.providerId });
      const booking = aBooking(srv, prv);
      const result = await storage.reserveBooking({
        booking,
        candidates: [prv.id, second.id],
        margin: 0,
        fits: (providerId) => (providerId === prv.id ? 'taken' : null),
        emit: (stored) => {
          emittedFor.push(stored);
          return ['booking.created', 'booking.confirmed'].map((type) => ({ workspaceId: ws.id, type, body: body(type, stored), occurredAt: T0 + SECOND }));
        },
      });
      const stored = { ...booking, providerId: second.id };
      expect(result).toEqual({ ok: true, booking: stored });
      expect(emittedFor).toEqual([stored]);

      const message = (webhookId: string, eventType: string) => ({
        id: expect.stringMatching(/^msg_/),
        webhookId,
        workspaceId: ws.id,
        eventType,
        body: body(eventType, stored),
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt: T0 + SECOND,
        createdAt: T0 + SECOND,
        deliveredAt: null,
      });
      const expected = [message(all.id, 'booking.created'), message(all.id, 'booking.confirmed'), message(created.id, 'booking.created')].sort((a, b) =>
        (a.webhookId + a.eventType).localeCompare(b.webhookId + b.eventType),
      );
      expect(await dueMessages(storage)).toEqual(expected);
    });
  });

  describe('transitionBooking', () => {
    test('transitionBooking moves a booking that is in `from`, sets updatedAt and cancelReason, and writes its events', async () => {
      const { ws, srv, prv } = await seed(storage);
      const hook = aWebhook(ws);
      await storage.createWebhook(hook);
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: T0 + HOUR }));
      const moved = await storage.transitionBooking(ws.id, booking.id, {
        from: ['PENDING', 'CONFIRMED'],
        to: 'CANCELLED',
        at: T0 + MINUTE,
        cancelReason: 'customer asked',
        emit: (b) => [
          { workspaceId: ws.id, type: 'booking.cancelled', body: JSON.stringify({ status: b.status, reason: b.cancelReason }), occurredAt: T0 + MINUTE },
        ],
      });
      const expected = { ...booking, status: 'CANCELLED' as const, updatedAt: T0 + MINUTE, cancelReason: 'customer asked', revision: 1 };
      expect(moved).toEqual(expected);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(expected);
      expect(await storage.listBusy([prv.id], SLOT - DAY, SLOT + DAY)).toEqual([]);
      expect(await dueMessages(storage)).toEqual([
        {
          id: expect.stringMatching(/^msg_/),
          webhookId: hook.id,
          workspaceId: ws.id,
          eventType: 'booking.cancelled',
          body: JSON.stringify({ status: 'CANCELLED', reason: 'customer asked' }),
          status: 'pending',
          attempts: 0,
          nextAttemptAt: T0 + MINUTE,
          createdAt: T0 + MINUTE,
          deliveredAt: null,
        },
      ]);
    });

    test("transitionBooking without cancelReason leaves the booking's cancelReason as it was", async () => {
      const { ws, srv, prv } = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv, { status: 'CONFIRMED', cancelReason: 'kept note' }));
      const moved = await storage.transitionBooking(ws.id, booking.id, { from: ['CONFIRMED'], to: 'COMPLETED', at: T0 + DAY * 2, emit: () => [] });
      expect(moved).toEqual({ ...booking, status: 'COMPLETED', updatedAt: T0 + DAY * 2, revision: 1 });
    });

    test('transitionBooking from a status the booking is not in -> null, the booking is unchanged and no events are written', async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      const booking = await book(storage, aBooking(srv, prv, { status: 'CONFIRMED' }));
      const result = await storage.transitionBooking(ws.id, booking.id, {
        from: ['PENDING'],
        to: 'CANCELLED',
        at: T0 + MINUTE,
        cancelReason: 'expired',
        emit: () => [anEvent(ws, 'booking.cancelled')],
      });
      expect(result).toBeNull();
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
      expect(await dueMessages(storage)).toEqual([]);
    });

    test("transitionBooking of another workspace's booking or an unknown id -> null and nothing changes", async () => {
      const { ws, srv, prv } = await seed(storage);
      const other = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
      const transition = { from: ['PENDING' as const], to: 'CONFIRMED' as const, at: T0 + MINUTE, emit: () => [] };
      expect(await storage.transitionBooking(other.ws.id, booking.id, transition)).toBeNull();
      expect(await storage.transitionBooking(ws.id, newId('bk'), transition)).toBeNull();
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
    });

    test(
      'of 10 concurrent transitions from PENDING exactly one moves the booking, and one set of events is written',
      async () => {
        const { ws, srv, prv } = await seed(storage);
        await storage.createWebhook(aWebhook(ws));
        const other = db.reopen();
        const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
        await warm([storage, other]);
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 ? other : storage).transitionBooking(ws.id, booking.id, {
              from: ['PENDING'],
              to: 'CONFIRMED',
              at: T0 + i,
              emit: () => [anEvent(ws, 'booking.confirmed')],
            }),
          ),
        );
        const winners = results.filter((result) => result !== null);
        expect(winners).toHaveLength(1);
        expect(await storage.getBooking(ws.id, booking.id)).toEqual(winners[0]!);
        expect(await dueMessages(storage)).toHaveLength(1);
      },
      RACE_TIMEOUT_MS,
    );
  });

  describe('scheduler reads', () => {
    test('listExpiredHolds returns PENDING bookings whose hold has expired, up to limit', async () => {
      const { srv, prv } = await seed(storage);
      const now = T0 + HOUR;
      const expired = [
        await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: now - 2 * MINUTE })),
        await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: now - 1, startTime: SLOT + HOUR })),
      ];
      await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: now + 1 }));
      await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: null }));
      await book(storage, aBooking(srv, prv, { status: 'CONFIRMED', holdExpiresAt: now - HOUR }));
      await book(storage, aBooking(srv, prv, { status: 'CANCELLED', holdExpiresAt: now - HOUR }));
      expect(sortedIds(await storage.listExpiredHolds(now, 10))).toEqual(sortedIds(expired));
      expect((await storage.listExpiredHolds(now, 10)).sort(bookingOrder)).toEqual(expired.sort(bookingOrder));
      const one = await storage.listExpiredHolds(now, 1);
      expect(one).toHaveLength(1);
      expect(sortedIds(expired)).toContain(one[0]!.id);
      expect(await storage.listExpiredHolds(now - 3 * MINUTE, 10)).toEqual([]);
    });

    test('listEndedConfirmed returns CONFIRMED bookings that ended before now, up to limit', async () => {
      const { srv, prv } = await seed(storage);
      const now = SLOT + 3 * HOUR;
      const ended = [
        await book(storage, aBooking(srv, prv, { startTime: SLOT, endTime: SLOT + 30 * MINUTE })),
        await book(storage, aBooking(srv, prv, { startTime: SLOT + HOUR, endTime: now - 1 })),
      ];
      await book(storage, aBooking(srv, prv, { startTime: SLOT + 2 * HOUR, endTime: now + 1 }));
      await book(storage, aBooking(srv, prv, { status: 'PENDING', startTime: SLOT, endTime: SLOT + 30 * MINUTE }));
      await book(storage, aBooking(srv, prv, { status: 'COMPLETED', startTime: SLOT, endTime: SLOT + 30 * MINUTE }));
      await book(storage, aBooking(srv, prv, { status: 'CANCELLED', startTime: SLOT, endTime: SLOT + 30 * MINUTE }));
      expect((await storage.listEndedConfirmed(now, 10)).sort(bookingOrder)).toEqual(ended.sort(bookingOrder));
      const one = await storage.listEndedConfirmed(now, 1);
      expect(one).toHaveLength(1);
      expect(sortedIds(ended)).toContain(one[0]!.id);
      expect(await storage.listEndedConfirmed(SLOT, 10)).toEqual([]);
    });
  });
}
