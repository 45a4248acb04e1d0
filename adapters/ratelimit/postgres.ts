import type { Sql } from 'postgres';
import { RATE_LIMIT_SLOTS, type RateLimitDecision, type RateLimiter } from '../../src/ports/ratelimit.ts';
import { translateUnavailable } from '../storage/sql/unavailable.ts';

/**
 * The most an instance leases beyond the requests it is answering, as a share of the budget still free: the
 * tokens an instance holds when its traffic for a key stops are lost to the other instances until they leave
 * the window, so this bounds what a quiet instance can withhold.
 */
const LEASE_SHARE_OF_FREE = 0.05;
/**
 * Tokens the first lease of a key asks for (within LEASE_SHARE_OF_FREE of the free budget): a new key is mostly
 * a visitor's address, and a widget opens with a burst (its config, the services, the days, a day's times), which
 * then costs one lease instead of four.
 */
const FIRST_LEASE = 4;
/** A lease used up within this long (by the callers' clock) doubles the next one; a slower one halves it. */
const LEASE_HORIZON_MS = 250;

interface Waiter {
  resolve(decision: RateLimitDecision): void;
  reject(error: unknown): void;
}

interface KeyState {
  /** the slot the held tokens are counted in (the newest slot a call arrived in) */
  slot: number;
  /** tokens leased in `slot` and not yet handed out */
  tokens: number;
  /** tokens leased in older slots and never handed out: the next lease gives them back, per slot */
  unused: Map<number, number>;
  /** the shared budget left after this instance's last lease, tokens it holds included */
  remaining: number;
  /** when the oldest slot counted at the last lease leaves the window */
  resetAt: number;
  /** the budget is spent: refuse without asking until this moment */
  refusedUntil: number;
  /** tokens asked for beyond the waiting requests in the next lease */
  size: number;
  leasedAt: number;
  /** requests waiting for the lease in flight */
  waiting: Waiter[];
  inFlight: boolean;
}

/**
 * One lease as one statement, one round trip: svc_rate_limit_lease (migration 0009 of the Postgres storage), which
 * under the key's advisory lock gives back the unused tokens of older slots, then counts the window and adds what
 * is granted. Its statements read with snapshots of their own, so the count is read after the lock is held. The
 * commit does not wait for the WAL to reach the disk (synchronous_commit off, for this transaction only): a crash
 * of the database could forget the last few counts, which a rate limit can afford, and every request from a new
 * client address pays one lease.
 */
async function countLease(
  sql: Sql,
  key: string,
  slot: number,
  slotMs: number,
  giveBack: [number, number][],
  want: number,
  limit: number,
): Promise<{ used: number; granted: number; oldestStart: number }> {
  const returned = JSON.stringify(giveBack.map(([from, tokens]) => ({ slot: from, tokens })));
  const [row] = await sql<{ used: string; oldest: string | null; granted: string }[]>`
    select used, oldest, granted from svc_rate_limit_lease(${key}, ${slot}, ${slotMs}, ${RATE_LIMIT_SLOTS}, ${returned}, ${want}, ${limit})`;
  const granted = Number(row!.granted);
  const starts = row!.oldest === null ? Infinity : Number(row!.oldest);
  return { used: Number(row!.used), granted, oldestStart: Math.min(starts, granted > 0 ? slot * slotMs : Infinity) };
}

/**
 * Rate limits shared by every instance on one Postgres database, over a sliding window counted in slots
 * (RATE_LIMIT_SLOTS per window; one row per key and slot in `rate_limits`, keyed `<key>#<slot>`). A request in
 * slot s is allowed while the slots s - RATE_LIMIT_SLOTS … s hold fewer than `limit`: that range covers the
 * last `windowMs` whole, so no span of `windowMs` ever holds more than `limit` allowed requests.
 *
 * Each instance leases tokens from that shared count and hands them out locally: one statement (holding a
 * per-key advisory lock, so leases of one key are counted one after the other) serves every request waiting
 * for it plus, for a key this instance sees often, a few requests ahead (up to LEASE_SHARE_OF_FREE of the free
 * budget, sized by how fast the last lease went). Tokens are good only in the slot they were counted in: those
 * left when a newer slot begins are given back by the next lease. While the database does not answer, hit()
 * rejects with AppError UNAVAILABLE (503). close() ends `sql` unless `ownsClient` is false (the pool is the
 * storage's, which ends it).
 */
export function postgresRateLimiter(sql: Sql, options: { ownsClient?: boolean } = {}): RateLimiter & { close(): Promise<void> } {
  const states = new Map<string, KeyState>();

  function allowedOne(state: KeyState, limit: number): RateLimitDecision {
    state.tokens -= 1;
    state.remaining -= 1;
    return { allowed: true, limit, remaining: Math.max(0, state.remaining), resetAt: state.resetAt };
  }

  const refused = (state: KeyState, limit: number): RateLimitDecision => ({ allowed: false, limit, remaining: 0, resetAt: state.refusedUntil });

  /** Leases tokens in `state.slot` for the waiting requests (and a few ahead), giving back the unused ones of older slots. */
  async function lease(key: string, state: KeyState, limit: number, windowMs: number, now: number) {
    state.inFlight = true;
    const slotMs = windowMs / RATE_LIMIT_SLOTS;
    const slot = state.slot;
    const oldest = slot - RATE_LIMIT_SLOTS;
    const giveBack = [...state.unused].filter(([from]) => from >= oldest);
    state.unused.clear();
    const freeBefore = Math.max(0, state.remaining - state.tokens);
    const ahead = Math.min(state.size, Math.max(1, Math.floor(freeBefore * LEASE_SHARE_OF_FREE)));
    const want = Math.max(state.waiting.length, ahead);
    let granted = 0;
    try {
      const counted = await countLease(sql, key, slot, slotMs, giveBack, want, limit);
      granted = counted.granted;
      state.remaining = Math.max(0, limit - counted.used - granted) + granted;
      // a slot counts while the current slot is at most RATE_LIMIT_SLOTS newer: it leaves one window and one slot after it began
      state.resetAt = Number.isFinite(counted.oldestStart) ? counted.oldestStart + windowMs + slotMs : now + windowMs + slotMs;
      state.refusedUntil = granted < want ? state.resetAt : -Infinity;
      state.size = now - state.leasedAt < LEASE_HORIZON_MS ? Math.min(state.size * 2, limit) : Math.max(1, Math.floor(state.size / 2));
      state.leasedAt = now;
    } catch (error) {
      state.inFlight = false;
      for (const [from, count] of giveBack) state.unused.set(from, (state.unused.get(from) ?? 0) + count);
      for (const waiter of state.waiting.splice(0)) waiter.reject(error);
      return;
    }
    state.inFlight = false;
    if (state.slot !== slot) {
      // Calls of a newer slot arrived meanwhile: tokens counted in the older slot would be used after it.
      state.unused.set(slot, (state.unused.get(slot) ?? 0) + granted);
      state.remaining -= granted;
    } else {
      state.tokens += granted;
    }
    const waiting = state.waiting.splice(0);
    for (const waiter of waiting) {
      if (state.tokens > 0) waiter.resolve(allowedOne(state, limit));
      else if (state.refusedUntil > now) waiter.resolve(refused(state, limit));
      else state.waiting.push(waiter);
    }
    if (state.waiting.length) void lease(key, state, limit, windowMs, now);
  }

  return translateUnavailable<RateLimiter & { close(): Promise<void> }>({
    hit(key, limit, windowMs, now) {
      const slot = Math.floor(now / (windowMs / RATE_LIMIT_SLOTS));
      let state = states.get(key);
      if (!state) {
        state = {
          slot,
          tokens: 0,
          unused: new Map(),
          remaining: limit,
          resetAt: now + windowMs,
          refusedUntil: -Infinity,
          size: FIRST_LEASE,
          leasedAt: -Infinity,
          waiting: [],
          inFlight: false,
        };
        states.set(key, state);
      }
      if (slot > state.slot) {
        if (state.tokens > 0) {
          state.unused.set(state.slot, (state.unused.get(state.slot) ?? 0) + state.tokens);
          state.remaining -= state.tokens;
          state.tokens = 0;
        }
        state.slot = slot;
      }
      if (now < state.refusedUntil) return Promise.resolve(refused(state, limit));
      if (state.tokens > 0) return Promise.resolve(allowedOne(state, limit));
      const current = state;
      return new Promise((resolve, reject) => {
        current.waiting.push({ resolve, reject });
        if (!current.inFlight) void lease(key, current, limit, windowMs, now);
      });
    },
    async purge(before) {
      for (const [key, state] of states) {
        if (state.resetAt < before && !state.inFlight && state.waiting.length === 0) states.delete(key);
      }
      await sql`delete from rate_limits where window_start < ${before}`;
    },
    async close() {
      states.clear();
      if (options.ownsClient !== false) await sql.end({ timeout: 5 });
    },
  });
}
