import type { BusyInterval } from './booking-store.ts';
import type { OutboxEvent } from './outbox-store.ts';

/** WAITING → OFFERED → BOOKED, or OFFERED → EXPIRED when the hold lapses (docs/contract/classes.md). */
export type WaitlistStatus = 'WAITING' | 'OFFERED' | 'BOOKED' | 'EXPIRED';

export interface WaitlistEntryRecord {
  id: string;
  workspaceId: string;
  serviceId: string;
  /** the provider asked for; null: any provider of the service */
  providerId: string | null;
  status: WaitlistStatus;
  /** the time waited for, and how long a booking of it lasts */
  startTime: number;
  endTime: number;
  /** the service's buffer (minutes) when the entry was made */
  bufferTime: number;
  customerEmail: string;
  customerName: string | null;
  phone: string | null;
  /** OFFERED (and after): the provider whose seat the offer holds */
  heldProviderId: string | null;
  /** OFFERED: the hold lapses at this instant */
  offerExpiresAt: number | null;
  /** hex SHA-256 of the offer link's token */
  offerTokenHash: string | null;
  /** the token sealed with SVC_SECRET, for the offer mail; null without a secret */
  offerTokenSealed: string | null;
  /** the offer mail is due from this instant; null when none is due */
  mailDueAt: number | null;
  /** BOOKED: the booking the claim made */
  bookingId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What an offer writes on each entry it picks. */
export type OfferFields = Pick<WaitlistEntryRecord, 'offerExpiresAt' | 'offerTokenHash' | 'offerTokenSealed' | 'mailDueAt'>;

export interface OfferRequest {
  workspaceId: string;
  serviceId: string;
  startTime: number;
  /** the provider a seat may have freed on */
  providerId: string;
  /** how far around the time other bookings and holds matter, ms */
  margin: number;
  /** Pure: the seats of the time left on the provider, given its busy intervals (bookings and holds) read under its lock. */
  seats: (busy: BusyInterval[]) => number;
  /** the offer of one picked entry (its token, its expiry) */
  offer: (entry: WaitlistEntryRecord) => Promise<OfferFields>;
  /** events to write with each offer, from the entry as offered */
  emit: (entry: WaitlistEntryRecord) => OutboxEvent[];
  at: number;
}

export interface WaitlistFilter {
  serviceId?: string;
  /** startTime >= from */
  from?: number;
  /** startTime < to */
  to?: number;
  limit: number;
}

/** A time with somebody WAITING: where the scheduler looks for freed seats. */
export interface WaitedTime {
  workspaceId: string;
  serviceId: string;
  providerId: string | null;
  startTime: number;
}

/**
 * Waiting lists. An OFFERED entry holds a seat: BookingStore.listBusy and reserveBooking count it as a busy
 * interval of its held provider (`bookingId` of the interval is the entry's id), so no booking can take it.
 * Offers, expiries and claims run under the same provider lock as reserveBooking.
 */
export interface WaitlistStore {
  /** Inserts a WAITING entry with its events in one transaction. */
  addWaitlistEntry(entry: WaitlistEntryRecord, events: OutboxEvent[]): Promise<WaitlistEntryRecord>;
  getWaitlistEntry(workspaceId: string, id: string): Promise<WaitlistEntryRecord | null>;
  findWaitlistEntryByToken(tokenHash: string): Promise<WaitlistEntryRecord | null>;
  /** Ordered by startTime, then createdAt, then id. */
  listWaitlistEntries(workspaceId: string, filter: WaitlistFilter): Promise<WaitlistEntryRecord[]>;
  /** Removes an entry (an OFFERED one gives its seat back). Returns whether it existed. */
  deleteWaitlistEntry(workspaceId: string, id: string): Promise<boolean>;
  /**
   * With the provider locked: counts the seats left (`seats`) and offers that many of the oldest WAITING entries
   * of the time (asked for this provider or any), writing their offers and events. Returns the entries offered.
   * Guarantee: concurrent calls never offer one entry twice nor more seats than are free.
   */
  offerSeats(request: OfferRequest): Promise<WaitlistEntryRecord[]>;
  /**
   * With its provider locked: OFFERED → EXPIRED if the hold lapsed by `now` (compare-and-set), writing `emit`'s
   * events. Returns the expired entry, or null when it was claimed, removed or not lapsed.
   */
  expireOffer(id: string, now: number, emit: (entry: WaitlistEntryRecord) => OutboxEvent[]): Promise<WaitlistEntryRecord | null>;
  /** OFFERED entries whose hold lapsed by `now`, oldest expiry first. */
  listLapsedOffers(now: number, limit: number): Promise<WaitlistEntryRecord[]>;
  /** Distinct times after `now` with WAITING entries. */
  listWaitedTimes(now: number, limit: number): Promise<WaitedTime[]>;
  /** OFFERED entries whose offer mail is due by `now`. */
  listDueWaitlistMails(now: number, limit: number): Promise<WaitlistEntryRecord[]>;
  /** Compare-and-set of mailDueAt from `from` to `to` (null: sent); whether this call made it. */
  moveWaitlistMail(id: string, from: number | null, to: number | null): Promise<boolean>;
}
