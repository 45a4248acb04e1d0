import type { BookingStatus } from '../../core/lifecycle.ts';

/** The customer mails of decisions section 14. */
export type MailKind = 'confirmed' | 'pending' | 'cancelled' | 'rescheduled' | 'reminder';

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
}

/** A mail to write to the outbox. */
export interface MailEntry {
  workspaceId: string;
  bookingId: string;
  kind: MailKind;
  /** the booking's revision the mail describes: (bookingId, kind, revision) is written at most once */
  revision: number;
  snapshot: MailSnapshot;
  /** epoch ms */
  createdAt: number;
  /** epoch ms from which the mail is sent; default createdAt */
  dueAt?: number;
}
