import { DEMO_SLUG } from '../features/workspaces/index.ts';
import { applyBookingMove } from '../features/bookings/index.ts';
import { expireLapsedOffers, offerWaitedTimes, toBookingJson, type BookingNames } from '../features/bookings/index.ts';
import { ensureDemoWorkspace } from '../features/demo/index.ts';
import { syncConnection } from '../features/calendars/index.ts';
import { sendCalendarFailureMails } from '../features/mail/index.ts';
import type { MailTransport } from '../ports/mail.ts';
import type { AppDeps } from '../platform/app-deps.ts';
import { RATE_LIMIT_WINDOW_MS } from '../platform/http/rate-limit.ts';
import type { BookingRecord, CalendarConnectionRecord, WorkspaceRecord } from '../ports/storage/index.ts';

/*
 * The scheduler's jobs, each a plain function of its dependencies and `now` (epoch ms) so tests drive them
 * with a manual clock. Every job is safe to run on several instances at once: booking moves are
 * compare-and-set, purges are idempotent, and the demo reset is claimed once per day.
 */

export type JobDeps = Pick<AppDeps, 'storage' | 'clock' | 'config' | 'logger' | 'rateLimiter' | 'calendars'>;

/** Bookings handled per query; a run keeps going while full batches come back, up to MAX_BATCHES. */
export const JOB_BATCH = 100;
const MAX_BATCHES = 50;

export const HOLD_EXPIRED_REASON = 'payment hold expired';

/** Looks workspaces and booking names up once per run. */
function lookups(deps: JobDeps) {
  const workspaces = new Map<string, Promise<WorkspaceRecord | null>>();
  const names = new Map<string, Promise<string | null>>();
  const cached = <T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>) => {
    let value = map.get(key);
    if (!value) map.set(key, (value = load()));
    return value;
  };
  return {
    workspace: (id: string) => cached(workspaces, id, () => deps.storage.getWorkspaceById(id)),
    async names(booking: BookingRecord): Promise<BookingNames> {
      const [serviceName, providerName] = await Promise.all([
        cached(names, booking.serviceId, async () => (await deps.storage.getService(booking.workspaceId, booking.serviceId))?.name ?? null),
        cached(names, booking.providerId, async () => (await deps.storage.getProvider(booking.workspaceId, booking.providerId))?.name ?? null),
      ]);
      return { serviceName, providerName };
    },
  };
}

/**
 * Applies a lifecycle `action` to every booking `list` returns through applyBookingMove, compare-and-set on the
 * status the booking was listed in (a booking another instance moved first is skipped). Returns how many moved.
 */
async function moveAll(deps: JobDeps, now: number, action: 'expire' | 'complete', list: (limit: number) => Promise<BookingRecord[]>): Promise<number> {
  const lookup = lookups(deps);
  let moved = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const bookings = await list(JOB_BATCH);
    const series = seriesGroups(bookings);
    let progressed = false;
    for (const booking of bookings) {
      const workspace = await lookup.workspace(booking.workspaceId);
      if (!workspace) continue;
      const names = await lookup.names(booking);
      const result = await applyBookingMove(
        deps,
        { workspace, booking, json: (saved) => toBookingJson(saved, names), at: now, ...seriesMail(series, booking) },
        action === 'expire' ? { action, reason: HOLD_EXPIRED_REASON } : { action },
      );
      if (result.ok) {
        moved++;
        progressed = true;
      }
    }
    // A batch in which nothing moved would come back the same: stop rather than spin.
    if (bookings.length < JOB_BATCH || !progressed) break;
  }
  return moved;
}

/** The occurrences of each series among `bookings` (a series' unpaid holds all end together), earliest first. */
function seriesGroups(bookings: readonly BookingRecord[]): Map<string, BookingRecord[]> {
  const groups = new Map<string, BookingRecord[]>();
  for (const booking of bookings) if (booking.seriesId) groups.set(booking.seriesId, [...(groups.get(booking.seriesId) ?? []), booking]);
  for (const group of groups.values()) group.sort((a, b) => a.startTime - b.startTime);
  return groups;
}

/** A series moved together gets one mail (docs/contract/series.md §2): its earliest occurrence lists them all, the others are silent. */
function seriesMail(groups: Map<string, BookingRecord[]>, booking: BookingRecord) {
  const group = booking.seriesId ? groups.get(booking.seriesId) : undefined;
  if (!group || group.length < 2) return {};
  if (group[0] !== booking) return { silent: true };
  return {
    occurrences: group.map((occurrence) => ({
      bookingId: occurrence.id,
      startTime: occurrence.startTime,
      endTime: occurrence.endTime,
      revision: occurrence.revision + 1,
    })),
  };
}

/** PENDING bookings whose payment hold ran out → CANCELLED (`payment hold expired`), freeing the slot; emits booking.cancelled. */
export function expireHolds(deps: JobDeps, now: number): Promise<number> {
  return moveAll(deps, now, 'expire', (limit) => deps.storage.listExpiredHolds(now, limit));
}

/** CONFIRMED bookings that have ended → COMPLETED; emits booking.completed. */
export function completeEnded(deps: JobDeps, now: number): Promise<number> {
  return moveAll(deps, now, 'complete', (limit) => deps.storage.listEndedConfirmed(now, limit));
}

/** Deletes pairing and panel codes and panel sessions that have expired. */
export async function purgeExpiredCodes(deps: JobDeps, now: number): Promise<number> {
  return (await deps.storage.purgeExpiredCodes(now)) + (await deps.storage.purgeExpiredPanelSessions(now));
}

/** Forgets the requests that no longer count: older than the sliding window, with a window to spare (its slots). */
export async function purgeRateLimitWindows(deps: JobDeps, now: number): Promise<void> {
  await deps.rateLimiter.purge(now - 2 * RATE_LIMIT_WINDOW_MS);
}

/**
 * The daily reset of the demo workspace (only with SVC_DEMO). The first instance to claim the day (a
 * setting written first-writer-wins) resets; the others skip. Returns whether this call reset it.
 */
export async function resetDemoWorkspace(deps: JobDeps, now: number, claimant: string): Promise<boolean> {
  if (!deps.config.SVC_DEMO) return false;
  const day = new Date(now).toISOString().slice(0, 10);
  const winner = await deps.storage.putSettingIfAbsent(`demo_reset:${day}`, claimant);
  if (winner !== claimant) return false;
  await ensureDemoWorkspace({ storage: deps.storage, clock: { now: () => now } }, { reset: true });
  deps.logger.info('reset the demo workspace', { workspace: DEMO_SLUG });
  return true;
}

/** How long an instance holds a connection it syncs, ms: far longer than a sync takes (10 s per request). */
export const CALENDAR_SYNC_LEASE_MS = 5 * 60_000;
/** Connections claimed at once; a run claims again while full batches come back. */
const CALENDAR_SYNC_BATCH = 10;

/** An OAuth connection whose consent is still outstanding has nothing to sync yet (its callback syncs it). */
const awaitingConsent = (connection: CalendarConnectionRecord) =>
  connection.status === 'pending' && (connection.kind === 'google' || connection.kind === 'microsoft');

/**
 * The scheduled calendar sync (docs/contract/calendars.md §6): claims the connections due (each claim leases it
 * to `claimant` and makes it due again SVC_CALENDAR_SYNC_SECONDS later, so of several instances on one database
 * one syncs it, once per interval), syncs each (incrementally where the remote allows), then sends the owner's
 * failure mails that are due when `mail` is set. Returns how many connections were synced.
 */
export async function syncCalendars(deps: JobDeps, now: number, claimant: string, mail: MailTransport | null): Promise<number> {
  const interval = deps.config.SVC_CALENDAR_SYNC_SECONDS * 1000;
  let synced = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const at = Math.max(now, deps.clock.now());
    const claimed = await deps.storage.claimCalendarSyncs(claimant, now, at + CALENDAR_SYNC_LEASE_MS, now + interval, CALENDAR_SYNC_BATCH);
    for (const connection of claimed) {
      try {
        if (awaitingConsent(connection)) continue;
        await syncConnection(deps, connection);
        synced++;
      } catch (error) {
        deps.logger.error('calendar sync failed', { connectionId: connection.id, error: error instanceof Error ? error.message : String(error) });
      } finally {
        await deps.storage.releaseCalendarSync(claimant, connection.id);
      }
    }
    if (claimed.length < CALENDAR_SYNC_BATCH) break;
  }
  if (mail) await sendCalendarFailureMails(deps, mail);
  return synced;
}

/**
 * Waiting lists: lapsed offers → EXPIRED (their seat offered to the next in line), then every time somebody waits
 * for is offered what it has free (an immediate offer that a crash or a failed write missed). Returns the moves.
 */
export async function tendWaitlists(deps: JobDeps, now: number): Promise<number> {
  return (await expireLapsedOffers(deps, now)) + (await offerWaitedTimes(deps, now));
}
