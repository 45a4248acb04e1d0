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
  /** Drops a scope's values and detaches its running loads; without a scope, every scope's. */
  invalidate(scope?: string): void;
}

type Entry = { value: unknown; until: number } | { running: Promise<unknown> };

export function createLoadingCache(options: { clock: Clock; ttlMs: number; maxEntriesPerScope?: number }): LoadingCache {
  const maxEntries = options.maxEntriesPerScope ?? Number.POSITIVE_INFINITY;
  const scopes = new Map<string, Map<string, Entry>>();

  return {
    load<T>(scope: string, key: string, loader: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> {
      let entries = scopes.get(scope);
      if (!entries) scopes.set(scope, (entries = new Map()));
      const started = options.clock.now();
      const known = entries.get(key);
      if (known && 'running' in known) return known.running as Promise<T>;
      if (known && known.until > started) return Promise.resolve(known.value as T);

      const running = loader();
      const slot: Entry = { running };
      if (!known && entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, slot);
      // An invalidation replaced the scope's map (or a newer load the slot): then this result is not kept.
      const stillCurrent = (map: Map<string, Entry>) => scopes.get(scope) === map && map.get(key) === slot;
      const settle = (map: Map<string, Entry>) =>
        running.then(
          (value) => {
            if (!stillCurrent(map)) return;
            if (keep(value)) map.set(key, { value, until: started + options.ttlMs });
            else map.delete(key);
          },
          () => {
            if (stillCurrent(map)) map.delete(key);
          },
        );
      void settle(entries);
      return running;
    },
    invalidate(scope?: string) {
      if (scope === undefined) scopes.clear();
      else scopes.delete(scope);
    },
  };
}
