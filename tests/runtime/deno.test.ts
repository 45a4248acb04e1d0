import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import net from 'node:net';
import { connects, quietConnections, rawRequest, postAfterContinue } from '../http/raw-http.ts';
import { fuzzTheWire } from '../http/wire-fuzz.ts';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { CHILD_CWD, denoMissing, freePort, runCli, startServe, type ServeProcess } from '../support/process.ts';
import { ADAPTERS, createTestDatabase, POSTGRES_URL, type TestDatabase } from '../support/storage.ts';
import { waitFor } from '../support/wait.ts';
import { startTestSmtp, type TestSmtp } from '../mail/smtp.ts';
import { startReceiver, verify, workdayAt, type Receiver } from '../webhooks/support.ts';

/*
 * svc on Deno (docs/contract/operations.md): `deno run -A src/main.ts serve` on libSQL and on Postgres, driven over real
 * HTTP through every route family, the webhook delivery loop (a retry after a failed attempt), the mail loop
 * (SMTP), the built-in test checkout, the manage link, a calendar feed, the widget, the hosted booking page and
 * the panel, the croner jobs, and a graceful SIGTERM; the commands (`workspace create --json`, `apikey create`,
 * `migrate`) through `deno run` too. The tests in a block run in order on one server and build on each other.
 * Every other process-level test runs on Deno as well with SVC_TEST_RUNTIME=deno (tests/support/process.ts).
 */

const missing = denoMissing();
if (missing) console.log(`the Deno tests are skipped: ${missing}`);

const MINUTE = 60_000;

/** The local calendar day (Europe/Berlin) of an RFC 3339 instant, YYYY-MM-DD. */
const berlinDay = (instant: string) => Temporal.Instant.from(instant).toZonedDateTimeISO('Europe/Berlin').toPlainDate().toString();

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

for (const adapter of ADAPTERS) {
  const skip = missing !== null || (adapter === 'postgres' && !POSTGRES_URL);
  (skip ? describe.skip : describe)(`svc on Deno [${adapter}]`, () => {
    let db: TestDatabase;
    let receiver: Receiver;
    let smtp: TestSmtp;
    let server: ServeProcess;
    let apiKey = '';
    let workspaceId = '';
    // what the tests create, kept by the first test that does (ids as strings: Bun's toMatchObject may write its
    // matchers into the object it checks)
    let webhook: { id: string; secret: string };
    const provider = { id: '' };
    const free = { id: '' };
    const paid = { id: '' };
    const booking = { id: '' };
    /** the paid booking, and its customer's manage link */
    const paidBooking = { id: '', manageUrl: '' };
    /** a weekday two or more days ahead, 10:00 in Berlin, and its day */
    const start = workdayAt(Date.now(), '10:00');
    const day = berlinDay(start);

    async function call(method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          ...(options.key ? { 'x-svc-api-key': options.key } : {}),
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        redirect: 'manual',
      });
      const text = await response.text();
      const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
      return { status: response.status, headers: response.headers, body: json ? JSON.parse(text) : text };
    }
    const v1 = (method: string, path: string, body?: unknown) => call(method, `/api/v1/workspaces/acme${path}`, { key: apiKey, body });
    const deno = (args: string[]) => runCli(args, db.env, CHILD_CWD, 'deno');

    beforeAll(async () => {
      db = await createTestDatabase(adapter);
      // the first request the receiver gets fails, so that the first message is retried
      receiver = startReceiver({ reply: (_receipt, index) => (index === 0 ? new Response('not yet', { status: 500 }) : new Response('ok')) });
      smtp = await startTestSmtp();
      const port = freePort();
      server = await startServe({
        runtime: 'deno',
        port,
        // the first start of Deno on a machine compiles the sources
        timeoutMs: 25_000,
        env: {
          ...db.env,
          LOG_LEVEL: 'debug',
          SVC_PUBLIC_URL: `http://127.0.0.1:${port}`,
          SVC_PAYMENTS: 'test',
          SVC_WEBHOOK_ALLOW_PRIVATE: 'true',
          SVC_WEBHOOK_RETRY_SCHEDULE: '1,1,1',
          SVC_SMTP_URL: smtp.url,
          SVC_MAIL_FROM: 'Acme Studio <bookings@acme.example>',
        },
      });
    }, 30_000);
    afterAll(async () => {
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGKILL');
        await server.child.exited;
      }
      await receiver?.stop();
      await smtp?.close();
      await db?.drop();
    });

    test('deno run src/main.ts workspace create --json prints one JSON object { workspace, apiKey }; apikey create --json a second key; both keys work', async () => {
      const created = await deno(['workspace', 'create', '--slug', 'acme', '--name', 'Acme Studio', '--timezone', 'Europe/Berlin', '--json']);
      expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
      expect(created.stdout.endsWith('}\n')).toBe(true);
      expect(created.stdout.trim().split('\n')).toHaveLength(1);
      const printed = JSON.parse(created.stdout);
      apiKey = printed.apiKey;
      workspaceId = printed.workspace.id;
      expect(printed).toEqual({
        workspace: expect.objectContaining({
          id: expect.stringMatching(/^ws_/),
          slug: 'acme',
          name: 'Acme Studio',
          timezone: 'Europe/Berlin',
          plan: 'self-hosted',
        }),
        apiKey: expect.stringMatching(/^svc_live_/),
      });
      expect((await db.storage.getWorkspaceBySlug('acme'))?.id).toBe(workspaceId);

      const second = await deno(['apikey', 'create', '--workspace', 'acme', '--name', 'deno', '--json']);
      expect(second.code).toBe(0);
      const { apiKey: secondKey } = JSON.parse(second.stdout);
      expect(secondKey).toMatch(/^svc_live_/);
      expect(secondKey).not.toBe(apiKey);
      for (const key of [apiKey, secondKey]) {
        const answer = await call('GET', '/api/v1/workspaces/acme', { key });
        expect({ status: answer.status, slug: answer.body.workspace?.slug }).toEqual({ status: 200, slug: 'acme' });
      }
    }, 30_000);

    test('deno run src/main.ts migrate --json on the served database: { migrated: true }, exit 0', async () => {
      const migrated = await deno(['migrate', '--json']);
      expect(migrated).toEqual({ code: 0, stdout: '{"migrated":true}\n', stderr: '' });
    }, 30_000);

    test('workspaces: PATCH renames and is stored; a wrong key is 401', async () => {
      const patched = await v1('PATCH', '', { name: 'Acme Studio Berlin' });
      expect(patched.status).toBe(200);
      expect(patched.body.workspace).toMatchObject({ slug: 'acme', name: 'Acme Studio Berlin', timezone: 'Europe/Berlin' });
      expect((await db.storage.getWorkspaceBySlug('acme'))?.name).toBe('Acme Studio Berlin');
      const wrong = await call('GET', '/api/v1/workspaces/acme', { key: 'svc_live_wrong' });
      expect({ status: wrong.status, success: wrong.body.success }).toEqual({ status: 401, success: false });
    });

    test('providers and services: created, read back, listed; the services are offered by the provider', async () => {
      const createdProvider = await v1('POST', '/providers', { name: 'Robin', email: 'robin@example.com' });
      expect(createdProvider.status).toBe(200);
      provider.id = createdProvider.body.provider.id;
      expect(createdProvider.body.provider).toMatchObject({ id: expect.stringMatching(/^prv_/), name: 'Robin', active: true });

      const createdFree = await v1('POST', '/services', { name: 'Consultation', duration: 30, price: 0, currency: 'EUR', providerIds: [provider.id] });
      const createdPaid = await v1('POST', '/services', { name: 'Massage', duration: 30, price: 40, currency: 'EUR', providerIds: [provider.id] });
      expect([createdFree.status, createdPaid.status]).toEqual([200, 200]);
      free.id = createdFree.body.service.id;
      paid.id = createdPaid.body.service.id;
      expect(createdPaid.body.service).toMatchObject({ name: 'Massage', duration: 30, price: 40, currency: 'EUR', providerIds: [provider.id] });

      expect((await v1('GET', `/services/${paid.id}`)).body.service).toMatchObject({ id: paid.id, name: 'Massage' });
      expect((await v1('GET', `/providers/${provider.id}`)).body.provider).toMatchObject({ id: provider.id, name: 'Robin' });
      const providers = await v1('GET', '/providers');
      expect(providers.body.providers.map((each: { name: string }) => each.name)).toEqual(['Robin']);
      expect((await db.storage.getService(workspaceId, paid.id))?.name).toBe('Massage');
    });

    test('hours: the workspace schedule and a provider schedule are replaced and read back', async () => {
      const mornings = [{ start: '09:00', end: '12:00' }];
      const weekly = { mon: mornings, tue: mornings, wed: mornings, thu: mornings, fri: mornings, sat: [], sun: [] };
      const put = await v1('PUT', '/schedule', { weekly, exceptions: [] });
      expect(put.status).toBe(200);
      expect((await v1('GET', '/schedule')).body.schedule).toEqual({ weekly, exceptions: [] });

      const providerWeekly = { ...weekly, mon: [{ start: '08:00', end: '12:00' }] };
      const exceptions = [{ date: '2030-12-24', intervals: [] }];
      expect((await v1('PUT', `/providers/${provider.id}/schedule`, { weekly: providerWeekly, exceptions })).status).toBe(200);
      expect((await v1('GET', `/providers/${provider.id}/schedule`)).body.schedule).toMatchObject({ weekly: providerWeekly, exceptions });
      // back to the workspace's mornings: the provider follows the workspace again
      expect((await v1('DELETE', `/providers/${provider.id}/schedule`)).status).toBe(200);
    });

    test('availability (keyless): the slots of a day and the days of a week follow the mornings schedule', async () => {
      const slots = await call('GET', `/api/v1/workspaces/acme/availability?serviceId=${free.id}&date=${day}`);
      expect(slots.status).toBe(200);
      expect(slots.body.timezone).toBe('Europe/Berlin');
      expect(slots.body.slots).toContain('09:00');
      expect(slots.body.slots).toContain('10:00');
      expect(slots.body.slots.every((slot: string) => slot >= '09:00' && slot <= '11:30')).toBe(true);
      expect(slots.headers.get('x-ratelimit-limit')).toBe('120');

      const days = await call('GET', `/api/v1/workspaces/acme/availability/days?serviceId=${free.id}&from=${day}&to=${day}`);
      expect(days.body).toEqual({ success: true, days: [day], timezone: 'Europe/Berlin' });
    });

    test('webhooks: created with its secret (shown once), listed without it', async () => {
      const created = await v1('POST', '/webhooks', { url: receiver.url, events: [] });
      expect(created.status).toBe(200);
      expect(created.body.webhook.secret).toMatch(/^whsec_/);
      webhook = { id: created.body.webhook.id, secret: created.body.webhook.secret };
      const listed = await v1('GET', '/webhooks');
      expect(listed.body.webhooks).toHaveLength(1);
      expect(listed.body.webhooks[0]).toMatchObject({ id: webhook.id, url: receiver.url, isActive: true });
      expect(listed.body.webhooks[0].secret).toBeUndefined();
    });

    test('bookings: a free booking is CONFIRMED and takes its slot; read back, listed, rescheduled, cancelled; the database follows', async () => {
      const created = await v1('POST', '/bookings', { serviceId: free.id, email: 'ada@example.com', name: 'Ada Lovelace', date: start });
      expect(created.status).toBe(200);
      booking.id = created.body.booking.id;
      expect(created.body.booking).toMatchObject({
        status: 'CONFIRMED',
        serviceId: free.id,
        providerId: provider.id,
        startTime: new Date(start).toISOString(),
      });
      const after = await call('GET', `/api/v1/workspaces/acme/availability?serviceId=${free.id}&date=${day}`);
      expect(after.body.slots).not.toContain('10:00');

      expect((await v1('GET', `/bookings/${booking.id}`)).body.booking).toMatchObject({ id: booking.id, customerEmail: 'ada@example.com' });
      const listed = await v1('GET', '/bookings');
      expect(listed.body.bookings.map((each: { id: string }) => each.id)).toEqual([booking.id]);

      const later = workdayAt(Date.now(), '11:00');
      const moved = await v1('POST', `/bookings/${booking.id}/reschedule`, { date: later });
      expect(moved.status).toBe(200);
      expect(moved.body.booking).toMatchObject({ status: 'CONFIRMED', startTime: new Date(later).toISOString() });

      const cancelled = await v1('POST', `/bookings/${booking.id}/cancel`, { reason: 'changed plans' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.booking).toMatchObject({ status: 'CANCELLED' });
      expect(await db.storage.getBooking(workspaceId, booking.id)).toMatchObject({
        status: 'CANCELLED',
        startTime: Date.parse(later),
        cancelReason: 'changed plans',
      });
      const again = await v1('POST', `/bookings/${booking.id}/cancel`, {});
      expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'INVALID_TRANSITION' });
    });

    test('the mail loop: the customer is mailed over SMTP about the booking, from SVC_MAIL_FROM', async () => {
      const mail = await waitFor(() => smtp.mails.find((each) => each.to && !Array.isArray(each.to) && each.to.text.includes('ada@example.com')), {
        timeoutMs: 10_000,
        what: 'a mail to ada@example.com',
      });
      expect(mail.from?.text).toContain('bookings@acme.example');
      expect(mail.subject).toBeTruthy();
      expect(mail.text).toContain('Consultation');
    }, 30_000);

    test("the delivery loop: the booking's events are delivered signed, the first one after its first attempt failed (500), with the same webhook-id; the attempts are listed and the message recorded delivered", async () => {
      // messages are sent concurrently: the first to arrive is one of the three, most likely booking.created
      const first = (await receiver.waitFor(1, 10_000))[0]!;
      expect(JSON.parse(first.body)).toMatchObject({ type: expect.stringMatching(/^booking\./), data: { workspace: 'acme', booking: { id: booking.id } } });
      const retried = await waitFor(() => receiver.receipts.slice(1).find((receipt) => receipt.id === first.id), {
        timeoutMs: 10_000,
        what: 'the retry of the first message',
      });
      expect(retried.body).toBe(first.body);
      expect(verify(webhook.secret, retried)).toEqual(JSON.parse(first.body));
      // the events that followed were delivered too, in order of their writing
      await waitFor(() => receiver.receipts.length >= 4, { timeoutMs: 10_000, what: 'booking.rescheduled and booking.cancelled' });
      const types = [...new Set(receiver.receipts.map((receipt) => JSON.parse(receipt.body).type))];
      expect(types).toEqual(expect.arrayContaining(['booking.created', 'booking.rescheduled', 'booking.cancelled']));

      const message = await waitFor(
        async () => {
          const stored = await db.storage.getMessage(first.id);
          return stored?.status === 'delivered' ? stored : null;
        },
        { what: 'the first message recorded delivered' },
      );
      expect(message.attempts).toBe(2);
      const deliveries = await v1('GET', `/webhooks/${webhook.id}/deliveries?limit=100`);
      const ofFirst = deliveries.body.deliveries.filter((delivery: { messageId: string }) => delivery.messageId === first.id);
      expect(ofFirst.map((delivery: { statusCode: number }) => delivery.statusCode)).toEqual([200, 500]);
    }, 30_000);

    test('payment through the test checkout: a paid booking is PENDING with a checkoutUrl; Pay confirms it; payment.received and booking.confirmed are delivered', async () => {
      const created = await v1('POST', '/bookings', { serviceId: paid.id, email: 'grace@example.com', name: 'Grace Hopper', date: start });
      expect(created.status).toBe(200);
      expect(created.body.booking).toMatchObject({ status: 'PENDING', amount: 40 });
      const checkoutUrl: string = created.body.checkoutUrl;
      expect(checkoutUrl).toMatch(new RegExp(`^${server.url}/checkout/chk_[A-Za-z0-9_-]+$`));
      const id = created.body.booking.id;
      paidBooking.id = id;
      paidBooking.manageUrl = created.body.manageUrl;
      const hold = (await db.storage.getBooking(workspaceId, id))?.holdExpiresAt ?? 0;
      expect(hold).toBeGreaterThan(Date.now() + 29 * MINUTE);

      const page = await call('GET', new URL(checkoutUrl).pathname);
      expect(page.status).toBe(200);
      expect(page.body).toContain('Massage');
      expect(page.body).toContain(`action="${new URL(checkoutUrl).pathname}/pay"`);
      const paidAnswer = await call('POST', `${new URL(checkoutUrl).pathname}/pay`, { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(paidAnswer.status).toBe(303);
      expect(paidAnswer.headers.get('location')).toBe(`${new URL(checkoutUrl).pathname}/done`);
      expect((await v1('GET', `/bookings/${id}`)).body.booking).toMatchObject({ id, status: 'CONFIRMED' });
      expect(await db.storage.getBooking(workspaceId, id)).toMatchObject({ id, status: 'CONFIRMED' });

      // messages are delivered concurrently: they may arrive in any order
      const events = await waitFor(
        () => {
          const received = receiver.receipts.map((receipt) => JSON.parse(receipt.body)).filter((event) => event.data.booking?.id === id);
          return received.length >= 3 ? received : null;
        },
        { timeoutMs: 10_000, what: 'the three events of the paid booking' },
      );
      expect(events.map((event) => event.type).sort()).toEqual(['booking.confirmed', 'booking.created', 'payment.received']);
      expect(events.find((event) => event.type === 'payment.received').data.payment).toMatchObject({ amount: 40, currency: 'EUR', provider: 'test' });
    }, 30_000);

    test("the customer's manage link (page and JSON) and a provider's calendar feed (text/calendar) show the paid booking", async () => {
      const manage = new URL(paidBooking.manageUrl);
      expect(manage.origin).toBe(server.url);
      const page = await call('GET', manage.pathname);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const token = manage.pathname.split('/').at(-1);
      const json = await call('GET', `/api/manage/${token}`);
      expect({ status: json.status, id: json.body.booking?.id, status_: json.body.booking?.status }).toEqual({
        status: 200,
        id: paidBooking.id,
        status_: 'CONFIRMED',
      });

      const feed = await v1('POST', `/providers/${provider.id}/calendar-feed`);
      expect(feed.status).toBe(200);
      const feedUrl = new URL(feed.body.url);
      expect(feedUrl.pathname).toMatch(/^\/ics\/[^/]+\.ics$/);
      const calendar = await call('GET', feedUrl.pathname);
      expect(calendar.status).toBe(200);
      expect(calendar.headers.get('content-type')).toContain('text/calendar');
      expect(calendar.body).toContain('BEGIN:VCALENDAR');
      expect(calendar.body.match(/BEGIN:VEVENT/g)).toHaveLength(1);
      expect(calendar.body).toContain('Massage');
    });

    test('the widget script /svc-widget.min.js: 200 JavaScript, gzip when accepted, 304 for its ETag', async () => {
      const plain = await fetch(`${server.url}/svc-widget.min.js`, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.status).toBe(200);
      expect(plain.headers.get('content-type')).toContain('javascript');
      const script = await plain.text();
      expect(script).toContain('svc-booking');
      const etag = plain.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);

      const zipped = await rawRequest(server.port, `GET /svc-widget.min.js HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n`);
      expect({ status: zipped.status, encoding: zipped.headers['content-encoding'] }).toEqual({ status: 200, encoding: 'gzip' });
      expect(Number(zipped.headers['content-length'])).toBeLessThan(script.length);

      const cached = await fetch(`${server.url}/svc-widget.min.js`, { headers: { 'if-none-match': etag } });
      expect(cached.status).toBe(304);
    });

    test('the hosted booking page /book/demo and the demo workspace created at start', async () => {
      const page = await call('GET', '/book/demo');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.body).toContain('data-slug="demo"');
      expect(page.body).toContain('svc-widget.min.js');
      expect((await call('GET', '/book/nobody')).status).toBe(404);
      expect((await call('GET', '/api/v1/workspaces/demo/config')).body.workspace).toMatchObject({ slug: 'demo' });
    });

    test('the panel: /admin frames nowhere, the iframe page of a workspace, the panel script and the host script', async () => {
      const admin = await call('GET', '/admin');
      expect(admin.status).toBe(200);
      expect(admin.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const frame = await call('GET', '/widget/panel/admin/acme?channelId=c1&section=hours');
      expect(frame.status).toBe(200);
      expect(frame.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
      expect(frame.body).toContain('<script src="/panel/panel.js?v=');
      for (const path of ['/panel/panel.js', '/panel/panel.css', '/svc-panel-host.js']) {
        expect({ path, status: (await call('GET', path)).status }).toEqual({ path, status: 200 });
      }
    });

    test("the client address is the socket's: keyless clients at two loopback addresses have a budget each", async () => {
      const from = (localAddress: string) =>
        rawRequest(server.port, 'GET /api/v1/workspaces/acme/config HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', { localAddress });
      const [a, b] = [await from('127.0.0.21'), await from('127.0.0.22')];
      expect([a.status, b.status]).toEqual([200, 200]);
      expect([a.headers['x-ratelimit-remaining'], b.headers['x-ratelimit-remaining']]).toEqual(['119', '119']);
      const again = await from('127.0.0.21');
      // the same address spends the same budget, unless a new minute (a new window) began in between
      const sameWindow = again.headers['x-ratelimit-reset'] === a.headers['x-ratelimit-reset'];
      expect(again.headers['x-ratelimit-remaining']).toBe(sameWindow ? '118' : '119');
    });

    test('raw HTTP: a body over 64 KiB (declared or chunked) gets the contract 413; no Host on HTTP/1.0, a one-letter Host and an unknown expectation are served; HTTP/1.1 without Host is 400 with the contract body', async () => {
      const keyed = ['Host: localhost', `X-Svc-Api-Key: ${apiKey}`, 'Content-Type: application/json', 'Connection: close'];
      const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
      const declared = await rawRequest(
        server.port,
        ['PATCH /api/v1/workspaces/acme HTTP/1.1', ...keyed, `Content-Length: ${big.length}`, '', big].join('\r\n'),
      );
      const chunk = 'x'.repeat(70_000);
      const chunked = await rawRequest(
        server.port,
        ['PATCH /api/v1/workspaces/acme HTTP/1.1', ...keyed, 'Transfer-Encoding: chunked', '', `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`].join(
          '\r\n',
        ),
      );
      for (const answer of [declared, chunked]) {
        expect({ status: answer.status, body: answer.body }).toEqual({
          status: 413,
          body: { success: false, error: 'request body must be at most 64 KiB', code: 'PAYLOAD_TOO_LARGE' },
        });
      }
      const noHost = await rawRequest(server.port, `GET /api/v1/workspaces/acme HTTP/1.0\r\nX-Svc-Api-Key: ${apiKey}\r\n\r\n`);
      const noHost11 = await rawRequest(server.port, `GET /api/v1/workspaces/acme HTTP/1.1\r\nX-Svc-Api-Key: ${apiKey}\r\nConnection: close\r\n\r\n`);
      const oddExpectation = await rawRequest(
        server.port,
        `GET /api/v1/workspaces/acme HTTP/1.1\r\nHost: localhost\r\nExpect: something-else\r\nX-Svc-Api-Key: ${apiKey}\r\nConnection: close\r\n\r\n`,
      );
      const shortHost = await rawRequest(
        server.port,
        `GET /api/v1/workspaces/acme HTTP/1.1\r\nHost: a\r\nX-Svc-Api-Key: ${apiKey}\r\nConnection: close\r\n\r\n`,
      );
      for (const answer of [noHost, shortHost, oddExpectation])
        expect({ status: answer.status, slug: answer.body.workspace?.slug }).toEqual({ status: 200, slug: 'acme' });
      // RFC 9112: HTTP/1.1 requires a Host
      expect({ status: noHost11.status, connection: noHost11.headers.connection, body: noHost11.body }).toEqual({
        status: 400,
        connection: 'close',
        body: { success: false, error: 'an HTTP/1.1 request must send a Host header', code: 'VALIDATION_ERROR' },
      });
    });

    test('raw HTTP the parser refuses (bad version, oversized headers, a malformed request line) gets the contract error body', async () => {
      const badVersion = await rawRequest(server.port, 'GET /healthz HTTP/2.7\r\nHost: localhost\r\n\r\n');
      const hugeHeaders = await rawRequest(server.port, `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      const malformed = await rawRequest(server.port, 'NOT HTTP AT ALL\r\n\r\n');
      // Deno's parser reports a bad version as a plain parse error: 400 there, where Node says 505
      expect([400, 505]).toContain(badVersion.status);
      expect([hugeHeaders, malformed].map((answer) => answer.status)).toEqual([431, 400]);
      for (const answer of [badVersion, hugeHeaders, malformed]) expect(answer.headers['content-type']).toBe('application/json');
      for (const answer of [badVersion, hugeHeaders, malformed])
        expect(answer.body).toEqual({ success: false, error: expect.any(String), code: 'VALIDATION_ERROR' });
    });

    test('Expect: 100-continue gets 100 Continue before the body is sent, then the answer to that body', async () => {
      const body = JSON.stringify({ name: 'No duration' });
      const answer = await postAfterContinue(server.port, { path: '/api/v1/workspaces/acme/services', apiKey, body });
      expect({ status: answer.status, code: answer.body.code, error: answer.body.error }).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
        error: expect.stringContaining('duration'),
      });
    });

    // the connection handling does not depend on the database: once is enough
    if (adapter === 'libsql')
      test('connections that go quiet are closed: silent and idle keep-alive without an answer, half a request head with 408', async () => {
        const { silent, halfHead, keptAlive } = await quietConnections(server.port);
        expect(silent).toBe('');
        expect(halfHead).toStartWith('HTTP/1.1 408 Request Timeout\r\n');
        expect(keptAlive).toStartWith('HTTP/1.1 200 OK');
      }, 40_000);

    test('the scheduler: the croner jobs run (expire-holds, every 15 s)', async () => {
      const ran = await server.waitForLog((line) => line.msg === 'job ran' && line.job === 'expire-holds', 20_000);
      expect(ran).toMatchObject({ level: 'debug', job: 'expire-holds' });
    }, 30_000);

    // 300 requests, a few dozen of them keyless: within the client address's budget of 120 a minute
    test('raw HTTP fuzz (request lines, versions, headers, framings, bodies): never a 5xx, errors in the contract body, a write only when answered 200', async () => {
      const wire = await createWorkspace({ storage: db.storage, clock: systemClock }, { slug: 'wire', name: 'Wire' });
      await fuzzTheWire({
        port: server.port,
        slug: 'wire',
        apiKey: wire.apiKey,
        countServices: async () => (await db.storage.listServices(wire.workspace.id, { activeOnly: false })).length,
        runs: 300,
        runtime: 'deno',
      });
    }, 60_000);

    test('SIGTERM while a request body is still arriving: new connections are refused, the request is answered 200 with Connection: close and kept, the process exits 0 within 5 s', async () => {
      const body = JSON.stringify({ name: 'Renamed while stopping' });
      let received = '';
      const socket = net.connect({ port: server.port, host: '127.0.0.1' });
      socket.on('data', (chunk) => (received += chunk.toString()));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
      socket.write(
        `PATCH /api/v1/workspaces/acme HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nX-Svc-Api-Key: ${apiKey}\r\n`
          + `Expect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      // the server has the request once it asks for the body
      await waitFor(() => received.includes('100 Continue'), { what: '100 Continue' });

      const signalledAt = performance.now();
      server.signal('SIGTERM');
      await server.waitForLog((line) => line.msg === 'shutting down');
      // a new connection is refused (a fresh socket: fetch may reuse a keep-alive connection an earlier test
      // left open, and a request there is answered, as on any open connection)
      expect(await connects(server.port)).toBe('refused');
      socket.write(body);
      await closed;
      const answer = received.slice(received.indexOf('HTTP/1.1 200'));
      expect(answer).toStartWith('HTTP/1.1 200');
      expect(answer.toLowerCase()).toContain('\r\nconnection: close\r\n');
      expect(answer).toContain('"name":"Renamed while stopping"');

      expect(await server.stop()).toBe(0);
      expect(performance.now() - signalledAt).toBeLessThan(5000);
      expect((await db.storage.getWorkspaceBySlug('acme'))?.name).toBe('Renamed while stopping');
      expect(server.logs().at(-1)).toMatchObject({ msg: 'stopped' });
      // Deno wrote nothing of its own (no warning, no "Listening on"): only svc's JSON log lines
      expect(
        server
          .stderr()
          .split('\n')
          .filter((line) => line !== '' && !line.startsWith('{')),
      ).toEqual([]);
    }, 30_000);
  });
}
