import type { MollieClient, Payment } from '@mollie/api-client';
import type { PaymentOutcome, PaymentProvider, WebhookResult } from '../../../src/ports/payments.ts';
import { AppError, validation } from '../../../src/core/errors.ts';
import { currencyExponent, toMajor } from '../../../src/core/money.ts';

export interface MolliePaymentsOptions {
  /** MOLLIE_API_KEY (live_… or test_…) */
  apiKey: string;
  /** SVC_PUBLIC_URL without a trailing slash: the return page and the webhook live under it */
  publicUrl: string;
  /** MOLLIE_API_URL: the root of the API, default https://api.mollie.com/v2/ (tests: a local stand-in) */
  apiUrl?: string;
}

/**
 * Mollie keeps an open payment payable for a method-dependent time of its own (15 minutes for most methods, days
 * for bank transfers) and takes no expiry from the merchant, so svc's own hold is what ends a checkout: a payment
 * arriving after it is recorded with a refund due, as with every provider. Below 15 minutes a customer cannot
 * reasonably finish a bank redirect; above a day the slot is blocked for too long.
 */
export const MOLLIE_HOLD_MINUTES = { min: 15, max: 1440 } as const;

/** The page Mollie sends the customer back to, paid or not; it names the payment (Mollie fills in no id itself). */
export const mollieReturnUrl = (publicUrl: string, paymentId: string) => `${publicUrl}/checkout/mollie/done?id=${encodeURIComponent(paymentId)}`;
/** Where Mollie posts `id=tr_…` whenever a payment's status changes. */
export const mollieWebhookUrl = (publicUrl: string) => `${publicUrl}/api/payments/mollie/webhook`;

/** Mollie's payment ids; anything else never reaches the API (it is put into a request path). */
const PAYMENT_ID = /^tr_[A-Za-z0-9]{1,64}$/;

/** Mollie's amount: a string with exactly the currency's decimals ("35.00", "1000" for JPY). */
export function mollieAmount(amountMinor: number, currency: string) {
  return { currency, value: toMajor(amountMinor, currency).toFixed(currencyExponent(currency)) };
}

/** What a Mollie payment status means to svc; open, pending and authorized wait for the next webhook. */
const OUTCOMES: Partial<Record<string, PaymentOutcome>> = { paid: 'paid', failed: 'failed', expired: 'expired', canceled: 'cancelled' };

/**
 * SVC_PAYMENTS=mollie: Mollie's hosted checkout through the official client (docs/contract/payments.md,
 * docs/decisions/0024-mollie-through-its-client.md).
 *
 * createCheckout creates a payment (amount, description, the booking and workspace in `metadata`, the webhook URL),
 * then sets its redirectUrl to the return page naming the new payment id; the payment id is the reference.
 * verifyWebhook reads `id` from the form-encoded callback and FETCHES that payment from Mollie: the callback is
 * unsigned, so only Mollie's own answer is believed. paid → paid, failed → failed, expired → expired,
 * canceled → cancelled; open/pending/authorized are ignored; an id Mollie does not know is `unknown`.
 * refund creates a refund of the payment with svc's refund id as idempotency key.
 */
export function molliePayments(options: MolliePaymentsOptions): PaymentProvider {
  // Loaded on first use, like the Stripe SDK: most installations never pay through Mollie.
  let client: Promise<MollieClient> | undefined;
  const mollie = () =>
    // The named export: Deno loads the package's CommonJS build, whose `default` is the whole exports object.
    (client ??= import('@mollie/api-client').then(({ createMollieClient }) =>
      createMollieClient({ apiKey: options.apiKey, ...(options.apiUrl ? { apiEndpoint: options.apiUrl } : {}) }),
    ));

  return {
    name: 'mollie',
    holdMinutes: MOLLIE_HOLD_MINUTES,

    async createCheckout(request) {
      const api = await mollie();
      const payment = await api.payments.create({
        amount: mollieAmount(request.amountMinor, request.currency),
        description: request.description,
        // Replaced right below by the page naming this payment; Mollie requires one at creation.
        redirectUrl: `${options.publicUrl}/checkout/mollie/done`,
        webhookUrl: mollieWebhookUrl(options.publicUrl),
        metadata: { workspace: request.workspace.slug, booking: request.booking.id },
        idempotencyKey: `svc-checkout-${request.booking.id}`,
      });
      const checkoutUrl = payment.getCheckoutUrl();
      if (!checkoutUrl) throw new Error(`Mollie answered payment ${payment.id} without a checkout link`);
      await api.payments.update(payment.id, { redirectUrl: mollieReturnUrl(options.publicUrl, payment.id) });
      return { reference: payment.id, url: checkoutUrl };
    },

    async refund(request) {
      const api = await mollie();
      const refund = await api.paymentRefunds.create({
        paymentId: request.paymentReference,
        amount: mollieAmount(request.amountMinor, request.currency),
        metadata: { refund: request.refundId },
        idempotencyKey: `svc-refund-${request.refundId}`,
      });
      const status = String(refund.status);
      if (status === 'failed' || status === 'canceled') throw new Error(`Mollie refund ${refund.id} is ${status}`);
      return { reference: refund.id, status: status === 'refunded' ? 'succeeded' : 'pending' };
    },

    async verifyWebhook({ body }): Promise<WebhookResult> {
      const id = new URLSearchParams(body).get('id');
      if (!id) throw validation('id is missing: Mollie posts the form field id=tr_… to this endpoint');
      if (!PAYMENT_ID.test(id)) throw validation('id is not a Mollie payment id (tr_…)');
      const api = await mollie();
      let payment: Payment;
      try {
        payment = await api.payments.get(id);
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return { unknown: `Mollie knows no payment ${id}` };
        // Not a 2xx, so Mollie calls again later; nothing was changed.
        const reason = error instanceof Error ? error.message : String(error);
        throw new AppError('PAYMENT_PROVIDER_ERROR', `payment ${id} could not be fetched from Mollie (${reason}); nothing was changed`);
      }
      const outcome = OUTCOMES[payment.status];
      if (!outcome) return { ignored: `payment ${id} is ${payment.status}: waiting for its next status` };
      return { event: { outcome, reference: payment.id } };
    },
  };
}
