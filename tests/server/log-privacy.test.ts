import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SMTPServer } from 'smtp-server';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { startServe, type ServeProcess } from '../support/process.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';
import { waitFor } from '../support/wait.ts';
import { startReceiver, type Receiver } from '../webhooks/support.ts';
import { slotAt } from './ops-support.ts';

/*
 * No email address, name, phone or token in any log line (docs/contract/operations.md §10): a day of svc through a
 * real `svc serve` at LOG_LEVEL=debug (bookings with customer data, mails sent and refused, webhooks, the
 * manage page, a checkout, a calendar feed, the panel signed in to standalone and embedded, failed sign-ins and
 * wrong keys), then the whole log, stdout and stderr, is searched for every one of those values.
 */

const SHOP = 'https://shop.example.com';
const CUSTOMERS = [
  { name: 'Zebulon Quixley', email: 'zebulon.quixley@example.org', phone: '+49 170 5550123', notes: 'Allergic to lavender oil, says Zebulon' },
  { name: 'Marisol Okonkwo-Brandt', email: 'marisol.ob@example.net', phone: '(0)30 8881 4477', notes: 'Second floor, ring twice' },
];
/** Refused by the mail server with its address in the reply, as real servers answer an unknown mailbox. */
const REFUSED = { name: 'Ignatius Pellworm', email: 'ignatius.pellworm@example.com', phone: '0711 2345 678' };

interface Answer {
  status: number;
  body: any;
}

describe('svc serve writes no personal data and no token into its log', () => {
  let db: TestDatabase;
  let server: ServeProcess;
  let receiver: Receiver;
  const cleanupReceivers: Receiver[] = [];
  let smtp: SMTPServer;
  let delivered = 0;
  let apiKey: string;
  /** every value that must not appear in the log */
  const secrets: string[] = [];

  const request = async (
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: unknown; form?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const response = await fetch(`${server.url}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.status, body: parsed };
  };
  const ok = (answer: Answer, status = 200) => {
    expect({ status: answer.status, body: answer.body }).toMatchObject({ status });
    return answer.body;
  };
  const key = () => ({ 'x-svc-api-key': apiKey });
  const V1 = '/api/v1/workspaces/acme';

  beforeAll(async () => {
    db = await createTestDatabase('libsql');
    receiver = startReceiver();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address === REFUSED.email) {
          callback(Object.assign(new Error(`<${address.address}>: Recipient address rejected: User unknown in virtual mailbox table`), { responseCode: 550 }));
        } else callback();
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => {
          delivered++;
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const smtpPort = (smtp.server.address() as { port: number }).port;
    const created = await createWorkspace({ storage: db.storage, clock: systemClock }, { slug: 'acme', name: 'Acme Studio', timezone: 'Europe/Berlin' });
    apiKey = created.apiKey;
    const svcSecret = 'log-privacy-secret-0123456789abcdefghijklmnop';
    secrets.push(apiKey, svcSecret);
    server = await startServe({
      env: {
        ...db.env,
        LOG_LEVEL: 'debug',
        SVC_DEMO: 'false',
        SVC_SECRET: svcSecret,
        SVC_PAYMENTS: 'test',
        SVC_WEBHOOK_ALLOW_PRIVATE: 'true',
        SVC_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        SVC_MAIL_FROM: 'Acme Studio <bookings@acme.example>',
      },
    });
  });
  afterAll(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await receiver.stop();
    for (const other of cleanupReceivers) await other.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await db.drop();
  });

  test('after bookings, mails, webhooks, manage links, a checkout, a feed, panel sessions and failed sign-ins, no such value is in the log', async () => {
    const hook = ok(
      await request('POST', `${V1}/webhooks`, { headers: key(), body: { url: `${receiver.url}/hooks?token=receiver-query-token-5f2a` } }),
    ).webhook;
    secrets.push(hook.secret, 'receiver-query-token-5f2a');
    // A receiver that answers with a redirect naming a customer: its answer is logged (not followed), the address is not.
    const redirecting = startReceiver({
      reply: () =>
        new Response(null, { status: 302, headers: { location: `https://login.example.com/?user=${CUSTOMERS[0]!.email}&phone=${CUSTOMERS[0]!.phone}` } }),
    });
    cleanupReceivers.push(redirecting);
    ok(await request('POST', `${V1}/webhooks`, { headers: key(), body: { url: redirecting.url } }));
    const provider = ok(await request('POST', `${V1}/providers`, { headers: key(), body: { name: 'Robin Provider' } })).provider;
    const service = ok(
      await request('POST', `${V1}/services`, {
        headers: key(),
        body: { name: 'Free consultation', duration: 30, price: 0, currency: 'EUR', providerIds: [provider.id] },
      }),
    ).service;
    // With SVC_PAYMENTS=test a priced service waits for its payment on the checkout page.
    const paid = ok(
      await request('POST', `${V1}/services`, {
        headers: key(),
        body: { name: 'Paid massage', duration: 30, price: 60, currency: 'EUR', providerIds: [provider.id] },
      }),
    ).service;

    // Bookings with the customer's contact data, through the API key and keyless from an allowed site.
    ok(await request('PUT', `${V1}/domains`, { headers: key(), body: { domains: ['shop.example.com'] } }));
    const bookings = [];
    for (const [index, customer] of CUSTOMERS.entries()) {
      const created = ok(await request('POST', `${V1}/bookings`, { headers: key(), body: { serviceId: service.id, ...customer, date: slotAt(index) } }));
      bookings.push(created);
      secrets.push(customer.name, customer.email, customer.phone, customer.notes, created.manageUrl.split('/manage/')[1]);
    }
    const keyless = ok(
      await request('POST', `${V1}/bookings`, {
        headers: { origin: SHOP },
        body: { serviceId: service.id, name: REFUSED.name, email: REFUSED.email, phone: REFUSED.phone, date: slotAt(5) },
      }),
    );
    secrets.push(REFUSED.name, REFUSED.email, REFUSED.phone, keyless.manageUrl.split('/manage/')[1]);
    // A wrong address in the body: the validation error names the field, the log nothing of the value.
    expect(
      (await request('POST', `${V1}/bookings`, { headers: key(), body: { serviceId: service.id, email: 'not-an-address Zebulon', date: slotAt(6) } })).status,
    ).toBe(400);

    // The customer's manage link: the page, the API, a reschedule and a cancellation.
    const manageToken = bookings[0].manageUrl.split('/manage/')[1];
    expect((await request('GET', `/manage/${manageToken}`)).status).toBe(200);
    ok(await request('GET', `/api/manage/${manageToken}`));
    ok(await request('POST', `/api/manage/${manageToken}/reschedule`, { body: { date: slotAt(7) } }));
    ok(await request('POST', `/api/manage/${bookings[1].manageUrl.split('/manage/')[1]}/cancel`, { body: { reason: 'Zebulon is ill' } }));
    expect((await request('GET', '/manage/a-guessed-token-that-is-wrong-7f1c')).status).toBe(404);
    secrets.push('a-guessed-token-that-is-wrong-7f1c');

    // A booking that waits for its payment: the checkout page is reached by its secret address.
    const pending = ok(
      await request('POST', `${V1}/bookings`, {
        headers: key(),
        body: { serviceId: paid.id, name: 'Payton Zwirner', email: 'payton.zwirner@example.org', phone: '+1 415 555 0199', date: slotAt(8) },
      }),
    );
    secrets.push('Payton Zwirner', 'payton.zwirner@example.org', '+1 415 555 0199');
    const checkoutPath = new URL(pending.checkoutUrl).pathname;
    secrets.push(checkoutPath.split('/')[2]!);
    expect((await request('GET', checkoutPath)).status).toBe(200);

    // The provider's calendar feed.
    const feed = ok(await request('POST', `${V1}/providers/${provider.id}/calendar-feed`, { headers: key() }));
    const feedPath = new URL(feed.url).pathname;
    secrets.push(feedPath.split('/')[2]!.replace(/\.ics$/, ''));
    expect((await request('GET', feedPath)).status).toBe(200);

    // The standalone panel: a sign-in with the API key, a refresh, a read with the session; and failed sign-ins.
    const signedIn = ok(await request('POST', '/api/panel/session', { body: { workspaceSlug: 'acme', apiKey } }), 201);
    secrets.push(signedIn.token);
    const refreshed = ok(await request('POST', '/api/panel/session/refresh', { headers: { authorization: `Bearer ${signedIn.token}` } }), 201);
    secrets.push(refreshed.token);
    ok(await request('GET', `${V1}/bookings`, { headers: { authorization: `Bearer ${refreshed.token}` } }));
    const wrongKey = `svc_live_${'W'.repeat(43)}`;
    secrets.push(wrongKey, 'panel-bearer-guess-3d9e');
    expect((await request('POST', '/api/panel/session', { body: { workspaceSlug: 'acme', apiKey: wrongKey } })).status).toBe(401);
    expect((await request('GET', `${V1}/bookings`, { headers: { 'x-svc-api-key': wrongKey } })).status).toBe(401);
    expect((await request('GET', `${V1}/bookings`, { headers: { authorization: 'Bearer panel-bearer-guess-3d9e' } })).status).toBe(401);

    // The embedded panel: a pairing code links a site, which opens a session for its user.
    const { pairingCode } = ok(await request('POST', `${V1}/pairing-codes`, { headers: key() }));
    secrets.push(pairingCode);
    expect(
      (
        await request('PUT', '/api/integrations/wordpress/panel/origin', {
          headers: { authorization: 'SvcPair WRONG-CODE-9q8w' },
          body: { version: 1, workspaceSlug: 'acme', origin: SHOP },
        })
      ).status,
    ).toBe(401);
    secrets.push('WRONG-CODE-9q8w');
    const linked = ok(
      await request('PUT', '/api/integrations/wordpress/panel/origin', {
        headers: { authorization: `SvcPair ${pairingCode}` },
        body: { version: 1, workspaceSlug: 'acme', origin: SHOP },
      }),
      201,
    );
    secrets.push(linked.hostCredential);
    const boot = ok(
      await request('POST', '/api/integrations/wordpress/panel/bootstrap', {
        headers: { authorization: `SvcHost ${linked.hostCredential}` },
        body: { version: 1, workspaceSlug: 'acme', origin: SHOP, subject: 'wp-user-zebulon', role: 'ADMIN', capabilities: ['svc_manage_operations'] },
      }),
      201,
    );
    secrets.push(boot.code, boot.frameContext, 'wp-user-zebulon');
    const embedded = ok(await request('POST', '/api/panel/session', { body: { code: boot.code, frameContext: boot.frameContext } }), 201);
    secrets.push(embedded.token);
    expect((await request('POST', '/api/panel/session', { body: { code: boot.code, frameContext: boot.frameContext } })).status).toBe(401);

    // A path that is not a route but carries an address.
    expect((await request('GET', `${V1}/customers/${encodeURIComponent(CUSTOMERS[0]!.email)}`, { headers: key() })).status).toBe(404);
    expect((await request('GET', `/no-such-page/${CUSTOMERS[1]!.email}`)).status).toBe(404);

    // Wait for the work in the background: the webhooks delivered, the mails sent or refused.
    await receiver.waitFor(5, 15_000);
    await server.waitForLog((line) => line.msg === 'webhook attempt' && typeof line.error === 'string' && line.error.startsWith('redirects are not followed'));
    await waitFor(() => delivered >= 3, { timeoutMs: 15_000, what: 'confirmation mails to arrive' });
    await server.waitForLog((line) => line.msg === 'mail not sent', 15_000);
    expect(await server.stop()).toBe(0);

    const log = server.stderr();
    expect(log).toContain('"msg":"request"');
    expect(log).toContain('"msg":"webhook attempt"');
    const found = [...new Set(secrets)].flatMap((secret) => {
      const forms = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
      const digits = secret.replace(/\D/g, '');
      // a phone number written any other way
      if (/^[+(\d][\d\s()+-]+$/.test(secret) && digits.length >= 7) forms.push(digits);
      return forms.some((form) => log.includes(form)) ? [secret] : [];
    });
    // every name in parts too: a first or last name alone is as telling
    for (const { name } of [...CUSTOMERS, REFUSED]) for (const part of name.split(' ')) if (log.includes(part)) found.push(part);
    expect(found).toEqual([]);
  }, 90_000);
});
