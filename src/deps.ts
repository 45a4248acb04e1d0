import { type CalendarConnectorOptions, calendarConnector } from '../adapters/calendar/index.ts';
import type { AppDeps } from './platform/app-deps.ts';
import { createAvailabilityCache, createBusyCache, invalidateOnStorageChanges } from './features/scheduling/index.ts';
import type { Storage } from './ports/storage/index.ts';
import { withReadCache } from './platform/storage-effects/read-cache.ts';
import { signalOutboxWrites } from './features/webhooks/index.ts';
import { createMetrics } from './platform/metrics.ts';

/** What buildDeps assembles: the adapters and the process's clock and logger. */
export interface DepsParts extends Omit<AppDeps, 'storage' | 'availabilityCache' | 'busyCache' | 'calendars' | 'metrics'> {
  /** default: a new registry of this app's own */
  metrics?: AppDeps['metrics'];
  /** the calendar adapters; default: CalDAV and iCalendar URLs under the config's fetch rules */
  calendars?: AppDeps['calendars'];
  /** the storage adapter as opened; buildDeps subscribes the caches to its changes and puts the read cache on it */
  storage: Storage;
  /** called after every committed write that added webhook messages or mails (svc serve wakes the delivery loop) */
  onOutboxWrite?: () => void;
}

/** How long another instance's (or the CLI's) change to a workspace, key, service or provider may take to show, ms. */
export const CATALOGUE_CACHE_MS = 2000;
/** How long another instance's booking may take to disappear from this instance's availability answers, ms. */
export const AVAILABILITY_CACHE_MS = 1000;
/**
 * How long availability keeps the bookings it read while the storage hears of every booking write (a libSQL file;
 * Postgres while its change channel listens): they change only by writes, which drop them, so this bounds memory
 * (what was asked in the last minute), not staleness. Otherwise they are kept for AVAILABILITY_CACHE_MS.
 */
export const HEARD_BUSY_BLOCKS_MS = 60_000;

/** An OAuth client's settings: configured only when both its id and its secret are set. */
function oauthClient<T extends object>(clientId: string | undefined, clientSecret: string | undefined, endpoints: T) {
  return clientId && clientSecret ? { clientId, clientSecret, ...endpoints } : undefined;
}

/** The calendar adapters' settings: the fetch rules, and the OAuth clients that are configured. */
function calendarOptions({ config, clock }: DepsParts): CalendarConnectorOptions {
  const google = oauthClient(config.SVC_GOOGLE_CLIENT_ID, config.SVC_GOOGLE_CLIENT_SECRET, {
    oauthUrl: config.SVC_GOOGLE_OAUTH_URL,
    apiUrl: config.SVC_GOOGLE_API_URL,
  });
  const microsoft = oauthClient(config.SVC_MICROSOFT_CLIENT_ID, config.SVC_MICROSOFT_CLIENT_SECRET, {
    tenant: config.SVC_MICROSOFT_TENANT,
    loginUrl: config.SVC_MICROSOFT_LOGIN_URL,
    graphUrl: config.SVC_MICROSOFT_GRAPH_URL,
  });
  return { allowPrivate: config.SVC_CALENDAR_ALLOW_PRIVATE, google, microsoft, now: () => clock.now() };
}

/**
 * The dependencies `svc serve` runs with, and that tests build their app from, so both run the same stack
 * over the storage adapter: the availability cache and the outbox signal follow the changes the adapter
 * announces after each commit, and the catalogue reads are answered by the read cache (which follows them
 * too). The caches run on `parts.clock`.
 */
export function buildDeps(parts: DepsParts): AppDeps {
  const { storage: adapter, onOutboxWrite, calendars, metrics = createMetrics(), ...rest } = parts;
  const availabilityCache = createAvailabilityCache({ clock: parts.clock, ttlMs: AVAILABILITY_CACHE_MS });
  const busyCache = createBusyCache({
    clock: parts.clock,
    ttlMs: () => (adapter.hearsEveryBookingWrite() ? HEARD_BUSY_BLOCKS_MS : AVAILABILITY_CACHE_MS),
  });
  invalidateOnStorageChanges(adapter, availabilityCache);
  invalidateOnStorageChanges(adapter, busyCache);
  if (onOutboxWrite) signalOutboxWrites(adapter, onOutboxWrite);
  // Calls the read cache answers never reach the database: only the adapter's are counted.
  const storage = withReadCache(metrics.countCalls(adapter), { clock: parts.clock, ttlMs: CATALOGUE_CACHE_MS });
  return {
    ...rest,
    metrics,
    storage,
    availabilityCache,
    busyCache,
    calendars: calendars ?? calendarConnector(calendarOptions(parts)),
  };
}
