import type Stripe from 'stripe';
import type { PaymentEvent, PaymentProvider, WebhookResult } from '../../../src/ports/payments.ts';
import { validation } from '../../../src/core/errors.ts';

/** Where the Stripe API is reached; tests point it at a local fake over plain HTTP. */
export interface StripeApiAddress {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

export interface StripePaymentsOptions {
  /** STRIPE_SECRET_KEY (sk_live_… or sk_test_…) */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: the signing secret (whsec_…) of the webhook endpoint registered at Stripe */
  webhookSecret: string;
  /** SVC_PUBLIC_URL without a trailing slash: the pages Stripe sends the customer back to live under it */
  publicUrl: string;
  /** SVC_STRIPE_PROMOTION_CODES: Checkout offers a field for the promotion codes made in the Stripe Dashboard */
  promotionCodes?: boolean;
  /** default api.stripe.com:443 over HTTPS */
  api?: StripeApiAddress;
  /** how long one API request may take, ms; default 20 000 (the customer is waiting for the booking answer) */
  timeoutMs?: number;
  /** automatic retries of a failed request (with the same idempotency key); default 1 */
  maxNetworkRetries?: number;
}

/**
 * A Checkout Session's `expires_at` must lie 30 minutes to 24 hours after Stripe creates it. The hold end is
 * computed before the request travels, so a minute on each side keeps latency and clock skew from pushing it
 * out of range: holds are 31 to 1439 minutes with Stripe.
 */
export const STRIPE_HOLD_MINUTES = { min: 31, max: 1439 } as const;

/** Tolerance of webhook signatures: Stripe's default, 5 minutes. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The page Stripe sends the customer to after paying; Stripe fills in the session id. */
export const successUrl = (publicUrl: string) => `${publicUrl}/checkout/stripe/done?session_id={CHECKOUT_SESSION_ID}`;
/** The page behind Checkout's back link; Stripe fills in no id there, so the page names nothing. */
export const cancelUrl = (publicUrl: string) => `${publicUrl}/checkout/stripe/cancelled`;

/**
 * SVC_PAYMENTS=stripe: Stripe Checkout through the official SDK (docs/contract/payments.md).
 *
 * createCheckout opens a Checkout Session (mode `payment`, one line item priced in minor units, the booking id as
 * `client_reference_id` and in `metadata`, `expires_at` at the hold end); the session id is the reference.
 * verifyWebhook checks the `Stripe-Signature` of the raw body with `webhooks.constructEventAsync` and maps:
 * - `checkout.session.completed` with `payment_status: "paid"` (or `no_payment_required`: a promotion code took
 *   all of it) → paid (an unpaid one waits for the async events);
 * - `checkout.session.async_payment_succeeded` → paid; `checkout.session.async_payment_failed` → failed;
 * - a paid event carries the session's `amount_total` as what was taken (after a promotion code, less than asked);
 * - `checkout.session.expired` → expired; any other type is ignored.
 */
export function stripePayments(options: StripePaymentsOptions): PaymentProvider {
  // The SDK (a quarter of svc's JavaScript) is loaded on first use, not at start-up.
  let client: Promise<Stripe> | undefined;
  const stripeClient = () =>
    (client ??= import('stripe').then(
      ({ default: StripeClient }) =>
        new StripeClient(options.secretKey, {
          ...(options.api ? { host: options.api.host, port: options.api.port, protocol: options.api.protocol } : {}),
          timeout: options.timeoutMs ?? 20_000,
          maxNetworkRetries: options.maxNetworkRetries ?? 1,
          telemetry: false,
        }),
    ));

  return {
    name: 'stripe',
    holdMinutes: STRIPE_HOLD_MINUTES,

    async createCheckout(request) {
      const stripe = await stripeClient();
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency.toLowerCase(),
                unit_amount: request.amountMinor,
                product_data: { name: request.description },
              },
            },
          ],
          client_reference_id: request.booking.id,
          metadata: { workspace: request.workspace.slug, booking: request.booking.id },
          customer_email: request.booking.customerEmail,
          expires_at: Math.floor(request.expiresAt / 1000),
          success_url: successUrl(options.publicUrl),
          cancel_url: cancelUrl(options.publicUrl),
          // sent only when on, so a checkout without it is the same request as before the setting existed
          ...(options.promotionCodes ? { allow_promotion_codes: true } : {}),
        },
        { idempotencyKey: `svc-checkout-${request.booking.id}` },
      );
      if (!session.url) throw new Error(`Stripe answered Checkout Session ${session.id} without a url`);
      return { reference: session.id, url: session.url };
    },

    async refund(request) {
      const stripe = await stripeClient();
      // A Checkout Session is refunded through its PaymentIntent (Stripe's /v1/refunds takes payment_intent).
      const session = await stripe.checkout.sessions.retrieve(request.paymentReference);
      const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
      if (!paymentIntent) throw new Error(`Checkout Session ${request.paymentReference} has no payment_intent to refund`);
      const refund = await stripe.refunds.create(
        { payment_intent: paymentIntent, amount: request.amountMinor, metadata: { refund: request.refundId } },
        { idempotencyKey: `svc-refund-${request.refundId}` },
      );
      if (refund.status === 'failed' || refund.status === 'canceled') throw new Error(`Stripe refund ${refund.id} is ${refund.status}`);
      return { reference: refund.id, status: refund.status === 'succeeded' ? 'succeeded' : 'pending' };
    },

    async verifyWebhook({ body, headers, receivedAt }): Promise<WebhookResult> {
      const signature = headers.get('stripe-signature');
      if (!signature) throw validation('stripe-signature header is missing: this endpoint accepts only webhooks signed by Stripe');
      const stripe = await stripeClient();
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(body, signature, options.webhookSecret, SIGNATURE_TOLERANCE_SECONDS, undefined, receivedAt);
      } catch (error) {
        const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
        throw validation(`stripe-signature does not verify (${reason}): check that STRIPE_WEBHOOK_SECRET is this endpoint's signing secret`);
      }
      // What the session says was taken: amount_total is after discounts (a promotion code), so it can be less than asked.
      const paid = (session: Stripe.Checkout.Session): WebhookResult => ({
        event: {
          outcome: 'paid',
          reference: session.id,
          ...(typeof session.amount_total === 'number' && typeof session.currency === 'string'
            ? { paid: { amountMinor: session.amount_total, currency: session.currency.toUpperCase() } }
            : {}),
        } satisfies PaymentEvent,
      });
      switch (event.type) {
        case 'checkout.session.completed': {
          const session = event.data.object;
          // no_payment_required: a promotion code took the whole sum off (Stripe's no-cost orders): settled, 0 taken.
          if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') return paid(session);
          return { ignored: `checkout.session.completed of ${session.id} with payment_status ${session.payment_status}: waiting for the async payment events` };
        }
        case 'checkout.session.async_payment_succeeded':
          return paid(event.data.object);
        case 'checkout.session.async_payment_failed':
          return { event: { outcome: 'failed', reference: event.data.object.id } };
        case 'checkout.session.expired':
          return { event: { outcome: 'expired', reference: event.data.object.id } };
        default:
          return { ignored: `event type ${event.type} is not used by svc` };
      }
    },
  };
}
