/** The outcome of counting one request against a fixed window. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** requests left in the window after this one (0 when refused) */
  remaining: number;
  /** when the window resets, epoch milliseconds */
  resetAt: number;
}

/**
 * Counts requests per key in fixed windows. Guarantees:
 * - The budget is shared by every caller of the same backend: one process for the memory adapter; every
 *   process and instance on one database for Postgres.
 * - Of all the calls for one key in one window, across every instance, at most `limit` are allowed.
 * - Little of the budget goes unused: on Postgres an instance may hold tokens it leased ahead for a key and
 *   then never needed, at most 5 % of the limit, lost to the other instances until the window ends. So with
 *   two instances at least 90 % of the limit is allowed before anyone is refused, whatever the balancer
 *   does; with one instance (and with the memory adapter) exactly `limit` is.
 * - A call costs at most two database round trips of waiting and usually none: Postgres hands out tokens
 *   leased in batches and refuses from memory once the window's budget is spent.
 * - `remaining` is exact with one instance; with several it is this instance's view (the shared count as of
 *   its last lease, plus the tokens it still holds).
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number, now: number): Promise<RateLimitDecision>;
  /** Forgets windows that ended before `before` (housekeeping). */
  purge(before: number): Promise<void>;
}

/** The decision for a window count, shared by the adapters. */
export function decide(count: number, limit: number, windowStart: number, windowMs: number): RateLimitDecision {
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetAt: windowStart + windowMs };
}
