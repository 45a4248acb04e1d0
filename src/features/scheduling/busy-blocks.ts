import type { Clock } from '../../core/clock.ts';
import { createLoadingCache, type LoadingCache } from '../../core/loading-cache.ts';
import type { BookingStore, BusyInterval } from '../../ports/storage/index.ts';

/*
 * Availability's busy bookings kept in blocks: one list per provider and day of the workspace, in a cache scoped
 * like the answers (per workspace, dropped by the same changes: availability-cache.ts). The answers differ by
 * service, duration and range, but the bookings under them do not: a visitor who opens a day of the month just
 * shown, or looks at another service or duration of the same team, is answered from the bookings the last
 * question read (docs/decisions/0027-busy-blocks.md). They are kept until a write drops them while the storage
 * hears of every booking write, else briefly (docs/decisions/0029-changes-across-instances.md, src/deps.ts).
 */

const MINUTE_MS = 60_000;
/** Most blocks kept per workspace (fifty providers over a year of days); the oldest go first. */
const MAX_BLOCKS_PER_WORKSPACE = 20_000;
const NONE: readonly BusyInterval[] = Object.freeze([]);

export type BusyCache = LoadingCache;

export function createBusyCache(options: { clock: Clock; ttlMs: number | (() => number) }): BusyCache {
  return createLoadingCache({ ...options, maxEntriesPerScope: MAX_BLOCKS_PER_WORKSPACE });
}

/** A day of the workspace: its date and where it begins and ends (epoch ms, end excluded). */
export interface BlockDay {
  date: string;
  from: number;
  to: number;
}

const byStart = (a: BusyInterval, b: BusyInterval) => a.startTime - b.startTime;

/** A busy interval's times under the names the slot engine reads (BusyBooking's `start` and `end`). */
export interface EngineTimes {
  start: number;
  end: number;
}

/** How far around itself a busy interval blocks slots of a service with `buffer` (ms): the larger buffer. */
const gapOf = (interval: BusyInterval, buffer: number) => Math.max(buffer, interval.bufferTime * MINUTE_MS);

/**
 * What `storage.listBusy(providerIds, first.from, last.to, buffer)` answers for consecutive days (the bookings
 * and held seats that can keep a slot of those days from being bookable), read through blocks: every day of
 * every provider comes from `cache`, and the missing ones of one call are read together, as one listBusy over
 * their span. Each interval once. Advisory, as the answers are: the booking itself is checked on fresh data
 * inside reserveBooking.
 */
export async function busyInBlocks(
  cache: BusyCache,
  storage: Pick<BookingStore, 'listBusy'>,
  workspaceId: string,
  providerIds: readonly string[],
  days: readonly BlockDay[],
  buffer: number,
): Promise<BusyInterval[]> {
  const missing = new Map<string, BlockDay[]>();
  let read: Promise<Map<string, Map<string, BusyInterval[]>>> | undefined;
  // The cache calls a loader at once for each missing block; the one read starts after all have been asked.
  const readMissing = () => (read ??= Promise.resolve().then(() => readBlocks(storage, missing, buffer)));
  // Kept blocks are taken as they are: a question whose days were all asked within the TTL makes no promise.
  const lists: (readonly BusyInterval[] | Promise<readonly BusyInterval[]>)[] = [];
  let loading = false;
  const keptBlock = cache.peeker<readonly BusyInterval[]>(workspaceId);
  for (const providerId of providerIds) {
    const prefix = `${buffer} ${providerId} `;
    for (const day of days) {
      const key = prefix + day.date;
      const kept = keptBlock(key);
      if (kept !== undefined) {
        lists.push(kept);
        continue;
      }
      loading = true;
      lists.push(
        cache.load(workspaceId, key, () => {
          const asked = missing.get(providerId);
          if (asked) asked.push(day);
          else missing.set(providerId, [day]);
          return readMissing().then((found) => found.get(providerId)?.get(day.date) ?? NONE);
        }),
      );
    }
  }
  const blocks = loading ? await Promise.all(lists) : (lists as (readonly BusyInterval[])[]);
  const busy: BusyInterval[] = [];
  for (let index = 0; index < blocks.length; index++) {
    const day = index % days.length;
    // An interval that can touch the day before is taken from that day's block.
    for (const interval of blocks[index]!) if (day === 0 || interval.startTime - gapOf(interval, buffer) >= days[day]!.from) busy.push(interval);
  }
  return busy;
}

/**
 * One listBusy over the span of the missing blocks; each interval filed under every missing day it can touch
 * (listBusy's rule: start - gap < the day's end and end + gap > its start), per provider and date.
 */
async function readBlocks(storage: Pick<BookingStore, 'listBusy'>, missing: Map<string, BlockDay[]>, buffer: number) {
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const days of missing.values()) {
    for (const day of days) {
      from = Math.min(from, day.from);
      to = Math.max(to, day.to);
    }
  }
  const found = new Map<string, Map<string, BusyInterval[]>>();
  for (const read of await storage.listBusy([...missing.keys()], from, to, buffer)) {
    const days = missing.get(read.providerId);
    if (!days) continue;
    // in the engine's shape as well, so that each question hands the kept intervals over without a copy (providerHours)
    const interval: BusyInterval & EngineTimes = { ...read, start: read.startTime, end: read.endTime };
    const gap = gapOf(interval, buffer);
    let dates = found.get(interval.providerId);
    if (!dates) found.set(interval.providerId, (dates = new Map()));
    // the provider's missing days ascend: from the first that ends after the interval's reach begins
    let low = 0;
    let high = days.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (days[middle]!.to > interval.startTime - gap) high = middle;
      else low = middle + 1;
    }
    for (let index = low; index < days.length && days[index]!.from < interval.endTime + gap; index++) {
      const list = dates.get(days[index]!.date);
      if (list) list.push(interval);
      else dates.set(days[index]!.date, [interval]);
    }
  }
  // Each block by start, once: the blocks of consecutive days then hand busyInBlocks a provider's intervals in
  // order, which the engine need not sort again.
  for (const dates of found.values()) for (const list of dates.values()) list.sort(byStart);
  return found;
}
