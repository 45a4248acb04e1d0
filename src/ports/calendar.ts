import type { BusyWindow, CalendarEvent } from '../core/busy-times.ts';
import { messagesFor } from '../core/i18n/catalogue.ts';
import type { PageMessages } from '../core/i18n/en/pages.ts';

/*
 * The calendar port: a provider's other calendar (a CalDAV server, a read-only iCalendar URL, a Google or a
 * Microsoft 365 account) as svc reads and writes it (docs/contract/calendars.md). Adapters live in
 * adapters/calendar/<kind>/; every network call they make obeys the destination rules (public addresses only
 * unless allowed, 10 s and 10 MiB per request).
 */

export type CalendarKind = 'caldav' | 'ics' | 'google' | 'microsoft';
/** The kinds connected through OAuth 2.0 (authorization code with PKCE). */
export type OAuthKind = 'google' | 'microsoft';

/** An OAuth account's tokens; plain here and nowhere else (they are stored sealed). */
export interface OAuthTokens {
  accessToken: string;
  /** null when the provider gave none (then the connection ends with the access token) */
  refreshToken: string | null;
  /** when the access token expires, epoch ms */
  expiresAt: number;
}

/** What a connection is opened with; the password is plain here and nowhere else (it is stored sealed). */
export interface CalendarAccount {
  kind: CalendarKind;
  /** http(s):// (webcal:// is read as https://); may be a CalDAV server, principal or calendar URL; '' for OAuth kinds */
  url: string;
  username?: string | null;
  password?: string | null;
  /** google, microsoft: the tokens, and where the adapter hands refreshed ones to be stored */
  oauth?: { tokens: OAuthTokens; save(tokens: OAuthTokens): Promise<void> };
}

/**
 * One OAuth provider's consent round (RFC 6749 authorization code with RFC 7636 PKCE, S256). The caller makes
 * the state and the verifier and keeps them; the client only builds the URL and redeems the code.
 */
export interface OAuthClient {
  /** The provider's consent page for this round. */
  authorizeUrl(round: { state: string; codeChallenge: string; redirectUri: string }): string;
  /** Redeems the code of a granted consent; a refused code throws CalendarAccessError('auth'). */
  exchange(round: { code: string; codeVerifier: string; redirectUri: string }): Promise<OAuthTokens>;
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

/** A calendar problem svc can say in words: a key of `calendarProblem` in core/i18n/<language>/pages.ts and its values. */
export type CalendarProblem = {
  [K in keyof ProblemWords]: { code: K; values: Parameters<ProblemWords[K]>[0] };
}[keyof ProblemWords];

type ProblemWords = PageMessages['calendarProblem'];

/** A calendar problem in words in `language` (en or de, else English). */
export function problemSentence(language: string, problem: CalendarProblem): string {
  return (messagesFor(language).pages.calendarProblem[problem.code] as (values: unknown) => string)(problem.values);
}

/**
 * Why a calendar call failed, as the API reports it: CALENDAR_AUTH_FAILED or CALENDAR_UNREACHABLE. Made with `of`,
 * it carries the problem as a catalogue key, so a connection's `lastError` is said in the workspace's language;
 * its `message` is the English sentence (the API's error body, the log).
 */
export class CalendarAccessError extends Error {
  constructor(
    readonly reason: 'auth' | 'unreachable',
    /** a sentence for the owner, without secrets */
    message: string,
    readonly problem: CalendarProblem | null = null,
  ) {
    super(message);
    this.name = 'CalendarAccessError';
  }

  static of(reason: 'auth' | 'unreachable', problem: CalendarProblem): CalendarAccessError {
    return new CalendarAccessError(reason, problemSentence('en', problem), problem);
  }

  /** The sentence in `language`: svc's words from the catalogue, else the message as it was made. */
  sentence(language: string): string {
    return this.problem ? problemSentence(language, this.problem) : this.message;
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
  /** The consent round of an OAuth kind; null when the server has no client id and secret for it. */
  oauth(kind: OAuthKind): OAuthClient | null;
}
