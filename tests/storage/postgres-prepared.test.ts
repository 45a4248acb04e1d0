import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import postgres, { type Sql } from 'postgres';
import { postgresStorage } from '../../adapters/storage/postgres/index.ts';
import type { Storage } from '../../src/ports/storage/index.ts';
import { POSTGRES_URL } from '../support/storage.ts';
import { aBooking, aProvider, aService, aWorkspace, HOUR } from './contract/fixtures.ts';

/*
 * svc's queries on Postgres are named prepared statements of their connection (adapters/storage/postgres/index.ts,
 * `preparing`; docs/decisions/0028-postgres-statements-prepared.md): Postgres parses and plans a statement once
 * per connection, and only its parameters cross the socket afterwards. Seen from the database's side here, on a
 * pool of one connection, through pg_prepared_statements of that session.
 */

const describePostgres = POSTGRES_URL ? describe : describe.skip;

describePostgres('Postgres: the storage prepares its statements', () => {
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
});
