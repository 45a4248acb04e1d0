import { type BusyInterval, expandBusyTimes } from '../../core/busy-times.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, notFound, validation } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { isoTime } from '../../core/models.ts';
import type { Logger } from '../../platform/logger.ts';
import { openCalendarSecret, sealCalendarSecret } from '../../platform/sealed-secrets.ts';
import type { Config } from '../../platform/config.ts';
import { type CalendarAccount, CalendarAccessError, type CalendarConnector, type CalendarDiscovery, type OAuthKind } from '../../ports/calendar.ts';
import type {
  CalendarBusyTimes,
  CalendarConnectionRecord,
  CalendarStatusEvents,
  CalendarStore,
  CatalogueStore,
  ConnectedCalendar,
  ProviderRecord,
  WorkspaceRecord,
  WorkspaceStore,
} from '../../ports/storage/index.ts';
import { findProvider } from '../services/index.ts';
import type { CalendarConnectionCreate, CalendarConnectionJson, CalendarConnectionPatch } from './model.ts';
import { oauthAccountOf, startOAuthConnection } from './oauth.ts';

/*
 * A provider's other calendars (docs/contract/calendars.md): connecting one (checked and synced before the answer),
 * the owner's choices of blocking and write calendars, and the sync that turns the remote events into stored busy
 * times. Availability reads those with `storage.listCalendarBusy` (through the read cache) and createBooking inside
 * reserveBooking; they never wait on a remote.
 */

export interface CalendarDeps {
  storage: CalendarStore & CatalogueStore & Pick<WorkspaceStore, 'getWorkspaceById'>;
  config: Pick<Config, 'SVC_SECRET' | 'SVC_PUBLIC_URL'>;
  clock: Clock;
  logger: Logger;
  calendars: CalendarConnector;
}

/** The sync window reaches this far back, ms (one day: an event running now still blocks). */
const SYNC_DAYS_BACK = 1;
/** The sync window ahead when none of the provider's services limits booking ahead, days. */
export const DEFAULT_SYNC_DAYS_AHEAD = 365;
/** Busy times are expanded this much further than the window, so an unchanged calendar is not read again for a week. */
const EXPANSION_MARGIN_DAYS = 7;
/** Failed syncs in a row after which a connection shows `status: "error"`. */
export const FAILURES_BEFORE_ERROR = 3;
/** How long POST …/sync waits for the sync before answering the connection as it stands, ms. */
export const SYNC_ANSWER_TIMEOUT_MS = 20_000;
const DAY_MS = 86_400_000;

export function toConnectionJson(connection: CalendarConnectionRecord): CalendarConnectionJson {
  return {
    id: connection.id,
    providerId: connection.providerId,
    kind: connection.kind,
    name: connection.name,
    url: connection.url,
    account: connection.account,
    status: connection.status,
    lastSyncedAt: connection.lastSyncedAt === null ? null : isoTime(connection.lastSyncedAt),
    lastError: connection.lastError,
    calendars: connection.calendars,
    createdAt: isoTime(connection.createdAt),
  };
}

/** The URL as svc stores and shows it, and the credentials it carried (`https://user:pass@host/…`). */
function splitUrl(kind: 'caldav' | 'ics', text: string): { url: string; username: string | null; password: string | null } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw validation('url must be an absolute URL', [{ path: '/url', message: 'must be an absolute URL' }]);
  }
  const schemes = kind === 'ics' ? ['http:', 'https:', 'webcal:', 'webcals:'] : ['http:', 'https:'];
  if (!schemes.includes(url.protocol.toLowerCase())) {
    const allowed = kind === 'ics' ? 'http(s):// or webcal://' : 'http(s)://';
    throw validation(`url must be ${allowed}`, [{ path: '/url', message: `must be ${allowed}` }]);
  }
  const username = url.username ? decodeURIComponent(url.username) : null;
  const password = url.password ? decodeURIComponent(url.password) : null;
  url.username = '';
  url.password = '';
  return { url: url.toString(), username, password };
}

const accessError = (error: CalendarAccessError) => new AppError(error.reason === 'auth' ? 'CALENDAR_AUTH_FAILED' : 'CALENDAR_UNREACHABLE', error.message);

function requireSecret(config: CalendarDeps['config']): string {
  if (!config.SVC_SECRET) throw new AppError('INTERNAL_ERROR', 'SVC_SECRET is not set: calendar passwords cannot be stored');
  return config.SVC_SECRET;
}

/** The account a stored connection opens, its password unsealed. */
export async function accountOf(deps: CalendarDeps, connection: CalendarConnectionRecord): Promise<CalendarAccount> {
  if (connection.kind === 'google' || connection.kind === 'microsoft') return oauthAccountOf(deps, connection);
  const password = connection.sealedSecret ? await openCalendarSecret(connection.sealedSecret, requireSecret(deps.config), connection.id) : null;
  return { kind: connection.kind as CalendarAccount['kind'], url: connection.url ?? '', username: connection.username, password };
}

/** The calendars found now, with the owner's earlier choices kept; new ones block and do not take writes. */
function mergeCalendars(known: ConnectedCalendar[], found: CalendarDiscovery['calendars']): ConnectedCalendar[] {
  const byId = new Map(known.map((calendar) => [calendar.id, calendar]));
  return found.map((calendar) => {
    const before = byId.get(calendar.id);
    return {
      id: calendar.id,
      name: calendar.name,
      readOnly: calendar.readOnly,
      blocks: before?.blocks ?? true,
      writes: (before?.writes ?? false) && !calendar.readOnly,
    };
  });
}

/** The window a provider's busy times are kept for: a day back to the furthest any of their services books ahead. */
async function syncWindow(deps: CalendarDeps, connection: CalendarConnectionRecord, now: number) {
  const services = await deps.storage.listServices(connection.workspaceId, { activeOnly: true });
  const limits = services.filter((service) => service.providerIds.includes(connection.providerId)).map((service) => service.maxAdvance);
  const limited = limits.filter((days): days is number => days !== null);
  const daysAhead = limited.length > 0 ? Math.max(...limited) : DEFAULT_SYNC_DAYS_AHEAD;
  return { from: now - SYNC_DAYS_BACK * DAY_MS, to: now + (daysAhead + 1) * DAY_MS };
}

/** What a calendar's sync state holds: the adapter's state and how far the stored busy times reach. */
interface StoredState {
  state: string | null;
  to: number;
}

function storedState(text: string | null | undefined): StoredState | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as StoredState;
    return typeof parsed.to === 'number' ? parsed : null;
  } catch {
    return null;
  }
}

/** The webhook events a connection's health sends (docs/contract/calendars.md §8). */
export const CALENDAR_EVENT_TYPES = ['calendar.connection.failed', 'calendar.connection.restored'] as const;

/** The body of a calendar connection event: `{ type, timestamp, data: { workspace, connection } }`. */
export interface CalendarEventBody {
  type: (typeof CALENDAR_EVENT_TYPES)[number];
  /** RFC 3339, UTC */
  timestamp: string;
  data: { workspace: string; connection: CalendarConnectionJson };
}

/** The events of a status move: `failed` on a move to error, `restored` on the move back (see CalendarStatusEvents). */
function statusEvents(workspace: Pick<WorkspaceRecord, 'id' | 'slug'>, at: number): CalendarStatusEvents {
  return (connection) => {
    const type = connection.status === 'error' ? 'calendar.connection.failed' : 'calendar.connection.restored';
    const body: CalendarEventBody = { type, timestamp: isoTime(at), data: { workspace: workspace.slug, connection: toConnectionJson(connection) } };
    return [{ workspaceId: workspace.id, type, body: JSON.stringify(body), occurredAt: at }];
  };
}

/**
 * A remote's error as `lastError` may keep it: every URL reduced to its host, since an iCalendar address carries
 * its secret in its path or query and a CalDAV one may carry a password.
 */
export function withoutSecrets(message: string): string {
  return message.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s)"'<>]+/gi, (url) => {
    try {
      return new URL(url).host || 'the calendar server';
    } catch {
      return 'the calendar server';
    }
  });
}

/** UIDs svc gives its own bookings' events (`{bookingId}@{host}`): those never block (they are bookings already). */
function ownEvent(publicUrl: string) {
  const host = `@${new URL(publicUrl).host}`;
  return (uid: string) => uid.startsWith('bk_') && uid.endsWith(host);
}

/**
 * Syncs one connection now: discovers its calendars again, reads each one's events in the sync window (only what
 * changed since the last sync, where the remote can tell), and stores the busy times. Never throws for a remote
 * failure: it is recorded (`lastError`, `failures`, and `status: "error"` on an auth refusal or the third failure
 * in a row) and the connection is returned as stored. Null when the connection was deleted meanwhile.
 */
export async function syncConnection(
  deps: CalendarDeps,
  connection: CalendarConnectionRecord,
  discovered?: CalendarDiscovery,
): Promise<CalendarConnectionRecord | null> {
  const now = deps.clock.now();
  const workspace = await deps.storage.getWorkspaceById(connection.workspaceId);
  if (!workspace) return null;
  try {
    const source = deps.calendars.open(await accountOf(deps, connection));
    const discovery = discovered ?? (await source.discover());
    const calendars = mergeCalendars(connection.calendars, discovery.calendars);
    const window = await syncWindow(deps, connection, now);
    const expansion = { from: window.from, to: window.to + EXPANSION_MARGIN_DAYS * DAY_MS };
    const isOwn = ownEvent(deps.config.SVC_PUBLIC_URL);
    const syncState: Record<string, string | null> = {};
    const busy: CalendarBusyTimes[] = [];
    for (const calendar of calendars) {
      const before = storedState(connection.syncState[calendar.id]);
      // A stored state is worth handing back only while the busy times stored with it still reach the window's end.
      const usable = before && before.to >= window.to ? before.state : null;
      const read = await source.readEvents(calendar.id, expansion, usable);
      if (!read.changed) {
        syncState[calendar.id] = connection.syncState[calendar.id] ?? null;
        continue;
      }
      const events = read.events.filter((event) => !isOwn(event.uid));
      const intervals: BusyInterval[] = expandBusyTimes(events, expansion, workspace.timezone);
      busy.push({ calendarId: calendar.id, intervals });
      syncState[calendar.id] = JSON.stringify({ state: read.state, to: expansion.to } satisfies StoredState);
    }
    const patch = {
      name: connection.name,
      account: discovery.account,
      calendars,
      syncState,
      status: 'ok' as const,
      lastSyncedAt: now,
      lastError: null,
      failures: 0,
    };
    return await deps.storage.storeCalendarSync(connection.id, patch, busy, deps.clock.now(), statusEvents(workspace, deps.clock.now()));
  } catch (error) {
    if (!(error instanceof CalendarAccessError)) throw error;
    // The count is read again: a sync that ran meanwhile (POST …/sync beside the scheduler) counts too.
    const current = (await deps.storage.getCalendarConnection(connection.workspaceId, connection.providerId, connection.id)) ?? connection;
    const failures = current.failures + 1;
    const status = error.reason === 'auth' || failures >= FAILURES_BEFORE_ERROR ? 'error' : current.status;
    // said in the workspace's language (svc's own words from the catalogue; a remote's own words as they came)
    const lastError = withoutSecrets(error.sentence(workspace.language));
    deps.logger.warn('calendar sync failed', { connectionId: connection.id, reason: error.reason, error: withoutSecrets(error.message) });
    return deps.storage.updateCalendarConnection(connection.id, { failures, status, lastError }, deps.clock.now(), statusEvents(workspace, deps.clock.now()));
  }
}

async function findConnection(deps: CalendarDeps, workspace: WorkspaceRecord, provider: ProviderRecord, id: string): Promise<CalendarConnectionRecord> {
  const connection = await deps.storage.getCalendarConnection(workspace.id, provider.id, id);
  if (!connection) throw notFound(`calendar connection ${id}`);
  return connection;
}

/**
 * Connects a Google or Microsoft calendar: a pending connection and the consent URL that completes it
 * (src/features/calendars/oauth.ts).
 */
export async function createOAuthConnection(deps: CalendarDeps, workspace: WorkspaceRecord, providerId: string, kind: OAuthKind) {
  return startOAuthConnection(deps, workspace, await findProvider(deps, workspace, providerId), kind);
}

/**
 * Connects a calendar: the account is tried first (CALENDAR_AUTH_FAILED, CALENDAR_UNREACHABLE), then stored with
 * its password sealed, then synced once, so the answer shows it `ok` with its calendars.
 */
export async function createConnection(
  deps: CalendarDeps,
  workspace: WorkspaceRecord,
  providerId: string,
  body: CalendarConnectionCreate,
): Promise<CalendarConnectionRecord> {
  const provider = await findProvider(deps, workspace, providerId);
  if (body.kind === 'google' || body.kind === 'microsoft') return (await startOAuthConnection(deps, workspace, provider, body.kind)).connection;
  if (!('url' in body)) throw validation('url is required', [{ path: '/url', message: 'required' }]);
  const split = splitUrl(body.kind, body.url);
  const username = ('username' in body ? body.username : undefined) ?? split.username;
  const password = ('password' in body ? body.password : undefined) ?? split.password;
  const account: CalendarAccount = { kind: body.kind, url: split.url, username, password };
  let discovery: CalendarDiscovery;
  try {
    discovery = await deps.calendars.open(account).discover();
  } catch (error) {
    if (error instanceof CalendarAccessError) throw accessError(error);
    throw error;
  }
  const now = deps.clock.now();
  const id = newId('cal', now);
  const connection: CalendarConnectionRecord = {
    id,
    workspaceId: workspace.id,
    providerId: provider.id,
    kind: body.kind,
    name: discovery.name,
    url: split.url,
    account: discovery.account,
    username: username || null,
    sealedSecret: password ? await sealCalendarSecret(password, requireSecret(deps.config), id) : null,
    status: 'pending',
    lastSyncedAt: null,
    lastError: null,
    failures: 0,
    calendars: mergeCalendars([], discovery.calendars),
    syncState: {},
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.createCalendarConnection(connection);
  return (await syncConnection(deps, connection, discovery)) ?? connection;
}

export async function listConnections(deps: CalendarDeps, workspace: WorkspaceRecord, providerId: string): Promise<CalendarConnectionRecord[]> {
  const provider = await findProvider(deps, workspace, providerId);
  return deps.storage.listCalendarConnections(workspace.id, provider.id);
}

export async function getConnection(deps: CalendarDeps, workspace: WorkspaceRecord, providerId: string, id: string): Promise<CalendarConnectionRecord> {
  return findConnection(deps, workspace, await findProvider(deps, workspace, providerId), id);
}

/** Applies the owner's choices: `blocks` acts at once; `writes: true` takes the provider's write calendar. */
export async function chooseCalendars(
  deps: CalendarDeps,
  workspace: WorkspaceRecord,
  providerId: string,
  id: string,
  body: CalendarConnectionPatch,
): Promise<CalendarConnectionRecord> {
  const connection = await findConnection(deps, workspace, await findProvider(deps, workspace, providerId), id);
  body.calendars.forEach((choice, index) => {
    const calendar = connection.calendars.find((candidate) => candidate.id === choice.id);
    if (!calendar) throw validation(`calendar ${choice.id} is not part of this connection`, [{ path: `/calendars/${index}/id`, message: 'unknown calendar' }]);
    if (choice.writes && calendar.readOnly) {
      throw validation(`calendar ${calendar.name} is read-only: svc cannot write bookings there`, [
        { path: `/calendars/${index}/writes`, message: 'read-only calendar' },
      ]);
    }
  });
  const updated = await deps.storage.chooseCalendars(connection.id, body.calendars, deps.clock.now());
  if (!updated) throw notFound(`calendar connection ${id}`);
  return updated;
}

/** Removes the connection: its busy times stop blocking at once; events svc wrote there stay. */
export async function deleteConnection(deps: CalendarDeps, workspace: WorkspaceRecord, providerId: string, id: string): Promise<void> {
  const provider = await findProvider(deps, workspace, providerId);
  if (!(await deps.storage.deleteCalendarConnection(workspace.id, provider.id, id))) throw notFound(`calendar connection ${id}`);
}

/** POST …/sync: syncs now, waiting at most SYNC_ANSWER_TIMEOUT_MS, and answers the connection as it then stands. */
export async function syncNow(deps: CalendarDeps, workspace: WorkspaceRecord, providerId: string, id: string): Promise<CalendarConnectionRecord> {
  const connection = await findConnection(deps, workspace, await findProvider(deps, workspace, providerId), id);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), SYNC_ANSWER_TIMEOUT_MS);
  });
  const syncing = syncConnection(deps, connection);
  syncing.catch((error) => deps.logger.error('calendar sync failed', { connectionId: id, error: error instanceof Error ? error.message : String(error) }));
  try {
    const result = await Promise.race([syncing, late]);
    if (result === null) throw notFound(`calendar connection ${id}`);
    if (result !== 'late') return result;
  } finally {
    clearTimeout(timer);
  }
  return findConnection(deps, workspace, await findProvider(deps, workspace, providerId), id);
}
