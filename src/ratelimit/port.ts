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
 * Counts requests per key in fixed windows. Guarantee: the count is shared by every caller of the same
 * limiter backend (in one process for the memory adapter; across processes and instances for Postgres), and
 * counting costs at most one round trip.
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
