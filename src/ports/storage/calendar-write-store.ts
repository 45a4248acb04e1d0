/*
 * The calendar-write outbox (docs/contract/calendars.md §7): one row per booking whose event svc keeps in its
 * provider's write calendar. A booking change writes (or raises) the row in the change's own transaction; the
 * outbox worker makes the remote event match the booking as it then is (written while PENDING or CONFIRMED,
 * removed otherwise). One row per booking means one attempt at a time per booking, so an older change can never
 * land after a newer one.
 */

/** pending: to be attempted (or retried); done: the remote matches the row's revision; failed: every attempt failed. */
export type CalendarWriteStatus = 'pending' | 'done' | 'failed';

/** Where an event was written: a connection's calendar. */
export interface CalendarWriteTarget {
  connectionId: string;
  calendarId: string;
}

export interface CalendarWriteRecord {
  /** `cwr_…` */
  id: string;
  workspaceId: string;
  bookingId: string;
  /** the booking revision the remote is to reach */
  revision: number;
  status: CalendarWriteStatus;
  /** failed attempts since the row last changed revision */
  attempts: number;
  nextAttemptAt: number | null;
  /** the last attempt's error, a sentence without secrets or personal data */
  lastError: string | null;
  /** where the event stands now (the last successful write), null when none is written */
  written: CalendarWriteTarget | null;
  createdAt: number;
  updatedAt: number;
}

export interface CalendarWriteOutcome {
  /** the booking revision the attempt made the remote match; the row is done only if it still asks for that one */
  revision: number;
  status: CalendarWriteStatus;
  nextAttemptAt: number | null;
  error: string | null;
  written: CalendarWriteTarget | null;
  at: number;
}

export interface CalendarWriteStore {
  /**
   * Claims up to `limit` pending rows due at `now` whose lease is free or lapsed, leased to `owner` until
   * `leaseUntil`. Concurrent claimers never receive the same row while its lease runs.
   */
  claimDueCalendarWrites(owner: string, now: number, leaseUntil: number, limit: number): Promise<CalendarWriteRecord[]>;
  /** The heartbeat: moves the lease of each of `ids` that `owner` still holds; resolves with those ids. */
  extendCalendarWriteLeases(owner: string, ids: string[], leaseUntil: number): Promise<string[]>;
  /**
   * Records an attempt and releases the lease; false (nothing written) unless `owner` holds it. When a booking
   * change raised the row's revision past `outcome.revision` meanwhile, the row stays pending and due at once
   * (with `written` as the attempt left it).
   */
  recordCalendarWrite(owner: string, id: string, outcome: CalendarWriteOutcome): Promise<boolean>;
  /** Earliest nextAttemptAt of pending rows. */
  nextCalendarWriteDueAt(): Promise<number | null>;
  /** The booking's row, null when svc never had to write its event. */
  getCalendarWrite(bookingId: string): Promise<CalendarWriteRecord | null>;
}
