import type { Booking } from './model.ts';

/** What stands in for a visitor's address in a keyless read of the demo workspace's bookings. */
export const HIDDEN_EMAIL = 'hidden@example.invalid';

/**
 * A booking as a keyless reader of the demo workspace sees it (docs/contract/widget.md): no visitor's contact
 * data. `customerEmail` becomes HIDDEN_EMAIL, `customerName` its first word; `phone`, `notes`, `customFields`
 * and `cancelReason` are left out. A key or a panel session sees everything.
 */
export function withoutContactData(booking: Booking): Booking {
  const { phone: _phone, notes: _notes, customFields: _customFields, cancelReason: _cancelReason, ...rest } = booking;
  const firstName = booking.customerName?.trim().split(/\s+/)[0] ?? null;
  return { ...rest, customerEmail: HIDDEN_EMAIL, customerName: firstName || null };
}
