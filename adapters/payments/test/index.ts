import type { PaymentProvider } from '../../../src/ports/payments.ts';
import { randomToken, sha256Hex } from '../../../src/core/secrets.ts';

export interface TestPaymentsOptions {
  /** SVC_PUBLIC_URL without a trailing slash: the checkout page is `{publicUrl}/checkout/{id}` */
  publicUrl: string;
}

/** Random bytes of a checkout id: 192 bits, so an id cannot be guessed (it is the key to Pay and Cancel). */
const CHECKOUT_ID_BYTES = 24;

/**
 * SVC_PAYMENTS=test: a checkout is a page svc serves itself at `{app_url}/checkout/{id}` (src/features/payments/routes.ts)
 * with Pay and Cancel buttons; no money moves. For trials, demos and tests. The id is random, never the booking
 * id; everything else about the checkout is the payment record in storage, so any instance serves the page.
 * The id is the capability to pay or cancel, so the reference stored for it is its SHA-256, as for every token.
 * The page's buttons produce the payment events directly, so there is no webhook to verify.
 */
export function testPayments(options: TestPaymentsOptions): PaymentProvider {
  return {
    name: 'test',
    holdMinutes: { min: 1, max: 1440 },
    async createCheckout() {
      const checkoutId = randomToken('chk_', CHECKOUT_ID_BYTES);
      return { reference: sha256Hex(checkoutId), url: `${options.publicUrl}/checkout/${checkoutId}` };
    },
    checkoutReference: (checkoutId) => sha256Hex(checkoutId),
    // No money moves: the refund is recorded by svc (the refunds table) and succeeds at once.
    async refund({ refundId }) {
      return { reference: `re_test_${refundId.slice('rf_'.length)}`, status: 'succeeded' };
    },
  };
}
