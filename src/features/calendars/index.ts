/** The calendars feature's public face: what other features, the scheduler and the composition use of it. */
export { calendarRoutes } from './routes.ts';
export { oauthCallbackRoutes } from './consent-page.ts';
/** @public the scheduler's periodic sync calls it (docs/contract/calendars.md §6) */
export { syncConnection } from './service.ts';
/** @public */
export type { CalendarDeps } from './service.ts';
/** @public the webhook documentation (src/features/webhooks/model.ts) and its tests */
export { CalendarConnection } from './model.ts';
/** @public */
export { CALENDAR_EVENT_TYPES, toConnectionJson } from './service.ts';
/** @public */
export type { CalendarEventBody } from './service.ts';
/** @public the booking write-back (src/features/bookings/calendar-writer.ts) */
export { openWriteConnection, recordWriteFailure, writeCalendarOf } from './write-back.ts';
