import { afterEach, beforeEach, expect, test } from 'bun:test';
import { memoryRateLimiter } from '../../adapters/ratelimit/memory.ts';
import { nonePayments } from '../../adapters/payments/index.ts';
import { createApp } from '../../src/app.ts';
import { buildDeps } from '../../src/deps.ts';
import { silentLogger } from '../../src/platform/logger.ts';
import { openWaitlistToken } from '../../src/features/bookings/index.ts';
import { tendWaitlists } from '../../src/scheduler/jobs.ts';
import type { ServiceRecord, Storage } from '../../src/ports/storage/index.ts';
import { send, createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addProvider, addService, bookingBody, tuesday } from '../bookings/fixtures.ts';

/*
 * The seat invariant with waiting lists (docs/contract/classes.md §3, docs/contract/lifecycle.md): an offer's
 * hold is counted under the same provider lock as every booking, so bookings, claims, cancels and expiries
 * racing each other never put more people in a class than it has places. On Postgres half of the requests go
 * through a second app on its own connection pool: another server instance on the same database.
 */
describeEachAdapter('waiting lists under concurrency', (adapter) => {
  let app: TestApp;
  let other: { request: TestApp['request']; storage: Storage } | null;
  let yoga: ServiceRecord;
  const TEN = tuesday('10:00');

  beforeEach(async () => {
    // 200 keyed requests in one go: above the per-key limit of a minute (docs/contract/limits.md), which is not what is tested here.
    app = await createTestApp(adapter, { config: { SVC_RATE_LIMIT: 100_000 } });
    const anna = await addProvider(app, { name: 'Anna' });
    yoga = await addService(app, [anna], { name: 'Yoga', capacity: 5, duration: 60, priceMinor: 0, waitlist: true });
    other = null;
    if (adapter === 'postgres') {
      const storage = app.db.reopen();
      const deps = buildDeps({
        storage,
        config: app.deps.config,
        clock: app.clock,
        logger: silentLogger,
        rateLimiter: memoryRateLimiter(),
        payments: nonePayments(),
      });
      const second = createApp(deps);
      other = { request: (method, path, options) => send(second, method, path, options), storage };
    }
  });
  afterEach(async () => {
    await other?.storage.close();
    await app.close();
  });

  /** Every other request through the second instance, when there is one. */
  const via = (index: number) => (other && index % 2 === 1 ? other.request : app.request);
  const book = (email: string, index = 0) =>
    via(index)('POST', '/api/v1/workspaces/acme/bookings', { key: app.apiKey, body: bookingBody(yoga, TEN, { email }) });
  const join = (email: string, index = 0) =>
    via(index)('POST', '/api/v1/workspaces/acme/waitlist', { key: app.apiKey, body: { serviceId: yoga.id, date: TEN, email } });
  const cancel = (id: string, index = 0) => via(index)('POST', `/api/v1/workspaces/acme/bookings/${id}/cancel`, { key: app.apiKey, body: {} });

  /** Holding bookings plus held offers of the class at ten: never more than its five places. */
  async function taken(): Promise<{ booked: number; offered: number }> {
    const bookings = await app.deps.storage.listBookings(app.workspace.id, { serviceId: yoga.id, limit: 1000 });
    const entries = await app.deps.storage.listWaitlistEntries(app.workspace.id, { serviceId: yoga.id, limit: 1000 });
    return {
      booked: bookings.filter((booking) => booking.status === 'PENDING' || booking.status === 'CONFIRMED').length,
      offered: entries.filter((entry) => entry.status === 'OFFERED').length,
    };
  }

  async function fill(): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const made = await book(`seat${i}@example.com`);
      expect(made.status).toBe(200);
      ids.push(made.body.booking.id);
    }
    return ids;
  }

  const tokenOf = async (id: string) =>
    (await openWaitlistToken((await app.deps.storage.getWaitlistEntry(app.workspace.id, id))!, app.deps.config.SVC_SECRET))!;

  test('two seats freed at once are offered to two different entries, the two oldest', async () => {
    const seats = await fill();
    const entries: string[] = [];
    for (let i = 0; i < 4; i++) {
      entries.push((await join(`wait${i}@example.com`)).body.entry.id);
      app.clock.advance(1000);
    }
    const cancels = await Promise.all([cancel(seats[0]!, 0), cancel(seats[1]!, 1)]);
    expect(cancels.map((response) => response.status)).toEqual([200, 200]);
    const listed = await app.deps.storage.listWaitlistEntries(app.workspace.id, { limit: 100 });
    const offered = listed.filter((entry) => entry.status === 'OFFERED').map((entry) => entry.id);
    expect(offered.sort()).toEqual(entries.slice(0, 2).sort());
    expect(
      listed
        .filter((entry) => entry.status === 'WAITING')
        .map((entry) => entry.id)
        .sort(),
    ).toEqual(entries.slice(2).sort());
    expect(await taken()).toEqual({ booked: 3, offered: 2 });
  });

  test('200 racing bookings, claims and cancels never put more than five in the class', async () => {
    const seats = await fill();
    const entries: string[] = [];
    for (let i = 0; i < 6; i++) {
      entries.push((await join(`wait${i}@example.com`)).body.entry.id);
      app.clock.advance(1000);
    }
    // Three seats free up and are offered to the three oldest entries.
    for (const id of seats.slice(0, 3)) expect((await cancel(id)).status).toBe(200);
    const tokens = await Promise.all(entries.slice(0, 3).map(tokenOf));

    const requests = [
      ...Array.from({ length: 200 }, (_, index) => book(`racer${index}@example.com`, index)),
      ...tokens.map((token, index) => via(index)('POST', `/api/waitlist/${token}/claim`)),
      // two more seats free up in the middle of it
      cancel(seats[3]!, 0),
      cancel(seats[4]!, 1),
    ];
    const responses = await Promise.all(requests);
    expect(responses.slice(203).map((response) => response.status)).toEqual([200, 200]);
    const claims = responses.slice(200, 203);
    expect(claims.map((response) => response.status)).toEqual([200, 200, 200]);
    const { booked, offered } = await taken();
    expect(booked + offered).toBeLessThanOrEqual(5);
    const bookedOk = responses.slice(0, 200).filter((response) => response.status === 200).length;
    // Every racer that got in took a seat a cancel freed before the next entry was offered it.
    expect(booked).toBe(3 + bookedOk);
    for (const response of responses.slice(0, 200)) expect([200, 409]).toContain(response.status);
    const claimed = await app.deps.storage.listWaitlistEntries(app.workspace.id, { limit: 100 });
    expect(
      claimed
        .filter((entry) => entry.status === 'BOOKED')
        .map((entry) => entry.id)
        .sort(),
    ).toEqual(entries.slice(0, 3).sort());
  });

  test('a claim racing the expiry of its hold has exactly one outcome', async () => {
    for (let round = 0; round < 6; round++) {
      // A class of five, full, with one waiting entry that is then offered a seat.
      const roundApp = app;
      const seats = await fill();
      const id = (await join(`wait${round}@example.com`)).body.entry.id;
      expect((await cancel(seats[0]!)).status).toBe(200);
      const entry = (await roundApp.deps.storage.getWaitlistEntry(roundApp.workspace.id, id))!;
      expect(entry.status).toBe('OFFERED');
      const token = await tokenOf(id);
      // The claim is made a moment before the hold lapses; the housekeeping runs at the moment it lapses.
      roundApp.clock.set(entry.offerExpiresAt! - 1);
      const [claim] = await Promise.all([via(round)('POST', `/api/waitlist/${token}/claim`), tendWaitlists(roundApp.deps, entry.offerExpiresAt!)]);
      const after = (await roundApp.deps.storage.getWaitlistEntry(roundApp.workspace.id, id))!;
      if (claim.status === 200) {
        expect(after.status).toBe('BOOKED');
        expect(after.bookingId).toBe(claim.body.booking.id);
      } else {
        expect(claim.status).toBe(409);
        expect(after.status).toBe('EXPIRED');
        const bookings = await roundApp.deps.storage.listBookings(roundApp.workspace.id, { limit: 1000 });
        expect(bookings.some((booking) => booking.customerEmail === `wait${round}@example.com`)).toBe(false);
      }
      const { booked, offered } = await taken();
      expect(booked + offered).toBeLessThanOrEqual(5);
      // Next round on a fresh class: clear this one.
      for (const booking of await roundApp.deps.storage.listBookings(roundApp.workspace.id, { serviceId: yoga.id, limit: 1000 })) {
        if (booking.status === 'CONFIRMED') await cancel(booking.id);
      }
      for (const left of await roundApp.deps.storage.listWaitlistEntries(roundApp.workspace.id, { limit: 1000 })) {
        await roundApp.deps.storage.deleteWaitlistEntry(roundApp.workspace.id, left.id);
      }
      roundApp.clock.set('2026-11-23T08:00:00.000Z');
    }
  });
});
