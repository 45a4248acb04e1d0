import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import postgres from 'postgres';
import { memoryRateLimiter } from '../../adapters/ratelimit/memory.ts';
import { postgresRateLimiter } from '../../adapters/ratelimit/postgres.ts';
import type { RateLimiter } from '../../src/ports/ratelimit.ts';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from '../support/storage.ts';

const WINDOW_MS = 60_000;
const NOW = Date.parse('2026-11-23T08:00:30.000Z');

type ClosableLimiter = RateLimiter & { close(): Promise<void> };

/** A Postgres limiter on its own pool, as one instance would hold it, counting the queries it sends. */
function instance(db: TestDatabase): { limiter: ClosableLimiter; queries: () => number; leases: () => number } {
  let queries = 0;
  let leases = 0;
  const sql = postgres(db.env.DATABASE_URL!, {
    max: 3,
    onnotice: () => {},
    debug: (_connection, query) => {
      queries += 1;
      if (/svc_rate_limit_lease/.test(query)) leases += 1;
    },
  });
  return { limiter: postgresRateLimiter(sql), queries: () => queries, leases: () => leases };
}

/** The most requests allowed in any span of WINDOW_MS ([t, t + WINDOW_MS)), over the allowed requests' times. */
function busiestSpan(allowedAt: number[]): number {
  const times = [...allowedAt].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= WINDOW_MS) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/**
 * A client that sends `perSecond` requests a second (sequentially, on the injected clock) from `from` for
 * `seconds`, through `limiterAt(i)`; resolves with the times of the allowed ones and every decision.
 */
async function steadyTraffic(limiterAt: (i: number) => RateLimiter, key: string, limit: number, from: number, seconds: number, perSecond: number) {
  const allowedAt: number[] = [];
  const decisions: { now: number; allowed: boolean; resetAt: number }[] = [];
  const step = 1000 / perSecond;
  for (let i = 0; i < seconds * perSecond; i++) {
    const now = from + Math.round(i * step);
    const decision = await limiterAt(i).hit(key, limit, WINDOW_MS, now);
    decisions.push({ now, allowed: decision.allowed, resetAt: decision.resetAt });
    if (decision.allowed) allowedAt.push(now);
  }
  return { allowedAt, decisions };
}

/** Bursts of `limit` just before and just after a calendar minute's boundary (08:00:59.5, 08:01:00.5). */
async function acrossTheBoundary(limiter: RateLimiter, key: string, limit: number) {
  const before = Date.parse('2026-11-23T08:00:59.500Z');
  const after = Date.parse('2026-11-23T08:01:00.500Z');
  let allowedBefore = 0;
  for (let i = 0; i < limit; i++) allowedBefore += (await limiter.hit(key, limit, WINDOW_MS, before)).allowed ? 1 : 0;
  const second = [];
  for (let i = 0; i < limit; i++) second.push(await limiter.hit(key, limit, WINDOW_MS, after));
  return { allowedBefore, allowedAfter: second.filter((decision) => decision.allowed).length, refusal: second.at(-1)!, after };
}

async function allowedOf(calls: Promise<{ allowed: boolean }>[]): Promise<number> {
  return (await Promise.all(calls)).filter((decision) => decision.allowed).length;
}

describe('memory limiter: an exact sliding window', () => {
  test('exactly `limit` calls are allowed, remaining counts down, each request leaves the count a window after it', async () => {
    const limiter = memoryRateLimiter();
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push(await limiter.hit('k', 5, WINDOW_MS, NOW));
    expect(decisions.map((decision) => [decision.allowed, decision.remaining])).toEqual([
      [true, 4],
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions[5]!.resetAt).toBe(Date.parse('2026-11-23T08:01:30.000Z'));
    expect((await limiter.hit('k', 5, WINDOW_MS, NOW + WINDOW_MS - 1)).allowed).toBe(false);
    expect(await limiter.hit('k', 5, WINDOW_MS, NOW + WINDOW_MS)).toEqual({
      allowed: true,
      limit: 5,
      remaining: 4,
      resetAt: Date.parse('2026-11-23T08:02:30.000Z'),
    });
    await limiter.close();
  });

  test('a burst just before a minute boundary and one just after: the second is refused, with Retry-After to the first leaving', async () => {
    const limiter = memoryRateLimiter();
    const { allowedBefore, allowedAfter, refusal } = await acrossTheBoundary(limiter, 'edge', 120);
    expect(allowedBefore).toBe(120);
    expect(allowedAfter).toBe(0);
    expect(refusal.resetAt).toBe(Date.parse('2026-11-23T08:01:59.500Z'));
    expect((await limiter.hit('edge', 120, WINDOW_MS, Date.parse('2026-11-23T08:01:59.499Z'))).allowed).toBe(false);
    expect((await limiter.hit('edge', 120, WINDOW_MS, Date.parse('2026-11-23T08:01:59.500Z'))).allowed).toBe(true);
    await limiter.close();
  });

  test('steady traffic over three minutes: never more than the limit in any 60-s span, and the limit is reached', async () => {
    const limiter = memoryRateLimiter();
    const { allowedAt, decisions } = await steadyTraffic(() => limiter, 'steady', 120, NOW, 180, 4);
    expect(busiestSpan(allowedAt)).toBe(120);
    // refused requests are told when to come back, and the first one back then is allowed
    const refused = decisions.find((decision) => !decision.allowed)!;
    expect(decisions.find((decision) => decision.now >= refused.resetAt)!.allowed).toBe(true);
    await limiter.close();
  });
});

const describePostgres = POSTGRES_URL ? describe : describe.skip;

describePostgres('Postgres limiter: leases from one shared sliding budget', () => {
  let db: TestDatabase;
  const opened: ClosableLimiter[] = [];
  function open() {
    const each = instance(db);
    opened.push(each.limiter);
    return each;
  }
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const limiter of opened) await limiter.close();
    await db.drop();
  });

  test('one instance allows exactly `limit`, with exact remaining counts, sequential or concurrent', async () => {
    const { limiter } = open();
    const sequential = [];
    for (let i = 0; i < 125; i++) sequential.push(await limiter.hit('one:seq', 120, WINDOW_MS, NOW));
    expect(sequential.filter((decision) => decision.allowed)).toHaveLength(120);
    expect(sequential.slice(0, 120).map((decision) => decision.remaining)).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    expect(sequential.slice(120).every((decision) => !decision.allowed && decision.remaining === 0)).toBe(true);

    const concurrent = await Promise.all(Array.from({ length: 300 }, () => limiter.hit('one:par', 120, WINDOW_MS, NOW)));
    expect(concurrent.filter((decision) => decision.allowed)).toHaveLength(120);
    expect(
      concurrent
        .filter((decision) => decision.allowed)
        .map((decision) => decision.remaining)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 120 }, (_, i) => i));
  });

  test('two instances racing on one key allow between 90 % and 100 % of the limit, never more', async () => {
    const [a, b] = [open().limiter, open().limiter];
    for (const [round, limit] of [
      [1, 120],
      [2, 120],
      [3, 1000],
      [4, 7],
    ] as const) {
      const key = `race:${round}`;
      const calls = Array.from({ length: limit * 2 }, (_, i) => (i % 3 ? a : b).hit(key, limit, WINDOW_MS, NOW));
      const allowed = await allowedOf(calls);
      expect(allowed).toBeLessThanOrEqual(limit);
      expect(allowed).toBeGreaterThanOrEqual(Math.floor(limit * 0.9));
    }
  });

  test('whatever the order and bursts across two instances, the combined allowance stays within 10 % of the limit', async () => {
    const [a, b] = [open().limiter, open().limiter];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ onA: fc.boolean(), burst: fc.integer({ min: 1, max: 40 }), concurrent: fc.boolean(), advanceMs: fc.integer({ min: 0, max: 400 }) }),
          { minLength: 1, maxLength: 20 },
        ),
        fc.boolean(),
        async (steps, drainOnA) => {
          const key = `prop:${run++}`;
          let now = NOW;
          let allowed = 0;
          for (const step of steps) {
            now = Math.min(now + step.advanceMs, NOW + 29_000);
            const limiter = step.onA ? a : b;
            if (step.concurrent) allowed += await allowedOf(Array.from({ length: step.burst }, () => limiter.hit(key, 120, WINDOW_MS, now)));
            else for (let i = 0; i < step.burst; i++) allowed += (await limiter.hit(key, 120, WINDOW_MS, now)).allowed ? 1 : 0;
          }
          // Then one instance asks until refused: whatever the other holds unused is what the two fall short by.
          const drainer = drainOnA ? a : b;
          while ((await drainer.hit(key, 120, WINDOW_MS, now)).allowed) allowed += 1;
          expect(allowed).toBeLessThanOrEqual(120);
          expect(allowed).toBeGreaterThanOrEqual(108);
        },
      ),
      { numRuns: 15 },
    );
  });

  test('an instance that leased ahead and then went quiet withholds at most 5 % of the limit', async () => {
    const [a, b] = [open().limiter, open().limiter];
    // Hot on A (its leases grow), then all traffic moves to B.
    for (let i = 0; i < 60; i++) expect((await a.hit('quiet', 1000, WINDOW_MS, NOW)).allowed).toBe(true);
    let allowedOnB = 0;
    while ((await b.hit('quiet', 1000, WINDOW_MS, NOW)).allowed) allowedOnB += 1;
    expect(60 + allowedOnB).toBeLessThanOrEqual(1000);
    expect(60 + allowedOnB).toBeGreaterThanOrEqual(950);
  });

  test('a hot key costs a few leases, not one per request; a spent budget is refused without asking', async () => {
    const { limiter, leases, queries } = open();
    for (let i = 0; i < 1000; i++) await limiter.hit('hot', 1_000_000, WINDOW_MS, NOW + i);
    expect(leases()).toBeLessThan(30);

    const before = leases();
    await Promise.all(Array.from({ length: 200 }, () => limiter.hit('burst', 1_000_000, WINDOW_MS, NOW)));
    expect(leases() - before).toBeLessThanOrEqual(2);

    for (let i = 0; i < 10; i++) await limiter.hit('spent', 10, WINDOW_MS, NOW);
    const spent = leases();
    const refused = await Promise.all(Array.from({ length: 100 }, () => limiter.hit('spent', 10, WINDOW_MS, NOW)));
    expect(refused.every((decision) => !decision.allowed)).toBe(true);
    expect(leases()).toBe(spent + 1);
    const asked = queries();
    expect((await limiter.hit('spent', 10, WINDOW_MS, NOW + 1000)).allowed).toBe(false);
    expect(queries()).toBe(asked);
  });

  test("a new client address's opening burst (a widget's config, services, days, times) costs one lease", async () => {
    const { limiter, leases } = open();
    for (let i = 0; i < 4; i++) expect((await limiter.hit('visitor', 120, WINDOW_MS, NOW + i * 10)).allowed).toBe(true);
    expect(leases()).toBe(1);
    // a key with a small budget leases no more than its share ahead: one token at a time
    for (let i = 0; i < 4; i++) await limiter.hit('small', 10, WINDOW_MS, NOW + i * 10);
    expect(leases()).toBe(1 + 4);
  });

  test('the budget slides: requests leave the count a window (and at most one 1-s slot) after they were made', async () => {
    const [a, b] = [open().limiter, open().limiter];
    await allowedOf(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).hit('slides', 10, WINDOW_MS, NOW)));
    const refusal = await a.hit('slides', 10, WINDOW_MS, NOW);
    expect(refusal.allowed).toBe(false);
    // made at 08:00:30.000, in the slot 08:00:30–31: counted until 08:01:31
    expect(refusal.resetAt).toBe(Date.parse('2026-11-23T08:01:31.000Z'));
    expect((await b.hit('slides', 10, WINDOW_MS, refusal.resetAt - 1)).allowed).toBe(false);
    const next = refusal.resetAt;
    expect(await allowedOf(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).hit('slides', 10, WINDOW_MS, next)))).toBe(10);
  });

  test('a burst just before a minute boundary and one just after: the second is refused on every instance', async () => {
    const { limiter } = open();
    const { allowedBefore, allowedAfter, refusal } = await acrossTheBoundary(limiter, 'edge', 120);
    expect(allowedBefore).toBe(120);
    expect(allowedAfter).toBe(0);
    expect(refusal.resetAt).toBe(Date.parse('2026-11-23T08:02:00.000Z'));
    const other = open().limiter;
    expect((await other.hit('edge', 120, WINDOW_MS, Date.parse('2026-11-23T08:01:30.000Z'))).allowed).toBe(false);
  });

  test('steady traffic over three minutes across two instances: never more than the limit in any 60-s span, and near it', async () => {
    const [a, b] = [open().limiter, open().limiter];
    const { allowedAt, decisions } = await steadyTraffic((i) => (i % 3 ? a : b), 'steady', 120, NOW, 180, 4);
    expect(busiestSpan(allowedAt)).toBeLessThanOrEqual(120);
    expect(busiestSpan(allowedAt)).toBeGreaterThanOrEqual(108);
    const refused = decisions.find((decision) => !decision.allowed)!;
    expect(decisions.find((decision) => decision.now >= refused.resetAt)!.allowed).toBe(true);
  });
});
