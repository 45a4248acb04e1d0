import type { AdapterName } from '../../support/storage.ts';
import { settingsContract } from './settings.ts';
import { workspacesContract } from './workspaces.ts';
import { catalogueContract } from './catalogue.ts';
import { bookingsContract } from './bookings.ts';
import { paymentsContract } from './payments.ts';
import { outboxContract } from './outbox.ts';
import { mailContract } from './mail.ts';
import { calendarWritesContract } from './calendar-writes.ts';
import { panelContract } from './panel.ts';
import { panelSessionsContract } from './panel-sessions.ts';
import { changesContract } from './changes.ts';
import { concurrencyContract } from './concurrency.ts';
import { seriesContract } from './series.ts';
import { waitlistContract } from './waitlist.ts';
import { operationsContract } from './operations.ts';
import { freshDatabaseEachTest } from './database.ts';

/*
 * The storage contract: one suite, run unchanged against every adapter (tests/storage/contract.test.ts), in
 * one file per aggregate port as src/ports/storage/ has them.
 * Every test gets a fresh, migrated database, so rules about global reads (due messages, expired holds,
 * codes to purge) are checked against exactly the records the test wrote. All instants are fixed.
 */

/** The storage contract for one adapter: call inside a describe block per adapter. */
export function storageContract(adapter: AdapterName) {
  freshDatabaseEachTest(adapter);
  settingsContract();
  workspacesContract();
  catalogueContract();
  bookingsContract();
  seriesContract();
  paymentsContract();
  outboxContract();
  mailContract();
  calendarWritesContract();
  panelContract();
  panelSessionsContract();
  changesContract();
  concurrencyContract();
  waitlistContract();
  operationsContract();
}
