import type { MailEntry } from './mail-entry.ts';
import type { BookingRecord } from './booking-store.ts';

/** pending: waiting to be sent (or retried); sent; failed: every attempt failed; dropped: no longer worth sending. */
export type MailStatus = 'pending' | 'sent' | 'failed' | 'dropped';

export interface MailMessageRecord extends MailEntry {
  id: string;
  status: MailStatus;
  attempts: number;
  nextAttemptAt: number | null;
  /** the last attempt's error, without personal data */
  lastError: string | null;
  sentAt: number | null;
}

export interface MailOutcome {
  status: MailStatus;
  nextAttemptAt: number | null;
  error: string | null;
  at: number;
}

export interface CalendarFeedRecord {
  providerId: string;
  workspaceId: string;
  /** hex SHA-256 of the feed token; the token itself is only in the URL handed out */
  tokenHash: string;
  createdAt: number;
}

/**
 * The mail outbox, the manage-link and calendar-feed lookups. Mails caused by a booking change are written by
 * BookingStore's writes (`mails` of ReserveRequest and BookingTransition) in the change's transaction; the
 * reminder is written by enqueueMails.
 */
export interface MailStore {
  /** Writes mails not written before: an entry whose (bookingId, kind, revision) exists is skipped. Returns how many were written. */
  enqueueMails(entries: MailEntry[]): Promise<number>;
  /**
   * Claims up to `limit` pending mails due at `now` whose lease is free or lapsed, leased to `owner` until
   * `leaseUntil`. Guarantee: concurrent claimers (any process or instance) never receive the same mail while
   * its lease runs.
   */
  claimDueMails(owner: string, now: number, leaseUntil: number, limit: number): Promise<MailMessageRecord[]>;
  /**
   * The heartbeat of a live claimer: moves the lease of each of `ids` that `owner` still holds to `leaseUntil`
   * and returns those ids. A mail another claimer took over, or whose attempt was recorded, is left as it is.
   */
  extendMailLeases(owner: string, ids: string[], leaseUntil: number): Promise<string[]>;
  /** Records an attempt's outcome and releases the lease; ignored (false) unless `owner` holds the lease. */
  recordMailAttempt(owner: string, id: string, outcome: MailOutcome): Promise<boolean>;
  /** Earliest nextAttemptAt of pending mails. */
  nextMailDueAt(): Promise<number | null>;
  /** A booking's mails, oldest first. */
  listBookingMails(bookingId: string): Promise<MailMessageRecord[]>;
  /**
   * CONFIRMED bookings starting in (now, now + withinMs] without a reminder for their current revision,
   * that were last changed before their reminder was due (updatedAt <= startTime - withinMs), earliest first.
   */
  listDueReminders(now: number, withinMs: number, limit: number): Promise<BookingRecord[]>;
  /** The booking whose manage-link token hashes to `hash`. */
  findBookingByManageToken(hash: string): Promise<BookingRecord | null>;
  /** Sets the provider's feed, replacing the one it had. */
  putCalendarFeed(feed: CalendarFeedRecord): Promise<void>;
  findCalendarFeed(hash: string): Promise<CalendarFeedRecord | null>;
  /** The provider's PENDING and CONFIRMED bookings starting at or after `from`, by startTime. */
  listProviderBookings(workspaceId: string, providerId: string, from: number, limit: number): Promise<BookingRecord[]>;
}
