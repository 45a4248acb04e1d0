import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { denoMissing, runCli, startServe, type Runtime, type ServeProcess } from '../support/process.ts';
import { privatePostgresMissing, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.ts';
import { waitFor } from '../support/wait.ts';
import { workdayAt } from '../webhooks/support.ts';

/*
 * The database goes away under a serving svc (docs/contract/operations.md §13): a private Postgres cluster is
 * stopped for some seconds while clients book and poll /readyz, then started again. Every request gets an HTTP
 * answer; while the database is down it is 503 UNAVAILABLE with Retry-After within 5 s (never a 500 or a hang),
 * /readyz answers 503 within its 2 s; afterwards requests succeed again without anybody restarting svc; the
 * bookings written are exactly those answered 2xx; and the request log names the status each client got.
 * On Bun and on Deno.
 */

const pgMissing = privatePostgresMissing();
if (pgMissing) console.log(`the database outage tests are skipped: ${pgMissing}`);
const deno = denoMissing();

/** An answer a client got, or did not get (status 0). */
interface Exchange {
  kind: 'booking' | 'readyz';
  status: number;
  ms: number;
  code?: string;
  retryAfter: string | null;
  requestId: string | null;
  email?: string;
  error?: string;
  /** sent after the database was started again */
  afterRestart: boolean;
}

/** A client's bound on one request: far beyond the 5 s an answer may take, so a hang shows as status 0. */
const CLIENT_TIMEOUT_MS = 15_000;
/** The least time the database stays down. */
const OUTAGE_MS = 6000;
/** The pause between one client's requests: a steady trickle, not a flood of bookings. */
const PACE_MS = 40;

const runtimes: Runtime[] = ['bun', 'deno'];
for (const runtime of runtimes) {
  const skip = pgMissing !== null || (runtime === 'deno' && deno !== null);
  (skip ? describe.skip : describe)(`a database outage under svc serve [${runtime}]`, () => {
    let db: PrivatePostgres;
    let server: ServeProcess;
    let apiKey = '';
    let serviceId = '';
    const env: Record<string, string> = {};

    beforeAll(async () => {
      db = await startPrivatePostgres();
      Object.assign(env, {
        DATABASE_URL: db.url,
        SVC_SECRET: 'outage-test-secret-0123456789abcdef0123',
        SVC_DEMO: 'false',
        SVC_RATE_LIMIT: '100000',
        LOG_LEVEL: 'info',
      });
      const created = await runCli(
        ['workspace', 'create', '--slug', 'acme', '--name', 'Acme', '--timezone', 'Europe/Berlin', '--json'],
        env,
        undefined,
        runtime,
      );
      expect(created.code).toBe(0);
      apiKey = JSON.parse(created.stdout).apiKey;
      server = await startServe({ runtime, env, timeoutMs: 30_000 });
      const v1 = async (method: string, path: string, body: unknown) => {
        const response = await fetch(`${server.url}/api/v1/workspaces/acme${path}`, {
          method,
          headers: { 'x-svc-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const json = (await response.json()) as any;
        if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
        return json;
      };
      const day = [{ start: '08:00', end: '18:00' }];
      await v1('PUT', '/schedule', { weekly: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: [], sun: [] }, exceptions: [] });
      const provider = await v1('POST', '/providers', { name: 'Robin', email: 'robin@example.com' });
      const service = await v1('POST', '/services', {
        name: 'Class',
        duration: 30,
        price: 0,
        currency: 'EUR',
        capacity: 1000,
        providerIds: [provider.provider.id],
      });
      serviceId = service.service.id;
    }, 60_000);

    afterAll(async () => {
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGKILL');
        await server.child.exited;
      }
      await db?.destroy();
    });

    test('503 UNAVAILABLE with Retry-After within 5 s while the database is down, never a 500 or a hang; recovery by itself; bookings written = 2xx answers', async () => {
      const start = workdayAt(Date.now(), '10:00');
      const exchanges: Exchange[] = [];
      let restarted = false;
      let running = true;
      let sequence = 0;

      async function exchange(kind: Exchange['kind'], request: () => Promise<Response>, email?: string): Promise<void> {
        const afterRestart = restarted;
        const began = performance.now();
        try {
          const response = await request();
          const text = await response.text();
          const body = text.startsWith('{') ? (JSON.parse(text) as { code?: string }) : {};
          exchanges.push({
            kind,
            status: response.status,
            ms: performance.now() - began,
            code: body.code,
            retryAfter: response.headers.get('retry-after'),
            requestId: response.headers.get('x-request-id'),
            email,
            afterRestart,
          });
        } catch (error) {
          exchanges.push({ kind, status: 0, ms: performance.now() - began, retryAfter: null, requestId: null, email, afterRestart, error: String(error) });
        }
      }
      const pace = () => new Promise((resolve) => setTimeout(resolve, PACE_MS));

      const booker = async () => {
        while (running) {
          const email = `customer${++sequence}@example.com`;
          await exchange(
            'booking',
            () =>
              fetch(`${server.url}/api/v1/workspaces/acme/bookings`, {
                method: 'POST',
                headers: { 'x-svc-api-key': apiKey, 'content-type': 'application/json' },
                body: JSON.stringify({ serviceId, email, name: 'Customer', date: start }),
                signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
              }),
            email,
          );
          await pace();
        }
      };
      const prober = async () => {
        while (running) {
          await exchange('readyz', () => fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) }));
          await pace();
        }
      };
      const count = (match: (each: Exchange) => boolean) => exchanges.filter(match).length;
      const clients = [booker(), booker(), booker(), prober()];

      try {
        await waitFor(() => count((each) => each.kind === 'booking' && each.status === 200) >= 5, { timeoutMs: 20_000, what: '5 bookings before the outage' });
        await db.stop();
        const stoppedAt = performance.now();
        const before = exchanges.length;
        // down for OUTAGE_MS at least (long past the pool's reconnect back-off reaching its cap), and until the outage
        // has been answered: several refused bookings and readiness checks
        await waitFor(
          () =>
            performance.now() - stoppedAt >= OUTAGE_MS
            && exchanges.slice(before).filter((each) => each.kind === 'booking' && each.status === 503).length >= 6
            && exchanges.slice(before).filter((each) => each.kind === 'readyz' && each.status === 503).length >= 2,
          { timeoutMs: 60_000, what: 'bookings and /readyz to be answered 503 while the database is down' },
        );
        await db.start();
        restarted = true;
        await waitFor(() => count((each) => each.afterRestart && each.kind === 'booking' && each.status === 200) >= 5, {
          timeoutMs: 60_000,
          what: 'bookings to succeed again once the database is back',
        });
        await waitFor(() => count((each) => each.afterRestart && each.kind === 'readyz' && each.status === 200) >= 1, {
          timeoutMs: 60_000,
          what: '/readyz to answer 200 again',
        });
      } catch (error) {
        const summary = exchanges.map((each) => `${each.kind} ${each.status} ${each.code ?? ''} ${Math.round(each.ms)}ms ${each.error ?? ''}`);
        throw new Error(`${error instanceof Error ? error.message : error}; the answers:\n${summary.join('\n')}\nthe log:\n${server.stderr().slice(-4000)}`);
      } finally {
        running = false;
        await Promise.all(clients);
      }

      // every request got an HTTP answer, none a 500, and every refusal is the contract's 503 with Retry-After
      expect(exchanges.filter((each) => each.status === 0)).toEqual([]);
      expect(exchanges.filter((each) => each.status !== 200 && each.status !== 503)).toEqual([]);
      for (const refused of exchanges.filter((each) => each.status === 503)) {
        expect({ code: refused.code, retryAfter: /^[1-9]\d*$/.test(refused.retryAfter ?? '') }).toEqual({ code: 'UNAVAILABLE', retryAfter: true });
      }
      // within 5 s, /readyz within its 2 s (and a little for the answer to travel)
      expect(exchanges.filter((each) => each.kind === 'booking' && each.ms >= 5000).map((each) => [each.status, Math.round(each.ms)])).toEqual([]);
      expect(exchanges.filter((each) => each.kind === 'readyz' && each.ms >= 2500).map((each) => [each.status, Math.round(each.ms)])).toEqual([]);

      // nothing lost or doubled: the bookings written are exactly those answered 200
      const answered = exchanges.filter((each) => each.kind === 'booking' && each.status === 200).map((each) => each.email!);
      const rows = await db.query<{ customer_email: string }>('select customer_email from bookings');
      expect(rows.map((row) => row.customer_email).sort()).toEqual(answered.sort());

      // the request log names the status each client got (request ids are unique per request)
      const lines = await waitFor(
        () => {
          const logged = new Map(
            server
              .logs()
              .filter((line) => line.msg === 'request')
              .map((line) => [line.requestId as string, line.status as number]),
          );
          return exchanges.every((each) => logged.has(each.requestId!)) ? logged : null;
        },
        { timeoutMs: 10_000, what: 'a request log line for every answer' },
      );
      expect(exchanges.filter((each) => lines.get(each.requestId!) !== each.status)).toEqual([]);
      expect(server.child.exitCode).toBeNull();
    }, 120_000);
  });
}
