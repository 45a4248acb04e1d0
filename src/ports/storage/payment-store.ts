import type { BookingRecord, BookingTransition } from './booking-store.ts';

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
   * booking with `booking` when given. Returns null when the payment was not in `from` (a repeated event). The
   * payment is settled even when the booking's move does not apply (it is in another status): `booking` is null.
   */
  settlePayment(
    paymentId: string,
    from: PaymentStatus,
    to: Partial<Pick<PaymentRecord, 'status' | 'refundDue'>>,
    at: number,
    booking?: { workspaceId: string; transition: BookingTransition },
  ): Promise<{ payment: PaymentRecord; booking: BookingRecord | null } | null>;
}
