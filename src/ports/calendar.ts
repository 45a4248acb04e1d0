import type { BusyWindow, CalendarEvent } from '../core/busy-times.ts';

/*
 * The calendar port: a provider's other calendar (a CalDAV server or a read-only iCalendar URL) as svc reads and
 * writes it (docs/contract/calendars.md). Adapters live in adapters/calendar/<kind>/; every network call they make
 * obeys the destination rules (public addresses only unless allowed, 10 s and 10 MiB per request).
 */

export type CalendarKind = 'caldav' | 'ics';

/** What a connection is opened with; the password is plain here and nowhere else (it is stored sealed). */
export interface CalendarAccount {
  kind: CalendarKind;
  /** http(s):// (webcal:// is read as https://); may be a CalDAV server, principal or calendar URL */
  url: string;
  username?: string | null;
  password?: string | null;
}

/** A calendar found behind a connection. */
export interface DiscoveredCalendar {
  /** stable within the connection: the calendar's URL */
  id: string;
  name: string;
  /** svc cannot write events there (an iCalendar URL, a read-only or subscribed collection) */
  readOnly: boolean;
}

export interface CalendarDiscovery {
  /** the connection's display name (the server's host, or the feed's X-WR-CALNAME) */
  name: string;
  /** the account as the server names it (CalDAV: the username), null when there is none */
  account: string | null;
  calendars: DiscoveredCalendar[];
}

/**
 * One calendar's events in a window. `state` is opaque to the caller: handed back on the next read, it lets the
 * adapter answer `changed: false` when nothing changed since (a CalDAV ctag/sync-token, an HTTP ETag), and the
 * busy times stored from the last read stay.
 */
export type CalendarRead = { changed: false; state: string | null } | { changed: true; events: CalendarEvent[]; state: string | null };

/** Why a calendar call failed, as the API reports it: CALENDAR_AUTH_FAILED or CALENDAR_UNREACHABLE. */
export class CalendarAccessError extends Error {
  constructor(
    readonly reason: 'auth' | 'unreachable',
    /** a sentence for the owner, without secrets */
    message: string,
  ) {
    super(message);
    this.name = 'CalendarAccessError';
  }
}

/** An open connection to one calendar account. Every method throws CalendarAccessError when the remote fails. */
export interface CalendarSource {
  /** Checks the credentials and lists the calendars (a calendar URL yields just that calendar). */
  discover(): Promise<CalendarDiscovery>;
  /**
   * The events of calendar `calendarId` that may fall into `window` (a recurring series whose occurrences reach
   * into it, with its overrides), or `changed: false` when `state` shows nothing changed since it was taken.
   */
  readEvents(calendarId: string, window: BusyWindow, state: string | null): Promise<CalendarRead>;
  /**
   * Writes the iCalendar object `ics` (one VCALENDAR holding one VEVENT with UID `uid`). Idempotent by UID: when
   * the calendar has an event with that UID it is replaced, so a retried put updates and never makes a second one.
   */
  putEvent(calendarId: string, uid: string, ics: string): Promise<void>;
  /** Deletes the event with UID `uid`; nothing to delete is not an error. */
  deleteEvent(calendarId: string, uid: string): Promise<void>;
}

/** Opens calendar accounts; the composition builds it from the adapters with the fetch rules of the config. */
export interface CalendarConnector {
  open(account: CalendarAccount): CalendarSource;
}
