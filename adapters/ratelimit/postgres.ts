import type { Sql } from 'postgres';
import type { RateLimitDecision, RateLimiter } from '../../src/ports/ratelimit.ts';
import { translateUnavailable } from '../storage/sql/unavailable.ts';

/**
 * The most an instance leases beyond the requests it is answering, as a share of the budget still free: the
 * tokens an instance holds when its traffic for a key stops are lost to the other instances for the rest of
 * the window, so this bounds what a quiet instance can withhold.
 */
const LEASE_SHARE_OF_FREE = 0.05;
/** A lease used up within this long (by the callers' clock) doubles the next one; a slower one halves it. */
const LEASE_HORIZON_MS = 250;

interface KeyWindow {
  /** the window the tokens belong to (the database's, which may be newer than this instance's clock) */
  start: number;
  /** tokens leased and not yet handed out */
  tokens: number;
  /** the database's count after this instance's last lease, capped at the limit */
  counted: number;
  /** the budget is spent: refuse without asking until the window ends */
  exhausted: boolean;
  /** tokens asked for beyond the waiting requests in the next lease */
  size: number;
  leasedAt: number;
  /** requests waiting for the lease in flight */
  waiting: Array<{ resolve(decision: RateLimitDecision): void; reject(error: unknown): void }>;
  inFlight: boolean;
}

/**
 * Rate limits shared by every instance on one Postgres database. Each instance leases tokens from the shared
 * count of a key's window and hands them out locally: one round trip serves every request waiting for it
 * plus, for a key this instance sees often, a few requests ahead (up to LEASE_SHARE_OF_FREE of the free
 * budget, sized by how fast the last lease went). Leases are taken atomically from the count, so all
 * instances together never allow more than the limit in a window. While the database does not answer, hit()
 * rejects with AppError UNAVAILABLE (503). close() ends `sql` unless `ownsClient` is false (the pool is the
 * storage's, which ends it).
 */
export function postgresRateLimiter(sql: Sql, options: { ownsClient?: boolean } = {}): RateLimiter & { close(): Promise<void> } {
  const windows = new Map<string, KeyWindow>();

  function decisionFor(window: KeyWindow, limit: number, windowMs: number, allowed: boolean): RateLimitDecision {
    const remaining = allowed ? Math.max(0, limit - window.counted + window.tokens) : 0;
    return { allowed, limit, remaining, resetAt: window.start + windowMs };
  }

  function serveOne(window: KeyWindow, limit: number, windowMs: number): RateLimitDecision {
    window.tokens -= 1;
    return decisionFor(window, limit, windowMs, true);
  }

  async function lease(key: string, window: KeyWindow, limit: number, windowMs: number, now: number) {
    window.inFlight = true;
    const free = Math.max(0, limit - window.counted);
    const ahead = Math.min(window.size, Math.max(1, Math.floor(free * LEASE_SHARE_OF_FREE)));
    const want = Math.max(window.waiting.length, ahead);
    try {
      // `count` is the tokens handed out in the window. Past the limit it stops at limit + want, so that
      // every lease can tell from the returned count alone how many of its tokens were still free.
      const [row] = await sql<{ count: number; window_start: string }[]>`
        insert into rate_limits (key, window_start, count) values (${key}, ${window.start}, ${want})
        on conflict (key) do update set
          -- a lease stamped with an older window (a slower clock, a late arrival) counts in the newer one
          count = case when rate_limits.window_start >= excluded.window_start
            then least(rate_limits.count::bigint + excluded.count, ${limit}::bigint + excluded.count) else excluded.count end,
          window_start = greatest(rate_limits.window_start, excluded.window_start)
        returning count, window_start`;
      const count = row?.count ?? want;
      const granted = Math.min(want, Math.max(0, limit - (count - want)));
      window.start = Math.max(window.start, Number(row?.window_start ?? window.start));
      window.counted = Math.min(limit, count);
      window.tokens += granted;
      window.exhausted = granted < want;
      window.size = now - window.leasedAt < LEASE_HORIZON_MS ? Math.min(window.size * 2, limit) : Math.max(1, Math.floor(window.size / 2));
      window.leasedAt = now;
    } catch (error) {
      window.inFlight = false;
      for (const waiter of window.waiting.splice(0)) waiter.reject(error);
      return;
    }
    window.inFlight = false;
    const waiting = window.waiting.splice(0);
    for (const waiter of waiting) {
      if (window.tokens > 0) waiter.resolve(serveOne(window, limit, windowMs));
      else if (window.exhausted) waiter.resolve(decisionFor(window, limit, windowMs, false));
      else window.waiting.push(waiter);
    }
    if (window.waiting.length) void lease(key, window, limit, windowMs, now);
  }

  return translateUnavailable<RateLimiter & { close(): Promise<void> }>({
    hit(key, limit, windowMs, now) {
      const start = now - (now % windowMs);
      let window = windows.get(key);
      if (!window || start > window.start) {
        window = { start, tokens: 0, counted: 0, exhausted: false, size: 1, leasedAt: -Infinity, waiting: [], inFlight: false };
        windows.set(key, window);
      }
      if (window.tokens > 0) return Promise.resolve(serveOne(window, limit, windowMs));
      if (window.exhausted) return Promise.resolve(decisionFor(window, limit, windowMs, false));
      const current = window;
      return new Promise((resolve, reject) => {
        current.waiting.push({ resolve, reject });
        if (!current.inFlight) void lease(key, current, limit, windowMs, now);
      });
    },
    async purge(before) {
      for (const [key, window] of windows) if (window.start < before && !window.inFlight) windows.delete(key);
      await sql`delete from rate_limits where window_start < ${before}`;
    },
    async close() {
      windows.clear();
      if (options.ownsClient !== false) await sql.end({ timeout: 5 });
    },
  });
}
