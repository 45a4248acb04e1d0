import type { BusyInterval } from './booking-store.ts';
import type { OutboxEvent } from './outbox-store.ts';

/*
 * A provider's calendar connections and the busy times read from them (docs/contract/calendars.md). Busy times
 * are stored so that availability and bookings never wait on a remote calendar; a sync replaces them.
 */

export type CalendarConnectionKind = 'caldav' | 'ics' | 'google' | 'microsoft';
export type CalendarConnectionStatus = 'pending' | 'ok' | 'error';

/** One calendar behind a connection, with the owner's choices for it. */
export interface ConnectedCalendar {
  /** the calendar's URL (CalDAV, iCalendar) or the remote's calendar id */
  id: string;
  name: string;
  /** its events block the provider's time */
  blocks: boolean;
  /** the provider's bookings are written here (at most one calendar per provider) */
  writes: boolean;
  /** svc cannot write here */
  readOnly: boolean;
}

export interface CalendarConnectionRecord {
  /** `cal_…` */
  id: string;
  workspaceId: string;
  providerId: string;
  kind: CalendarConnectionKind;
  name: string;
  /** without credentials; null for google/microsoft */
  url: string | null;
  account: string | null;
  /** the username a CalDAV server is signed in with; never returned by the API */
  username: string | null;
  /** the password or tokens, sealed under SVC_SECRET (src/platform/sealed-secrets.ts); null when there are none */
  sealedSecret: string | null;
  status: CalendarConnectionStatus;
  lastSyncedAt: number | null;
  /** a sentence without secrets */
  lastError: string | null;
  /** failed syncs in a row since the last good one */
  failures: number;
  calendars: ConnectedCalendar[];
  /** per calendar id, the adapter's opaque incremental-sync state (ctag, ETag) of the busy times stored */
  syncState: Record<string, string | null>;
  createdAt: number;
  updatedAt: number;
}

/** A span in which a provider is busy because of an event of one of their calendars. Instants epoch ms. */
export interface BusyTimeRecord {
  providerId: string;
  connectionId: string;
  calendarId: string;
  start: number;
  /** exclusive */
  end: number;
  /** the event's UID (never its title) */
  uid: string;
}

/** The busy times one sync read from one calendar: they replace that calendar's stored ones. */
export interface CalendarBusyTimes {
  calendarId: string;
  intervals: { start: number; end: number; uid: string }[];
}

export type CalendarConnectionPatch = Partial<
  Pick<CalendarConnectionRecord, 'name' | 'account' | 'status' | 'lastSyncedAt' | 'lastError' | 'failures' | 'calendars' | 'syncState' | 'sealedSecret'>
>;

/**
 * The webhook events of a status move (docs/contract/calendars.md §8), written in the write's transaction. Called
 * only when the write itself moved the connection to `error` from another status, or to `ok` from `error`:
 * of racing writes making the same move, exactly one calls it.
 */
export type CalendarStatusEvents = (connection: CalendarConnectionRecord) => OutboxEvent[];

/** A change of one calendar's choices (PATCH `calendars`). */
export interface CalendarChoice {
  id: string;
  blocks?: boolean;
  writes?: boolean;
}

export interface CalendarStore {
  createCalendarConnection(connection: CalendarConnectionRecord): Promise<void>;
  /** The connection with this id, when it belongs to this provider of this workspace. */
  getCalendarConnection(workspaceId: string, providerId: string, id: string): Promise<CalendarConnectionRecord | null>;
  /** The provider's connections, oldest first. */
  listCalendarConnections(workspaceId: string, providerId: string): Promise<CalendarConnectionRecord[]>;
  /** Every connection of every workspace, oldest first (the sync loop). */
  listAllCalendarConnections(): Promise<CalendarConnectionRecord[]>;
  /**
   * Sets the fields given; null when the connection is gone. A move to `status: "error"` also marks the owner's
   * failure mail as due (see claimCalendarFailureNotice); `onStatus` as in CalendarStatusEvents.
   */
  updateCalendarConnection(id: string, patch: CalendarConnectionPatch, now: number, onStatus?: CalendarStatusEvents): Promise<CalendarConnectionRecord | null>;
  /**
   * Applies `choices` to the connection's calendars in one transaction, and returns the connection, or null when it
   * is gone. `blocks` takes effect on the stored busy times at once. A `writes: true` clears `writes` on every other
   * calendar of the provider, in this and their other connections, so a provider has at most one write calendar
   * whichever PATCHes race. Choices naming calendars the connection does not have are ignored.
   */
  chooseCalendars(id: string, choices: CalendarChoice[], now: number): Promise<CalendarConnectionRecord | null>;
  /** Removes the connection and its busy times (they stop blocking at once); false when there was none. */
  deleteCalendarConnection(workspaceId: string, providerId: string, id: string): Promise<boolean>;
  /**
   * Stores a sync's result in one transaction: `busy` replaces the stored busy times of the calendars it names,
   * calendars of the connection no longer in `patch.calendars` (when given) lose theirs, and `patch` is applied.
   * Null (and nothing stored) when the connection was deleted meanwhile.
   */
  storeCalendarSync(
    id: string,
    patch: CalendarConnectionPatch,
    busy: CalendarBusyTimes[],
    now: number,
    onStatus?: CalendarStatusEvents,
  ): Promise<CalendarConnectionRecord | null>;
  /**
   * Claims up to `limit` connections due for their scheduled sync at `now` (never synced by the scheduler, or
   * due at or before `now`) whose sync lease is free or lapsed: each is leased to `owner` until `leaseUntil` and
   * made due again at `nextDueAt`. Guarantee: of concurrent claimers (any process or instance on one database),
   * exactly one receives a connection, and no other receives it again before `nextDueAt` (or, should its
   * claimer die, before both the lease and `nextDueAt` have passed).
   */
  claimCalendarSyncs(owner: string, now: number, leaseUntil: number, nextDueAt: number, limit: number): Promise<CalendarConnectionRecord[]>;
  /** Ends `owner`'s sync lease of the connection (false when it holds none). */
  releaseCalendarSync(owner: string, id: string): Promise<boolean>;
  /**
   * The connections whose owner's failure mail is due (marked by a move to `error`), oldest first. The mail is
   * due no more once the connection is `ok` again.
   */
  listCalendarFailureNotices(limit: number): Promise<CalendarConnectionRecord[]>;
  /** Takes the connection's failure mail for sending: true for exactly one of concurrent callers, false after. */
  claimCalendarFailureNotice(id: string): Promise<boolean>;
  /**
   * The busy times of `providerIds` from calendars that block, overlapping [from, to) (end > from and start < to),
   * in start order.
   */
  busyTimesFor(providerIds: string[], from: number, to: number): Promise<BusyTimeRecord[]>;
  /**
   * The busy times of `providerIds` from calendars that block which can conflict with a slot inside [from, to)
   * of a service whose buffer is `buffer` ms (default 0): those overlapping it once each is widened by `buffer`
   * (end > from - buffer and start < to + buffer; docs/contract/calendars.md §5), in start order, as busy
   * intervals with `bookingId: null`, `bufferTime: 0` and `calendar` set. What availability reads beside
   * BookingStore.listBusy; a booking's own check reads them inside reserveBooking instead.
   */
  listCalendarBusy(providerIds: string[], from: number, to: number, buffer?: number): Promise<BusyInterval[]>;
}
