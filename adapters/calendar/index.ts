import type { CalendarConnector } from '../../src/ports/calendar.ts';
import { type GuardedFetchOptions, guardedFetch } from '../../src/platform/guarded-fetch.ts';
import { caldavSource } from './caldav/index.ts';
import { type GoogleSettings, googleOAuth, googleSource } from './google/index.ts';
import { icsSource } from './ics/index.ts';
import { type MicrosoftSettings, microsoftOAuth, microsoftSource } from './microsoft/index.ts';

export interface CalendarConnectorOptions extends GuardedFetchOptions {
  /** Google's OAuth client; without it `oauth('google')` is null */
  google?: GoogleSettings;
  /** Microsoft's OAuth client; without it `oauth('microsoft')` is null */
  microsoft?: MicrosoftSettings;
  /** the clock OAuth token expiries are read against; default Date.now */
  now?: () => number;
}

/**
 * The calendar adapters behind one connector. URLs the owner gives (CalDAV, iCalendar) go through the guarded
 * fetch with `options`; Google's and Microsoft's endpoints are the operator's (their defaults, or the overrides of
 * the config), so they are fetched with the same time and size limits but without the private-address rule.
 */
export function calendarConnector(options: CalendarConnectorOptions): CalendarConnector {
  const { google, microsoft, now = Date.now, ...fetchOptions } = options;
  const fetch = guardedFetch(fetchOptions);
  const providerFetch = guardedFetch({ ...fetchOptions, allowPrivate: true });
  const googleClient = google ? googleOAuth(google, providerFetch, now) : null;
  const microsoftClient = microsoft ? microsoftOAuth(microsoft, providerFetch, now) : null;
  const unconfigured = (kind: string): never => {
    throw new Error(`${kind} calendars are not configured on this server`);
  };
  return {
    open(account) {
      switch (account.kind) {
        case 'caldav':
          return caldavSource(account, fetch);
        case 'ics':
          return icsSource(account, fetch);
        case 'google':
          return google && googleClient ? googleSource(account, googleClient, google, providerFetch, now) : unconfigured('Google');
        case 'microsoft':
          return microsoft && microsoftClient ? microsoftSource(account, microsoftClient, microsoft, providerFetch, now) : unconfigured('Microsoft');
      }
    },
    oauth(kind) {
      return kind === 'google' ? googleClient : microsoftClient;
    },
  };
}
