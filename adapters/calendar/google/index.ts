import type { CalendarEvent, EventTime } from '../../../src/core/busy-times.ts';
import type { CalendarAccount, CalendarSource } from '../../../src/ports/calendar.ts';
import type { GuardedFetch } from '../../../src/platform/guarded-fetch.ts';
import { type ApiRequest, apiClient, bookingEventOf, jsonOf, type OAuthEndpoints, oauthClient, type RefreshingOAuthClient } from '../oauth.ts';
import { mergeChanges, readState, StaleStateError } from '../incremental.ts';

/*
 * Google Calendar (API v3) over plain fetch (docs/decisions/0016-calendar-apis-over-fetch.md):
 * - calendars: users/me/calendarList, paged by pageToken; the primary calendar's id is the account's address;
 * - events: singleEvents=true (Google expands the series), paged by pageToken; the last page's nextSyncToken makes
 *   the next read incremental, and a 410 for a stale token starts a full read again; `transparency: transparent`
 *   (shown as free) and cancelled events do not block;
 * - writes: the event id is the base32hex of the UID, so a retried insert gets 409 and becomes an update.
 */

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  /** the consent and token endpoints' base; unset: accounts.google.com and oauth2.googleapis.com */
  oauthUrl?: string;
  /** default https://www.googleapis.com */
  apiUrl?: string;
}

/** Read the calendars, write events in them (calendar.events), list the calendars (calendar.readonly). */
export const GOOGLE_SCOPES = ['https://www.googleapis.com/auth/calendar.events', 'https://www.googleapis.com/auth/calendar.readonly'];

export function googleOAuth(settings: GoogleSettings, fetch: GuardedFetch, now: () => number): RefreshingOAuthClient {
  const base = settings.oauthUrl?.replace(/\/+$/, '');
  const endpoints: OAuthEndpoints = {
    provider: 'Google',
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    authorizeUrl: `${base ?? 'https://accounts.google.com'}/o/oauth2/v2/auth`,
    tokenUrl: `${base ?? 'https://oauth2.googleapis.com'}/token`,
    scope: GOOGLE_SCOPES.join(' '),
    // offline: a refresh token; consent: a new one also when the account granted svc before
    authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  };
  return oauthClient(endpoints, fetch, now);
}

interface GoogleCalendarListEntry {
  id: string;
  summary?: string;
  summaryOverride?: string;
  primary?: boolean;
  accessRole: 'freeBusyReader' | 'reader' | 'writer' | 'owner';
}

interface GoogleTime {
  date?: string;
  dateTime?: string;
  timeZone?: string;
}

interface GoogleEvent {
  id: string;
  iCalUID?: string;
  status?: 'confirmed' | 'tentative' | 'cancelled';
  transparency?: 'opaque' | 'transparent';
  start?: GoogleTime;
  end?: GoogleTime;
}

interface GooglePage<T> {
  items?: T[];
  nextPageToken?: string;
  nextSyncToken?: string;
}

const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

/** The event id svc gives the event of UID `uid`: its bytes in base32hex (Google's id alphabet, a–v and 0–9). */
export function googleEventId(uid: string): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of new TextEncoder().encode(uid)) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31];
  return out;
}

/** A Google time: a date, or an RFC 3339 instant (its offset already applied) in the zone it names. */
function timeOf(time: GoogleTime | undefined): EventTime | null {
  if (!time) return null;
  if (time.date) return { date: time.date };
  if (!time.dateTime) return null;
  const instant = Date.parse(time.dateTime);
  if (Number.isNaN(instant)) return null;
  return { local: new Date(instant).toISOString().slice(0, 19), zone: 'UTC' };
}

function eventOf(event: GoogleEvent): CalendarEvent | null {
  const start = timeOf(event.start);
  if (!start) return null;
  return {
    uid: event.iCalUID ?? event.id,
    start,
    end: timeOf(event.end),
    duration: null,
    rrule: null,
    rdates: [],
    exdates: [],
    recurrenceId: null,
    transparent: event.transparency === 'transparent',
    cancelled: event.status === 'cancelled',
  };
}

export function googleSource(
  account: CalendarAccount,
  oauth: RefreshingOAuthClient,
  settings: GoogleSettings,
  fetch: GuardedFetch,
  now: () => number,
): CalendarSource {
  const api = `${(settings.apiUrl ?? 'https://www.googleapis.com').replace(/\/+$/, '')}/calendar/v3`;
  let request: ApiRequest | null = null;
  const call: ApiRequest = (url, init) => {
    request ??= apiClient(account, oauth, fetch, now);
    return request(url, init);
  };
  const eventsUrl = (calendarId: string) => `${api}/calendars/${encodeURIComponent(calendarId)}/events`;

  async function pages<T>(first: URL, provider: string): Promise<{ items: T[]; syncToken: string | null }> {
    const items: T[] = [];
    for (let pageToken: string | undefined; ; ) {
      const url = new URL(first);
      if (pageToken) url.searchParams.set('pageToken', pageToken);
      const page = await jsonOf<GooglePage<T>>(await call(url.toString()), provider);
      items.push(...(page.items ?? []));
      if (!page.nextPageToken) return { items, syncToken: page.nextSyncToken ?? null };
      pageToken = page.nextPageToken;
    }
  }

  return {
    async discover() {
      const url = new URL(`${api}/users/me/calendarList`);
      url.searchParams.set('maxResults', '250');
      const { items } = await pages<GoogleCalendarListEntry>(url, 'Google');
      const primary = items.find((entry) => entry.primary);
      return {
        name: 'Google Calendar',
        account: primary?.id ?? null,
        calendars: items.map((entry) => ({
          id: entry.id,
          name: entry.summaryOverride ?? entry.summary ?? entry.id,
          readOnly: entry.accessRole !== 'owner' && entry.accessRole !== 'writer',
        })),
      };
    },

    async readEvents(calendarId, window, state) {
      const before = readState(state);
      const url = new URL(eventsUrl(calendarId));
      url.searchParams.set('singleEvents', 'true');
      url.searchParams.set('maxResults', '2500');
      if (before) url.searchParams.set('syncToken', before.token);
      else {
        url.searchParams.set('timeMin', new Date(window.from).toISOString());
        url.searchParams.set('timeMax', new Date(window.to).toISOString());
      }
      let read: { items: GoogleEvent[]; syncToken: string | null };
      try {
        read = await pages<GoogleEvent>(url, 'Google');
      } catch (error) {
        // 410 Gone: the sync token is no longer valid; read everything again
        if (before && error instanceof StaleStateError) return this.readEvents(calendarId, window, null);
        throw error;
      }
      const changes = read.items.map((item) => ({ id: item.id, event: item.status === 'cancelled' ? null : eventOf(item) }));
      return mergeChanges(before, changes, read.syncToken);
    },

    async putEvent(calendarId, uid, ics) {
      const booking = bookingEventOf(ics, uid);
      const id = googleEventId(uid);
      const body = {
        id,
        iCalUID: uid,
        summary: booking.summary,
        description: booking.description ?? undefined,
        location: booking.location ?? undefined,
        start: { dateTime: booking.start, timeZone: 'UTC' },
        end: { dateTime: booking.end, timeZone: 'UTC' },
        status: booking.tentative ? 'tentative' : 'confirmed',
        sequence: booking.sequence,
        transparency: 'opaque',
      };
      const inserted = await call(eventsUrl(calendarId), { method: 'POST', body });
      if (inserted.ok) return;
      // 409: an event with this id exists (a retried insert, or one deleted before): it is updated instead
      if (inserted.status !== 409) await jsonOf(inserted, 'Google');
      const updated = await call(`${eventsUrl(calendarId)}/${id}`, { method: 'PUT', body });
      await jsonOf(updated, 'Google');
    },

    async deleteEvent(calendarId, uid) {
      const response = await call(`${eventsUrl(calendarId)}/${googleEventId(uid)}`, { method: 'DELETE' });
      if (response.ok || response.status === 404 || response.status === 410) return;
      await jsonOf(response, 'Google');
    },
  };
}
