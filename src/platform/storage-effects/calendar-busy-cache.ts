import type { Clock } from '../../core/clock.ts';
import { createLoadingCache } from '../../core/loading-cache.ts';
import type { BusyInterval, Storage, StorageChange, StorageChangeKind } from '../../ports/storage/index.ts';

/**
 * One provider's stored blocking busy times, ascending by start, with `reach[i]` the latest end among the first
 * i + 1 of them (non-decreasing, so both ends of a window are found by binary search).
 */
interface ProviderBusy {
  intervals: readonly BusyInterval[];
  reach: readonly number[];
}

function indexed(intervals: BusyInterval[]): ProviderBusy {
  const sorted = intervals.sort((a, b) => a.startTime - b.startTime || a.endTime - b.endTime);
  const reach: number[] = [];
  let latest = Number.NEGATIVE_INFINITY;
  for (const interval of sorted) reach.push((latest = Math.max(latest, interval.endTime)));
  return { intervals: sorted, reach };
}

/** The first index in [0, length) at which `reaches(index)` holds (it must hold from some index on), else length. */
function firstWhere(length: number, reaches: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (reaches(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The intervals of `busy` with end > from and start < to, ascending by start. */
function overlapping(busy: ProviderBusy, from: number, to: number): BusyInterval[] {
  // Before `first` every interval ended by `from`; from `past` on every one starts at `to` or later.
  const first = firstWhere(busy.intervals.length, (index) => busy.reach[index]! > from);
  const past = firstWhere(busy.intervals.length, (index) => busy.intervals[index]!.startTime >= to);
  const found: BusyInterval[] = [];
  for (let index = first; index < past; index++) {
    const interval = busy.intervals[index]!;
    if (interval.endTime > from) found.push(interval);
  }
  return found;
}

/** Which changes make a provider's cached busy times stale: every kind is decided here, so a new one must be too. */
const STALES_BUSY: Record<StorageChangeKind, 'provider' | 'all' | false> = {
  // a deleted workspace takes its providers' connections with it: nothing of it is kept
  workspace: 'all',
  'api-keys': false,
  services: false,
  providers: false,
  'custom-fields': false,
  bookings: false,
  calendars: 'provider',
  outbox: false,
  missed: 'all',
};

/** Reads outside every stored busy time: a provider's whole list. */
const EVER = { from: Number.MIN_SAFE_INTEGER, to: Number.MAX_SAFE_INTEGER };

/**
 * CalendarStore.listCalendarBusy answered from memory, for availability (docs/contract/calendars.md §5): each
 * provider's stored blocking busy times are read whole once, kept sorted, and a window is cut from them by binary
 * search, so a month's availability costs no read of the ~170 busy times it overlaps. A provider's list is
 * dropped at once by any `calendars` change `storage` announces for that provider (a sync, a connection created,
 * changed or deleted, a PATCH of `blocks`) and by a `workspace` change; a sync by another instance shows within
 * `ttlMs`. The booking's own check never reads here: reserveBooking reads the busy times inside its transaction,
 * under the provider lock, on fresh data, so a stale list can show a slot that is gone but never lets a booking
 * through.
 *
 * Memory: one copy of each stored blocking busy time of the providers asked for (an interval object of seven
 * fields), plus one number each. Stored busy times are bounded by the sync window (one day back to the furthest
 * `maxAdvance`, at most a year ahead plus a week; docs/contract/calendars.md §6), so 2,000 events a year cost a
 * few hundred kB. Providers without calendars keep an empty list.
 *
 * Concurrent misses share one read, and a read that began before an invalidation is not kept (loading-cache.ts).
 * The intervals are shared between callers: they must not be mutated.
 */
export function cachedCalendarBusy(storage: Storage, options: { clock: Clock; ttlMs: number }): Pick<Storage, 'listCalendarBusy'> {
  const cache = createLoadingCache(options);
  storage.onChange((change: StorageChange) => {
    const stales = STALES_BUSY[change.kind];
    if (stales === 'all') cache.invalidate();
    else if (stales === 'provider' && change.kind === 'calendars') cache.invalidate(change.providerId);
  });
  const providerBusy = (providerId: string) =>
    cache.load(providerId, 'busy', async () => indexed(await storage.listCalendarBusy([providerId], EVER.from, EVER.to)));

  return {
    async listCalendarBusy(providerIds, from, to, buffer = 0) {
      const lists = await Promise.all([...new Set(providerIds)].map(providerBusy));
      const found = lists.flatMap((busy) => overlapping(busy, from - buffer, to + buffer));
      return lists.length > 1 ? found.sort((a, b) => a.startTime - b.startTime) : found;
    },
  };
}
