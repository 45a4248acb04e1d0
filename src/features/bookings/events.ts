import { toMajor } from '../../core/money.ts';
import { isoTime } from '../../core/models.ts';
import type { OutboxEvent, PaymentRecord } from '../../ports/storage/index.ts';
import type { BookingEventType } from '../../core/lifecycle.ts';
import type { Booking } from './model.ts';

/** The body of a booking webhook (docs/contract/events.md). */
export interface BookingEventBody {
  type: BookingEventType;
  /** RFC 3339, UTC */
  timestamp: string;
  data: { workspace: string; booking: Booking };
}

/**
 * One outbox event per type, in order, for a booking change at `at` (epoch ms). The body is serialised here,
 * once, so every delivery attempt sends the same bytes; `booking` is the Booking JSON exactly as the API
 * returns it.
 */
export function bookingEvents(types: readonly BookingEventType[], workspace: { id: string; slug: string }, booking: Booking, at: number): OutboxEvent[] {
  return types.map((type) => {
    const body: BookingEventBody = { type, timestamp: isoTime(at), data: { workspace: workspace.slug, booking } };
    return { workspaceId: workspace.id, type, body: JSON.stringify(body), occurredAt: at };
  });
}

/** The body of a `payment.*` webhook (docs/contract/events.md): a booking event's plus the payment. */
export interface PaymentEventBody {
  type: BookingEventType;
  timestamp: string;
  data: {
    workspace: string;
    booking: Booking;
    /** `amount` in decimal major units, `currency` ISO 4217, `provider` test|stripe, `reference` the provider's checkout id */
    payment: { amount: number; currency: string; provider: string; reference: string };
  };
}

/**
 * The events of a payment-driven move, in the order the lifecycle names them (payment.received, then
 * booking.confirmed): `payment.*` bodies carry the payment, the others are booking events. Message ids ascend
 * in the order they are made, so the messages are claimed for delivery in this order too.
 */
export function paymentEvents(
  types: readonly BookingEventType[],
  workspace: { id: string; slug: string },
  booking: Booking,
  payment: PaymentRecord,
  at: number,
): OutboxEvent[] {
  return types.flatMap((type): OutboxEvent[] => {
    if (!type.startsWith('payment.')) return bookingEvents([type], workspace, booking, at);
    const body: PaymentEventBody = {
      type,
      timestamp: isoTime(at),
      data: {
        workspace: workspace.slug,
        booking,
        payment: {
          amount: toMajor(payment.amountMinor, payment.currency),
          currency: payment.currency,
          provider: payment.provider,
          reference: payment.reference,
        },
      },
    };
    return [{ workspaceId: workspace.id, type, body: JSON.stringify(body), occurredAt: at }];
  });
}
