import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Server } from 'bun';
import { startTestSmtp, type TestSmtp } from '../mail/smtp.ts';
import { runCli, startServe, type ServeProcess } from '../support/process.ts';
import { privatePostgresMissing, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.ts';
import { waitFor } from '../support/wait.ts';
import { startReceiver, workdayAt, type Receiver } from '../webhooks/support.ts';

/*
 * Several instances on one Postgres (docs/contract/operations.md §7, §13): three `svc serve` processes on a
 * private cluster behind a round-robin HTTP proxy in this process, with a webhook receiver and an SMTP server
 * here too. Concurrent creates on capacity-limited slots; one instance is killed (SIGKILL) while they run, and
 * the database is restarted once while clients keep booking (retrying 503s). Then: no slot holds more than its
 * capacity; every booking the database holds got exactly one `booking.created` webhook id and one confirmation
 * Message-ID, each received (a delivery the killed instance had claimed is repeated under the same id: delivery
 * is at least once, and receivers dedupe by id), and nothing was received for a booking that does not exist.
 * Real processes: nothing is advanced by a clock, conditions are waited for with generous deadlines.
 */

const missing = privatePostgresMissing();
if (missing) console.log(`the several-instances test is skipped: ${missing}`);

const CAPACITY = 3;
/** creates sent at once per slot: more than its capacity */
const ATTEMPTS_PER_SLOT = 7;
const WAIT_MS = 60_000;
/** how long the webhook receiver takes to answer, ms */
const RECEIVER_DELAY_MS = 1500;

interface Upstream {
  url: string;
  /** refused a connection: killed; the proxy sends it nothing more */
  down: boolean;
}

/**
 * A round-robin HTTP proxy over `upstreams`. A refused connection marks the upstream down and the request goes
 * to the next (nothing was sent, so nothing can be doubled); any other failure (the upstream died holding the
 * request) is a 502, since the request may have been carried out.
 */
function startProxy(upstreams: Upstream[]): Server<undefined> {
  let next = 0;
  return Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      for (let tried = 0; tried < upstreams.length; tried++) {
        const upstream = upstreams[next++ % upstreams.length]!;
        if (upstream.down) continue;
        try {
          const answer = await fetch(`${upstream.url}${url.pathname}${url.search}`, {
            method: request.method,
            headers: request.headers,
            body,
            redirect: 'manual',
          });
          const headers = new Headers(answer.headers);
          headers.delete('content-encoding');
          headers.delete('content-length');
          return new Response(await answer.arrayBuffer(), { status: answer.status, headers });
        } catch (error) {
          const code = String((error as { code?: unknown }).code ?? (error as Error).message);
          if (/refused/i.test(code)) {
            upstream.down = true;
            continue;
          }
          return new Response(`upstream failed: ${code}`, { status: 502 });
        }
      }
      return new Response('no upstream', { status: 502 });
    },
  });
}

(missing ? describe.skip : describe)('three instances behind a round-robin proxy on one Postgres', () => {
  let db: PrivatePostgres;
  let smtp: TestSmtp;
  let receiver: Receiver;
  let proxy: Server<undefined>;
  const upstreams: Upstream[] = [];
  const servers: ServeProcess[] = [];
  let apiKey = '';

  beforeAll(async () => {
    db = await startPrivatePostgres();
    smtp = await startTestSmtp();
    // slow to answer, so that the killed instance dies holding deliveries it claimed: another takes them over
    // once their lease lapses
    receiver = startReceiver({ reply: () => new Promise((resolve) => setTimeout(() => resolve(new Response('ok')), RECEIVER_DELAY_MS)) });
    proxy = startProxy(upstreams);
    const env = {
      DATABASE_URL: db.url,
      SVC_SECRET: 'instances-test-secret-0123456789abcdef0123',
      SVC_PUBLIC_URL: `http://127.0.0.1:${proxy.port}`,
      SVC_DEMO: 'false',
      SVC_RATE_LIMIT: '100000',
      SVC_WEBHOOK_ALLOW_PRIVATE: 'true',
      SVC_WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1',
      SVC_SMTP_URL: smtp.url,
      SVC_MAIL_FROM: 'Acme <bookings@acme.example>',
    };
    const created = await runCli(['workspace', 'create', '--slug', 'acme', '--name', 'Acme', '--timezone', 'Europe/Berlin', '--json'], env);
    expect(created.code).toBe(0);
    apiKey = JSON.parse(created.stdout).apiKey;
    servers.push(...(await Promise.all([0, 1, 2].map(() => startServe({ env, timeoutMs: 30_000 })))));
    upstreams.push(...servers.map((server) => ({ url: server.url, down: false })));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => (server.child.exitCode === null ? server.stop().catch(() => server.child.kill('SIGKILL')) : null)));
    proxy?.stop(true);
    await receiver?.stop();
    await smtp?.close();
    await db?.destroy();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${proxy.port}/api/v1/workspaces/acme${path}`, {
      method,
      headers: { 'x-svc-api-key': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
  };

  test('0 overbookings, one webhook id and one Message-ID per booking, all received, across a kill -9 and a database restart', async () => {
    const ok = async (method: string, path: string, body: unknown) => {
      const answer = await call(method, path, body);
      if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    const hours = [{ start: '08:00', end: '18:00' }];
    await ok('PUT', '/schedule', { weekly: { mon: hours, tue: hours, wed: hours, thu: hours, fri: hours, sat: [], sun: [] }, exceptions: [] });
    const provider = await ok('POST', '/providers', { name: 'Robin', email: 'robin@example.com' });
    const service = await ok('POST', '/services', {
      name: 'Class',
      duration: 30,
      price: 0,
      currency: 'EUR',
      capacity: CAPACITY,
      providerIds: [provider.provider.id],
    });
    await ok('POST', '/webhooks', { url: receiver.url, events: ['booking.created'] });

    const statuses: number[] = [];
    let sequence = 0;
    /** one customer's create, retried while the answer is 503 (nothing was written) until it is final */
    const book = async (start: string) => {
      const email = `customer${++sequence}@example.com`;
      for (;;) {
        const answer = await call('POST', '/bookings', { serviceId: service.service.id, email, name: 'Customer', date: start }).catch(() => ({
          status: 0,
          body: null,
        }));
        statuses.push(answer.status);
        if (answer.status !== 503) return answer;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const [first, second, third] = ['10:00', '11:00', '12:00'].map((time) => workdayAt(Date.now(), time));

    // one wave on the first slot with every instance up, and one on the second while an instance is killed
    const calm = await Promise.all(Array.from({ length: ATTEMPTS_PER_SLOT }, () => book(first!)));
    expect(calm.filter((answer) => answer.status === 200)).toHaveLength(CAPACITY);
    expect(calm.filter((answer) => answer.status === 409).every((answer) => answer.body.code === 'SLOT_UNAVAILABLE')).toBe(true);

    const wave = Array.from({ length: ATTEMPTS_PER_SLOT }, () => book(second!));
    // the instance killed is one that holds a webhook delivery it claimed (the lease owner names its pid; the
    // receiver is slow to answer): its work must move to another
    const leased = 'select lease_owner from webhook_messages where lease_owner is not null';
    const killed = await waitFor(
      async () => {
        const owners = (await db.query<{ lease_owner: string }>(leased)).map((row) => row.lease_owner);
        return servers.find((server) => owners.some((owner) => owner.includes(`:${server.child.pid}:`)));
      },
      { timeoutMs: WAIT_MS, what: 'an instance to hold a webhook delivery' },
    );
    const held = `select count(*) as count from webhook_messages where lease_owner like '%:${killed.child.pid}:%'`;
    killed.child.kill('SIGKILL');
    await killed.child.exited;
    await Promise.all(wave);

    // the database restarts while a third wave books: its clients get 503s, then succeed by themselves
    await db.stop();
    const before = statuses.length;
    const restartWave = Array.from({ length: ATTEMPTS_PER_SLOT }, () => book(third!));
    await waitFor(() => statuses.slice(before).filter((status) => status === 503).length >= 3, { timeoutMs: WAIT_MS, what: '503s while the database is down' });
    await db.start();
    const restarted = await Promise.all(restartWave);
    expect(restarted.filter((answer) => answer.status === 200).length).toBeGreaterThan(0);
    // no 500, no hang; a 502 only for requests the killed instance held
    expect(statuses.filter((status) => ![200, 409, 503, 502].includes(status))).toEqual([]);

    // 0 overbookings
    const perSlot = await db.query<{ start_time: string; count: string }>(
      "select start_time, count(*) as count from bookings where status <> 'CANCELLED' group by start_time",
    );
    expect(perSlot.length).toBe(3);
    for (const slot of perSlot) expect(Number(slot.count)).toBeLessThanOrEqual(CAPACITY);

    // every booking's webhook and mail arrive, the killed instance's claimed ones once their lease lapsed
    const bookings = (await db.query<{ id: string }>('select id from bookings')).map((row) => row.id).sort();
    const webhookReceipts = () =>
      receiver.receipts.map((receipt) => ({ id: receipt.id, booking: (JSON.parse(receipt.body) as { data: { booking: { id: string } } }).data.booking.id }));
    const messageIds = () => smtp.mails.map((mail) => mail.messageId ?? '');
    const pending =
      "select (select count(*) from webhook_messages where status = 'pending') + (select count(*) from mail_messages where status = 'pending') as count";
    await waitFor(
      async () => {
        if (Number((await db.query<{ count: string }>(pending))[0]?.count) > 0) return false;
        const hooked = new Set(webhookReceipts().map((receipt) => receipt.booking));
        return bookings.every((id) => hooked.has(id)) && new Set(messageIds()).size >= bookings.length;
      },
      { timeoutMs: WAIT_MS, what: 'every webhook and mail delivered and recorded' },
    );

    // one webhook id per booking.created event, none for a booking that does not exist
    const idsByBooking = new Map<string, Set<string>>();
    for (const receipt of webhookReceipts()) idsByBooking.set(receipt.booking, (idsByBooking.get(receipt.booking) ?? new Set()).add(receipt.id));
    expect([...idsByBooking.keys()].sort()).toEqual(bookings);
    expect([...idsByBooking].filter(([, ids]) => ids.size !== 1)).toEqual([]);

    // one confirmation mail per booking (by Message-ID, the mail row's id), none for anything else
    const mailRows = await db.query<{ id: string; booking_id: string; kind: string }>('select id, booking_id, kind from mail_messages');
    expect(mailRows.map((row) => row.kind).every((kind) => kind === 'confirmed')).toBe(true);
    expect(mailRows.map((row) => row.booking_id).sort()).toEqual(bookings);
    const received = new Set(messageIds().map((messageId) => messageId.replace(/^<([^@]+)@.*$/, '$1')));
    expect([...received].sort()).toEqual(mailRows.map((row) => row.id).sort());

    // the instances still running are well
    // a server that ended shows its last log lines (its uncaught error) instead of only its exit code
    for (const server of servers.filter((each) => each !== killed)) {
      const exitCode = server.child.exitCode;
      const lastLines =
        exitCode === null
          ? []
          : server
              .stderr()
              .split('\n')
              .filter((line) => !line.includes('"msg":"request"'))
              .slice(-60);
      expect({ exitCode, lastLines }).toEqual({ exitCode: null, lastLines: [] });
    }
    // the work it held moved to another instance: nothing is leased to the dead one any more
    expect(Number((await db.query<{ count: string }>(held))[0]?.count)).toBe(0);
  }, 150_000);
});
