import { DAVClient, type DAVCalendar } from 'tsdav';
import type { CalendarEvent } from '../../../src/core/busy-times.ts';
import { type CalendarAccount, CalendarAccessError, type CalendarSource } from '../../../src/ports/calendar.ts';
import type { GuardedFetch } from '../../../src/platform/guarded-fetch.ts';
import { asAccessError, calendarFetch, fetchableUrl } from '../http.ts';
import { parseICalendar } from '../icalendar.ts';

/*
 * A CalDAV account (RFC 4791) through tsdav: the URL may be the server, a principal or one calendar; svc finds the
 * principal and its calendar home and lists the calendars that hold events (a calendar URL keeps just that one).
 * Events are read with a calendar-query over the window (the server returns every series with an occurrence in
 * it, overrides included); the calendar's ctag (or sync-token) is the incremental state: unchanged, nothing is read.
 * Writes go to the object that has the UID, or else to a name derived from the UID with If-None-Match, so a
 * retried put replaces instead of making a second event.
 */

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

/** The display name tsdav hands over (a string, or an XML node for unusual servers). */
function nameOf(calendar: DAVCalendar, fallback: string): string {
  const name = calendar.displayName;
  if (typeof name === 'string' && name.trim()) return name.trim();
  if (name && typeof name === 'object' && typeof (name as { _text?: unknown })._text === 'string') return String((name as { _text: string })._text);
  return fallback;
}

/** The file name svc gives an event it creates: its UID, made safe for a path. */
const objectName = (uid: string) => `${uid.replace(/[^A-Za-z0-9._@-]/g, '_')}.ics`;

export function caldavSource(account: CalendarAccount, fetch: GuardedFetch): CalendarSource {
  const serverUrl = fetchableUrl(account.url).toString();
  const davFetch = calendarFetch(fetch) as typeof globalThis.fetch;
  let client: Promise<DAVClient> | undefined;

  function connected(): Promise<DAVClient> {
    client ??= (async () => {
      const dav = new DAVClient({
        serverUrl,
        credentials: { username: account.username ?? '', password: account.password ?? '' },
        authMethod: 'Basic',
        defaultAccountType: 'caldav',
        fetch: davFetch,
      });
      await dav.login();
      return dav;
    })();
    return client;
  }

  /** The hrefs of the objects of `calendarUrl` whose VEVENT has this UID. */
  async function hrefsOf(dav: DAVClient, calendarUrl: string, uid: string): Promise<string[]> {
    const answers = await dav.calendarQuery({
      url: calendarUrl,
      props: { 'd:getetag': {} },
      filters: {
        'c:comp-filter': {
          _attributes: { name: 'VCALENDAR' },
          'c:comp-filter': {
            _attributes: { name: 'VEVENT' },
            'c:prop-filter': { _attributes: { name: 'UID' }, 'c:text-match': { _attributes: { collation: 'i;octet' }, _text: uid } },
          },
        },
      },
      depth: '1',
    });
    return answers.filter((answer) => answer.ok && answer.href).map((answer) => new URL(answer.href!, calendarUrl).toString());
  }

  const failed = (what: 'answeredWriting' | 'answeredDeleting', response: Response) => {
    const host = new URL(serverUrl).host;
    return response.status === 403
      ? CalendarAccessError.of('auth', { code: 'accessRefused', values: { host, status: response.status } })
      : CalendarAccessError.of('unreachable', { code: what, values: { host, status: response.status } });
  };

  return {
    async discover() {
      try {
        const dav = await connected();
        const all = (await dav.fetchCalendars()).filter((calendar) => !calendar.components || calendar.components.includes('VEVENT'));
        const given = all.filter((calendar) => withSlash(calendar.url) === withSlash(serverUrl));
        const calendars = (given.length > 0 ? given : all).map((calendar) => ({
          id: calendar.url,
          name: nameOf(calendar, new URL(calendar.url).pathname),
          readOnly: false,
        }));
        if (calendars.length === 0) throw CalendarAccessError.of('unreachable', { code: 'noCalendar', values: { host: new URL(serverUrl).host } });
        return { name: new URL(serverUrl).host, account: account.username ?? null, calendars };
      } catch (error) {
        throw asAccessError(error);
      }
    },

    async readEvents(calendarId, window, state) {
      try {
        const dav = await connected();
        const [answer] = await dav.propfind({ url: calendarId, props: { 'cs:getctag': {}, 'd:sync-token': {} }, depth: '0' });
        if (answer && !answer.ok && answer.status === 404) throw CalendarAccessError.of('unreachable', { code: 'gone', values: { status: 404 } });
        const props = answer?.props as { getctag?: unknown; syncToken?: unknown } | undefined;
        const token = props?.getctag ?? props?.syncToken;
        const next = typeof token === 'string' || typeof token === 'number' ? String(token) : null;
        if (next !== null && next === state) return { changed: false, state };
        const objects = await dav.fetchCalendarObjects({
          calendar: { url: calendarId },
          timeRange: { start: new Date(window.from).toISOString(), end: new Date(window.to).toISOString() },
          urlFilter: () => true,
        });
        const events: CalendarEvent[] = [];
        for (const object of objects) if (typeof object.data === 'string' && object.data) events.push(...parseICalendar(object.data).events);
        return { changed: true, events, state: next };
      } catch (error) {
        throw asAccessError(error);
      }
    },

    async putEvent(calendarId, uid, ics) {
      try {
        const dav = await connected();
        const [existing] = await hrefsOf(dav, calendarId, uid);
        if (!existing) {
          // A name derived from the UID, created only if absent: a retry whose first put landed after all (or a
          // racing attempt) gets 412 and replaces that same object, so there is never a second one.
          const created = await dav.createCalendarObject({ calendar: { url: withSlash(calendarId) }, filename: objectName(uid), iCalString: ics });
          if (created.ok) return;
          if (created.status !== 412) throw failed('answeredWriting', created);
        }
        const url = existing ?? new URL(objectName(uid), withSlash(calendarId)).toString();
        const response = await dav.updateCalendarObject({ calendarObject: { url, data: ics } });
        if (!response.ok) throw failed('answeredWriting', response);
      } catch (error) {
        throw asAccessError(error);
      }
    },

    async deleteEvent(calendarId, uid) {
      try {
        const dav = await connected();
        for (const url of await hrefsOf(dav, calendarId, uid)) {
          const response = await dav.deleteCalendarObject({ calendarObject: { url, data: '' } });
          if (!response.ok && response.status !== 404) throw failed('answeredDeleting', response);
        }
      } catch (error) {
        throw asAccessError(error);
      }
    },
  };
}
