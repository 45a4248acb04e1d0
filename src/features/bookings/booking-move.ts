import type {
  BookingStore,
  BookingRecord,
  CatalogueStore,
  WaitlistStore,
  WorkspaceStore,
  BookingTransition,
  MailEntry,
  MailSnapshot,
  OutboxEvent,
  PaymentRecord,
  PaymentStatus,
  PaymentStore,
  ReserveRequest,
  WorkspaceRecord,
} from '../../ports/storage/index.ts';
import { mailEnabled, type Config } from '../../platform/config.ts';
import { mailEntries } from '../mail/index.ts';
import { bookingEvents, paymentEvents } from './events.ts';
import { move, receivePayment, type BookingEventType, type Move } from '../../core/lifecycle.ts';
import type { Booking } from './model.ts';
import { offerFreedSeat } from './waitlist.ts';

/*
 * Every change of a booking that others hear about goes through applyBookingMove: creation, confirm, cancel,
 * complete, reschedule (API and panel), payment received or closed (payments), hold expiry and completion
 * (scheduler), a checkout that never opened. It decides the move with the pure lifecycle, makes exactly one
 * storage write (compare-and-set on the status the caller read), and writes what the move causes in that same
 * transaction. What it causes is built in one place, `consequences`: the webhook events and the customer's
 * mails (src/mail), so every path mails alike.
 */

/**
 * The storage a move needs (bookings, and payments for the moves a payment causes) and the config that says
 * whether the customer is mailed (SVC_SMTP_URL and SVC_MAIL_FROM; without them no mail is written).
 */
export type BookingMoveDeps = {
  storage: BookingStore & PaymentStore & WaitlistStore & CatalogueStore & WorkspaceStore;
  config: Pick<Config, 'SVC_SMTP_URL' | 'SVC_MAIL_FROM' | 'SVC_WAITLIST_HOLD_MINUTES' | 'SVC_SECRET'>;
};

/** Where a booking may go: the provider candidates and the check run under the reservation's lock. */
export type Reservation = Pick<ReserveRequest, 'candidates' | 'margin' | 'fits' | 'claiming'>;

/** A payment whose status changes with the move, compare-and-set from `from`. */
export interface PaymentChange {
  payment: PaymentRecord;
  from: PaymentStatus;
  /** `amountMinor`: the sum the provider took when it is not the one asked for (see PaymentStore.settlePayment) */
  to: Partial<Pick<PaymentRecord, 'status' | 'refundDue' | 'amountMinor'>>;
}

export type BookingMove =
  /** a new booking (`booking` is the record to insert, with its initial status) on the first candidate that fits */
  | { action: 'create'; reservation: Reservation }
  | { action: 'confirm' | 'complete' }
  /**
   * `reason` is kept as the booking's cancelReason; `payment`: a payment closed unpaid with it; `byCustomer`: the
   * customer cancelled (the owner is mailed about it)
   */
  | { action: 'cancel' | 'expire'; reason?: string | null; payment?: PaymentChange; byCustomer?: boolean }
  /** to [startTime, endTime) on the booking's own provider; the status stays; `byCustomer` as for cancel */
  | { action: 'reschedule'; startTime: number; endTime: number; reservation: Reservation; byCustomer?: boolean }
  /** the provider reports the payment: recorded as `payment.to`, the booking confirmed */
  | { action: 'pay'; payment: PaymentChange };

export interface BookingMoveInput {
  workspace: WorkspaceRecord;
  /** the booking as the caller read it (for `create`, the record to insert) */
  booking: BookingRecord;
  /** the Booking JSON the events carry, from a booking record as saved */
  json: (booking: BookingRecord) => Booking;
  /** epoch ms: the instant of the move, its events' timestamp and the booking's updatedAt */
  at: number;
  /**
   * A move of several occurrences of a series at once (docs/contract/series.md): the customer gets one mail, from
   * the move of the first occurrence, which lists `occurrences` (and invites to or cancels all of them); the
   * other occurrences' moves are `silent` (their events are written, no mail).
   */
  occurrences?: MailSnapshot['occurrences'];
  silent?: boolean;
}

export type BookingMoveResult =
  | { ok: true; booking: BookingRecord; events: BookingEventType[]; payment: PaymentRecord | null }
  /** the lifecycle does not allow it (409 INVALID_TRANSITION); nothing was written */
  | { ok: false; kind: 'refused'; reason: string }
  /** the reservation did not fit (or the booking left PENDING/CONFIRMED meanwhile); nothing was written */
  | { ok: false; kind: 'unavailable'; reason: string }
  /**
   * The booking was no longer in the status the caller read: the booking is unchanged and nothing was emitted.
   * With a PaymentChange, `payment` is the payment as settled anyway, or null when it was not in `from` either.
   */
  | { ok: false; kind: 'stale'; payment: PaymentRecord | null };

/** Pure: the new status and events of `change` for a booking in `booking.status` at `at`. */
export function decideMove(booking: BookingRecord, change: BookingMove, at: number): Move {
  switch (change.action) {
    case 'create':
      return { ok: true, status: booking.status, events: ['booking.created'] };
    case 'pay':
      return receivePayment(booking, at);
    default:
      return move(booking, change.action, at);
  }
}

/** The booking events after which the booking's event in its provider's write calendar is written again or removed. */
const CALENDAR_EVENTS: ReadonlySet<BookingEventType> = new Set(['booking.created', 'booking.confirmed', 'booking.rescheduled', 'booking.cancelled']);

/**
 * Everything a move writes besides the booking itself, built from the booking as saved, inside the move's
 * transaction: the events in the lifecycle's order (`payment.*` events carry the payment), the customer's
 * mails when mail is configured, and whether the calendar write follows.
 */
function consequences(deps: BookingMoveDeps, input: BookingMoveInput, events: BookingEventType[], payment: PaymentRecord | null, byCustomer = false) {
  const owner = { notify: input.workspace.notificationEmail !== null, byCustomer };
  return {
    emit: (saved: BookingRecord): OutboxEvent[] => {
      const booking = input.json(saved);
      return payment ? paymentEvents(events, input.workspace, booking, payment, input.at) : bookingEvents(events, input.workspace, booking, input.at);
    },
    mails: (saved: BookingRecord): MailEntry[] => {
      if (!mailEnabled(deps.config) || input.silent) return [];
      const entries = mailEntries(events, input.booking, saved, input.at, owner);
      const { occurrences } = input;
      return occurrences ? entries.map((entry) => ({ ...entry, snapshot: { ...entry.snapshot, occurrences } })) : entries;
    },
    // The event in the provider's write calendar follows every change of status or time but completion.
    calendarWrite: events.some((event) => CALENDAR_EVENTS.has(event)),
  };
}

/**
 * Decides `change` for `input.booking` and applies it in one storage write, with its consequences in the same
 * transaction: all of it commits, or none of it does (an error thrown while building the events rolls the
 * booking back too). The status moves only if the booking is still in the status the caller read.
 */
export async function applyBookingMove(deps: BookingMoveDeps, input: BookingMoveInput, change: BookingMove): Promise<BookingMoveResult> {
  const { workspace, booking, at } = input;
  const decided = decideMove(booking, change, at);
  if (!decided.ok) return { ok: false, kind: 'refused', reason: decided.reason };

  if (change.action === 'create' || change.action === 'reschedule') {
    const placed = change.action === 'create' ? booking : { ...booking, startTime: change.startTime, endTime: change.endTime, updatedAt: at };
    const result = await deps.storage.reserveBooking({
      booking: placed,
      ...change.reservation,
      ...consequences(deps, input, decided.events, null, change.action === 'reschedule' && change.byCustomer === true),
      ...(change.action === 'reschedule' ? { replacing: booking.id } : {}),
    });
    if (!result.ok) return { ok: false, kind: 'unavailable', reason: result.reason };
    // A booking moved away leaves a seat at its old time: the waiting list of that time gets it.
    if (change.action === 'reschedule') await offerFreedSeat(deps, workspace, booking, at);
    return { ok: true, booking: result.booking, events: decided.events, payment: null };
  }

  const paymentChange = 'payment' in change ? change.payment : undefined;
  const transition: BookingTransition = {
    from: [booking.status],
    to: decided.status,
    at,
    ...('reason' in change && change.reason !== undefined ? { cancelReason: change.reason } : {}),
    // `payment.*` events describe the payment as it is after this move.
    ...consequences(
      deps,
      input,
      decided.events,
      paymentChange ? { ...paymentChange.payment, ...paymentChange.to, updatedAt: at } : null,
      'byCustomer' in change && change.byCustomer === true,
    ),
  };

  if (!paymentChange) {
    const moved = await deps.storage.transitionBooking(workspace.id, booking.id, transition);
    if (!moved) return { ok: false, kind: 'stale', payment: null };
    if (moved.status === 'CANCELLED') await offerFreedSeat(deps, workspace, booking, at);
    return { ok: true, booking: moved, events: decided.events, payment: null };
  }
  const settled = await deps.storage.settlePayment(paymentChange.payment.id, paymentChange.from, paymentChange.to, at, {
    workspaceId: workspace.id,
    transition,
  });
  if (!settled) return { ok: false, kind: 'stale', payment: null };
  if (!settled.booking) return { ok: false, kind: 'stale', payment: settled.payment };
  if (settled.booking.status === 'CANCELLED') await offerFreedSeat(deps, workspace, booking, at);
  return { ok: true, booking: settled.booking, events: decided.events, payment: settled.payment };
}
