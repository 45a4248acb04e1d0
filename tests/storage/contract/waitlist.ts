import { describe, expect, test } from 'bun:test';
import { newId } from '../../../src/core/ids.ts';
import type { ServiceRecord, WaitlistEntryRecord } from '../../../src/ports/storage/index.ts';
import { aBooking, book, HOUR, MINUTE, RACE_TIMEOUT_MS, racer, seed, SLOT, T0 } from './fixtures.ts';
import { storage } from './database.ts';

function anEntry(srv: ServiceRecord, overrides: Partial<WaitlistEntryRecord> = {}): WaitlistEntryRecord {
  return {
    id: newId('wl'),
    workspaceId: srv.workspaceId,
    serviceId: srv.id,
    providerId: null,
    status: 'WAITING',
    startTime: SLOT,
    endTime: SLOT + 30 * MINUTE,
    bufferTime: 0,
    customerEmail: 'wait@example.com',
    customerName: null,
    phone: null,
    heldProviderId: null,
    offerExpiresAt: null,
    offerTokenHash: null,
    offerTokenSealed: null,
    mailDueAt: null,
    bookingId: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

const offerOf = (hash: string) => async () => ({ offerExpiresAt: T0 + HOUR, offerTokenHash: hash, offerTokenSealed: null, mailDueAt: null });

/** WaitlistStore (src/ports/storage/waitlist-store.ts): offers hold seats under the provider lock. */
export function waitlistContract() {
  describe('waiting lists', () => {
    test('entries are listed by time then arrival, found by token once offered, and removed', async () => {
      const { ws, srv } = await seed(storage, { capacity: 2 });
      const later = await storage.addWaitlistEntry(anEntry(srv, { createdAt: T0 + 2 }), []);
      const earlier = await storage.addWaitlistEntry(anEntry(srv, { createdAt: T0 + 1 }), []);
      expect((await storage.listWaitlistEntries(ws.id, { limit: 10 })).map((entry) => entry.id)).toEqual([earlier.id, later.id]);
      expect(await storage.deleteWaitlistEntry(ws.id, later.id)).toBe(true);
      expect(await storage.deleteWaitlistEntry(ws.id, later.id)).toBe(false);
      expect(await storage.getWaitlistEntry(ws.id, later.id)).toBeNull();
    });

    test('offerSeats offers as many of the oldest WAITING entries as seats are free, and the offer counts as busy', async () => {
      const { ws, srv, prv } = await seed(storage, { capacity: 2 });
      await book(storage, aBooking(srv, prv));
      const a = await storage.addWaitlistEntry(anEntry(srv, { createdAt: T0 + 1 }), []);
      const b = await storage.addWaitlistEntry(anEntry(srv, { createdAt: T0 + 2 }), []);
      const offered = await storage.offerSeats({
        workspaceId: ws.id,
        serviceId: srv.id,
        startTime: SLOT,
        providerId: prv.id,
        margin: HOUR,
        seats: (busy) => 2 - busy.length,
        offer: offerOf('a'.repeat(64)),
        emit: () => [],
        at: T0,
      });
      expect(offered.map((entry) => [entry.id, entry.status, entry.heldProviderId])).toEqual([[a.id, 'OFFERED', prv.id]]);
      expect((await storage.getWaitlistEntry(ws.id, b.id))!.status).toBe('WAITING');
      const busy = await storage.listBusy([prv.id], SLOT, SLOT + HOUR);
      expect(busy.map((interval) => interval.bookingId)).toContain(a.id);
      expect((await storage.findWaitlistEntryByToken('a'.repeat(64)))!.id).toBe(a.id);
      // The held seat is taken for a reservation too.
      const refused = await storage.reserveBooking(racer(srv, [prv.id], 2));
      expect(refused.ok).toBe(false);
    });

    test('a claim books the held seat once, only while the hold runs', async () => {
      const { ws, srv, prv } = await seed(storage, { capacity: 1 });
      const entry = await storage.addWaitlistEntry(anEntry(srv), []);
      await storage.offerSeats({
        workspaceId: ws.id,
        serviceId: srv.id,
        startTime: SLOT,
        providerId: prv.id,
        margin: HOUR,
        seats: (busy) => 1 - busy.length,
        offer: offerOf('b'.repeat(64)),
        emit: () => [],
        at: T0,
      });
      const lapsed = await storage.reserveBooking({ ...racer(srv, [prv.id], 1), claiming: { entryId: entry.id, at: T0 + HOUR } });
      expect(lapsed.ok).toBe(false);
      const claimed = await storage.reserveBooking({ ...racer(srv, [prv.id], 1), claiming: { entryId: entry.id, at: T0 } });
      expect(claimed.ok).toBe(true);
      const after = (await storage.getWaitlistEntry(ws.id, entry.id))!;
      expect(after.status).toBe('BOOKED');
      expect(after.bookingId).toBe(claimed.ok ? claimed.booking.id : null);
      expect(await storage.expireOffer(entry.id, T0 + 2 * HOUR, () => [])).toBeNull();
    });

    test(
      'concurrent offers for two freed seats pick two different entries',
      async () => {
        const { ws, srv, prv } = await seed(storage, { capacity: 2 });
        const entries = [];
        for (let i = 0; i < 4; i++) entries.push(await storage.addWaitlistEntry(anEntry(srv, { createdAt: T0 + i }), []));
        const offer = (hash: string) =>
          storage.offerSeats({
            workspaceId: ws.id,
            serviceId: srv.id,
            startTime: SLOT,
            providerId: prv.id,
            margin: HOUR,
            seats: (busy) => Math.min(1, 2 - busy.length),
            offer: offerOf(hash),
            emit: () => [],
            at: T0,
          });
        const results = await Promise.all([offer('c'.repeat(64)), offer('d'.repeat(64)), offer('e'.repeat(64))]);
        const ids = results.flat().map((entry) => entry.id);
        expect(ids.sort()).toEqual([entries[0]!.id, entries[1]!.id].sort());
      },
      RACE_TIMEOUT_MS,
    );

    test('expireOffer moves a lapsed offer to EXPIRED once and frees its seat', async () => {
      const { ws, srv, prv } = await seed(storage, { capacity: 1 });
      const entry = await storage.addWaitlistEntry(anEntry(srv), []);
      await storage.offerSeats({
        workspaceId: ws.id,
        serviceId: srv.id,
        startTime: SLOT,
        providerId: prv.id,
        margin: HOUR,
        seats: (busy) => 1 - busy.length,
        offer: offerOf('f'.repeat(64)),
        emit: () => [],
        at: T0,
      });
      expect(await storage.listLapsedOffers(T0 + HOUR - 1, 10)).toEqual([]);
      expect((await storage.listLapsedOffers(T0 + HOUR, 10)).map((lapsed) => lapsed.id)).toEqual([entry.id]);
      expect(await storage.expireOffer(entry.id, T0 + HOUR - 1, () => [])).toBeNull();
      expect((await storage.expireOffer(entry.id, T0 + HOUR, () => []))!.status).toBe('EXPIRED');
      expect(await storage.expireOffer(entry.id, T0 + HOUR, () => [])).toBeNull();
      expect(await storage.listBusy([prv.id], SLOT, SLOT + HOUR)).toEqual([]);
    });
  });
}
