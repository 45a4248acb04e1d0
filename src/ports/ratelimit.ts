/** The outcome of counting one request against the sliding window of its key. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** requests still allowed right after this one (0 when refused) */
  remaining: number;
  /**
   * when the oldest request still counted leaves the window, epoch milliseconds: the moment `remaining` next
   * grows, and after a refusal the earliest moment a request can be allowed
   */
  resetAt: number;
}

/**
 * Counts requests per key in a sliding window of `windowMs` (a minute for every rule of svc). Guarantees:
 * - In any span of `windowMs` (half-open, [t, t + windowMs)), at most `limit` calls for one key are allowed,
 *   across every instance sharing the backend: one process for the memory adapter; every process and
 *   instance on one database for Postgres. (A fixed calendar minute would allow twice the limit across its
 *   boundary: `limit` at 59 s and `limit` again at 60 s.)
 * - The window slides exactly with the memory adapter. The Postgres adapter counts in slots of
 *   `windowMs / RATE_LIMIT_SLOTS` and counts the oldest slot whole, so a request leaves its count up to one
 *   slot (1 s of a minute) late: stricter, never looser.
 * - Little of the budget goes unused: on Postgres an instance may hold tokens it leased ahead for a key and
 *   then never needed, at most 5 % of the limit, lost to the other instances until they leave the window. So
 *   with two instances at least 90 % of the limit is allowed before anyone is refused, whatever the balancer
 *   does; with one instance (and with the memory adapter) exactly `limit` is.
 * - On Postgres, a lease is one short transaction; tokens leased in batches serve most calls without a round
 *   trip, and a spent budget is refused from memory until its `resetAt`.
 * - `remaining` is exact with one instance; with several it is this instance's view (the shared count as of
 *   its last lease, plus the tokens it still holds).
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number, now: number): Promise<RateLimitDecision>;
  /** Forgets requests made before `before` (housekeeping): pass a time at least a window and a slot ago. */
  purge(before: number): Promise<void>;
}

/** Slots a window is counted in by the Postgres adapter (1 s slots for a minute). */
export const RATE_LIMIT_SLOTS = 60;
