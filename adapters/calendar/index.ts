import type { CalendarConnector } from '../../src/ports/calendar.ts';
import { type GuardedFetchOptions, guardedFetch } from '../../src/platform/guarded-fetch.ts';
import { caldavSource } from './caldav/index.ts';
import { icsSource } from './ics/index.ts';

/** The calendar adapters behind one connector; every request goes through the guarded fetch with `options`. */
export function calendarConnector(options: GuardedFetchOptions): CalendarConnector {
  const fetch = guardedFetch(options);
  return {
    open(account) {
      return account.kind === 'caldav' ? caldavSource(account, fetch) : icsSource(account, fetch);
    },
  };
}
