/**
 * The booking lifecycle (docs/contract/lifecycle.md) as plain values in, plain values out.
 *
 * Nothing here reads a clock, a database or a config: callers pass the booking's current status and times
 * and `now`, and get back whether the move is allowed, the new status and the events to write in the same
 * transaction (outbox). A refusal becomes `409 INVALID_TRANSITION` at the route; its `reason` is the message.
 */

export const BOOKING_STATUSES = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export type BookingEventType =
  | 'booking.created'
  | 'booking.confirmed'
  | 'booking.cancelled'
  | 'booking.rescheduled'
  | 'booking.completed'
  | 'payment.received'
  | 'payment.refunded';

/**
 * What can happen to an existing booking:
 * - `confirm`: manual confirmation of a PENDING booking.
 * - `pay`: the payment provider reports the payment of a PENDING booking.
 * - `cancel`: cancellation by the API key, the panel or the customer; also checkout cancelled.
 * - `expire`: the unpaid PENDING hold ran out (scheduler, or checkout expired at the provider).
 * - `complete`: the booking took place (manual once started, or the scheduler after `endTime`).
 * - `reschedule`: moved to another time; whether the new time is bookable is checked by the caller.
 */
export const LIFECYCLE_ACTIONS = ['confirm', 'cancel', 'complete', 'reschedule', 'pay', 'expire'] as const;
export type LifecycleAction = (typeof LIFECYCLE_ACTIONS)[number];

/** Outcome of a move: the new status and the events to emit, in order. */
export type Move = { ok: true; status: BookingStatus; events: BookingEventType[] } | { ok: false; reason: string };

/** The part of a booking the lifecycle needs. Times are epoch milliseconds. */
export type LifecycleBooking = { status: BookingStatus; startTime: number; endTime: number };

/** Past participle of each action, for refusal messages: `a CANCELLED booking cannot be confirmed`. */
const ACTION_PARTICIPLE: Record<LifecycleAction, string> = {
  confirm: 'confirmed',
  cancel: 'cancelled',
  complete: 'completed',
  reschedule: 'rescheduled',
  pay: 'paid',
  expire: 'expired',
};

function refuse(status: BookingStatus, action: LifecycleAction): Move {
  return { ok: false, reason: `a ${status} booking cannot be ${ACTION_PARTICIPLE[action]}` };
}

/**
 * Pure: decides whether `action` is allowed from `current.status` at `now` (epoch ms), and if so returns the
 * new status and the events to emit, in order.
 *
 * - PENDING → CONFIRMED by `confirm` (`booking.confirmed`) or `pay` (`payment.received`, `booking.confirmed`).
 * - PENDING | CONFIRMED → CANCELLED by `cancel` (`booking.cancelled`); by `expire` from PENDING only.
 * - CONFIRMED → COMPLETED by `complete` once `now >= startTime` (`booking.completed`).
 * - `reschedule` from PENDING | CONFIRMED keeps the status (`booking.rescheduled`).
 * - CANCELLED and COMPLETED are final: every action is refused.
 *
 * `pay` on a CONFIRMED booking is refused: a repeated provider event is made a no-op by the caller, which
 * recognises the payment it has already recorded before asking for a move.
 */
export function move(current: LifecycleBooking, action: LifecycleAction, now: number): Move {
  const { status } = current;
  if (isFinal(status)) return refuse(status, action);

  switch (action) {
    case 'confirm':
      return status === 'PENDING' ? { ok: true, status: 'CONFIRMED', events: ['booking.confirmed'] } : refuse(status, action);
    case 'pay':
      return status === 'PENDING' ? { ok: true, status: 'CONFIRMED', events: ['payment.received', 'booking.confirmed'] } : refuse(status, action);
    case 'cancel':
      return { ok: true, status: 'CANCELLED', events: ['booking.cancelled'] };
    case 'expire':
      return status === 'PENDING' ? { ok: true, status: 'CANCELLED', events: ['booking.cancelled'] } : refuse(status, action);
    case 'complete':
      if (status !== 'CONFIRMED') return refuse(status, action);
      if (now < current.startTime) {
        return {
          ok: false,
          reason: `a booking that has not started yet cannot be completed (it starts at ${new Date(current.startTime).toISOString()})`,
        };
      }
      return { ok: true, status: 'COMPLETED', events: ['booking.completed'] };
    case 'reschedule':
      return { ok: true, status, events: ['booking.rescheduled'] };
    default: {
      const unknown: never = action;
      return { ok: false, reason: `unknown booking action ${String(unknown)}` };
    }
  }
}

/**
 * Pure: a payment the provider reports for a booking. PENDING → CONFIRMED exactly as `pay`
 * (`payment.received`, `booking.confirmed`); a CONFIRMED booking (confirmed by hand before the money arrived)
 * stays CONFIRMED and only `payment.received` is emitted; a final booking is refused as `pay` is (the caller
 * records the money as due for refund).
 */
export function receivePayment(current: LifecycleBooking, now: number): Move {
  if (current.status === 'CONFIRMED') return { ok: true, status: 'CONFIRMED', events: ['payment.received'] };
  return move(current, 'pay', now);
}

/**
 * Initial status at creation (docs/contract/lifecycle.md):
 * - PENDING awaiting payment when a payment is due (deposit, else price, > 0) and a payment provider is configured;
 *   the payment then confirms it, even when the workspace also requires manual confirmation;
 * - PENDING without checkout when the workspace requires manual confirmation;
 * - CONFIRMED otherwise (a due payment without a configured provider is not collected online).
 *
 * Creation emits only `booking.created`, whatever the initial status.
 */
export function initialStatus(input: { paymentDue: boolean; paymentsEnabled: boolean; requiresConfirmation: boolean }): {
  status: BookingStatus;
  awaitingPayment: boolean;
} {
  if (input.paymentDue && input.paymentsEnabled) return { status: 'PENDING', awaitingPayment: true };
  if (input.requiresConfirmation) return { status: 'PENDING', awaitingPayment: false };
  return { status: 'CONFIRMED', awaitingPayment: false };
}

/** CANCELLED and COMPLETED bookings never change again. */
export function isFinal(status: BookingStatus): boolean {
  return status === 'CANCELLED' || status === 'COMPLETED';
}

/** Whether a booking in `status` counts against a slot's capacity: PENDING or CONFIRMED. */
export function holdsSlot(status: BookingStatus): boolean {
  return status === 'PENDING' || status === 'CONFIRMED';
}
