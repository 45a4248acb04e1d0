/*
 * The payment port: how svc collects the sum due on a booking (docs/contract/lifecycle.md, docs/contract/payments.md). One interface;
 * the adapters live in adapters/payments/<backend>/ (`testPayments`, `stripePayments`, `molliePayments`) and are chosen by
 * SVC_PAYMENTS in adapters/payments/index.ts (`none` is the default and collects nothing online).
 * Money is integer minor units of an ISO 4217 currency (src/core/money.ts); instants are epoch ms.
 */

export type PaymentProviderName = 'none' | 'test' | 'stripe' | 'mollie';

/** What a checkout is opened for: one booking, one line item. */
export interface CheckoutRequest {
  workspace: { slug: string; name: string };
  booking: { id: string; customerEmail: string };
  /** the sum due (the service deposit if it has one, else its price), integer minor units of `currency`, > 0 */
  amountMinor: number;
  /** ISO 4217, upper case */
  currency: string;
  /** the line item's name: the service and its start in the workspace's zone */
  description: string;
  /**
   * End of the booking's hold, epoch ms: the checkout takes no money after it. Always within the provider's
   * `holdMinutes` of now (see paymentHoldMinutes).
   */
  expiresAt: number;
}

/** An open checkout at the provider. */
export interface Checkout {
  /**
   * the provider's id for it, unique per provider: a Stripe Checkout Session id; for the test page the hash of
   * the random id in its address (that id opens Pay and Cancel, so, like every capability token, it is not stored)
   */
  reference: string;
  /** the hosted payment page the customer is sent to */
  url: string;
}

/**
 * What a provider reports about a checkout:
 * - `paid`: the money arrived (Stripe: session completed with payment_status `paid`, or async payment succeeded);
 * - `failed`: the payment was attempted and failed for good (Stripe: async payment failed);
 * - `expired`: the checkout closed unpaid at its end (Stripe: session expired);
 * - `cancelled`: the customer gave up on the hosted page (the test page's Cancel button).
 */
export type PaymentOutcome = 'paid' | 'failed' | 'expired' | 'cancelled';

export interface PaymentEvent {
  outcome: PaymentOutcome;
  /** the checkout's `reference` */
  reference: string;
  /**
   * `paid` only: what the provider says it took, when that can differ from the sum the checkout asked for (Stripe:
   * the session's `amount_total`, lower after a promotion code), in integer minor units of `currency`. svc records
   * this as paid and takes the difference off the booking's price (docs/contract/payments.md §12). Absent: the
   * sum asked for was taken.
   */
  paid?: { amountMinor: number; currency: string };
}

/** A provider's HTTP callback, exactly as received. */
export interface WebhookCallback {
  /** the raw body, byte for byte as sent: signatures are computed over it */
  body: string;
  headers: Headers;
  /** when it arrived (deps.clock), epoch ms: signatures older than the provider's tolerance are refused */
  receivedAt: number;
}

/**
 * A verified callback: an event for svc to apply, something svc has no use for (with why, for the log), or a
 * payment the provider itself does not know (Mollie: the id fetched back is 404; acknowledged and logged at warn,
 * like an event for a checkout svc does not know).
 */
export type WebhookResult = { event: PaymentEvent } | { ignored: string } | { unknown: string };

/** Money to give back on a paid checkout. */
export interface RefundRequest {
  /** the checkout's `reference` (a Stripe Checkout Session id, a Mollie payment id) */
  paymentReference: string;
  /** integer minor units of `currency`, > 0, never more than is left to refund */
  amountMinor: number;
  currency: string;
  /** svc's refund id (rf_…): sent as the provider's idempotency key, so a retried request refunds once */
  refundId: string;
}

/** The provider's answer: its id of the refund, and whether the money is already on its way. */
export interface RefundResult {
  reference: string;
  status: 'pending' | 'succeeded';
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /**
   * Shortest and longest payment hold the provider's checkout supports, minutes. SVC_PAYMENT_HOLD_MINUTES is
   * clamped into it (Stripe: a Checkout Session lives 30 minutes to 24 hours, so 31 to 1439 with a margin).
   */
  readonly holdMinutes: { min: number; max: number };
  /**
   * Opens a checkout for one booking and returns where to send the customer. Throws when the provider cannot
   * (unreachable, refused): the caller then releases the booking and answers 502 PAYMENT_PROVIDER_ERROR.
   * Safe to retry for the same booking id (adapters pass it as an idempotency key where the provider has one).
   */
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /**
   * Providers whose checkout page svc serves itself (`test`): the `reference` of the checkout whose address
   * carries `checkoutId`. Absent elsewhere.
   */
  checkoutReference?(checkoutId: string): string;
  /**
   * Verifies a callback the provider sent to `POST {app_url}/api/payments/{name}/webhook` and turns it into a
   * payment event. Throws AppError VALIDATION_ERROR (400) when the signature is missing or does not verify
   * (Mollie, which signs nothing: when the body names no payment id); nothing may change then. Mollie's payment
   * is fetched back from Mollie before anything is believed. Absent on providers without callbacks (`none`, and `test`, whose page is served
   * by svc itself).
   */
  verifyWebhook?(callback: WebhookCallback): Promise<WebhookResult>;
  /**
   * Gives back `amountMinor` of a paid checkout. Throws when the provider refuses or cannot be reached: the caller
   * then records the refund as failed and answers 502 PAYMENT_PROVIDER_ERROR. Absent on `none`.
   */
  refund?(request: RefundRequest): Promise<RefundResult>;
}
