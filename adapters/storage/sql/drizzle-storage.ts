import type { Storage } from '../../../src/ports/storage/index.ts';
import { bookingQueries } from './bookings.ts';
import { calendarQueries } from './calendars.ts';
import { calendarWriteQueries } from './calendar-writes.ts';
import { catalogueQueries } from './catalogue.ts';
import { announcingChanges } from './changes.ts';
import type { Dialect } from './dialect.ts';
import { mailQueries } from './mail.ts';
import { operationsQueries } from './operations.ts';
import { outboxQueries } from './outbox.ts';
import { panelQueries } from './panel.ts';
import { panelSessionQueries } from './panel-session-queries.ts';
import { paymentQueries } from './payments.ts';
import { settingsQueries } from './settings.ts';
import { translateUnavailable } from './unavailable.ts';
import { waitlistQueries } from './waitlist.ts';
import { workspaceQueries } from './workspaces.ts';

/**
 * The Storage both SQL adapters share: one query file per aggregate port, over the dialect's database. The
 * libSQL and Postgres adapters only supply the Dialect (adapters/storage/sql/dialect.ts). Every write announces
 * what it changed once committed, as changes.ts declares it. A failure that means the database is unavailable
 * (down, restarting, past a timeout) leaves every method as AppError UNAVAILABLE, which the API answers with 503
 * and Retry-After (adapters/storage/sql/unavailable.ts).
 */
export function drizzleStorage(dialect: Dialect): Storage {
  return announcingChanges(
    translateUnavailable({
      ...settingsQueries(dialect),
      ...workspaceQueries(dialect),
      ...catalogueQueries(dialect),
      ...bookingQueries(dialect),
      ...waitlistQueries(dialect),
      ...paymentQueries(dialect),
      ...outboxQueries(dialect),
      ...mailQueries(dialect),
      ...panelQueries(dialect),
      ...panelSessionQueries(dialect),
      ...calendarQueries(dialect),
      ...operationsQueries(dialect),
      ...calendarWriteQueries(dialect),
    }),
    dialect.hearsEveryBookingWrite,
  );
}
