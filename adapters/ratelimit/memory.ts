import type { RateLimiter } from '../../src/ports/ratelimit.ts';

/**
 * Rate limits of one process (the libSQL deployment: one server), as an exact sliding window: each key keeps
 * the times of its allowed requests still in the window (at most `limit` of them). A request at `now` is
 * allowed when fewer than `limit` were allowed in (now - windowMs, now].
 */
export function memoryRateLimiter(): RateLimiter & { close(): Promise<void> } {
  const allowedAt = new Map<string, number[]>();
  return {
    async hit(key, limit, windowMs, now) {
      const times = allowedAt.get(key) ?? [];
      let expired = 0;
      while (expired < times.length && times[expired]! <= now - windowMs) expired++;
      times.splice(0, expired);
      const allowed = times.length < limit;
      if (allowed) times.push(now);
      allowedAt.set(key, times);
      return { allowed, limit, remaining: allowed ? limit - times.length : 0, resetAt: (times[0] ?? now) + windowMs };
    },
    async purge(before) {
      for (const [key, times] of allowedAt) if ((times.at(-1) ?? -Infinity) < before) allowedAt.delete(key);
    },
    async close() {
      allowedAt.clear();
    },
  };
}
