import type { Config } from '../../src/platform/config.ts';
import type { PaymentProvider } from '../../src/ports/payments.ts';
import { molliePayments } from './mollie/index.ts';
import { stripePayments, type StripeApiAddress } from './stripe/index.ts';
import { testPayments } from './test/index.ts';

/** SVC_PAYMENTS=none: no payment is collected online; a booking with a sum due is not held for payment. */
export function nonePayments(): PaymentProvider {
  return {
    name: 'none',
    holdMinutes: { min: 1, max: 1440 },
    createCheckout: () => Promise.reject(new Error('no payment provider is configured (SVC_PAYMENTS=none)')),
  };
}

/**
 * The payment provider SVC_PAYMENTS names (docs/contract/payments.md). `stripeApi` points the Stripe client somewhere
 * other than api.stripe.com (tests: a local fake); the environment has no setting for it.
 */
export function openPayments(
  config: Pick<
    Config,
    'SVC_PAYMENTS' | 'SVC_PUBLIC_URL' | 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'SVC_STRIPE_PROMOTION_CODES' | 'MOLLIE_API_KEY' | 'MOLLIE_API_URL'
  >,
  options: { stripeApi?: StripeApiAddress } = {},
): PaymentProvider {
  switch (config.SVC_PAYMENTS) {
    case 'none':
      return nonePayments();
    case 'test':
      return testPayments({ publicUrl: config.SVC_PUBLIC_URL });
    case 'stripe':
      // parseConfig refuses SVC_PAYMENTS=stripe without both secrets.
      if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) throw new Error('SVC_PAYMENTS=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
      return stripePayments({
        secretKey: config.STRIPE_SECRET_KEY,
        webhookSecret: config.STRIPE_WEBHOOK_SECRET,
        publicUrl: config.SVC_PUBLIC_URL,
        promotionCodes: config.SVC_STRIPE_PROMOTION_CODES,
        api: options.stripeApi,
      });
    case 'mollie':
      // parseConfig refuses SVC_PAYMENTS=mollie without MOLLIE_API_KEY.
      if (!config.MOLLIE_API_KEY) throw new Error('SVC_PAYMENTS=mollie needs MOLLIE_API_KEY');
      return molliePayments({ apiKey: config.MOLLIE_API_KEY, publicUrl: config.SVC_PUBLIC_URL, apiUrl: config.MOLLIE_API_URL });
  }
}
