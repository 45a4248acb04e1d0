import type { Server } from 'bun';
import type { TestApp } from '../support/app.ts';

/** The API key the Mollie tests configure (MOLLIE_API_KEY). */
export const MOLLIE_KEY = 'test_svc0123456789abcdefghijklmnop';

interface Amount {
  currency: string;
  value: string;
}

/** One request the stand-in received. */
export interface MollieRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: any;
}

export type MollieStatus = 'open' | 'pending' | 'authorized' | 'paid' | 'failed' | 'expired' | 'canceled';

export interface MollieStandIn {
  /** MOLLIE_API_URL pointing here */
  url: string;
  requests: MollieRequest[];
  payments: Map<string, any>;
  refunds: any[];
  /** moves a payment to `status`, as the customer or the bank would on Mollie's side */
  settle(id: string, status: MollieStatus): void;
  stop(): Promise<void>;
}

/**
 * A local stand-in for the Mollie API v2 (docs.mollie.com/reference/create-payment, get-payment, update-payment,
 * create-refund): the Bearer key is checked, every body is JSON as the client sends it, answers are
 * `application/hal+json` in Mollie's documented shapes, errors are Mollie's problem objects
 * (`{ status, title, detail, _links }`), and a repeated Idempotency-Key gets the first answer again.
 */
export function startMollie(): MollieStandIn {
  const requests: MollieRequest[] = [];
  const payments = new Map<string, any>();
  const refunds: any[] = [];
  const replies = new Map<string, { status: number; body: unknown }>();
  let count = 0;
  let base = '';

  const hal = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/hal+json' } });
  const problem = (status: number, title: string, detail: string, field?: string) =>
    hal(
      {
        status,
        title,
        detail,
        ...(field ? { field } : {}),
        _links: { documentation: { href: 'https://docs.mollie.com/overview/handling-errors', type: 'text/html' } },
      },
      status,
    );
  const minor = (amount: Amount) => Math.round(Number(amount.value) * 100);
  const amountOf = (cents: number, currency: string): Amount => ({ currency, value: (cents / 100).toFixed(2) });
  const validAmount = (amount: any) => amount && typeof amount.currency === 'string' && /^\d+\.\d{2}$/.test(String(amount.value));

  const createPayment = (body: any) => {
    if (!validAmount(body.amount)) return problem(422, 'Unprocessable Entity', 'The amount is invalid', 'amount');
    if (!body.description) return problem(422, 'Unprocessable Entity', 'The description is invalid', 'description');
    if (!body.redirectUrl) return problem(422, 'Unprocessable Entity', 'The redirect URL is invalid', 'redirectUrl');
    count++;
    const token = `svcTest${count}`;
    const id = `tr_${token}`;
    const payment = {
      resource: 'payment',
      id,
      mode: 'test',
      createdAt: new Date().toISOString(),
      amount: body.amount,
      description: body.description,
      method: null,
      metadata: body.metadata ?? null,
      status: 'open',
      isCancelable: false,
      expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
      profileId: 'pfl_QkEhN94Ba',
      sequenceType: 'oneoff',
      redirectUrl: body.redirectUrl,
      webhookUrl: body.webhookUrl ?? null,
      _links: {
        self: { href: `${base}/v2/payments/${id}`, type: 'application/hal+json' },
        checkout: { href: `https://www.mollie.com/checkout/select-method/${token}`, type: 'text/html' },
        dashboard: { href: `https://www.mollie.com/dashboard/org_12345678/payments/${id}`, type: 'text/html' },
        documentation: { href: 'https://docs.mollie.com/reference/create-payment', type: 'text/html' },
      },
    };
    payments.set(id, payment);
    return hal(payment, 201);
  };

  const refund = (payment: any, body: any) => {
    if (payment.status !== 'paid') return problem(422, 'Unprocessable Entity', 'The payment is not refundable');
    if (!validAmount(body.amount) || body.amount.currency !== payment.amount.currency)
      return problem(422, 'Unprocessable Entity', 'The amount is invalid', 'amount');
    const refunded = minor(payment.amountRefunded ?? { value: '0.00' });
    if (refunded + minor(body.amount) > minor(payment.amount)) {
      return problem(422, 'Unprocessable Entity', 'The amount is higher than the remaining amount', 'amount');
    }
    payment.amountRefunded = amountOf(refunded + minor(body.amount), payment.amount.currency);
    payment.amountRemaining = amountOf(minor(payment.amount) - refunded - minor(body.amount), payment.amount.currency);
    const created = {
      resource: 'refund',
      id: `re_svcTest${refunds.length + 1}`,
      amount: body.amount,
      status: 'pending',
      createdAt: new Date().toISOString(),
      description: body.description ?? '',
      metadata: body.metadata ?? null,
      paymentId: payment.id,
      _links: {
        self: { href: `${base}/v2/payments/${payment.id}/refunds/re_svcTest${refunds.length + 1}`, type: 'application/hal+json' },
        payment: { href: `${base}/v2/payments/${payment.id}`, type: 'application/hal+json' },
        documentation: { href: 'https://docs.mollie.com/reference/create-refund', type: 'text/html' },
      },
    };
    refunds.push(created);
    return hal(created, 201);
  };

  const server: Server<undefined> = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const text = await request.text();
      const recorded: MollieRequest = { method: request.method, path, headers: Object.fromEntries(request.headers), body: text ? JSON.parse(text) : null };
      requests.push(recorded);
      if (request.headers.get('authorization') !== `Bearer ${MOLLIE_KEY}`) {
        return problem(401, 'Unauthorized Request', 'Missing authentication, or failed to authenticate');
      }
      const key = request.headers.get('idempotency-key');
      const replayed = key && replies.get(`${request.method} ${path} ${key}`);
      if (replayed) return hal(replayed.body, replayed.status);
      const answer = route(request.method, path, recorded.body);
      if (key && answer.status < 500) replies.set(`${request.method} ${path} ${key}`, { status: answer.status, body: await answer.clone().json() });
      return answer;
    },
  });

  function route(method: string, path: string, body: any): Response {
    if (method === 'POST' && path === '/v2/payments') return createPayment(body);
    const match = /^\/v2\/payments\/([^/]+)(\/refunds)?$/.exec(path);
    if (!match) return problem(404, 'Not Found', 'The resource does not exist');
    const payment = payments.get(match[1]!);
    if (!payment) return problem(404, 'Not Found', `No payment exists with token ${match[1]}.`);
    if (match[2] && method === 'POST') return refund(payment, body);
    if (!match[2] && method === 'GET') return hal(payment);
    if (!match[2] && method === 'PATCH') {
      for (const field of ['redirectUrl', 'cancelUrl', 'webhookUrl', 'description', 'metadata']) if (field in body) payment[field] = body[field];
      return hal(payment);
    }
    return problem(405, 'Method Not Allowed', `The method ${method} is not allowed here`);
  }

  base = `http://127.0.0.1:${server.port}`;
  return {
    url: `${base}/v2/`,
    requests,
    payments,
    refunds,
    settle(id, status) {
      const payment = payments.get(id);
      if (!payment) throw new Error(`no payment ${id} at the stand-in`);
      payment.status = status;
      if (status === 'paid') {
        payment.paidAt = new Date().toISOString();
        payment.method = 'ideal';
        payment.amountRefunded = amountOf(0, payment.amount.currency);
        payment.amountRemaining = payment.amount;
      }
      if (status !== 'open') delete payment._links.checkout;
    },
    stop: () => server.stop(true),
  };
}

/** Calls svc's Mollie webhook as Mollie does: form-encoded `id=tr_…`, no signature. */
export function mollieWebhook(app: TestApp, id: string) {
  return app.request('POST', '/api/payments/mollie/webhook', {
    rawBody: new URLSearchParams({ id }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mollie.com HTTP Webhooks' },
  });
}
