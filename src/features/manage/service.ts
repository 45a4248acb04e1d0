import { cancelSeries, changeStatus, rescheduleBooking, toBookingJson } from '../bookings/index.ts';
import { isoTime } from '../../core/models.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { refundBooking } from '../payments/index.ts';
import { busyMargin, type Offering } from '../scheduling/index.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { isCapabilityToken } from '../../core/secrets.ts';
import type { BookingRecord, WorkspaceRecord } from '../../ports/storage/index.ts';
import { hashManageToken } from '../../platform/access/manage-token.ts';

const HOUR_MS = 3_600_000;

export interface ManagedBooking {
  booking: BookingRecord;
  workspace: WorkspaceRecord;
  serviceName: string | null;
  providerName: string | null;
}

/** The booking a manage-link token opens; 404 NOT_FOUND for any other string (the same answer, however it differs). */
export async function openManagedBooking(deps: Pick<AppDeps, 'storage'>, token: string): Promise<ManagedBooking> {
  const booking = isCapabilityToken(token) ? await deps.storage.findBookingByManageToken(hashManageToken(token)) : null;
  const workspace = booking ? await deps.storage.getWorkspaceById(booking.workspaceId) : null;
  if (!booking || !workspace) throw notFound('booking');
  const [service, provider] = await Promise.all([
    deps.storage.getService(workspace.id, booking.serviceId),
    deps.storage.getProvider(workspace.id, booking.providerId),
  ]);
  return { booking, workspace, serviceName: service?.name ?? null, providerName: provider?.name ?? null };
}

export const managedJson = (managed: ManagedBooking) =>
  toBookingJson(managed.booking, { serviceName: managed.serviceName, providerName: managed.providerName });

/**
 * Why the customer may not change the booking now, or null: a status that cannot move, or inside cancellationHours.
 * A booking still waiting for its payment is the customer's own unpaid hold: it may be released at any time
 * (docs/contract/first-day.md).
 */
export function refusal(managed: ManagedBooking, now: number): AppError | null {
  const { booking, workspace } = managed;
  if (booking.status !== 'PENDING' && booking.status !== 'CONFIRMED') {
    return new AppError('INVALID_TRANSITION', `this booking is ${booking.status.toLowerCase()} and can no longer be changed`);
  }
  if (booking.status === 'PENDING' && booking.holdExpiresAt !== null && now < booking.holdExpiresAt) return null;
  if (now > booking.startTime - workspace.cancellationHours * HOUR_MS) {
    return new AppError(
      'TOO_LATE_TO_CHANGE',
      `bookings can be cancelled or moved online until ${workspace.cancellationHours} hours before the start; please contact ${workspace.name}`,
    );
  }
  return null;
}

/** The customer's cancel (docs/contract/notifications.md): the same move as the API's, so the same events and mails follow. */
export async function cancelManaged(deps: AppDeps, token: string, reason: string | undefined, scope: CancelScope = 'this') {
  const managed = await openManagedBooking(deps, token);
  const refused = refusal(managed, deps.clock.now());
  if (refused) throw refused;
  const { booking, workspace } = managed;
  const cancelled = await cancelInScope(deps, managed, reason, scope);
  if (!workspace.refundOnCancel || booking.paidMinor - booking.refundedMinor <= 0) return cancelled;
  // The workspace gives the money back on a customer's timely cancel (docs/contract/payments.md §10). The
  // booking stays cancelled if the provider refuses: the owner can refund from the panel later.
  try {
    return (await refundBooking(deps, workspace, booking.id)).booking;
  } catch (error) {
    deps.logger.error('refund on cancel failed; the booking is cancelled, the refund is left to the owner', {
      booking: booking.id,
      error: error instanceof Error ? error.message : String(error),
    });
    return cancelled;
  }
}

async function cancelInScope(deps: AppDeps, managed: ManagedBooking, reason: string | undefined, scope: CancelScope) {
  const { booking, workspace } = managed;
  if (scope === 'later' && booking.seriesId) {
    // "This and later ones" (docs/contract/series.md §3): later dates lie further beyond the window than this one.
    const series = await cancelSeries(deps, workspace, booking.seriesId, { reason, from: isoTime(booking.startTime), byCustomer: true });
    const self = series.bookings.find((occurrence) => occurrence.id === booking.id);
    if (self) return self;
  }
  return changeStatus(deps, workspace, booking.id, 'cancel', { reason, byCustomer: true });
}

/** What a customer's cancel of an occurrence of a series covers: that date only, or that date and every later one. */
export type CancelScope = 'this' | 'later';

/** The customer's reschedule to a free time of the same service and provider; the new time must be outside the window too. */
export async function rescheduleManaged(deps: AppDeps, token: string, date: string) {
  const managed = await openManagedBooking(deps, token);
  const now = deps.clock.now();
  const refused = refusal(managed, now);
  if (refused) throw refused;
  const start = Date.parse(date);
  if (Number.isFinite(start) && now > start - managed.workspace.cancellationHours * HOUR_MS) {
    throw new AppError('TOO_LATE_TO_CHANGE', `a booking can only be moved to a time more than ${managed.workspace.cancellationHours} hours ahead`);
  }
  return rescheduleBooking(deps, managed.workspace, managed.booking.id, date, { byCustomer: true });
}

/** The booking's service on its own provider: where a reschedule may go. */
export async function managedOffering(deps: Pick<AppDeps, 'storage'>, managed: ManagedBooking): Promise<Offering | null> {
  const [services, provider] = await Promise.all([
    deps.storage.listServices(managed.workspace.id, { activeOnly: false }),
    deps.storage.getProvider(managed.workspace.id, managed.booking.providerId),
  ]);
  const service = services.find((candidate) => candidate.id === managed.booking.serviceId);
  return service && provider ? { service, providers: [provider], margin: busyMargin(services) } : null;
}
