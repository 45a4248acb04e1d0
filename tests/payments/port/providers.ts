import { expect } from 'bun:test';
import { sha256Hex } from '../../../src/core/secrets.ts';
import type { PaymentProviderName } from '../../../src/ports/payments.ts';
import { createTestApp, type TestApp, type TestResponse } from '../../support/app.ts';
import type { AdapterName } from '../../support/storage.ts';
import { MOLLIE_KEY, mollieWebhook, startMollie } from '../mollie-support.ts';
import { checkoutId, deliver, startFakeStripe, stripeDelivery } from '../support.ts';

/*
 * The three payment providers as the shared port suite (tests/payments/port.test.ts) drives them: each opens svc
 * with its provider configured and pays a checkout through that provider's own path (svc's checkout page; a
 * signed Stripe event; Mollie's unsigned callback, after which svc fetches the payment back). The suite then
 * holds all three to the same guarantees of src/ports/payments.ts.
 */

/** A refund as the provider has it. */
export interface ProviderRefund {
  /** the provider's id of the refund, which svc records */
  reference: string;
  amountMinor: number;
}

/** One app with one provider, for one test. */
export interface ProviderRun {
  app: TestApp;
  /** the sum and currency the provider was asked to collect for a checkout, as the provider itself has them */
  asked(reference: string, checkoutUrl: string): Promise<{ amountMinor: number; currency: string }>;
  /**
   * The customer pays the checkout and svc learns it the provider's way. Returns svc's answer and `replay`,
   * which sends svc that same news again (the same Pay, the same signed event, the same callback).
   */
  pay(reference: string, checkoutUrl: string): Promise<{ answer: TestResponse; replay: () => Promise<TestResponse> }>;
  /** what svc answers to the paid news the first time, and to a replay */
  paidAnswer(checkoutUrl: string): { status: number; body?: unknown; location?: string };
  replayAnswer(checkoutUrl: string): { status: number; body?: unknown; location?: string };
  /** every refund the provider made for this booking's payment, in order, once each */
  refunds(bookingId: string): Promise<ProviderRefund[]>;
  /** takes the provider off the network (its API stops answering); null where the provider runs inside svc */
  down: (() => Promise<void>) | null;
  close(): Promise<void>;
}

export interface ProviderHarness {
  name: Exclude<PaymentProviderName, 'none'>;
  /** the shape of a checkout's `reference` and of its customer-facing URL */
  reference: RegExp;
  checkoutUrl: RegExp;
  /** the shape of the provider's refund ids */
  refundReference: RegExp;
  /** how the provider answers a refund it took: at once (`succeeded`) or later (`pending`) */
  refundStatus: 'succeeded' | 'pending';
  open(adapter: AdapterName): Promise<ProviderRun>;
}

const webhookOk = (result: string) => ({ status: 200, body: { success: true, result } });

/** SVC_PAYMENTS=test: svc's own checkout page; Pay is the news. No money moves, so there is no provider to lose. */
const testProvider: ProviderHarness = {
  name: 'test',
  reference: /^[0-9a-f]{64}$/,
  checkoutUrl: /^http:\/\/localhost:8080\/checkout\/chk_[A-Za-z0-9_-]{32}$/,
  refundReference: /^re_test_/,
  refundStatus: 'succeeded',
  async open(adapter) {
    const app = await createTestApp(adapter, { payments: 'test' });
    const pay = (checkoutUrl: string) => app.request('POST', `/checkout/${checkoutId(checkoutUrl)}/pay`);
    return {
      app,
      async asked(reference, checkoutUrl) {
        expect(sha256Hex(checkoutId(checkoutUrl))).toBe(reference);
        // the page is the provider: the sum it shows is the sum Pay takes
        const page = (await app.request('GET', new URL(checkoutUrl).pathname)).body as string;
        const shown = /<dt>Amount<\/dt><dd>€(\d+\.\d{2})<\/dd>/.exec(page);
        expect(shown).not.toBeNull();
        return { amountMinor: Math.round(Number(shown![1]) * 100), currency: 'EUR' };
      },
      async pay(_reference, checkoutUrl) {
        return { answer: await pay(checkoutUrl), replay: () => pay(checkoutUrl) };
      },
      paidAnswer: (checkoutUrl) => ({ status: 303, location: `/checkout/${checkoutId(checkoutUrl)}/done` }),
      replayAnswer: (checkoutUrl) => ({ status: 303, location: `/checkout/${checkoutId(checkoutUrl)}/done` }),
      // no money moves: the refunds it gave are svc's own records of it
      refunds: async (bookingId) =>
        (await app.deps.storage.listRefunds(bookingId))
          .filter((refund) => refund.status === 'succeeded')
          .map((refund) => ({ reference: refund.reference!, amountMinor: refund.amountMinor })),
      down: null,
      close: () => app.close(),
    };
  },
};

/** SVC_PAYMENTS=stripe: the official SDK against the Stripe stand-in; the news is a signed checkout.session.completed. */
const stripeProvider: ProviderHarness = {
  name: 'stripe',
  reference: /^cs_test_\d+$/,
  checkoutUrl: /^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\d+$/,
  refundReference: /^re_test_\d+$/,
  refundStatus: 'succeeded',
  async open(adapter) {
    const stripe = startFakeStripe();
    const app = await createTestApp(adapter, { payments: stripe.provider() });
    let stopped = false;
    return {
      app,
      async asked(reference) {
        const session = stripe.session(reference);
        return { amountMinor: session.amount_total as number, currency: String(session.currency).toUpperCase() };
      },
      async pay(reference) {
        const delivery = await stripeDelivery('checkout.session.completed', stripe.pay(reference), app.clock.now());
        return { answer: await deliver(app, delivery), replay: () => deliver(app, delivery) };
      },
      paidAnswer: () => webhookOk('confirmed'),
      replayAnswer: () => webhookOk('unchanged'),
      refunds: async () => stripe.refunds.map((refund) => ({ reference: refund.id, amountMinor: refund.amount })),
      async down() {
        stopped = true;
        await stripe.stop();
      },
      async close() {
        await app.close();
        if (!stopped) await stripe.stop();
      },
    };
  },
};

/** SVC_PAYMENTS=mollie, configured as an operator would (MOLLIE_API_KEY, MOLLIE_API_URL at the Mollie stand-in). */
const mollieProvider: ProviderHarness = {
  name: 'mollie',
  reference: /^tr_svcTest\d+$/,
  checkoutUrl: /^https:\/\/www\.mollie\.com\/checkout\/select-method\/svcTest\d+$/,
  refundReference: /^re_svcTest\d+$/,
  refundStatus: 'pending',
  async open(adapter) {
    const mollie = startMollie();
    const app = await createTestApp(adapter, {
      config: { SVC_PAYMENTS: 'mollie', MOLLIE_API_KEY: MOLLIE_KEY, MOLLIE_API_URL: mollie.url, SVC_PUBLIC_URL: 'http://localhost:8080' },
    });
    let stopped = false;
    return {
      app,
      async asked(reference) {
        const { amount } = mollie.payments.get(reference);
        return { amountMinor: Math.round(Number(amount.value) * 100), currency: amount.currency };
      },
      async pay(reference) {
        mollie.settle(reference, 'paid');
        return { answer: await mollieWebhook(app, reference), replay: () => mollieWebhook(app, reference) };
      },
      paidAnswer: () => webhookOk('confirmed'),
      replayAnswer: () => webhookOk('unchanged'),
      refunds: async () => mollie.refunds.map((refund) => ({ reference: refund.id, amountMinor: Math.round(Number(refund.amount.value) * 100) })),
      async down() {
        stopped = true;
        await mollie.stop();
      },
      async close() {
        await app.close();
        if (!stopped) await mollie.stop();
      },
    };
  },
};

export const PROVIDERS: readonly ProviderHarness[] = [testProvider, stripeProvider, mollieProvider];
