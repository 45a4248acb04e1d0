import { CalendarAccessError } from '../../src/ports/calendar.ts';
import { type GuardedFetch, GuardedFetchError } from '../../src/platform/guarded-fetch.ts';
import { NotICalendarError } from './icalendar.ts';

/** A calendar URL as svc fetches it: `webcal://` is `https://` (what calendar apps do with it). */
export function fetchableUrl(url: string): URL {
  const parsed = new URL(url.replace(/^webcals?:\/\//i, 'https://'));
  parsed.username = '';
  parsed.password = '';
  return parsed;
}

/** The Basic Authorization header for a username and password, when there are any. */
export function basicAuth(username: string | null | undefined, password: string | null | undefined): Record<string, string> {
  if (!username && !password) return {};
  return { authorization: `Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`).toString('base64')}` };
}

/**
 * `fetch` with the answers a calendar client cannot go on from turned into CalendarAccessError: 401 (the
 * credentials are refused) is `auth`; a refused destination, a timeout, an answer too large or no connection is
 * `unreachable`.
 */
export function calendarFetch(fetch: GuardedFetch): GuardedFetch {
  return async (input, init) => {
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      throw asAccessError(error);
    }
    if (response.status === 401) throw CalendarAccessError.of('auth', { code: 'credentials', values: { host: hostOf(input) } });
    return response;
  };
}

const hostOf = (input: string | URL | Request) => new URL(input instanceof Request ? input.url : input.toString()).host;

/** Any failure of a calendar call as the CalendarAccessError the API reports. */
export function asAccessError(error: unknown): CalendarAccessError {
  if (error instanceof CalendarAccessError) return error;
  if (error instanceof GuardedFetchError) {
    const { host, detail, seconds } = error.facts ?? {};
    if (host && error.reason === 'network' && detail) return CalendarAccessError.of('unreachable', { code: 'unreachable', values: { host, detail } });
    if (host && error.reason === 'timeout' && seconds) return CalendarAccessError.of('unreachable', { code: 'timeout', values: { host, seconds } });
    return new CalendarAccessError('unreachable', error.message);
  }
  if (error instanceof NotICalendarError) return new CalendarAccessError('unreachable', error.message);
  return new CalendarAccessError('unreachable', `the calendar could not be read (${error instanceof Error ? error.message : String(error)})`);
}
