import { decide, type RateLimiter } from '../../src/ports/ratelimit.ts';

/** Rate limits of one process (the libSQL deployment: one server). */
export function memoryRateLimiter(): RateLimiter & { close(): Promise<void> } {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    async hit(key, limit, windowMs, now) {
      const start = now - (now % windowMs);
      const current = windows.get(key);
      const window = current && current.start === start ? current : { start, count: 0 };
      window.count += 1;
      windows.set(key, window);
      return decide(window.count, limit, start, windowMs);
    },
    async purge(before) {
      for (const [key, window] of windows) if (window.start < before) windows.delete(key);
    },
    async close() {
      windows.clear();
    },
  };
}
