import type { BookingStatus } from '../../core/lifecycle.ts';
import type { MailEntry } from './mail-entry.ts';
import type { OutboxEvent } from './outbox-store.ts';

/** The longest a booking may last (a day), which bounds how far back a busy-interval query must look. */
export const MAX_BOOKING_MS = 24 * 60 * 60 * 1000;
/** The longest buffer a booking may keep (a service's bufferTime is at most 1440 minutes), ms. */
export const MAX_BUFFER_MS = 24 * 60 * 60 * 1000;

export interface BookingRecord {
  id: string;
  workspaceId: string;
  serviceId: string;
  providerId: string;
  status: BookingStatus;
  startTime: number;
  endTime: number;
  /** the service's buffer (minutes) when booked; later service edits do not move existing bookings */
  bufferTime: number;
  customerName: string | null;
  customerEmail: string;
  phone: string | null;
  notes: string | null;
  customFields: Record<string, unknown>;
  /** the sum due online at booking (the deposit, else the price), null when free */
  amountMinor: number | null;
  currency: string | null;
  /** the service price when booked, minor units: the payment's `total`; null for bookings kept before it was stored */
  priceMinor: number | null;
  /** what payments took for it, minor units (0 when nothing was paid); storage raises it when a payment settles as paid */
  paidMinor: number;
  /** what refunds gave back or are giving back (pending and succeeded), minor units; never above paidMinor */
  refundedMinor: number;
  cancelReason: string | null;
  /** an unpaid PENDING hold is cancelled after this instant */
  holdExpiresAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** 0 when created; storage adds one with every change of time or status (the invite's SEQUENCE) */
  revision: number;
  /** hex SHA-256 of the manage-link token (section 14); set at creation */
  manageTokenHash: string | null;
  /** the manage-link token sealed with SVC_SECRET (the reminder mails it again); null without a secret */
  manageTokenSealed: string | null;
}

/** A booking that holds provider time (PENDING or CONFIRMED), as availability checks need it. */
export interface BusyInterval {
  bookingId: string;
  providerId: string;
  serviceId: string;
  startTime: number;
  endTime: number;
  bufferTime: number;
}

export interface ReserveRequest {
  /** the booking to insert; its `providerId` is replaced by the provider chosen */
  booking: BookingRecord;
  /** providers to try, in order of preference; the first that `fits` gets the booking */
  candidates: string[];
  /** how far around the booking other bookings matter (the longest buffer), ms */
  margin: number;
  /**
   * Pure check run inside the reservation with the provider's current busy intervals overlapping
   * [startTime - margin, endTime + margin]. Returns null when the booking fits, else the reason it does not.
   */
  fits: (providerId: string, busy: BusyInterval[]) => string | null;
  /** events to write in the same transaction, built from the booking as inserted */
  emit: (booking: BookingRecord) => OutboxEvent[];
  /** the customer's mails to write in the same transaction (none when mail is off) */
  mails?: (booking: BookingRecord) => MailEntry[];
  /**
   * booking being moved (reschedule): excluded from the busy intervals and updated instead of inserted; it must
   * belong to `booking.workspaceId` and still be PENDING or CONFIRMED, else the result is not ok
   */
  replacing?: string;
}

export type ReserveResult = { ok: true; booking: BookingRecord } | { ok: false; reason: string };

export interface BookingFilter {
  status?: BookingStatus;
  /** startTime >= from */
  from?: number;
  /** startTime < to */
  to?: number;
  serviceId?: string;
  providerId?: string;
  /** keyset: only bookings after this (startTime, id) */
  after?: { startTime: number; id: string };
  limit: number;
}

export interface BookingTransition {
  /** the move happens only if the booking is still in one of these statuses */
  from: BookingStatus[];
  to: BookingStatus;
  at: number;
  cancelReason?: string | null;
  emit: (booking: BookingRecord) => OutboxEvent[];
  /** the customer's mails to write in the same transaction (none when mail is off) */
  mails?: (booking: BookingRecord) => MailEntry[];
}

/**
 * Bookings: reading them, reserving provider time, and moving their status. Every write that changes a booking
 * writes the events it causes (`emit`) in the same transaction: the booking and its outbox messages commit
 * together or not at all. The scheduler's listings feed the moves it makes.
 */
export interface BookingStore {
  getBooking(workspaceId: string, id: string): Promise<BookingRecord | null>;
  /** Ordered by startTime, then id. */
  listBookings(workspaceId: string, filter: BookingFilter): Promise<BookingRecord[]>;
  /**
   * PENDING and CONFIRMED bookings of these providers overlapping [from, to). With `buffer` (ms): those
   * overlapping it once each is widened by the larger of `buffer` and its own bufferTime, i.e. exactly the
   * bookings that can conflict with a slot inside [from, to) of a service with that buffer.
   */
  listBusy(providerIds: string[], from: number, to: number, buffer?: number): Promise<BusyInterval[]>;
  /**
   * Checks and reserves in one atomic step: for each candidate in order, with every other writer for that
   * provider excluded, reads its busy intervals, asks `fits`, and inserts (or, with `replacing`, moves) the
   * booking on the first provider that fits, writing `emit`'s events in the same transaction.
   * Guarantee: of N concurrent calls whose bookings cannot all fit, no more succeed than fit — for a
   * capacity-1 slot exactly one — across connections, processes and server instances.
   */
  reserveBooking(request: ReserveRequest): Promise<ReserveResult>;
  /**
   * Moves a booking's status if it is still in `from` (compare-and-set), writing the events in the same
   * transaction. Returns the updated booking, or null when the booking is missing or was in another status.
   */
  transitionBooking(workspaceId: string, id: string, transition: BookingTransition): Promise<BookingRecord | null>;
  /** PENDING bookings whose hold expired at `now` (holdExpiresAt <= now), oldest hold first. */
  listExpiredHolds(now: number, limit: number): Promise<BookingRecord[]>;
  /** CONFIRMED bookings that ended by `now` (endTime <= now), earliest end first. */
  listEndedConfirmed(now: number, limit: number): Promise<BookingRecord[]>;
}
