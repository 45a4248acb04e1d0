/* Pieces the dashboard and the bookings section share: a booking's line, its status, and the confirm action. */
import type { Booking, BookingStatus, Workspace } from '../api/client.ts';
import { timeOf, whenOf } from '../format.ts';
import type { Strings } from '../i18n.ts';

export function StatusBadge({ status, t }: { status: BookingStatus; t: Strings }) {
  return <span class={`badge status-${status.toLowerCase()}`}>{t[status]}</span>;
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
      <StatusBadge status={booking.status} t={t} />
    </span>
  );
}
