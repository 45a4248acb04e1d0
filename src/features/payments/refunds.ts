import { t } from 'elysia';
import { Booking, paymentEvents, toBookingJson } from '../bookings/index.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { mailEnabled } from '../../platform/config.ts';
import { AppError, notFound, validation } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { toMajor, toMinor } from '../../core/money.ts';
import type { BookingRecord, MailEntry, PaymentRecord, RefundRecord, WorkspaceRecord } from '../../ports/storage/index.ts';

/** The provider of payments the owner recorded by hand (markBookingPaid): their refunds are recorded, not sent. */
const MANUAL = 'manual';

export const RefundBody = t.Optional(
  t.Object(
    {
      amount: t.Optional(
        t.Number({ exclusiveMinimum: 0, description: 'decimal major units of the booking currency; default: everything paid and not yet refunded' }),
      ),
    },
    { $id: 'RefundRequest' },
  ),
);

export const RefundJson = t.Object(
  {
    id: t.String({ description: 'rf_…' }),
    amount: t.Number({ description: 'decimal major units' }),
    currency: t.String({ description: 'ISO 4217' }),
    status: t.Union([t.Literal('pending'), t.Literal('succeeded')], {
      description: 'succeeded: the provider gave the money back; pending: the provider accepted the refund and completes it later',
    }),
  },
  { $id: 'Refund' },
);

export const RefundResponse = t.Object(
  { success: t.Literal(true), booking: Booking, refund: RefundJson },
  { $id: 'RefundResponse', description: 'The booking after the refund, and the refund' },
);

export const RefundListItem = t.Object(
  {
    id: t.String({ description: 'rf_…' }),
    amount: t.Number({ description: 'decimal major units' }),
    currency: t.String({ description: 'ISO 4217' }),
    status: t.Union([t.Literal('pending'), t.Literal('succeeded'), t.Literal('failed')], {
      description:
        "svc's record of it: succeeded: the provider took the refund (the money is given back, or on its way where the provider completes it later, as the refund's answer said); pending: asked for, the provider has not answered yet; failed: the provider refused it or could not be reached, nothing was refunded",
    }),
    createdAt: t.String({ format: 'date-time', description: 'when the refund was asked for' }),
  },
  { $id: 'RefundListItem' },
);

export const RefundListResponse = t.Object(
  { success: t.Literal(true), refunds: t.Array(RefundListItem) },
  { $id: 'RefundListResponse', description: "The booking's refunds, oldest first" },
);

export interface RefundOutcome {
  booking: Booking;
  refund: { id: string; amount: number; currency: string; status: 'pending' | 'succeeded' };
}

/**
 * The customer's mail about a refund, written with the refund in one transaction. Every refund gets its own mail:
 * its `revision` is the refund's number on the booking, negated (-1, -2, …), so a second partial refund of an
 * unchanged booking is not taken for the first, and no refund meets a mail keyed by a booking revision (≥ 0).
 */
function refundMail(booking: BookingRecord, refund: RefundRecord, number: number, at: number): MailEntry {
  return {
    workspaceId: booking.workspaceId,
    bookingId: booking.id,
    kind: 'refunded',
    revision: -number,
    snapshot: {
      status: booking.status,
      startTime: booking.startTime,
      endTime: booking.endTime,
      cancelReason: booking.cancelReason,
      refundMinor: refund.amountMinor,
    },
    createdAt: at,
  };
}

/**
 * refundBooking (docs/contract/payments.md §10): gives back `amount` (default: all that was paid and not yet
 * refunded) of a booking's paid payment through the provider that took it.
 *
 * The refund is first reserved in storage (the booking's refundedMinor is raised only while it stays within what
 * was paid, so concurrent refunds cannot give back more than was taken), then sent to the provider with the
 * refund id as idempotency key, then settled: on success with `payment.refunded` and the customer's mail in the
 * same transaction; on failure the reservation is given back and the answer is 502 PAYMENT_PROVIDER_ERROR.
 * Nothing paid (or nothing left) → 409 NOTHING_TO_REFUND; more than is left → 400 VALIDATION_ERROR.
 */
export async function refundBooking(deps: AppDeps, workspace: WorkspaceRecord, bookingId: string, amount?: number): Promise<RefundOutcome> {
  const booking = await deps.storage.getBooking(workspace.id, bookingId);
  if (!booking) throw notFound(`booking ${bookingId}`);
  const refundable = booking.paidMinor - booking.refundedMinor;
  if (booking.paidMinor === 0 || booking.currency === null) throw new AppError('NOTHING_TO_REFUND', `booking ${bookingId} has nothing paid to refund`);
  if (refundable <= 0) throw new AppError('NOTHING_TO_REFUND', `everything paid for booking ${bookingId} has already been refunded`);
  const currency = booking.currency;
  let amountMinor = refundable;
  if (amount !== undefined) {
    try {
      amountMinor = toMinor(amount, currency);
    } catch (error) {
      throw validation(error instanceof Error ? error.message : String(error), [{ path: '/amount', message: 'not an amount of the booking currency' }]);
    }
  }
  const tooMuch = (left: number) =>
    validation(`amount ${toMajor(amountMinor, currency)} is more than can be refunded: ${toMajor(left, currency)} ${currency}`, [
      { path: '/amount', message: `at most ${toMajor(left, currency)}` },
    ]);
  if (amountMinor <= 0) throw validation('amount must be above 0', [{ path: '/amount', message: 'must be above 0' }]);
  if (amountMinor > refundable) throw tooMuch(refundable);

  const payment = (await deps.storage.listPayments(booking.id))
    .filter((candidate) => candidate.status === 'paid')
    .sort((a, b) => b.amountMinor - a.amountMinor)[0];
  if (!payment) throw new AppError('NOTHING_TO_REFUND', `booking ${bookingId} has no paid payment to refund`);

  const now = deps.clock.now();
  const refund: RefundRecord = {
    id: newId('rf', now),
    workspaceId: workspace.id,
    bookingId: booking.id,
    paymentId: payment.id,
    provider: payment.provider,
    reference: null,
    amountMinor,
    currency,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
  };
  const reserved = await deps.storage.reserveRefund(refund);
  if (!reserved.ok) {
    if (reserved.refundable === 0) throw new AppError('NOTHING_TO_REFUND', `everything paid for booking ${bookingId} has already been refunded`);
    throw tooMuch(reserved.refundable);
  }

  let answer: { reference: string | null; status: 'pending' | 'succeeded' };
  try {
    answer = await sendRefund(deps, payment, refund);
  } catch (error) {
    deps.logger.error('refund refused by the payment provider', {
      provider: payment.provider,
      booking: booking.id,
      refund: refund.id,
      error: error instanceof Error ? error.message : String(error),
    });
    await deps.storage.settleRefund(refund.id, { status: 'failed', reference: null }, deps.clock.now());
    throw new AppError(
      'PAYMENT_PROVIDER_ERROR',
      `the payment provider (${payment.provider}) did not take the refund; nothing was refunded: try again in a moment`,
    );
  }

  const [service, provider] = await Promise.all([
    deps.storage.getService(workspace.id, booking.serviceId),
    deps.storage.getProvider(workspace.id, booking.providerId),
  ]);
  const json = (record: BookingRecord) => toBookingJson(record, { serviceName: service?.name ?? null, providerName: provider?.name ?? null });
  const at = deps.clock.now();
  const settled = await deps.storage.settleRefund(refund.id, { status: 'succeeded', reference: answer.reference }, at, {
    // `payment.amount` is this refund's sum; the booking's `payment.refunded` is the total so far.
    emit: (saved) => paymentEvents(['payment.refunded'], workspace, json(saved), { ...payment, amountMinor: refund.amountMinor }, at),
    mails: (saved, number) => (mailEnabled(deps.config) ? [refundMail(saved, refund, number, at)] : []),
  });
  const saved = settled?.booking ?? (await deps.storage.getBooking(workspace.id, booking.id)) ?? reserved.booking;
  return {
    booking: json(saved),
    refund: { id: refund.id, amount: toMajor(amountMinor, currency), currency, status: answer.status },
  };
}

/**
 * listBookingRefunds (docs/contract/payments.md §10): every refund asked for on a booking, oldest first, each with
 * its own amount and status (failed ones too: the owner sees what was tried). 404 for a booking not of the workspace.
 */
export async function listBookingRefunds(deps: Pick<AppDeps, 'storage'>, workspace: WorkspaceRecord, bookingId: string): Promise<RefundListItem[]> {
  const booking = await deps.storage.getBooking(workspace.id, bookingId);
  if (!booking) throw notFound(`booking ${bookingId}`);
  return (await deps.storage.listRefunds(booking.id)).map((refund) => ({
    id: refund.id,
    amount: toMajor(refund.amountMinor, refund.currency),
    currency: refund.currency,
    status: refund.status,
    createdAt: new Date(refund.createdAt).toISOString(),
  }));
}

export type RefundListItem = typeof RefundListItem.static;

async function sendRefund(deps: Pick<AppDeps, 'payments'>, payment: PaymentRecord, refund: RefundRecord) {
  if (payment.provider === MANUAL) return { reference: null, status: 'succeeded' as const };
  if (payment.provider !== deps.payments.name || !deps.payments.refund) {
    throw new Error(`the payment was taken by ${payment.provider}, which is not the configured provider (${deps.payments.name})`);
  }
  return deps.payments.refund({ paymentReference: payment.reference, amountMinor: refund.amountMinor, currency: refund.currency, refundId: refund.id });
}
