import type { Clock } from '../../core/clock.ts';
import { createLoadingCache, type LoadingCache } from '../../core/loading-cache.ts';
import type { StorageChangeKind, StorageChanges } from '../../ports/storage/index.ts';

/**
 * Computed availability (slots of a day, days of a range) kept in memory per workspace for up to `ttlMs`.
 * Availability is read far more often than bookings change, and a widget asks for the same days again and
 * again. Every booking or catalogue write the Storage announces (made through this process, or on Postgres by
 * another instance: docs/decisions/0029-changes-across-instances.md) drops the workspace's answers at once
 * (see invalidateOnStorageChanges); the clock passing a slot's minimum notice shows within `ttlMs`, and writes
 * the storage does not hear of within two (the bookings under an answer are kept for `ttlMs` too then,
 * busy-blocks.ts). Answers are advisory: a booking is always checked on fresh data inside
 * storage.reserveBooking. Scopes are workspace ids.
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
  missed: true,
};

/**
 * Drops a workspace's cached answers whenever `storage` announces a change that can move its availability: a
 * new, moved or re-statused booking (a settled payment that moves one included), or a change of its hours,
 * services or providers. No feature has to remember to do it. Returns the function that stops it.
 */
export function invalidateOnStorageChanges(storage: StorageChanges, cache: AvailabilityCache): () => void {
  return storage.onChange((change) => {
    if (MOVES_AVAILABILITY[change.kind]) cache.invalidate('workspaceId' in change ? change.workspaceId : undefined);
  });
}
