import { isoTime } from '../shared/models.ts';
import type { OutboxEvent } from '../storage/port.ts';
import type { BookingEventType } from './lifecycle.ts';
import type { Booking } from './model.ts';

/** The body of a booking webhook (decisions section 5). */
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
