import type { Clock } from '../../core/clock.ts';
import { createLoadingCache, type LoadingCache } from '../../core/loading-cache.ts';
import type { StorageChangeKind, StorageChanges } from '../../ports/storage/index.ts';

/**
 * Computed availability (slots of a day, days of a range) kept in memory per workspace for up to `ttlMs`.
 * Availability is read far more often than bookings change, and a widget asks for the same days again and
 * again. Every booking or catalogue write made through this process's Storage drops the workspace's answers
 * at once (see invalidateOnStorageChanges); writes by another instance show within `ttlMs`, as does the
 * clock passing a slot's minimum notice (a booking within two: the bookings under an answer are kept for
 * `ttlMs` too, busy-blocks.ts). Answers are advisory: a booking is always checked on fresh data
 * inside storage.reserveBooking. Scopes are workspace ids.
 */
export type AvailabilityCache = LoadingCache;

/** Most answers kept per workspace; the oldest go first. */
const MAX_ENTRIES_PER_WORKSPACE = 2000;

export function createAvailabilityCache(options: { clock: Clock; ttlMs: number }): AvailabilityCache {
  return createLoadingCache({ ...options, maxEntriesPerScope: MAX_ENTRIES_PER_WORKSPACE });
}

/** Which changes can move a workspace's availability: every kind is decided here, so a new one must be too. */
const MOVES_AVAILABILITY: Record<StorageChangeKind, boolean> = {
  workspace: true,
  'api-keys': false,
  services: true,
  providers: true,
  'custom-fields': false,
  bookings: true,
  calendars: true,
  outbox: false,
};

/**
 * Drops a workspace's cached answers whenever `storage` announces a change that can move its availability: a
 * new, moved or re-statused booking (a settled payment that moves one included), or a change of its hours,
 * services or providers. No feature has to remember to do it. Returns the function that stops it.
 */
export function invalidateOnStorageChanges(storage: StorageChanges, cache: AvailabilityCache): () => void {
  return storage.onChange((change) => {
    if (MOVES_AVAILABILITY[change.kind] && 'workspaceId' in change) cache.invalidate(change.workspaceId);
  });
}
