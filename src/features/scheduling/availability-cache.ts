import type { Clock } from '../../core/clock.ts';
import { createLoadingCache, type LoadingCache } from '../../core/loading-cache.ts';
import { decorateStorage, thenAlways } from '../../platform/storage-effects/decorate.ts';
import type { Storage } from '../../ports/storage/index.ts';

/**
 * Computed availability (slots of a day, days of a range) kept in memory per workspace for up to `ttlMs`.
 * Availability is read far more often than bookings change, and a widget asks for the same days again and
 * again. Every booking or catalogue write made through this process's Storage drops the workspace's answers
 * at once (see withAvailabilityInvalidation); writes by another instance show within `ttlMs`, as does the
 * clock passing a slot's minimum notice. Answers are advisory: a booking is always checked on fresh data
 * inside storage.reserveBooking. Scopes are workspace ids.
 */
export type AvailabilityCache = LoadingCache;

/** Most answers kept per workspace; the oldest go first. */
const MAX_ENTRIES_PER_WORKSPACE = 2000;

export function createAvailabilityCache(options: { clock: Clock; ttlMs: number }): AvailabilityCache {
  return createLoadingCache({ ...options, maxEntriesPerScope: MAX_ENTRIES_PER_WORKSPACE });
}

/**
 * The Storage with every write that can change a workspace's availability dropping its cached answers: new,
 * moved and re-statused bookings, settled payments that move a booking, and catalogue changes (hours,
 * services, providers). No feature has to remember to do it.
 */
export function withAvailabilityInvalidation(storage: Storage, cache: AvailabilityCache): Storage {
  const after = <A extends unknown[], R>(write: (...args: A) => Promise<R>, workspaceOf: (...args: A) => string | undefined) =>
    thenAlways(write, (...args: A) => {
      const workspaceId = workspaceOf(...args);
      if (workspaceId) cache.invalidate(workspaceId);
    });
  const overrides: Partial<Storage> = {
    reserveBooking: after(storage.reserveBooking.bind(storage), (request) => request.booking.workspaceId),
    transitionBooking: after(storage.transitionBooking.bind(storage), (workspaceId) => workspaceId),
    settlePayment: after(storage.settlePayment.bind(storage), (_id, _from, _to, _at, booking) => booking?.workspaceId),
    updateWorkspace: after(storage.updateWorkspace.bind(storage), (id) => id),
    deleteWorkspace: after(storage.deleteWorkspace.bind(storage), (id) => id),
    createService: after(storage.createService.bind(storage), (service) => service.workspaceId),
    updateService: after(storage.updateService.bind(storage), (workspaceId) => workspaceId),
    createProvider: after(storage.createProvider.bind(storage), (provider) => provider.workspaceId),
    updateProvider: after(storage.updateProvider.bind(storage), (workspaceId) => workspaceId),
  };
  return decorateStorage(storage, overrides);
}
