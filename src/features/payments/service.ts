import { applyBookingMove, seriesAwaitingPayment, settleSeriesRest } from '../bookings/index.ts';
import type { Booking } from '../bookings/index.ts';
import { toBookingJson } from '../bookings/index.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { notFound } from '../../core/errors.ts';
import type { BookingRecord, BookingStore, CatalogueStore, PaymentRecord, PaymentStatus, WorkspaceRecord, WorkspaceStore } from '../../ports/storage/index.ts';
import type { PaymentEvent, PaymentOutcome } from '../../ports/payments.ts';

/** What a payment event did. */
export type Settlement =
  /** no payment of this provider has the event's reference */
  | { result: 'unknown' }
  /** a repeat, or too late to matter: nothing changed */
  | { result: 'unchanged'; payment: PaymentRecord }
  /** paid: the PENDING booking is now CONFIRMED (payment.received, booking.confirmed) */
  | { result: 'confirmed'; payment: PaymentRecord }
  /** paid for a booking that was already CONFIRMED or COMPLETED: recorded, the booking stays */
  | { result: 'paid'; payment: PaymentRecord }
  /** paid for a booking that was already CANCELLED: recorded with refundDue, logged at warn */
  | { result: 'refund_due'; payment: PaymentRecord }
  /** failed, expired or cancelled: the payment is closed and a booking still PENDING is CANCELLED, freeing its slot */
  | { result: 'closed'; payment: PaymentRecord };

/** The cancelReason of a booking whose checkout closed unpaid. */
export const CLOSED_REASONS: Record<Exclude<PaymentOutcome, 'paid'>, string> = {
  failed: 'payment failed',
  expired: 'payment checkout expired',
  cancelled: 'payment checkout cancelled',
};

/** How often a paid event re-reads the payment when another writer changed it between read and write. */
const SETTLE_ATTEMPTS = 3;

/** A payment with its workspace and booking, and the booking as JSON. */
export interface PaymentContext {
  payment: PaymentRecord;
  workspace: WorkspaceRecord;
  booking: BookingRecord;
  serviceName: string | null;
  json: (booking: BookingRecord) => Booking;
}

async function contextOf(deps: { storage: WorkspaceStore & BookingStore & CatalogueStore }, payment: PaymentRecord): Promise<PaymentContext | null> {
  const workspace = await deps.storage.getWorkspaceById(payment.workspaceId);
  const booking = workspace && (await deps.storage.getBooking(workspace.id, payment.bookingId));
  if (!workspace || !booking) return null;
  const [service, provider] = await Promise.all([
    deps.storage.getService(workspace.id, booking.serviceId),
    deps.storage.getProvider(workspace.id, booking.providerId),
  ]);
  const names = { serviceName: service?.name ?? null, providerName: provider?.name ?? null };
  return { payment, workspace, booking, serviceName: names.serviceName, json: (record) => toBookingJson(record, names) };
}

/**
 * A checkout of the configured provider with its booking, for the checkout pages, by the id its address
 * carries (the test page's id, looked up by its hash; a Stripe session id); 404 NOT_FOUND when no payment of
 * this provider has it.
 */
export async function findCheckout(deps: Pick<AppDeps, 'storage' | 'payments'>, checkoutId: string): Promise<PaymentContext> {
  const reference = deps.payments.checkoutReference?.(checkoutId) ?? checkoutId;
  const payment = await deps.storage.getPaymentByReference(deps.payments.name, reference);
  const context = payment && (await contextOf(deps, payment));
  if (!context) throw notFound(`checkout ${checkoutId}`);
  return context;
}

/**
 * Applies a verified provider event to its payment and booking (docs/contract/lifecycle.md, docs/contract/payments.md). Every write is a
 * compare-and-set on the payment status; a booking move goes through applyBookingMove, which settles the
 * payment in the same transaction, so a repeated or concurrent event changes nothing the second time.
 *
 * - paid: pending (or closed) → paid. A PENDING booking becomes CONFIRMED with `payment.received` then
 *   `booking.confirmed`; a CONFIRMED one stays and gets `payment.received`; for a CANCELLED booking (cancelled,
 *   or its hold expired first) the payment is recorded with `refundDue: true` and logged at warn: money is never
 *   dropped silently. A payment already paid is a repeat.
 * - failed | expired | cancelled: pending → failed | expired; a booking still PENDING is CANCELLED
 *   (`booking.cancelled`), freeing its slot. A payment no longer pending is left as it is.
 */
export async function applyPaymentEvent(deps: AppDeps, event: PaymentEvent): Promise<Settlement> {
  return event.outcome === 'paid' ? settlePaid(deps, event) : settleClosed(deps, event.reference, event.outcome);
}

/**
 * What a paid event records for `payment`: the sum the provider says it took when that is another one than asked
 * (a Stripe promotion code) in the payment's currency; else the payment as it is. A sum in another currency is
 * not believed (logged): the sum asked is recorded.
 */
function paidChange(deps: Pick<AppDeps, 'logger'>, payment: PaymentRecord, event: PaymentEvent): { status: 'paid'; amountMinor?: number } {
  const taken = event.paid;
  if (!taken || taken.amountMinor === payment.amountMinor) return { status: 'paid' };
  if (taken.currency.toUpperCase() !== payment.currency || !Number.isSafeInteger(taken.amountMinor) || taken.amountMinor < 0) {
    deps.logger.warn('payment event names a sum svc cannot record; recording the sum asked for', {
      payment: payment.id,
      reference: payment.reference,
      amountMinor: taken.amountMinor,
      currency: taken.currency,
    });
    return { status: 'paid' };
  }
  return { status: 'paid', amountMinor: taken.amountMinor };
}

async function settlePaid(deps: AppDeps, event: PaymentEvent): Promise<Settlement> {
  const { reference } = event;
  let payment: PaymentRecord | null = null;
  for (let attempt = 0; attempt < SETTLE_ATTEMPTS; attempt++) {
    payment = await deps.storage.getPaymentByReference(deps.payments.name, reference);
    if (!payment) return { result: 'unknown' };
    if (payment.status === 'paid') return { result: 'unchanged', payment };
    const context = await contextOf(deps, payment);
    const now = deps.clock.now();
    const paid = paidChange(deps, payment, event);

    if (!context || context.booking.status === 'CANCELLED') {
      const settled = await deps.storage.settlePayment(payment.id, payment.status, { ...paid, refundDue: true }, now);
      if (!settled) continue;
      warnRefundDue(deps, settled.payment);
      return { result: 'refund_due', payment: settled.payment };
    }

    // A series' one payment (docs/contract/series.md) is carried by its first occurrence: the others follow it,
    // and the one confirmation mail lists them all.
    const series = await seriesAwaitingPayment(deps, context.workspace, context.booking);
    const moved = await applyBookingMove(
      deps,
      { workspace: context.workspace, booking: context.booking, json: context.json, at: now, ...(series ? { occurrences: series.occurrences } : {}) },
      { action: 'pay', payment: { payment, from: payment.status, to: paid } },
    );
    if (moved.ok) {
      if (series) await settleSeriesRest(deps, context.workspace, series.rest, 'confirm');
      return { result: context.booking.status === 'PENDING' ? 'confirmed' : 'paid', payment: moved.payment ?? payment };
    }
    let recorded: PaymentRecord;
    if (moved.kind === 'stale') {
      // The payment changed under us: read it again. Else the booking moved between the read and the write
      // (the hold expired or it was cancelled meanwhile) and the payment is recorded without it.
      if (!moved.payment) continue;
      recorded = moved.payment;
      const current = await deps.storage.getBooking(context.workspace.id, context.booking.id);
      if (!current || current.status === 'CANCELLED') {
        const flagged = await deps.storage.settlePayment(payment.id, 'paid', { refundDue: true }, now);
        const flaggedPayment = flagged?.payment ?? recorded;
        warnRefundDue(deps, flaggedPayment);
        return { result: 'refund_due', payment: flaggedPayment };
      }
    } else {
      // The lifecycle moves nothing (a COMPLETED booking): the money is recorded all the same.
      const settled = await deps.storage.settlePayment(payment.id, payment.status, paid, now);
      if (!settled) continue;
      recorded = settled.payment;
    }
    deps.logger.info('payment received for a booking that was not awaiting it', { payment: payment.id, booking: payment.bookingId });
    return { result: 'paid', payment: recorded };
  }
  return { result: 'unchanged', payment: payment! };
}

function warnRefundDue(deps: Pick<AppDeps, 'logger'>, payment: PaymentRecord) {
  deps.logger.warn('payment received for a cancelled booking: refund due', {
    payment: payment.id,
    provider: payment.provider,
    reference: payment.reference,
    booking: payment.bookingId,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
  });
}

async function settleClosed(deps: AppDeps, reference: string, outcome: Exclude<PaymentOutcome, 'paid'>): Promise<Settlement> {
  const payment = await deps.storage.getPaymentByReference(deps.payments.name, reference);
  if (!payment) return { result: 'unknown' };
  if (payment.status !== 'pending') return { result: 'unchanged', payment };
  const context = await contextOf(deps, payment);
  const now = deps.clock.now();
  const status: PaymentStatus = outcome === 'failed' ? 'failed' : 'expired';
  let settled: PaymentRecord | null = null;
  let moved = false;
  if (context) {
    const result = await applyBookingMove(
      deps,
      { workspace: context.workspace, booking: context.booking, json: context.json, at: now },
      { action: 'expire', reason: CLOSED_REASONS[outcome], payment: { payment, from: 'pending', to: { status } } },
    );
    moved = result.ok || result.kind === 'stale';
    if (result.ok && context.booking.seriesId) {
      const series = await seriesAwaitingPayment(deps, context.workspace, context.booking);
      if (series) await settleSeriesRest(deps, context.workspace, series.rest, 'expire', CLOSED_REASONS[outcome]);
    }
    settled = result.ok ? result.payment : result.kind === 'stale' ? result.payment : null;
  }
  // No booking to release (it is no longer PENDING, or gone): the payment closes alone.
  if (!moved) settled = (await deps.storage.settlePayment(payment.id, 'pending', { status }, now))?.payment ?? null;
  if (!settled) {
    // Another event settled it first; whatever it was, this one no longer applies.
    const current = await deps.storage.getPaymentByReference(deps.payments.name, reference);
    return { result: 'unchanged', payment: current ?? payment };
  }
  return { result: 'closed', payment: settled };
}
