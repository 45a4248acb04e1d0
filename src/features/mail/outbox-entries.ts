import type { BookingEventType } from '../../core/lifecycle.ts';
import type { BookingRecord, MailEntry, MailKind } from '../../ports/storage/index.ts';

/** How long an awaiting-payment mail waits for the checkout to be recorded (and perhaps paid), ms. */
export const CHECKOUT_GRACE_MS = 15_000;

/** The mail a booking event causes, if any; `booking.created` depends on the status the booking starts in. */
function mailKindOf(event: BookingEventType, saved: BookingRecord): MailKind | null {
  switch (event) {
    case 'booking.created':
      return saved.status === 'CONFIRMED' ? 'confirmed' : saved.status === 'PENDING' ? 'pending' : null;
    case 'booking.confirmed':
      return 'confirmed';
    case 'booking.cancelled':
      return 'cancelled';
    case 'booking.rescheduled':
      return 'rescheduled';
    default:
      return null;
  }
}

/** The owner's mail a booking event causes: every new booking, and a cancel or reschedule the customer made. */
function ownerMailKindOf(event: BookingEventType, byCustomer: boolean): MailKind | null {
  switch (event) {
    case 'booking.created':
      return 'owner_booked';
    case 'booking.cancelled':
      return byCustomer ? 'owner_cancelled' : null;
    case 'booking.rescheduled':
      return byCustomer ? 'owner_rescheduled' : null;
    default:
      return null;
  }
}

/** Who is mailed besides the customer: the owner (when the workspace has a notificationEmail), told whether the customer made the move. */
export interface OwnerNotice {
  notify: boolean;
  byCustomer: boolean;
}

/**
 * Pure: the customer's mails for a move's events, describing `saved` (the booking as written, with its new
 * revision), and the owner's when `owner.notify`; `before` is the booking as it was, for the old time of a
 * reschedule.
 */
export function mailEntries(
  events: readonly BookingEventType[],
  before: BookingRecord,
  saved: BookingRecord,
  at: number,
  owner: OwnerNotice = { notify: false, byCustomer: false },
): MailEntry[] {
  const kinds = [
    ...new Set([...events.map((event) => mailKindOf(event, saved)), ...(owner.notify ? events.map((event) => ownerMailKindOf(event, owner.byCustomer)) : [])]),
  ].filter((kind) => kind !== null);
  return kinds.map((kind) => ({
    workspaceId: saved.workspaceId,
    bookingId: saved.id,
    kind,
    revision: saved.revision ?? 0,
    snapshot: {
      status: saved.status,
      startTime: saved.startTime,
      endTime: saved.endTime,
      cancelReason: saved.cancelReason,
      ...(kind === 'rescheduled' || kind === 'owner_rescheduled' ? { previousStartTime: before.startTime, previousEndTime: before.endTime } : {}),
      ...(kind === 'pending' || kind === 'owner_booked' ? { holdExpiresAt: saved.holdExpiresAt } : {}),
    },
    createdAt: at,
    // The checkout opens just after the booking is written: its link is in the mail once it is recorded, and
    // a customer who pays at once gets the confirmation alone.
    ...(kind === 'pending' && saved.holdExpiresAt !== null ? { dueAt: at + CHECKOUT_GRACE_MS } : {}),
  }));
}
