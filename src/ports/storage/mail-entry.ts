import type { BookingStatus } from '../../core/lifecycle.ts';

/** The customer's mails (docs/contract/notifications.md) and the owner's (docs/contract/first-day.md §2). */
export type MailKind = CustomerMailKind | OwnerMailKind;
export type CustomerMailKind = 'confirmed' | 'pending' | 'cancelled' | 'rescheduled' | 'reminder' | 'refunded';
/** to the workspace's notificationEmail: a new booking, a customer's cancel, a customer's reschedule */
export type OwnerMailKind = 'owner_booked' | 'owner_cancelled' | 'owner_rescheduled';
export const OWNER_MAIL_KINDS: readonly OwnerMailKind[] = ['owner_booked', 'owner_cancelled', 'owner_rescheduled'];

/** The booking as a mail describes it, taken when the mail was written (later changes have mails of their own). */
export interface MailSnapshot {
  status: BookingStatus;
  startTime: number;
  endTime: number;
  cancelReason: string | null;
  /** rescheduled: where the booking was before */
  previousStartTime?: number;
  previousEndTime?: number;
  /** pending: held until this instant awaiting payment (null: awaiting the workspace's confirmation) */
  holdExpiresAt?: number | null;
  /** a series' one mail: every occurrence (the first included), ascending; the mail lists them and invites to all */
  occurrences?: { bookingId: string; startTime: number; endTime: number; revision: number }[];
  /** refunded: the sum given back, minor units of the booking's currency */
  refundMinor?: number;
}

/** A mail to write to the outbox. */
export interface MailEntry {
  workspaceId: string;
  bookingId: string;
  kind: MailKind;
  /**
   * the booking's revision the mail describes: (bookingId, kind, revision) is written at most once. A `refunded`
   * mail describes a refund, not a revision: it carries the refund's number on the booking negated (-1, -2, …).
   */
  revision: number;
  snapshot: MailSnapshot;
  /** epoch ms */
  createdAt: number;
  /** epoch ms from which the mail is sent; default createdAt */
  dueAt?: number;
}
