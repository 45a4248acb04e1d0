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

export interface FakeStripe {
  port: number;
  requests: StripeRequest[];
  /** how the next requests are answered; default: a new open Checkout Session `cs_test_<n>` */
  reply(fn: StripeReply): void;
  /** a provider talking to this fake, no retries */
  provider(options?: { publicUrl?: string }): PaymentProvider;
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

const openSession: StripeReply = (_request, index) => Response.json(sessionJson(`cs_test_${index + 1}`));

/** A local stand-in for the Checkout Sessions API on 127.0.0.1 that records what the SDK sends. */
export function startFakeStripe(): FakeStripe {
  const requests: StripeRequest[] = [];
  let reply: StripeReply = openSession;
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
    reply(fn) {
      reply = fn;
    },
    provider: (options = {}) =>
      stripePayments({
        secretKey: SECRET_KEY,
        webhookSecret: WEBHOOK_SECRET,
        publicUrl: options.publicUrl ?? 'http://localhost:8080',
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
