import type { BookingRecord, BookingTransition } from './booking-store.ts';
import type { MailEntry } from './mail-entry.ts';
import type { OutboxEvent } from './outbox-store.ts';

export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'expired';

export interface PaymentRecord {
  id: string;
  workspaceId: string;
  bookingId: string;
  /** payment provider name: test, stripe */
  provider: string;
  /** the provider's id for the checkout (unique per provider) */
  reference: string;
  amountMinor: number;
  currency: string;
  status: PaymentStatus;
  /** paid for a booking that was already cancelled: money to give back */
  refundDue: boolean;
  /**
   * where the customer pays (the provider's checkout page), sealed for this payment (src/platform/sealed-secrets.ts,
   * sealCheckoutUrl): the test page's address is the capability to pay or cancel. The awaiting-payment mail links
   * it. Null without SVC_SECRET.
   */
  checkoutUrlSealed: string | null;
  createdAt: number;
  updatedAt: number;
}

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/** Money given back on a paid payment (docs/contract/payments.md §10). */
export interface RefundRecord {
  /** rf_… */
  id: string;
  workspaceId: string;
  bookingId: string;
  paymentId: string;
  /** the payment's provider: test, stripe, mollie, manual */
  provider: string;
  /** the provider's id of the refund; null until the provider answered */
  reference: string | null;
  amountMinor: number;
  currency: string;
  status: RefundStatus;
  createdAt: number;
  updatedAt: number;
}

/** What a refund's settlement writes beside it, built from the booking as saved, in the same transaction. */
export interface RefundConsequences {
  emit: (booking: BookingRecord) => OutboxEvent[];
  /**
   * `number` is this refund's place among the booking's succeeded refunds (1 for the first), counted in the
   * settling transaction: each refund has its own, so each refund's mail is written once and no refund's mail is
   * taken for another's (docs/contract/payments.md §10).
   */
  mails?: (booking: BookingRecord, number: number) => MailEntry[];
}

/**
 * Payments of bookings. A payment's status moves compare-and-set, and the booking move a payment causes is
 * written in the same transaction (settlePayment), so a provider event applied twice changes nothing the
 * second time.
 */
export interface PaymentStore {
  /** @throws UniqueViolation('payment') when the provider's reference is taken */
  createPayment(payment: PaymentRecord): Promise<void>;
  getPaymentByReference(provider: string, reference: string): Promise<PaymentRecord | null>;
  listPayments(bookingId: string): Promise<PaymentRecord[]>;
  /**
   * Sets the payment's status if it is still `from` (compare-and-set), and in the same transaction moves its
   * booking with `booking` when given. A payment that becomes `paid` raises its booking's `paidMinor` by its
   * amount in that transaction (before the move, so the move's events see it). Returns null when the payment was not in `from` (a repeated event). The
   * payment is settled even when the booking's move does not apply (it is in another status): `booking` is null.
   * `to.amountMinor` (with `status: 'paid'`): the provider took another sum than was asked (a Stripe promotion
   * code): the payment's amount becomes it, `paidMinor` rises by it, and what was asked and not taken is a
   * discount, taken off the booking's `priceMinor` (never below 0) in the same transaction.
   */
  settlePayment(
    paymentId: string,
    from: PaymentStatus,
    to: Partial<Pick<PaymentRecord, 'status' | 'refundDue' | 'amountMinor'>>,
    at: number,
    booking?: { workspaceId: string; transition: BookingTransition },
  ): Promise<{ payment: PaymentRecord; booking: BookingRecord | null } | null>;
  /**
   * Records a refund (status `pending`) and raises its booking's `refundedMinor` by its amount, in one
   * transaction, only if the booking's refundedMinor + amount stays within its paidMinor. Of concurrent calls
   * that together would refund more than was paid, only those that fit succeed. Returns the booking as
   * saved, or `{ refundable }` (what can still be refunded, minor units) and writes nothing.
   */
  reserveRefund(refund: RefundRecord): Promise<{ ok: true; booking: BookingRecord } | { ok: false; refundable: number }>;
  /**
   * Settles a pending refund compare-and-set: `succeeded` with the provider's reference writes `consequences`
   * in the same transaction; `failed` lowers the booking's refundedMinor again by its amount. Returns null when
   * the refund was no longer pending (a repeat).
   */
  settleRefund(
    refundId: string,
    to: { status: Exclude<RefundStatus, 'pending'>; reference: string | null },
    at: number,
    consequences?: RefundConsequences,
  ): Promise<{ refund: RefundRecord; booking: BookingRecord } | null>;
  /** The booking's refunds, oldest first. */
  listRefunds(bookingId: string): Promise<RefundRecord[]>;
}
