import type { Server } from 'bun';
import Stripe from 'stripe';
import { stripePayments } from '../../adapters/payments/stripe/index.ts';
import type { PaymentProvider } from '../../src/ports/payments.ts';
import type { PaymentRecord } from '../../src/ports/storage/index.ts';
import type { TestApp } from '../support/app.ts';

/** The webhook signing secret the Stripe tests configure. */
export const WEBHOOK_SECRET = 'whsec_svc_test_0123456789abcdef';
export const SECRET_KEY = 'sk_test_svc_0123456789';

/** One request the fake Stripe API received. */
export interface StripeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** the form-encoded body as sent, pair by pair, in order */
  form: [string, string][];
}

export type StripeReply = (request: StripeRequest, index: number) => Response;

/** A refund the stand-in made, as Stripe's Refund object. */
export interface StripeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  status: 'succeeded';
  metadata: Record<string, string>;
  created: number;
}

export interface FakeStripe {
  port: number;
  requests: StripeRequest[];
  /** every refund made, once each (an idempotent replay adds none) */
  refunds: StripeRefund[];
  /**
   * how the next requests are answered; default: Stripe's own behaviour for the endpoints svc calls:
   * `POST /v1/checkout/sessions` (a new open session `cs_test_<n>`), `GET /v1/checkout/sessions/:id`,
   * `POST /v1/refunds`; with `Idempotency-Key` a repeated POST answers the first answer again
   */
  reply(fn: StripeReply): void;
  /** the default answer (Stripe's behaviour), for a `reply` that changes only some requests */
  stripe: StripeReply;
  /**
   * the customer pays a session: it becomes complete and paid, with PaymentIntent `pi_test_<n>`. With
   * `promotionCode`, the customer entered that code at Checkout first: as Stripe's Checkout Session object says
   * it, `amount_subtotal` stays what was asked, `total_details.amount_discount` is what the code took off,
   * `amount_total` what was paid, `discounts` names the code; a code taking all of it leaves `payment_status`
   * `no_payment_required` and no PaymentIntent (Stripe's no-cost orders). Returns the session as it now is.
   */
  pay(sessionId: string, options?: { promotionCode?: { amountOff: number } }): Record<string, unknown>;
  /** a session as Stripe has it now (for the webhook events that carry it) */
  session(sessionId: string): Record<string, unknown>;
  /** a provider talking to this fake, no retries */
  provider(options?: { publicUrl?: string; promotionCodes?: boolean }): PaymentProvider;
  stop(): Promise<void>;
}

/** A Checkout Session as the Stripe API returns it (the fields svc reads, and a few more). */
export function sessionJson(id: string, fields: Record<string, unknown> = {}) {
  return {
    id,
    object: 'checkout.session',
    url: `https://checkout.stripe.com/c/pay/${id}`,
    status: 'open',
    payment_status: 'unpaid',
    mode: 'payment',
    livemode: false,
    ...fields,
  };
}

interface Answer {
  status: number;
  body: unknown;
}
const ok = (body: unknown): Answer => ({ status: 200, body });
const invalid = (status: number, message: string, fields: Record<string, string> = {}): Answer => ({
  status,
  body: { error: { type: 'invalid_request_error', ...fields, message } },
});
/** Stripe's error for an id it does not know (https://docs.stripe.com/error-codes#resource-missing). */
const missing = (what: string, id: string, param: string) => invalid(404, `No such ${what}: '${id}'`, { code: 'resource_missing', param });

/**
 * Stripe's API as documented for what svc calls: Checkout Sessions (create, retrieve) and Refunds (create,
 * https://docs.stripe.com/api/refunds/create): `payment_intent` names the payment, `amount` in minor units
 * defaults to what is left, and more than is left is refused with 400 `amount_too_large`. A POST with an
 * `Idempotency-Key` seen before answers the first answer again (header `Idempotent-Replayed: true`), and with
 * other parameters 400 `idempotency_error` (https://docs.stripe.com/api/idempotent_requests).
 */
function stripeModel() {
  const sessions = new Map<string, Record<string, unknown>>();
  const refunds: StripeRefund[] = [];
  const answered = new Map<string, { form: string; answer: Answer }>();
  let intents = 0;
  let promotions = 0;
  const handle = (request: StripeRequest): Answer => {
    const form = Object.fromEntries(request.form);
    if (request.method === 'POST' && request.path === '/v1/checkout/sessions') {
      const id = `cs_test_${sessions.size + 1}`;
      const amount = Number(form['line_items[0][price_data][unit_amount]']);
      const session = sessionJson(id, {
        payment_intent: null,
        amount_subtotal: amount,
        amount_total: amount,
        total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
        discounts: [],
        allow_promotion_codes: form['allow_promotion_codes'] === 'true' ? true : null,
        currency: form['line_items[0][price_data][currency]'],
        client_reference_id: form['client_reference_id'] ?? null,
        metadata: Object.fromEntries(
          Object.entries(form)
            .filter(([key]) => key.startsWith('metadata['))
            .map(([key, value]) => [key.slice('metadata['.length, -1), value]),
        ),
      });
      sessions.set(id, session);
      return ok(session);
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && retrieve) {
      const id = decodeURIComponent(retrieve[1]!);
      const session = sessions.get(id);
      return session ? ok(session) : missing('checkout.session', id, 'session');
    }
    if (request.method === 'POST' && request.path === '/v1/refunds') {
      const intent = form['payment_intent'];
      const session = [...sessions.values()].find((one) => one.payment_intent === intent);
      if (!intent || !session) return missing('payment_intent', intent ?? '', 'payment_intent');
      const refunded = refunds.filter((one) => one.payment_intent === intent).reduce((sum, one) => sum + one.amount, 0);
      const left = (session.amount_total as number) - refunded;
      const amount = form['amount'] === undefined ? left : Number(form['amount']);
      if (!Number.isInteger(amount) || amount <= 0) return invalid(400, `Invalid positive integer`, { param: 'amount' });
      if (amount > left) {
        return invalid(400, `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, { code: 'amount_too_large', param: 'amount' });
      }
      const metadata = Object.fromEntries(
        Object.entries(form)
          .filter(([key]) => key.startsWith('metadata['))
          .map(([key, value]) => [key.slice('metadata['.length, -1), value]),
      );
      const refund: StripeRefund = {
        id: `re_test_${refunds.length + 1}`,
        object: 'refund',
        amount,
        currency: session.currency as string,
        payment_intent: intent,
        status: 'succeeded',
        metadata,
        created: Math.floor(Date.now() / 1000),
      };
      refunds.push(refund);
      return ok(refund);
    }
    return invalid(404, `Unrecognized request URL (${request.method}: ${request.path}).`);
  };
  const reply: StripeReply = (request) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || !key) {
      const { status, body } = handle(request);
      return Response.json(body, { status });
    }
    const form = new URLSearchParams(request.form).toString();
    const earlier = answered.get(key);
    if (earlier) {
      if (earlier.form !== form) {
        const { status, body } = invalid(400, 'Keys for idempotent requests can only be used with the same parameters they were first used with.');
        return Response.json({ error: { ...(body as { error: object }).error, type: 'idempotency_error' } }, { status });
      }
      return Response.json(earlier.answer.body, { status: earlier.answer.status, headers: { 'idempotent-replayed': 'true' } });
    }
    // Stripe keeps the first answer to a key, a success or a 4xx alike
    const answer = handle(request);
    answered.set(key, { form, answer });
    return Response.json(answer.body, { status: answer.status });
  };
  return {
    reply,
    refunds,
    pay(sessionId: string, options: { promotionCode?: { amountOff: number } } = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId} in the stand-in`);
      const code = options.promotionCode;
      if (code) {
        if (!session.allow_promotion_codes) throw new Error(`session ${sessionId} was opened without allow_promotion_codes: Checkout offers no code field`);
        const subtotal = session.amount_subtotal as number;
        const discount = Math.min(code.amountOff, subtotal);
        promotions++;
        Object.assign(session, {
          amount_total: subtotal - discount,
          total_details: { amount_discount: discount, amount_shipping: 0, amount_tax: 0 },
          discounts: [{ coupon: null, promotion_code: `promo_test_${promotions}` }],
        });
      }
      const free = session.amount_total === 0;
      Object.assign(session, {
        status: 'complete',
        payment_status: free ? 'no_payment_required' : 'paid',
        payment_intent: free ? null : `pi_test_${++intents}`,
      });
      return structuredClone(session);
    },
    session(sessionId: string) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId} in the stand-in`);
      return structuredClone(session);
    },
  };
}

/** A local stand-in for the Stripe API on 127.0.0.1 that records what the SDK sends (see stripeModel). */
export function startFakeStripe(): FakeStripe {
  const requests: StripeRequest[] = [];
  const model = stripeModel();
  let reply: StripeReply = model.reply;
  const server: Server<undefined> = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const recorded: StripeRequest = {
        method: request.method,
        path: new URL(request.url).pathname,
        headers: Object.fromEntries(request.headers),
        form: [...new URLSearchParams(await request.text())],
      };
      requests.push(recorded);
      return reply(recorded, requests.length - 1);
    },
  });
  const port = server.port!;
  return {
    port,
    requests,
    refunds: model.refunds,
    stripe: model.reply,
    pay: model.pay,
    session: model.session,
    reply(fn) {
      reply = fn;
    },
    provider: (options = {}) =>
      stripePayments({
        secretKey: SECRET_KEY,
        webhookSecret: WEBHOOK_SECRET,
        publicUrl: options.publicUrl ?? 'http://localhost:8080',
        promotionCodes: options.promotionCodes,
        api: { host: '127.0.0.1', port, protocol: 'http' },
        maxNetworkRetries: 0,
      }),
    stop: () => server.stop(true),
  };
}

/** A Stripe error answer, as the API sends it. */
export function stripeError(status: number, message: string, type = 'invalid_request_error') {
  return Response.json({ error: { type, message } }, { status });
}

let eventCount = 0;

/**
 * A Stripe webhook delivery: the event JSON and its `Stripe-Signature`, signed with the SDK's own
 * generateTestHeaderStringAsync at `at` (epoch ms, the app's clock).
 */
export async function stripeDelivery(type: string, session: Record<string, unknown>, at: number, secret = WEBHOOK_SECRET) {
  eventCount++;
  const body = JSON.stringify(
    {
      id: `evt_test_${eventCount}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(at / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: session },
    },
    null,
    2,
  );
  const stripe = new Stripe(SECRET_KEY);
  const signature = await stripe.webhooks.generateTestHeaderStringAsync({ payload: body, secret, timestamp: Math.floor(at / 1000) });
  return { body, signature };
}

/** POSTs a delivery to the app's Stripe webhook route, raw, as Stripe does. */
export function deliver(app: TestApp, delivery: { body: string; signature?: string | null }) {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' };
  if (delivery.signature) headers['stripe-signature'] = delivery.signature;
  return app.request('POST', '/api/payments/stripe/webhook', { rawBody: delivery.body, headers });
}

/** The payments of a booking, as stored. */
export function paymentsOf(app: TestApp, bookingId: string): Promise<PaymentRecord[]> {
  return app.deps.storage.listPayments(bookingId);
}

/** The `<main>` element of a page: everything a customer reads, for whole-content assertions. */
export function mainOf(html: string): string {
  const match = /<main>\n([\s\S]*)\n<\/main>/.exec(html);
  if (!match) throw new Error(`no <main> in:\n${html}`);
  return match[1]!;
}

/** The checkout id of a test checkout URL. */
export function checkoutId(checkoutUrl: string): string {
  return new URL(checkoutUrl).pathname.split('/')[2]!;
}
