import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { systemClock } from '../../src/core/clock.ts';
import { openWaitlistToken } from '../../src/features/bookings/index.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { startServe, type ServeProcess } from '../support/process.ts';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from '../support/storage.ts';

/*
 * The seat invariant of a class with a waiting list across two server processes on one Postgres
 * (docs/contract/classes.md §3, docs/contract/lifecycle.md): two `svc serve` instances take 200 requests at once,
 * split between them, mixing createBooking for a full class of five, repeated claims of the offers that cancels
 * made, and two more cancels. Every answer is a 200 or a contract 409; the database never holds more than five
 * places taken (bookings holding a place plus offers holding one); every offer is claimed exactly once.
 */

const CAPACITY = 5;
const WAITING = 8;
const CLAIMS_PER_OFFER = 4;
const REQUESTS = 200;

(POSTGRES_URL ? describe : describe.skip)('a class with a waiting list across two server instances [postgres]', () => {
  let db: TestDatabase;
  let apiKey = '';
  let workspaceId = '';
  const servers: ServeProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    const created = await createWorkspace({ storage: db.storage, clock: systemClock }, { slug: 'race', name: 'Race', timezone: 'Europe/Berlin' });
    apiKey = created.apiKey;
    workspaceId = created.workspace.id;
    const env = { ...db.env, SVC_DEMO: 'false', SVC_RATE_LIMIT: '100000', LOG_LEVEL: 'warn' };
    servers.push(...(await Promise.all([0, 1].map(() => startServe({ env, timeoutMs: 30_000 })))));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop().catch(() => server.child.kill('SIGKILL'))));
    await db?.drop();
  });

  /** A call to instance `index % 2` with the API key, or none (a claim's token is its credential). */
  const call = async (index: number, method: string, path: string, body?: unknown, keyed = true) => {
    const server = servers[index % servers.length]!;
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(keyed ? { 'x-svc-api-key': apiKey } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
  };
  const v1 = '/api/v1/workspaces/race';
  const ok = async (index: number, method: string, path: string, body?: unknown) => {
    const answer = await call(index, method, `${v1}${path}`, body);
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };

  test(`${REQUESTS} bookings, claims and cancels over both instances never put more than ${CAPACITY} in the class`, async () => {
    const provider = (await ok(0, 'POST', '/providers', { name: 'Robin' })).provider;
    const service = (
      await ok(1, 'POST', '/services', {
        name: 'Yoga',
        duration: 60,
        price: 0,
        currency: 'EUR',
        capacity: CAPACITY,
        waitlist: true,
        providerIds: [provider.id],
      })
    ).service;
    const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const day = (await ok(0, 'GET', `/availability/days?serviceId=${service.id}&from=${from}&to=${to}`)).days[0] as string;
    const time = (await ok(1, 'GET', `/availability?serviceId=${service.id}&date=${day}`)).slots[0] as string;
    const start = Temporal.PlainDateTime.from(`${day}T${time}`).toZonedDateTime('Europe/Berlin').toInstant().toString();
    const book = (index: number, email: string) => call(index, 'POST', `${v1}/bookings`, { serviceId: service.id, date: start, email, name: 'Racer' });

    // the class full, eight on its waiting list (joined through both instances)
    const seats: string[] = [];
    for (let i = 0; i < CAPACITY; i++)
      seats.push((await ok(i, 'POST', '/bookings', { serviceId: service.id, date: start, email: `seat${i}@example.com` })).booking.id);
    expect((await book(0, 'late@example.com')).body.code).toBe('SLOT_UNAVAILABLE');
    const waiting: string[] = [];
    for (let i = 0; i < WAITING; i++)
      waiting.push((await ok(i, 'POST', '/waitlist', { serviceId: service.id, date: start, email: `wait${i}@example.com` })).entry.id);
    // three cancels: the three oldest entries are offered a held place each
    for (const [i, id] of seats.slice(0, 3).entries()) await ok(i, 'POST', `/bookings/${id}/cancel`, {});
    const entries = async () => db.storage.listWaitlistEntries(workspaceId, { serviceId: service.id, limit: 100 });
    const offered = (await entries()).filter((entry) => entry.status === 'OFFERED');
    expect(offered.map((entry) => entry.id).sort()).toEqual(waiting.slice(0, 3).sort());
    const tokens = await Promise.all(offered.map(async (entry) => ({ entry, token: (await openWaitlistToken(entry, db.env.SVC_SECRET))! })));

    // 200 at once: each offer claimed four times and two more cancels, spread among createBookings
    // (the same offer's claims go to both instances: `instance` alternates over them)
    type Planned = { kind: 'book' | 'claim' | 'cancel'; instance: number; entryId?: string };
    const special: Planned[] = [
      ...tokens.flatMap(({ entry }) => Array.from({ length: CLAIMS_PER_OFFER }, (_, c) => ({ kind: 'claim' as const, instance: c, entryId: entry.id }))),
      { kind: 'cancel', instance: 0 },
      { kind: 'cancel', instance: 1 },
    ];
    const every = Math.floor(REQUESTS / special.length);
    const racing: Planned[] = Array.from({ length: REQUESTS }, (_, index) =>
      index % every === every >> 1 && special.length > 0 ? special.shift()! : { kind: 'book', instance: index },
    );
    expect(special).toEqual([]);
    let nextSeat = 3;
    const answers = await Promise.all(
      racing.map((request, index) => {
        if (request.kind === 'claim') {
          const { token } = tokens.find(({ entry }) => entry.id === request.entryId)!;
          return call(request.instance, 'POST', `/api/waitlist/${token}/claim`, undefined, false);
        }
        if (request.kind === 'cancel') return call(request.instance, 'POST', `${v1}/bookings/${seats[nextSeat++]}/cancel`, {});
        return book(request.instance, `racer${index}@example.com`);
      }),
    );

    // every answer a 200 or a contract 409: a booking finds the class full, a claim finds its offer taken
    const refusals = { book: 'SLOT_UNAVAILABLE', claim: 'INVALID_TRANSITION', cancel: null } as const;
    const unexpected = answers.flatMap((answer, index) => {
      const kind = racing[index]!.kind;
      if (answer.status === 200) return [];
      if (answer.status === 409 && answer.body.code === refusals[kind]) return [];
      return [{ kind, status: answer.status, body: answer.body }];
    });
    expect(unexpected).toEqual([]);
    expect(racing.filter((request, index) => request.kind === 'cancel' && answers[index]!.status === 200)).toHaveLength(2);
    // each offer claimed exactly once, by its own entry's customer
    for (const { entry } of tokens) {
      const claims = racing.flatMap((request, index) => (request.entryId === entry.id ? [answers[index]!] : []));
      const won = claims.filter((answer) => answer.status === 200);
      expect(won).toHaveLength(1);
      expect(won[0]!.body.booking.customerEmail).toBe(entry.customerEmail);
    }

    // the rows: never more than five places taken, and every place accounted for
    const bookings = (await db.storage.listBookings(workspaceId, { serviceId: service.id, limit: 1000 })).filter(
      (booking) => booking.startTime === Date.parse(start),
    );
    const holding = bookings.filter((booking) => booking.status === 'PENDING' || booking.status === 'CONFIRMED');
    const after = await entries();
    const offers = after.filter((entry) => entry.status === 'OFFERED');
    expect(holding.length + offers.length).toBeLessThanOrEqual(CAPACITY);
    const racersIn = racing.filter((request, index) => request.kind === 'book' && answers[index]!.status === 200).length;
    // the three claims, plus racers who took a place a cancel freed before it was offered on
    expect(holding.length).toBe(3 + racersIn);
    expect(racersIn).toBeLessThanOrEqual(2);
    const booked = after.filter((entry) => entry.status === 'BOOKED');
    expect(booked.map((entry) => entry.id).sort()).toEqual(waiting.slice(0, 3).sort());
    for (const entry of booked) expect(holding.find((booking) => booking.id === entry.bookingId)?.customerEmail).toBe(entry.customerEmail);
    // both instances are still well
    for (const server of servers) expect(server.child.exitCode).toBeNull();
  }, 180_000);
});
