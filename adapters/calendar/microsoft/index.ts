import type { CalendarEvent, EventTime } from '../../../src/core/busy-times.ts';
import type { CalendarAccount, CalendarSource } from '../../../src/ports/calendar.ts';
import type { GuardedFetch } from '../../../src/platform/guarded-fetch.ts';
import { ianaZoneOf } from '../icalendar.ts';
import { mergeChanges, readState, StaleStateError } from '../incremental.ts';
import { type ApiRequest, apiClient, bookingEventOf, jsonOf, oauthClient, type RefreshingOAuthClient } from '../oauth.ts';

/*
 * Microsoft 365 / Outlook calendars through Microsoft Graph v1.0 over plain fetch
 * (docs/decisions/0016-calendar-apis-over-fetch.md):
 * - calendars: me/calendars, paged by @odata.nextLink; `canEdit: false` is read-only;
 * - events: the calendar's calendarView/delta over the sync window (Graph expands the series), paged by
 *   @odata.nextLink; the last page's @odata.deltaLink makes the next read incremental (`@removed` rows drop events),
 *   and a 410 for a stale link starts a full read again; `showAs: free` and cancelled events do not block; times
 *   come with Windows zone names ("W. Europe Standard Time") as often as IANA ones;
 * - writes: created with `transactionId` = the UID (Graph drops a retried create with the same one) and a
 *   single-value extended property holding the UID, by which a later put or delete finds the event.
 */

export interface MicrosoftSettings {
  clientId: string;
  clientSecret: string;
  /** common, organizations, consumers or a tenant id */
  tenant: string;
  /** default https://login.microsoftonline.com */
  loginUrl?: string;
  /** default https://graph.microsoft.com */
  graphUrl?: string;
}

/** Read and write the user's calendars (Calendars.ReadWrite); a refresh token (offline_access). */
export const MICROSOFT_SCOPES = ['Calendars.ReadWrite', 'offline_access'];

/** The extended property that holds the UID of an event svc wrote (a named property of svc's own GUID). */
const UID_PROPERTY = 'String {5b1f6d0e-3c1a-4f52-9a43-8e2f0c7d9b61} Name svcUid';

export function microsoftOAuth(settings: MicrosoftSettings, fetch: GuardedFetch, now: () => number): RefreshingOAuthClient {
  const base = `${(settings.loginUrl ?? 'https://login.microsoftonline.com').replace(/\/+$/, '')}/${encodeURIComponent(settings.tenant)}/oauth2/v2.0`;
  return oauthClient(
    {
      provider: 'Microsoft',
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      authorizeUrl: `${base}/authorize`,
      tokenUrl: `${base}/token`,
      scope: MICROSOFT_SCOPES.join(' '),
      authorizeParams: { response_mode: 'query' },
    },
    fetch,
    now,
  );
}

interface GraphCalendar {
  id: string;
  name: string;
  canEdit?: boolean;
  isDefaultCalendar?: boolean;
  owner?: { name?: string; address?: string };
}

interface GraphTime {
  /** wall-clock time, `2026-03-06T09:00:00.0000000` */
  dateTime: string;
  /** an IANA or Windows zone name, or UTC */
  timeZone: string;
}

interface GraphEvent {
  id: string;
  iCalUId?: string;
  transactionId?: string | null;
  showAs?: 'free' | 'tentative' | 'busy' | 'oof' | 'workingElsewhere' | 'unknown';
  isCancelled?: boolean;
  isAllDay?: boolean;
  start?: GraphTime;
  end?: GraphTime;
  '@removed'?: { reason: string };
}

interface GraphPage<T> {
  value?: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

function timeOf(time: GraphTime | undefined, allDay: boolean): EventTime | null {
  if (!time?.dateTime) return null;
  const local = time.dateTime.slice(0, 19);
  if (allDay) return { date: local.slice(0, 10) };
  if (!time.timeZone || /^(UTC|Etc\/UTC|tzone:\/\/Microsoft\/Utc)$/i.test(time.timeZone)) return { local, zone: 'UTC' };
  return { local, zone: ianaZoneOf(time.timeZone) };
}

function eventOf(event: GraphEvent): CalendarEvent | null {
  const start = timeOf(event.start, Boolean(event.isAllDay));
  if (!start) return null;
  return {
    uid: event.transactionId || event.iCalUId || event.id,
    start,
    end: timeOf(event.end, Boolean(event.isAllDay)),
    duration: null,
    rrule: null,
    rdates: [],
    exdates: [],
    recurrenceId: null,
    transparent: event.showAs === 'free',
    cancelled: Boolean(event.isCancelled),
  };
}

/** `2026-03-06T14:00:00.000Z` as Graph's wall-clock UTC time. */
const graphUtc = (iso: string): GraphTime => ({ dateTime: iso.replace(/Z$/, ''), timeZone: 'UTC' });

export function microsoftSource(
  account: CalendarAccount,
  oauth: RefreshingOAuthClient,
  settings: MicrosoftSettings,
  fetch: GuardedFetch,
  now: () => number,
): CalendarSource {
  const graph = `${(settings.graphUrl ?? 'https://graph.microsoft.com').replace(/\/+$/, '')}/v1.0`;
  let request: ApiRequest | null = null;
  const call: ApiRequest = (url, init) => {
    request ??= apiClient(account, oauth, fetch, now);
    return request(url, init);
  };
  const calendarUrl = (calendarId: string) => `${graph}/me/calendars/${encodeURIComponent(calendarId)}`;

  async function pages<T>(first: string, provider: string, headers?: Record<string, string>): Promise<{ items: T[]; deltaLink: string | null }> {
    const items: T[] = [];
    for (let url = first; ; ) {
      const page = await jsonOf<GraphPage<T>>(await call(url, { headers }), provider);
      items.push(...(page.value ?? []));
      const next = page['@odata.nextLink'];
      if (!next) return { items, deltaLink: page['@odata.deltaLink'] ?? null };
      url = next;
    }
  }

  /** The id of the event svc wrote with UID `uid`, or null. */
  async function findEvent(calendarId: string, uid: string): Promise<string | null> {
    const url = new URL(`${calendarUrl(calendarId)}/events`);
    url.searchParams.set('$filter', `singleValueExtendedProperties/Any(ep: ep/id eq '${UID_PROPERTY}' and ep/value eq '${uid.replaceAll("'", "''")}')`);
    url.searchParams.set('$select', 'id');
    const page = await jsonOf<GraphPage<{ id: string }>>(await call(url.toString()), 'Microsoft');
    return page.value?.[0]?.id ?? null;
  }

  return {
    async discover() {
      const { items } = await pages<GraphCalendar>(`${graph}/me/calendars?$top=100`, 'Microsoft');
      const main = items.find((calendar) => calendar.isDefaultCalendar) ?? items[0];
      return {
        name: 'Microsoft 365',
        account: main?.owner?.address ?? null,
        calendars: items.map((calendar) => ({ id: calendar.id, name: calendar.name, readOnly: calendar.canEdit === false })),
      };
    },

    async readEvents(calendarId, window, state) {
      const before = readState(state);
      const first = new URL(`${calendarUrl(calendarId)}/calendarView/delta`);
      first.searchParams.set('startDateTime', new Date(window.from).toISOString());
      first.searchParams.set('endDateTime', new Date(window.to).toISOString());
      let read: { items: GraphEvent[]; deltaLink: string | null };
      try {
        read = await pages<GraphEvent>(before ? before.token : first.toString(), 'Microsoft', { prefer: 'odata.maxpagesize=200' });
      } catch (error) {
        // 410 Gone: the delta link is no longer valid; read everything again
        if (before && error instanceof StaleStateError) return this.readEvents(calendarId, window, null);
        throw error;
      }
      const changes = read.items.map((item) => ({ id: item.id, event: item['@removed'] || item.isCancelled ? null : eventOf(item) }));
      return mergeChanges(before, changes, read.deltaLink);
    },

    async putEvent(calendarId, uid, ics) {
      const booking = bookingEventOf(ics, uid);
      const fields = {
        subject: booking.summary,
        body: { contentType: 'text', content: booking.description ?? '' },
        ...(booking.location ? { location: { displayName: booking.location } } : {}),
        start: graphUtc(booking.start),
        end: graphUtc(booking.end),
        showAs: booking.tentative ? 'tentative' : 'busy',
      };
      const existing = await findEvent(calendarId, uid);
      if (existing) {
        await jsonOf(await call(`${graph}/me/events/${encodeURIComponent(existing)}`, { method: 'PATCH', body: fields }), 'Microsoft');
        return;
      }
      const created = await call(`${calendarUrl(calendarId)}/events`, {
        method: 'POST',
        body: { ...fields, transactionId: uid, singleValueExtendedProperties: [{ id: UID_PROPERTY, value: uid }] },
      });
      await jsonOf(created, 'Microsoft');
    },

    async deleteEvent(calendarId, uid) {
      const existing = await findEvent(calendarId, uid);
      if (!existing) return;
      const response = await call(`${graph}/me/events/${encodeURIComponent(existing)}`, { method: 'DELETE' });
      if (response.ok || response.status === 404) return;
      await jsonOf(response, 'Microsoft');
    },
  };
}
