import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import postgres, { type Sql } from 'postgres';
import type { ProviderRecord } from '../../src/ports/storage/index.ts';
import { postgresStorage } from '../../adapters/storage/postgres/index.ts';
import type { Storage } from '../../src/ports/storage/index.ts';
import { POSTGRES_URL } from '../support/storage.ts';
import { waitFor } from '../support/wait.ts';
import { aBooking, aProvider, aService, aWorkspace, HOUR } from './contract/fixtures.ts';

/*
 * What svc sends Postgres (adapters/storage/postgres/index.ts; docs/decisions/0028-postgres-statements-prepared.md):
 * - its queries are named prepared statements of their connection: Postgres parses and plans a statement once per
 *   connection, and only its parameters cross the socket afterwards. Seen from the database's side, on a pool of
 *   one connection, through pg_prepared_statements of that session;
 * - a booking for any of several providers locks them all in one statement, in id order, whatever order they
 *   come in: concurrent bookings over overlapping teams neither deadlock nor overbook.
 */

const describePostgres = POSTGRES_URL ? describe : describe.skip;

describePostgres('Postgres: the statements the storage sends', () => {
  const schema = `svc_prepared_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  let client: Sql;
  let storage: Storage;
  const ws = aWorkspace();
  const provider = aProvider(ws);
  const service = aService(ws, { providerIds: [provider.id] });

  const prepared = async () =>
    (await client<{ statement: string }[]>`select statement from pg_prepared_statements`).map((row) => row.statement.replace(/\s+/g, ' '));

  beforeAll(async () => {
    client = postgres(POSTGRES_URL!, { max: 1, onnotice: () => {}, connection: { search_path: schema } });
    await client.unsafe(`create schema "${schema}"`);
    storage = postgresStorage(client);
    await storage.migrate();
    await storage.createWorkspace(ws);
    await storage.createProvider(provider);
    await storage.createService(service);
  });

  /** `size` new providers of the workspace */
  const addTeam = async (size: number): Promise<ProviderRecord[]> => {
    const team = Array.from({ length: size }, () => aProvider(ws));
    for (const member of team) await storage.createProvider(member);
    return team;
  };

  afterAll(async () => {
    await client.unsafe(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });

  test('a read is prepared once and then executed by name, with the same answer', async () => {
    const first = await storage.getProvider(ws.id, provider.id);
    expect(first?.name).toBe(provider.name);
    const statements = (await prepared()).filter((statement) => statement.includes('from "providers"'));
    expect(statements.length).toBeGreaterThanOrEqual(1);
    expect(await storage.getProvider(ws.id, provider.id)).toEqual(first);
    expect((await prepared()).filter((statement) => statement.includes('from "providers"'))).toEqual(statements);
  });

  test("a booking's transaction prepares its statements too, and a second booking reuses them", async () => {
    const reserve = (startTime: number) =>
      storage.reserveBooking({
        booking: aBooking(service, provider, { startTime, endTime: startTime + HOUR }),
        candidates: [provider.id],
        margin: 0,
        fits: (_providerId, busy) => (busy.length === 0 ? null : 'taken'),
        emit: () => [],
      });
    const at = Date.parse('2030-03-04T09:00:00.000Z');
    expect((await reserve(at)).ok).toBe(true);
    const afterFirst = await prepared();
    expect(afterFirst.some((statement) => statement.startsWith('insert into "bookings"'))).toBe(true);
    expect(afterFirst.some((statement) => statement.includes('json_agg(json_build_array("bookings"."start_time"'))).toBe(true);
    expect((await reserve(at + 2 * HOUR)).ok).toBe(true);
    expect(await reserve(at)).toEqual({ ok: false, reason: 'taken' });
    expect(await prepared()).toEqual(afterFirst);
  });

  test('a booking for any of six providers takes their locks in one statement', async () => {
    const team = await addTeam(6);
    const locks: string[] = [];
    const counting = postgres(POSTGRES_URL!, {
      max: 1,
      onnotice: () => {},
      connection: { search_path: schema },
      debug: (_connection, query) => {
        if (query.includes('pg_advisory_xact_lock')) locks.push(query);
      },
    });
    const counted = postgresStorage(counting);
    try {
      const at = Date.parse('2030-03-05T09:00:00.000Z');
      const result = await counted.reserveBooking({
        booking: aBooking(service, team[0]!, { startTime: at, endTime: at + HOUR }),
        candidates: team.map((member) => member.id).reverse(),
        margin: 0,
        fits: () => null,
        emit: () => [],
      });
      expect(result.ok).toBe(true);
      expect(locks).toHaveLength(1);
    } finally {
      await counted.close();
    }
  });

  test("a booking's reads, sent with its lock, see a booking committed while it waited for the lock", async () => {
    const [member] = await addTeam(1);
    const at = Date.parse('2030-03-07T09:00:00.000Z');
    const earlier = await storage.reserveBooking({
      booking: aBooking(service, member!, { startTime: at - 24 * HOUR, endTime: at - 23 * HOUR }),
      candidates: [member!.id],
      margin: 0,
      fits: () => null,
      emit: () => [],
    });
    expect(earlier.ok).toBe(true);
    const other = postgres(POSTGRES_URL!, { max: 1, onnotice: () => {}, connection: { search_path: schema } });
    const pool = postgres(POSTGRES_URL!, { max: 2, onnotice: () => {}, connection: { search_path: schema } });
    const waiting = postgresStorage(pool);
    try {
      // Another writer holds the provider's lock, as a reservation on another instance would.
      await other`select pg_advisory_lock(hashtextextended(${member!.id}, 0))`;
      let seen: number | undefined;
      const reserving = waiting.reserveBooking({
        booking: aBooking(service, member!, { startTime: at, endTime: at + HOUR }),
        candidates: [member!.id],
        margin: 0,
        fits: (_providerId, busy) => {
          seen = busy.length;
          return busy.some((interval) => interval.startTime === at) ? 'taken' : null;
        },
        emit: () => [],
      });
      await waitFor(
        async () =>
          (await other<{ waiting: number }[]>`select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted`)[0]!.waiting > 0,
        { what: 'the reservation to wait for the lock' },
      );
      // While it waits, that writer commits a booking of the same hour (a copy of the earlier one, moved), then lets go.
      if (!earlier.ok) throw new Error('unreachable');
      await other.begin(async (tx) => {
        await tx`create temporary table moved on commit drop as select * from bookings where id = ${earlier.booking.id}`;
        await tx`update moved set id = ${'bk_while_waiting'}, start_time = ${at}, end_time = ${at + HOUR}`;
        await tx`insert into bookings select * from moved`;
      });
      await other`select pg_advisory_unlock(hashtextextended(${member!.id}, 0))`;
      expect(await reserving).toEqual({ ok: false, reason: 'taken' });
      expect(seen).toBe(1);
    } finally {
      await waiting.close();
      await other.end();
    }
  });

  test('concurrent bookings over overlapping teams, listed in any order, neither deadlock nor overbook', async () => {
    const team = await addTeam(5);
    const pool = postgres(POSTGRES_URL!, { max: 10, onnotice: () => {}, connection: { search_path: schema } });
    const shared = postgresStorage(pool);
    try {
      const at = Date.parse('2030-03-06T09:00:00.000Z');
      // 40 bookings of one hour, each for any of three or more of the team, their order shuffled
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, index) => {
          const candidates = team.filter((_, member) => (member + index) % 5 < 3 + (index % 3)).map((member) => member.id);
          if (index % 2) candidates.reverse();
          return shared.reserveBooking({
            booking: aBooking(service, team[0]!, { startTime: at, endTime: at + HOUR }),
            candidates,
            margin: 0,
            fits: (_providerId, busy) => (busy.length === 0 ? null : 'taken'),
            emit: () => [],
          });
        }),
      );
      const booked = outcomes.filter((outcome) => outcome.ok);
      expect(booked).toHaveLength(team.length);
      const busy = await storage.listBusy(
        team.map((member) => member.id),
        at,
        at + HOUR,
      );
      expect(new Set(busy.map((interval) => interval.providerId)).size).toBe(team.length);
      expect(busy).toHaveLength(team.length);
    } finally {
      await shared.close();
    }
  });
});
