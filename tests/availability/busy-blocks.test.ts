import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { manualClock } from '../../src/core/clock.ts';
import { createLoadingCache } from '../../src/core/loading-cache.ts';
import { AVAILABILITY_CACHE_MS, HEARD_BUSY_BLOCKS_MS } from '../../src/deps.ts';
import { type BlockDay, busyInBlocks, createBusyCache } from '../../src/features/scheduling/busy-blocks.ts';
import type { BookingStore, BusyInterval, ProviderRecord, ServiceRecord } from '../../src/ports/storage/index.ts';
import { addProvider, addService, berlin, catalogue } from '../bookings/fixtures.ts';
import { aBooking, HOUR, MINUTE } from '../storage/contract/fixtures.ts';
import { createTestApp, send, type TestApp } from '../support/app.ts';
import { POSTGRES_URL } from '../support/storage.ts';
import { waitFor } from '../support/wait.ts';

/** A seeded pseudo-random sequence (mulberry32), so a failure names the case it failed on. */
function randomOf(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Inserts a booking as it is, as another writer would: the reservation's own check is not the subject here. */
async function insert(ctx: TestApp, booking: ReturnType<typeof aBooking>) {
  const reserved = await ctx.db.storage.reserveBooking({ booking, candidates: [booking.providerId], margin: 0, fits: () => null, emit: () => [] });
  expect(reserved.ok).toBe(true);
}

const idsOf = (intervals: readonly BusyInterval[]) => intervals.map((interval) => interval.bookingId!).sort();

/** `count` consecutive days of Europe/Berlin from `first`, as availability hands them to busyInBlocks. */
function berlinDays(first: Temporal.PlainDate, count: number): BlockDay[] {
  return Array.from({ length: count }, (_, index) => {
    const date = first.add({ days: index });
    return {
      date: date.toString(),
      from: date.toZonedDateTime('Europe/Berlin').epochMilliseconds,
      to: date.add({ days: 1 }).toZonedDateTime('Europe/Berlin').epochMilliseconds,
    };
  });
}

describe('busy bookings read through blocks (features/scheduling/busy-blocks.ts)', () => {
  let ctx: TestApp;
  let providers: ProviderRecord[];
  let service: ServiceRecord;
  /** the bookings fill the ten days from 2027-03-24, across the change to summer time on the 28th (a 23-hour day) */
  const firstDay = Temporal.PlainDate.from('2027-03-24');
  const start = Date.parse('2027-03-24T00:00:00.000Z');

  beforeAll(async () => {
    ctx = await createTestApp('libsql');
    providers = [await addProvider(ctx, { name: 'Alex' }), await addProvider(ctx, { name: 'Sam' }), await addProvider(ctx, { name: 'Kim' })];
    service = await addService(ctx, providers);
    const random = randomOf(27);
    // Short ones, long ones across midnight (up to 24 hours), some with buffers of their own.
    for (let index = 0; index < 240; index++) {
      const provider = providers[index % providers.length]!;
      const at = start + Math.floor(random() * 10 * 96) * 15 * MINUTE;
      const minutes = random() < 0.15 ? 60 * (1 + Math.floor(random() * 24)) : 15 * (1 + Math.floor(random() * 8));
      const bufferTime = random() < 0.3 ? 15 * Math.floor(random() * 9) : 0;
      await insert(ctx, aBooking(service, provider, { startTime: at, endTime: at + minutes * MINUTE, bufferTime, createdAt: ctx.clock.now() }));
    }
  });
  afterAll(() => ctx.close());

  test('answers what listBusy answers for the days, each interval once, whatever the days, the buffer and the blocks already kept', async () => {
    const random = randomOf(11);
    const ids = providers.map((provider) => provider.id);
    const shared = createBusyCache({ clock: ctx.clock, ttlMs: 60_000 });
    for (let round = 0; round < 300; round++) {
      const days = berlinDays(firstDay.add({ days: Math.floor(random() * 12) - 1 }), 1 + Math.floor(random() * 6));
      const buffer = [0, 15 * MINUTE, 2 * HOUR][Math.floor(random() * 3)]!;
      const asked = ids.filter(() => random() < 0.7);
      if (asked.length === 0) asked.push(ids[0]!);
      // every other round on a fresh cache, the rest on one that keeps what earlier rounds read
      const cache = round % 2 === 0 ? createBusyCache({ clock: ctx.clock, ttlMs: 60_000 }) : shared;
      const found = idsOf(await busyInBlocks(cache, ctx.db.storage, ctx.workspace.id, asked, days, buffer));
      const expected = idsOf(await ctx.db.storage.listBusy(asked, days[0]!.from, days.at(-1)!.to, buffer));
      const label = `round ${round}: ${days[0]!.date} to ${days.at(-1)!.date}, buffer ${buffer / MINUTE} min`;
      expect({ label, found }).toEqual({ label, found: expected });
    }
  });

  test('blocks already kept are not read again, and the missing ones of a call are read together', async () => {
    const reads: [string, string][] = [];
    const counted: Pick<BookingStore, 'listBusy'> = {
      listBusy: (ids, from, to, buffer) => {
        reads.push([new Date(from).toISOString(), new Date(to).toISOString()]);
        return ctx.db.storage.listBusy(ids, from, to, buffer);
      },
    };
    const cache = createBusyCache({ clock: ctx.clock, ttlMs: 60_000 });
    const ids = providers.map((provider) => provider.id);
    const days = berlinDays(firstDay, 8);
    await busyInBlocks(cache, counted, ctx.workspace.id, ids, days.slice(2, 5), 0);
    // Berlin days: 23:00 Z in winter, 22:00 Z from the 28th on
    expect(reads).toEqual([['2027-03-25T23:00:00.000Z', '2027-03-28T22:00:00.000Z']]);
    // inside what is kept: no read; across its end: only the days after it
    await busyInBlocks(cache, counted, ctx.workspace.id, ids, days.slice(3, 4), 0);
    await busyInBlocks(cache, counted, ctx.workspace.id, ids, days.slice(4, 8), 0);
    expect(reads).toEqual([
      ['2027-03-25T23:00:00.000Z', '2027-03-28T22:00:00.000Z'],
      ['2027-03-28T22:00:00.000Z', '2027-03-31T22:00:00.000Z'],
    ]);
    // another buffer asks for other bookings: its own blocks
    await busyInBlocks(cache, counted, ctx.workspace.id, ids, days.slice(3, 4), 30 * MINUTE);
    expect(reads).toHaveLength(3);
  });

  test('what a cache keeps goes once its time has passed, in every workspace', async () => {
    const clock = manualClock('2026-11-23T08:00:00.000Z');
    const cache = createLoadingCache({ clock, ttlMs: 1000 });
    for (let index = 0; index < 50; index++) await cache.load(`ws_${index}`, 'busy', async () => [index]);
    expect(cache.size()).toBe(50);
    clock.advance(1000);
    await cache.load('ws_new', 'busy', async () => []);
    expect(cache.size()).toBe(1);
  });

  test('a peeker answers only values kept within their time as of its making: not a running load, not one expired or invalidated', async () => {
    const clock = manualClock('2026-11-23T08:00:00.000Z');
    const cache = createLoadingCache({ clock, ttlMs: 1000 });
    const peek = (scope: string, key: string) => cache.peeker<string[]>(scope)(key);
    let finish: (value: string[]) => void = () => {};
    const running = cache.load('ws', 'busy', () => new Promise<string[]>((resolve) => (finish = resolve)));
    expect(peek('ws', 'busy')).toBeUndefined();
    finish(['kept']);
    await running;
    expect(peek('ws', 'busy')).toEqual(['kept']);
    expect(peek('ws', 'other')).toBeUndefined();
    expect(peek('ws_other', 'busy')).toBeUndefined();
    clock.advance(999);
    const atTheLastMoment = cache.peeker<string[]>('ws');
    expect(atTheLastMoment('busy')).toEqual(['kept']);
    clock.advance(1);
    expect(peek('ws', 'busy')).toBeUndefined();
    // a peeker answers as of its making: one question's keys are looked at one moment
    expect(atTheLastMoment('busy')).toEqual(['kept']);
    await cache.load('ws', 'busy', async () => ['again']);
    cache.invalidate('ws');
    expect(peek('ws', 'busy')).toBeUndefined();
  });
});

/** The calls `storage.listBusy` gets from now on. */
function countBusyReads(storage: Pick<BookingStore, 'listBusy'>): { count: number } {
  const reads = { count: 0 };
  const listBusy = storage.listBusy;
  storage.listBusy = (...args) => {
    reads.count += 1;
    return listBusy(...args);
  };
  return reads;
}

const availabilityOn = (adapter: 'libsql' | 'postgres') => () => {
  let ctx: TestApp;
  let serviceId: string;
  let providerId: string;
  let reads: { count: number };

  beforeAll(async () => {
    ctx = await createTestApp(adapter);
    ({
      service: { id: serviceId },
      provider: { id: providerId },
    } = await catalogue(ctx, { duration: 60 }));
    reads = countBusyReads(ctx.deps.storage);
    if (adapter === 'postgres') await waitFor(() => ctx.db.storage.hearsEveryBookingWrite(), { what: 'the change channel to listen' });
  });
  afterAll(() => ctx.close());

  // each question asks another duration: another answer, computed from the blocks under it
  let duration = 30;
  const days = async () =>
    (await send(ctx.app, 'GET', `/api/v1/workspaces/acme/availability/days?serviceId=${serviceId}&from=2026-11-30&to=2026-12-11&duration=${(duration += 5)}`))
      .body.days as string[];
  const slots = async () =>
    (await send(ctx.app, 'GET', `/api/v1/workspaces/acme/availability?serviceId=${serviceId}&date=2026-12-02&duration=${(duration += 5)}`)).body
      .slots as string[];

  /** Fills Wednesday 2026-12-02 09:00–17:00 (the workspace's hours) with one booking. */
  const fillWednesday = (id: string) => {
    const at = Date.parse(berlin('2026-12-02', '09:00'));
    return aBooking(
      { workspaceId: ctx.workspace.id, id: serviceId } as ServiceRecord,
      { id: providerId },
      { id, startTime: at, endTime: at + 8 * HOUR, createdAt: ctx.clock.now() },
    );
  };
  const cancel = (id: string) => send(ctx.app, 'POST', `/api/v1/workspaces/acme/bookings/${id}/cancel`, { key: ctx.apiKey, body: {} });

  test('a booking made through this server shows at once in answers computed from blocks read before it', async () => {
    expect(await days()).toContain('2026-12-02');
    const booked = await send(ctx.app, 'POST', '/api/v1/workspaces/acme/bookings', {
      key: ctx.apiKey,
      body: { serviceId, email: 'mia@example.com', date: berlin('2026-12-02', '09:00'), duration: 480 },
    });
    expect(booked.status).toBe(200);
    expect(await days()).not.toContain('2026-12-02');
    expect(await slots()).toEqual([]);
    expect((await cancel(booked.body.booking.id)).status).toBe(200);
    expect(await days()).toContain('2026-12-02');
  });

  test('while the storage hears of every booking write, the bookings read are kept for a minute, not a second', async () => {
    expect(ctx.db.storage.hearsEveryBookingWrite()).toBe(true);
    expect(await days()).toContain('2026-12-02');
    reads.count = 0;
    ctx.clock.advance(HEARD_BUSY_BLOCKS_MS - 1000);
    expect(await days()).toContain('2026-12-02');
    expect(reads.count).toBe(0);
    ctx.clock.advance(1000);
    expect(await days()).toContain('2026-12-02');
    expect(reads.count).toBe(1);
  });

  if (adapter === 'postgres') {
    test("another instance's booking shows as soon as its change is heard, and so does its cancellation", async () => {
      expect(await days()).toContain('2026-12-02');
      const elsewhere = ctx.db.reopen();
      const reserved = await elsewhere.reserveBooking({
        booking: fillWednesday('bk_elsewhere_pg'),
        candidates: [providerId],
        margin: 0,
        fits: () => null,
        emit: () => [],
      });
      expect(reserved.ok).toBe(true);
      await waitFor(async () => !(await days()).includes('2026-12-02'), { what: "the other instance's booking to show" });
      expect(await slots()).toEqual([]);
      expect((await cancel('bk_elsewhere_pg')).status).toBe(200);
      expect(await days()).toContain('2026-12-02');
    });
  }

  // On Postgres the channel's own test closes it (tests/storage/change-channel.test.ts); the cache asks the same question.
  if (adapter === 'libsql')
    test("without that (a remote libSQL server, Postgres without its channel), another writer's booking shows once the blocks and the answer have had their second; explain shows it at once", async () => {
      const hears = ctx.db.storage.hearsEveryBookingWrite;
      ctx.db.storage.hearsEveryBookingWrite = () => false;
      ctx.deps.busyCache!.invalidate();
      try {
        expect(await days()).toContain('2026-12-02');
        const id = `bk_unheard_${adapter}`;
        // a storage of its own that tells this one nothing: another client of a remote server
        await ctx.db.reopen().reserveBooking({ booking: fillWednesday(id), candidates: [providerId], margin: 0, fits: () => null, emit: () => [] });
        // another question, but the blocks under it were read before the write
        expect(await days()).toContain('2026-12-02');
        const explained = await send(ctx.app, 'GET', `/api/v1/workspaces/acme/availability/explain?serviceId=${serviceId}&date=2026-12-02`, {
          key: ctx.apiKey,
        });
        expect(explained.status).toBe(200);
        const times = explained.body.times as { time: string; free: boolean; reasons: { code: string; bookingId?: string }[] }[];
        expect(times.filter((time) => time.free)).toEqual([]);
        expect(times.find((time) => time.time === '10:00')?.reasons).toContainEqual({ code: 'BOOKED', bookingId: id });
        ctx.clock.advance(AVAILABILITY_CACHE_MS);
        expect(await days()).not.toContain('2026-12-02');
        expect(await days()).not.toContain('2026-12-02');
      } finally {
        ctx.db.storage.hearsEveryBookingWrite = hears;
      }
    });
};

describe('availability over the busy blocks, as buildDeps wires them (libSQL)', availabilityOn('libsql'));
if (POSTGRES_URL) describe('availability over the busy blocks, as buildDeps wires them (Postgres)', availabilityOn('postgres'));
