import { applyBookingMove } from './booking-move.ts';
import type { Booking } from './model.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { sealCheckoutUrl } from '../../platform/sealed-secrets.ts';
import type { BookingRecord, ServiceRecord, WorkspaceRecord } from '../../ports/storage/index.ts';
import { lineItemName } from './payment-display.ts';

/** Why a booking whose checkout could not be opened was cancelled (kept as its cancelReason). */
export const CHECKOUT_FAILED_REASON = 'payment checkout could not be created';

/**
 * How long an unpaid booking holds its slot, minutes: SVC_PAYMENT_HOLD_MINUTES (default 30), brought into the
 * range the provider's checkout supports (with Stripe at least 31, so that `expires_at` is 30 minutes ahead
 * when Stripe receives it). The checkout expires at the same instant as the hold.
 */
export function paymentHoldMinutes(deps: Pick<AppDeps, 'config' | 'payments'>): number {
  const { min, max } = deps.payments.holdMinutes;
  return Math.min(max, Math.max(min, deps.config.SVC_PAYMENT_HOLD_MINUTES));
}

export interface CheckoutStart {
  workspace: WorkspaceRecord;
  service: ServiceRecord;
  /** the booking just reserved: PENDING, with its amount, currency and hold end */
  booking: BookingRecord;
  /** the Booking JSON of a booking record, as its events carry it */
  json: (booking: BookingRecord) => Booking;
}

/**
 * The payment half of createBooking (docs/contract/lifecycle.md): opens the provider's checkout for a booking that
 * awaits payment, records the payment (status `pending`) and returns the checkout URL.
 *
 * When the provider cannot open a checkout, the booking is cancelled at once (its slot freed, with
 * `booking.cancelled`) and the request fails with 502 PAYMENT_PROVIDER_ERROR: a hold nobody can pay would only
 * block the slot until it expired. The same release happens if the payment cannot be recorded.
 */
export async function startCheckout(deps: AppDeps, start: CheckoutStart): Promise<string> {
  const { workspace, service, booking } = start;
  if (booking.amountMinor === null || booking.currency === null || booking.holdExpiresAt === null) {
    throw new Error(`booking ${booking.id} awaits no payment`);
  }
  let checkout;
  try {
    checkout = await deps.payments.createCheckout({
      workspace: { slug: workspace.slug, name: workspace.name },
      booking: { id: booking.id, customerEmail: booking.customerEmail },
      amountMinor: booking.amountMinor,
      currency: booking.currency,
      description: lineItemName(service.name, workspace, booking.startTime),
      expiresAt: booking.holdExpiresAt,
    });
  } catch (error) {
    deps.logger.error('payment checkout could not be created; releasing the booking', {
      provider: deps.payments.name,
      workspace: workspace.slug,
      booking: booking.id,
      error: error instanceof Error ? error.message : String(error),
    });
    await release(deps, start);
    throw new AppError(
      'PAYMENT_PROVIDER_ERROR',
      `the payment provider (${deps.payments.name}) could not open a checkout, so the booking was not kept: try again in a moment`,
    );
  }

  const now = deps.clock.now();
  const id = newId('pay', now);
  try {
    await deps.storage.createPayment({
      id,
      workspaceId: workspace.id,
      bookingId: booking.id,
      provider: deps.payments.name,
      reference: checkout.reference,
      amountMinor: booking.amountMinor,
      currency: booking.currency,
      status: 'pending',
      refundDue: false,
      checkoutUrlSealed: deps.config.SVC_SECRET ? await sealCheckoutUrl(checkout.url, deps.config.SVC_SECRET, id) : null,
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    await release(deps, start).catch(() => {});
    throw error;
  }
  return checkout.url;
}

/** Cancels a booking whose checkout never opened (compare-and-set from PENDING), with `booking.cancelled`. */
async function release(deps: AppDeps, { workspace, booking, json }: CheckoutStart): Promise<void> {
  await applyBookingMove(deps, { workspace, booking, json, at: deps.clock.now() }, { action: 'expire', reason: CHECKOUT_FAILED_REASON });
}
