/* Pieces the dashboard and the bookings section share: a booking's line, its status, and the confirm action. */
import type { Booking, Workspace } from '../api/client.ts';
import { timeOf, whenOf } from '../format.ts';
import type { Strings } from '../i18n.ts';

/** The status in words; a PENDING booking waiting for its payment says so (it is not waiting for a confirmation). */
export const statusOf = (booking: Pick<Booking, 'status' | 'awaitingPayment'>, t: Strings) => (booking.awaitingPayment ? t.awaitingPayment : t[booking.status]);

export function StatusBadge({ booking, t }: { booking: Pick<Booking, 'status' | 'awaitingPayment'>; t: Strings }) {
  return <span class={`badge status-${booking.awaitingPayment ? 'awaiting-payment' : booking.status.toLowerCase()}`}>{statusOf(booking, t)}</span>;
}

export const customerOf = (booking: Booking) => booking.customerName || booking.customerEmail;

/** One booking: its time, customer, service and provider, and its status. */
export function BookingLine({ booking, workspace, t, dayShown = true }: { booking: Booking; workspace: Workspace; t: Strings; dayShown?: boolean }) {
  return (
    <span class="booking-line">
      <span class="when">
        {dayShown ? whenOf(workspace, booking.startTime) : `${timeOf(workspace, booking.startTime)}–${timeOf(workspace, booking.endTime)}`}
      </span>
      <span class="who">
        <strong>{customerOf(booking)}</strong> <span class="muted">{[booking.serviceName, booking.providerName].filter(Boolean).join(' · ')}</span>
      </span>
      <StatusBadge booking={booking} t={t} />
    </span>
  );
}
