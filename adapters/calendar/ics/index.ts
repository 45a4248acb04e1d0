import { type CalendarAccount, CalendarAccessError, type CalendarSource } from '../../../src/ports/calendar.ts';
import type { GuardedFetch } from '../../../src/platform/guarded-fetch.ts';
import { asAccessError, basicAuth, calendarFetch, fetchableUrl } from '../http.ts';
import { parseICalendar } from '../icalendar.ts';

/**
 * A read-only iCalendar URL (`http(s)://` or `webcal://`): one calendar, the whole file read on each sync. The
 * incremental state is the answer's ETag (or Last-Modified): an unchanged file answers 304 and is not read again.
 */
export function icsSource(account: CalendarAccount, fetch: GuardedFetch): CalendarSource {
  const url = fetchableUrl(account.url);
  const get = calendarFetch(fetch);
  const auth = basicAuth(account.username, account.password);

  async function download(state: string | null) {
    const conditional: Record<string, string> = {};
    if (state?.startsWith('etag:')) conditional['if-none-match'] = state.slice(5);
    if (state?.startsWith('modified:')) conditional['if-modified-since'] = state.slice(9);
    const response = await get(url, { headers: { accept: 'text/calendar, */*;q=0.5', ...auth, ...conditional } });
    if (response.status === 304) return { unchanged: true as const, state };
    if (response.status === 403) throw CalendarAccessError.of('auth', { code: 'accessRefused', values: { host: url.host, status: 403 } });
    if (!response.ok) throw CalendarAccessError.of('unreachable', { code: 'answered', values: { host: url.host, status: response.status } });
    const etag = response.headers.get('etag');
    const modified = response.headers.get('last-modified');
    const next = etag ? `etag:${etag}` : modified ? `modified:${modified}` : null;
    return { unchanged: false as const, state: next, calendar: parseICalendar(await response.text()) };
  }

  return {
    async discover() {
      try {
        const read = await download(null);
        if (read.unchanged) throw new CalendarAccessError('unreachable', `${url.host} answered 304 without a calendar`);
        const name = read.calendar.name ?? url.host;
        return { name, account: null, calendars: [{ id: url.toString(), name, readOnly: true }] };
      } catch (error) {
        throw asAccessError(error);
      }
    },

    async readEvents(_calendarId, _window, state) {
      try {
        const read = await download(state);
        if (read.unchanged) return { changed: false, state: read.state };
        return { changed: true, events: read.calendar.events, state: read.state };
      } catch (error) {
        throw asAccessError(error);
      }
    },

    async putEvent() {
      throw new CalendarAccessError('unreachable', 'an iCalendar URL is read-only: events cannot be written to it');
    },

    async deleteEvent() {
      throw new CalendarAccessError('unreachable', 'an iCalendar URL is read-only: events cannot be deleted from it');
    },
  };
}
