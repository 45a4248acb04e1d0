import type { Clock } from './clock.ts';

/**
 * Values loaded on demand and kept for `ttlMs`, grouped in scopes (a workspace, say) that can be dropped at once.
 *
 * Two properties the plain get/compute/set pattern lacks, both found under load:
 * - **One load per key at a time.** Callers that miss while a load is running wait for that load instead of
 *   starting their own, so an entry expiring under 60 concurrent requests costs one query, not 60 (the herd
 *   queued behind the connection pool and made the Postgres tail).
 * - **A load never outlives an invalidation.** A load that began before `invalidate` read data from before the
 *   write that invalidated; its result is handed to its callers but not kept, and later callers load afresh.
 */
export interface LoadingCache {
  load<T>(scope: string, key: string, loader: () => Promise<T>, keep?: (value: T) => boolean): Promise<T>;
  /**
   * The values `load` would answer at once (kept, not expired) in `scope`, as of now, without loading: a function
   * of the key, undefined for a key with none. For many keys of one scope at once (the scope and the clock are
   * read once).
   */
  peeker<T>(scope: string): (key: string) => T | undefined;
  /** Drops a scope's values and detaches its running loads; without a scope, every scope's. */
  invalidate(scope?: string): void;
  /** Values and running loads held, over every scope. */
  size(): number;
}

type Entry = { value: unknown; until: number } | { running: Promise<unknown> };

/**
 * Drops the oldest quarter of a full map in one pass. Dropping one key at a time would make every insert walk
 * past the keys deleted before it (a Map keeps its insertion order), which cost 6 % of a busy server's time.
 */
function dropOldest(map: Map<string, unknown>): void {
  let drop = Math.ceil(map.size / 4);
  for (const key of map.keys()) {
    if (drop-- <= 0) break;
    map.delete(key);
  }
}

/**
 * `map`'s value for `key`, computed and kept when it has none; a map at `max` entries drops its oldest quarter
 * first. For values that are never undefined.
 */
export function memoIn<V>(map: Map<string, V>, key: string, max: number, compute: () => V): V {
  const known = map.get(key);
  if (known !== undefined) return known;
  const value = compute();
  if (map.size >= max) dropOldest(map);
  map.set(key, value);
  return value;
}

/**
 * `ttlMs` may be a function, asked whenever a load starts (and for the sweep's pace): how long a value loaded
 * from now may be answered.
 */
export function createLoadingCache(options: { clock: Clock; ttlMs: number | (() => number); maxEntriesPerScope?: number }): LoadingCache {
  const maxEntries = options.maxEntriesPerScope ?? Number.POSITIVE_INFINITY;
  const ttl = typeof options.ttlMs === 'number' ? () => options.ttlMs as number : options.ttlMs;
  const scopes = new Map<string, Map<string, Entry>>();
  let nextSweep = Number.NEGATIVE_INFINITY;
  /**
   * Expired values go once a TTL, so what the cache holds is what was asked in the last TTL or two, not every
   * key any scope ever asked for (a server with many workspaces would otherwise keep them all).
   */
  const sweep = (now: number) => {
    nextSweep = now + ttl();
    for (const [scope, entries] of scopes) {
      for (const [key, entry] of entries) if ('until' in entry && entry.until <= now) entries.delete(key);
      if (entries.size === 0) scopes.delete(scope);
    }
  };

  return {
    load<T>(scope: string, key: string, loader: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> {
      const started = options.clock.now();
      if (started >= nextSweep) sweep(started);
      let entries = scopes.get(scope);
      if (!entries) scopes.set(scope, (entries = new Map()));
      const known = entries.get(key);
      if (known && 'running' in known) return known.running as Promise<T>;
      if (known && known.until > started) return Promise.resolve(known.value as T);

      // the time to live as it stands when the load starts: what it reads is as fresh as that moment
      const keptFor = ttl();
      const running = loader();
      const slot: Entry = { running };
      if (!known && entries.size >= maxEntries) dropOldest(entries);
      entries.set(key, slot);
      // An invalidation replaced the scope's map (or a newer load the slot): then this result is not kept.
      const stillCurrent = (map: Map<string, Entry>) => scopes.get(scope) === map && map.get(key) === slot;
      const settle = (map: Map<string, Entry>) =>
        running.then(
          (value) => {
            if (!stillCurrent(map)) return;
            if (keep(value)) map.set(key, { value, until: started + keptFor });
            else map.delete(key);
          },
          () => {
            if (stillCurrent(map)) map.delete(key);
          },
        );
      void settle(entries);
      return running;
    },
    peeker<T>(scope: string): (key: string) => T | undefined {
      const entries = scopes.get(scope);
      if (!entries) return () => undefined;
      const now = options.clock.now();
      return (key) => {
        const known = entries.get(key);
        return known && 'until' in known && known.until > now ? (known.value as T) : undefined;
      };
    },
    invalidate(scope?: string) {
      if (scope === undefined) scopes.clear();
      else scopes.delete(scope);
    },
    size() {
      let held = 0;
      for (const entries of scopes.values()) held += entries.size;
      return held;
    },
  };
}
