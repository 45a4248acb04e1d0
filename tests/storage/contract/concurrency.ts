import { describe, expect, test } from 'bun:test';
import {
  MINUTE,
  HOUR,
  T0,
  SLOT,
  RACE_TIMEOUT_MS,
  aWorkspace,
  aWebhook,
  aPairingCode,
  aPanelCode,
  aPanelSession,
  anEvent,
  anOutcome,
  seed,
  addProvider,
  sortedIds,
  racer,
  warm,
  race,
  listed,
} from './fixtures.ts';
import { db, storage } from './database.ts';

/** The guarantees the ports write on their racing methods, across one and two storage instances. */
export function concurrencyContract() {
  describe('concurrency (the guarantees written on the port)', () => {
    test(
      'of 50 concurrent reservations of a capacity-1 slot exactly one succeeds, and the database holds one booking',
      async () => {
        const { ws, srv, prv } = await seed(storage);
        const { won, lost } = await race(
          [storage],
          Array.from({ length: 50 }, () => racer(srv, [prv.id], 1)),
        );
        expect(won).toHaveLength(1);
        expect(lost).toEqual(Array(49).fill('taken'));
        expect(await storage.listBookings(ws.id, { limit: 100 })).toEqual(listed(won));
      },
      RACE_TIMEOUT_MS,
    );

    test(
      'of 50 concurrent reservations of a capacity-5 slot exactly five succeed',
      async () => {
        const { ws, srv, prv } = await seed(storage, { capacity: 5 });
        const { won, lost } = await race(
          [storage],
          Array.from({ length: 50 }, () => racer(srv, [prv.id], 5)),
        );
        expect(won).toHaveLength(5);
        expect(lost).toHaveLength(45);
        expect(sortedIds(await storage.listBookings(ws.id, { limit: 100 }))).toEqual(sortedIds(won));
        expect(await storage.listBusy([prv.id], SLOT, SLOT + HOUR)).toHaveLength(5);
      },
      RACE_TIMEOUT_MS,
    );

    test(
      'split over two storage instances on one database, 50 racers for a capacity-1 slot: exactly one succeeds',
      async () => {
        const { ws, srv, prv } = await seed(storage);
        const { won } = await race(
          [storage, db.reopen()],
          Array.from({ length: 50 }, () => racer(srv, [prv.id], 1)),
        );
        expect(won).toHaveLength(1);
        expect(await storage.listBookings(ws.id, { limit: 100 })).toEqual(listed(won));
      },
      RACE_TIMEOUT_MS,
    );

    test(
      'split over two storage instances on one database, 50 racers for a capacity-5 slot: exactly five succeed',
      async () => {
        const { ws, srv, prv } = await seed(storage, { capacity: 5 });
        const { won } = await race(
          [storage, db.reopen()],
          Array.from({ length: 50 }, () => racer(srv, [prv.id], 5)),
        );
        expect(won).toHaveLength(5);
        expect(sortedIds(await storage.listBookings(ws.id, { limit: 100 }))).toEqual(sortedIds(won));
      },
      RACE_TIMEOUT_MS,
    );

    test(
      'auto-assignment across two candidate providers, 10 racers for a capacity-1 slot: exactly two bookings, one per provider',
      async () => {
        const { ws, srv, prv } = await seed(storage);
        const second = await addProvider(storage, ws, { serviceIds: [srv.id] });
        const { won } = await race(
          [storage, db.reopen()],
          Array.from({ length: 10 }, () => racer(srv, [prv.id, second.id], 1)),
        );
        expect(won.map((booking) => booking.providerId).sort()).toEqual([prv.id, second.id].sort());
        expect(sortedIds(await storage.listBookings(ws.id, { limit: 100 }))).toEqual(sortedIds(won));
      },
      RACE_TIMEOUT_MS,
    );

    test(
      '10 concurrent claimDueMessages from two instances over 30 due messages: every message is claimed exactly once',
      async () => {
        const ws = aWorkspace();
        await storage.createWorkspace(ws);
        await storage.createWebhook(aWebhook(ws));
        const written = await storage.enqueueEvents(Array.from({ length: 30 }, (_, i) => anEvent(ws, 'booking.created', T0 - i)));
        expect(written).toHaveLength(30);
        const other = db.reopen();
        await warm([storage, other]);
        const claims = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 ? other : storage).claimDueMessages(`worker-${i}`, T0, T0 + MINUTE, 5).then((messages) => ({ owner: `worker-${i}`, messages })),
          ),
        );
        const claimed = claims.flatMap((claim) => claim.messages);
        expect(claimed).toHaveLength(30);
        expect(sortedIds(claimed)).toEqual(sortedIds(written));
        expect(await storage.claimDueMessages('late', T0, T0 + MINUTE, 100)).toEqual([]);
        // Each lease belongs to the claimer that received the message.
        const { owner, messages } = claims.find((claim) => claim.messages.length > 0)!;
        expect(await storage.recordAttempt(owner === 'worker-0' ? 'worker-1' : 'worker-0', messages[0]!.id, anOutcome(messages[0]!))).toBe(false);
        expect(await storage.recordAttempt(owner, messages[0]!.id, anOutcome(messages[0]!))).toBe(true);
      },
      RACE_TIMEOUT_MS,
    );

    test(
      '20 concurrent consumePairingCode calls for one code, from two instances: exactly one wins',
      async () => {
        const ws = aWorkspace();
        await storage.createWorkspace(ws);
        const code = aPairingCode(ws);
        await storage.createPairingCode(code);
        const other = db.reopen();
        await warm([storage, other]);
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : storage).consumePairingCode(code.codeHash, T0 + i)));
        const winners = results.filter((result) => result !== null);
        expect(winners).toHaveLength(1);
        expect(winners[0]).toEqual({ ...code, usedAt: winners[0]!.usedAt });
        expect(await storage.consumePairingCode(code.codeHash, T0 + 100)).toBeNull();
      },
      RACE_TIMEOUT_MS,
    );

    test(
      '20 concurrent consumePanelCode calls for one code, from two instances: exactly one wins',
      async () => {
        const ws = aWorkspace();
        await storage.createWorkspace(ws);
        const code = aPanelCode(ws);
        await storage.createPanelCode(code);
        const other = db.reopen();
        await warm([storage, other]);
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : storage).consumePanelCode(code.codeHash, T0 + i)));
        const winners = results.filter((result) => result !== null);
        expect(winners).toHaveLength(1);
        expect(winners[0]).toEqual({ ...code, usedAt: winners[0]!.usedAt });
      },
      RACE_TIMEOUT_MS,
    );

    test(
      '20 concurrent rotatePanelSession calls with one token, from two instances: exactly one renews it',
      async () => {
        const ws = aWorkspace();
        await storage.createWorkspace(ws);
        const session = aPanelSession(ws);
        await storage.createPanelSession(session);
        const other = db.reopen();
        await warm([storage, other]);
        const nexts = Array.from({ length: 20 }, () => aPanelSession(ws));
        const results = await Promise.all(nexts.map((next, i) => (i % 2 ? other : storage).rotatePanelSession(session.tokenHash, next, T0 + i)));
        const winners = results.flatMap((result, i) => (result ? [i] : []));
        expect(winners).toHaveLength(1);
        expect(results[winners[0]!]).toEqual(session);
        const live = await Promise.all(nexts.map((next) => storage.findPanelSession(next.tokenHash, T0)));
        expect(live.filter((each) => each !== null)).toEqual([nexts[winners[0]!]!]);
      },
      RACE_TIMEOUT_MS,
    );

    test(
      'single writes issued while reservations are in flight all succeed, on one instance and across two',
      async () => {
        const { ws, srv, prv } = await seed(storage);
        const other = db.reopen();
        const hook = aWebhook(ws);
        await storage.createWebhook(hook);
        const codes = Array.from({ length: 5 }, () => aPairingCode(ws));
        for (const code of codes) await storage.createPairingCode(code);
        await warm([storage, other]);
        const work: Promise<unknown>[] = [];
        for (let i = 0; i < 10; i++) {
          const on = i % 2 ? other : storage;
          work.push(on.reserveBooking({ ...racer(srv, [prv.id], 100), emit: () => [anEvent(ws, 'booking.created')] }));
          work.push(on.createWorkspace(aWorkspace()));
          work.push(on.putSettingIfAbsent(`setting-${i}`, 'value'));
          work.push(on.updateWebhook(ws.id, hook.id, { name: `name-${i}` }, T0 + i));
          if (i < codes.length) work.push(on.consumePairingCode(codes[i]!.codeHash, T0));
        }
        const settled = await Promise.allSettled(work);
        expect(settled.filter((each) => each.status === 'rejected').map((each) => String((each as PromiseRejectedResult).reason))).toEqual([]);
        expect(await storage.listBookings(ws.id, { limit: 100 })).toHaveLength(10);
      },
      RACE_TIMEOUT_MS,
    );
  });
}
