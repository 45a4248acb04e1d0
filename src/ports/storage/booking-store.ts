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
  /** the weekly series (ser_…) the booking is an occurrence of; null (or absent) for a booking on its own */
  seriesId?: string | null;
}

/**
 * Something that holds provider time as availability checks need it: a PENDING or CONFIRMED booking, or a busy
 * time read from one of the provider's blocking calendars (docs/contract/calendars.md §5), or a waiting-list offer
 * holding a seat (its `bookingId` is then the entry's `wl_…` id).
 */
export interface BusyInterval {
  /** the booking holding the time; null for a calendar's busy time */
  bookingId: string | null;
  providerId: string;
  /** the booking's service; null for a calendar's busy time (it never shares a slot of a class) */
  serviceId: string | null;
  startTime: number;
  endTime: number;
  /** minutes the booking keeps free around it; 0 for a calendar's busy time (the service's own buffer widens it) */
  bufferTime: number;
  /** for a calendar's busy time: the connection and calendar it was read from (never the event's title) */
  calendar?: { connectionId: string; calendarId: string };
}

export interface ReserveRequest {
  /** the booking to insert; its `providerId` is replaced by the provider chosen */
  booking: BookingRecord;
  /** providers to try, in order of preference; the first that `fits` gets the booking */
  candidates: string[];
  /** how far around the booking other bookings matter (the longest buffer), ms */
  margin: number;
  /**
   * Pure check run inside the reservation with the provider's current busy intervals (bookings and the busy
   * times of its blocking calendars) overlapping [startTime - margin, endTime + margin]. Returns null when the
   * booking fits, else the reason it does not.
   */
  fits: (providerId: string, busy: BusyInterval[]) => string | null;
  /** events to write in the same transaction, built from the booking as inserted */
  emit: (booking: BookingRecord) => OutboxEvent[];
  /** the customer's mails to write in the same transaction (none when mail is off) */
  mails?: (booking: BookingRecord) => MailEntry[];
  /**
   * the booking's event in its provider's write calendar follows this change: the calendar-write row is raised
   * to the saved revision (or written, when the provider has a write calendar and the booking holds time), in
   * the same transaction (calendar-write-store.ts)
   */
  calendarWrite?: boolean;
  /**
   * booking being moved (reschedule): excluded from the busy intervals and updated instead of inserted; it must
   * belong to `booking.workspaceId` and still be PENDING or CONFIRMED, else the result is not ok
   */
  replacing?: string;
  /**
   * a waiting-list claim: the entry's own hold is left out of the busy intervals, and the booking is made only
   * if the entry is still OFFERED with its hold running at `at`; the entry then becomes BOOKED in the same
   * transaction (else the result is not ok and nothing is written)
   */
  claiming?: { entryId: string; at: number };
}

/** A weekly series: every occurrence on one provider, all reserved in one transaction or none. */
export interface SeriesReserveRequest {
  /** the occurrences in ascending start order, each with its own id; `providerId` is replaced by the one chosen */
  bookings: BookingRecord[];
  /** providers to try, in order of preference; the first on which every occurrence `fits` gets the series */
  candidates: string[];
  /** as ReserveRequest.margin, around each occurrence */
  margin: number;
  /** ReserveRequest.fits for the occurrence `bookings[index]` */
  fits: (providerId: string, busy: BusyInterval[], index: number) => string | null;
  /** events to write in the same transaction, built from the occurrences as inserted */
  emit: (bookings: BookingRecord[]) => OutboxEvent[];
  /** the customer's mails to write in the same transaction */
  mails?: (bookings: BookingRecord[]) => MailEntry[];
}

export type SeriesReserveResult =
  | { ok: true; bookings: BookingRecord[] }
  /**
   * Nothing written. `conflicts`: the indexes of the occurrences that did not fit on the candidate where the
   * fewest did not (the first such candidate), ascending; `reason`: the first one's.
   */
  | { ok: false; conflicts: number[]; reason: string };

export type ReserveResult = { ok: true; booking: BookingRecord } | { ok: false; reason: string };

/**
 * A booking as a list of them carries it: without the secrets of its manage link (the token's hash and its
 * sealed copy), which no page shows, so they stay in the database (and a page reads a third fewer bytes).
 */
export type ListedBooking = Omit<BookingRecord, 'manageTokenHash' | 'manageTokenSealed'>;

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
  /**
   * the booking's event in its provider's write calendar follows this change: the calendar-write row is raised
   * to the saved revision (or written, when the provider has a write calendar and the booking holds time), in
   * the same transaction (calendar-write-store.ts)
   */
  calendarWrite?: boolean;
}

/**
 * Bookings: reading them, reserving provider time, and moving their status. Every write that changes a booking
 * writes the events it causes (`emit`) in the same transaction: the booking and its outbox messages commit
 * together or not at all. The scheduler's listings feed the moves it makes.
 */
export interface BookingStore {
  getBooking(workspaceId: string, id: string): Promise<BookingRecord | null>;
  /** Ordered by startTime, then id. */
  listBookings(workspaceId: string, filter: BookingFilter): Promise<ListedBooking[]>;
  /**
   * PENDING and CONFIRMED bookings of these providers overlapping [from, to). With `buffer` (ms): those
   * overlapping it once each is widened by the larger of `buffer` and its own bufferTime, i.e. exactly the
   * bookings that can conflict with a slot inside [from, to) of a service with that buffer. The seats
   * waiting-list offers hold count too; the busy times of the providers' calendars are read apart
   * (CalendarStore.listCalendarBusy).
   */
  listBusy(providerIds: string[], from: number, to: number, buffer?: number): Promise<BusyInterval[]>;
  /**
   * Checks and reserves in one atomic step: for each candidate in order, with every other writer for that
   * provider excluded, reads its busy intervals (its bookings and its blocking calendars' busy times), asks `fits`, and inserts (or, with `replacing`, moves) the
   * booking on the first provider that fits, writing `emit`'s events in the same transaction.
   * Guarantee: of N concurrent calls whose bookings cannot all fit, no more succeed than fit — for a
   * capacity-1 slot exactly one — across connections, processes and server instances.
   */
  reserveBooking(request: ReserveRequest): Promise<ReserveResult>;
  /**
   * reserveBooking for a whole series in one atomic step: under the same per-provider exclusion, each candidate
   * in turn is checked for every occurrence, and the first on which all fit gets all of them, with their events,
   * in one transaction. Otherwise nothing is written. The same guarantee as reserveBooking holds for every
   * occurrence against any concurrent reservation.
   */
  reserveSeries(request: SeriesReserveRequest): Promise<SeriesReserveResult>;
  /** The occurrences of a series of the workspace, ascending by startTime (empty when unknown). */
  listSeries(workspaceId: string, seriesId: string): Promise<BookingRecord[]>;
  /**
   * For fair assignment: epoch ms of the most recent createdAt of each provider's bookings (any status);
   * providers never booked are absent.
   */
  lastBookedAt(providerIds: string[]): Promise<Record<string, number>>;
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
