import type { Sql } from 'postgres';
import { decide, type RateLimiter } from '../../src/ratelimit/port.ts';

/**
 * Rate limits shared by every instance on one Postgres database: one upsert per request counts it and reads
 * the window back in the same round trip.
 */
export function postgresRateLimiter(sql: Sql): RateLimiter & { close(): Promise<void> } {
  return {
    async hit(key, limit, windowMs, now) {
      const start = now - (now % windowMs);
      const [row] = await sql<{ count: number }[]>`
        insert into rate_limits (key, window_start, count) values (${key}, ${start}, 1)
        on conflict (key) do update set
          -- a request stamped with an older window (a slower clock, a late arrival) counts in the newer one
          count = case when rate_limits.window_start >= excluded.window_start then rate_limits.count + 1 else 1 end,
          window_start = greatest(rate_limits.window_start, excluded.window_start)
        returning count`;
      return decide(row?.count ?? 1, limit, start, windowMs);
    },
    async purge(before) {
      await sql`delete from rate_limits where window_start < ${before}`;
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
