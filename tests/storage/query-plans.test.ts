import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createClient, type Client } from '@libsql/client';
import { drizzle as drizzleLibsql } from 'drizzle-orm/libsql';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { openFileClient } from '../../adapters/storage/libsql/file-client.ts';
import { libsqlJsonRows } from '../../adapters/storage/libsql/index.ts';
import { postgresJsonRows } from '../../adapters/storage/postgres/index.ts';
import * as libsqlSchema from '../../adapters/storage/libsql/schema.ts';
import * as postgresSchema from '../../adapters/storage/postgres/schema.ts';
import { busyAndHeldQuery, busyQuery, listBookingsQuery } from '../../adapters/storage/sql/bookings.ts';
import type { Db, Tables } from '../../adapters/storage/sql/dialect.ts';
import type { BookingFilter } from '../../src/ports/storage/index.ts';
import { createTestDatabase, describeEachAdapter, type TestDatabase } from '../support/storage.ts';
import { aBooking, aProvider, aService, aWorkspace } from './contract/fixtures.ts';

/*
 * The plans the databases choose for a deep keyset page of listBookings, on a workspace with enough bookings
 * (and fresh statistics) that a plan reading from the workspace's first booking, or sorting what is left after
 * the cursor, would be chosen only if the query gave the index no range to start from.
 */

const BOOKINGS = 6000;
const MINUTE = 60_000;
const T0 = Date.parse('2030-03-04T09:00:00.000Z');

describeEachAdapter('query plans', (adapter) => {
  let database: TestDatabase;
  let db: Db;
  const jsonRows = adapter === 'libsql' ? libsqlJsonRows : postgresJsonRows;
  let tables: Tables;
  let explain: (sql: string, params: unknown[]) => Promise<string>;
  /** Postgres: the plan of the statement prepared as svc prepares it, under a generic plan (one for any parameters) */
  let explainGeneric: (sql: string, params: unknown[]) => Promise<string>;
  let close: () => Promise<unknown>;
  const ws = aWorkspace();
  const providers = [aProvider(ws), aProvider(ws)];
  const srv = aService(ws, { providerIds: providers.map((provider) => provider.id) });
  let middle: { startTime: number; id: string };

  beforeAll(async () => {
    database = await createTestDatabase(adapter);
    const { storage } = database;
    await storage.createWorkspace(ws);
    for (const provider of providers) await storage.createProvider(provider);
    await storage.createService(srv);
    // Two bookings share each start, so the cursor's id matters.
    const rows = Array.from({ length: BOOKINGS }, (_, i) =>
      aBooking(srv, providers[i % 2]!, { startTime: T0 + Math.floor(i / 2) * 30 * MINUTE, status: i % 7 === 0 ? 'CANCELLED' : 'CONFIRMED' }),
    );
    if (adapter === 'libsql') {
      const client: Client = createClient({ url: database.env.DATABASE_URL! });
      db = drizzleLibsql(client, { schema: libsqlSchema }) as unknown as Db;
      tables = libsqlSchema as unknown as Tables;
      // A connection reads SQLite's statistics when it opens: each plan is asked on a new one, as svc's would be.
      explain = async (sql, params) => {
        const fresh = openFileClient(database.env.DATABASE_URL!.slice('file:'.length), 1000);
        try {
          return (await fresh.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: params as never })).rows.map((row) => String(row[3])).join('\n'); // id, parent, notused, detail
        } finally {
          fresh.close();
        }
      };
      close = async () => client.close();
    } else {
      const client = postgres(database.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      db = drizzlePostgres(client, { schema: postgresSchema }) as unknown as Db;
      tables = postgresSchema as unknown as Tables;
      explain = async (sql, params) =>
        (await client.unsafe(`EXPLAIN (COSTS OFF) ${sql}`, params as never[])).map((row) => String(row['QUERY PLAN'])).join('\n');
      // After five executions Postgres may keep one generic plan for a prepared statement: it must take the same
      // ranges with the parameters unknown.
      let prepared = 0;
      const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`);
      explainGeneric = async (sql, params) => {
        const name = `svc_plan_${prepared++}`;
        await client.unsafe('SET plan_cache_mode = force_generic_plan');
        await client.unsafe(`PREPARE ${name} AS ${sql}`);
        const rows = await client.unsafe(`EXPLAIN (COSTS OFF) EXECUTE ${name}(${params.map(literal).join(', ')})`);
        await client.unsafe(`DEALLOCATE ${name}`);
        await client.unsafe('RESET plan_cache_mode');
        return rows.map((row) => String(row['QUERY PLAN'])).join('\n');
      };
      close = () => client.end();
    }
    for (let i = 0; i < rows.length; i += 500) await db.insert(tables.bookings).values(rows.slice(i, i + 500));
    await storage.analyze();
    const sorted = rows.sort((a, b) => a.startTime - b.startTime || (a.id < b.id ? -1 : 1));
    middle = { startTime: sorted[BOOKINGS / 2]!.startTime, id: sorted[BOOKINGS / 2]!.id };
  }, 120_000);

  afterAll(async () => {
    await close?.();
    await database?.drop();
  });

  const planOf = async (filter: Omit<BookingFilter, 'limit'>) => {
    const query = listBookingsQuery(db, tables, jsonRows, ws.id, { limit: 50, ...filter }).query.toSQL();
    return explain(query.sql, query.params);
  };

  /** One of `indexes` entered at the cursor (the row value is its constraint, not a filter afterwards), no sort. */
  const expectRangeScanWithoutSort = (plan: string, indexes: string[]) => {
    const index = indexes.find((name) => plan.includes(name)) ?? indexes[0]!;
    if (adapter === 'libsql') {
      expect(plan).toContain(`USING INDEX ${index} (`);
      expect(plan).toMatch(/\(start_time,id\)>\(\?,\?\)/);
      expect(plan).not.toContain('TEMP B-TREE');
    } else {
      expect(plan).toContain(`Index Scan using ${index}`);
      expect(plan).toMatch(/Index Cond: .*ROW\(start_time, id\) > ROW\(/);
      expect(plan).not.toContain('Sort');
    }
  };

  test('a deep page of a workspace starts the (workspace, start, id) index at the cursor and sorts nothing', async () => {
    expectRangeScanWithoutSort(await planOf({ after: middle }), ['bookings_workspace_time_idx']);
  });

  test('a deep page of one provider starts an index on (…, start, id) at the cursor and sorts nothing', async () => {
    // Either index serves: (provider, start, id) directly, or (workspace, start, id) with the provider as a filter.
    const plan = await planOf({ after: middle, providerId: providers[0]!.id });
    expectRangeScanWithoutSort(plan, ['bookings_provider_time_idx', 'bookings_workspace_time_idx']);
  });

  test('the deep page holds the rows after the cursor, in order (ties on the start time by id)', async () => {
    const page = await database.storage.listBookings(ws.id, { limit: 4, after: middle });
    const expected = await database.storage.listBookings(ws.id, { limit: BOOKINGS });
    const at = expected.findIndex((booking) => booking.id === middle.id);
    expect(page.map((booking) => booking.id)).toEqual(expected.slice(at + 1, at + 5).map((booking) => booking.id));
  });

  test("availability's busy read takes a window of the providers' bookings from one index alone and sorts nothing", async () => {
    const from = middle.startTime;
    for (const buffer of [undefined, 0, 15 * MINUTE]) {
      const query = busyQuery(
        db,
        tables,
        jsonRows,
        providers.map((provider) => provider.id),
        from,
        from + 24 * 60 * MINUTE,
        undefined,
        buffer,
      ).toSQL();
      const plan = await explain(query.sql, query.params);
      if (adapter === 'libsql') {
        expect(plan).toContain('USING COVERING INDEX bookings_busy_idx (provider_id=? AND status=? AND start_time>? AND start_time<?)');
        expect(plan).not.toContain('TEMP B-TREE');
      } else {
        // Postgres may as well take the (status, start) index here, where two providers are the whole table; either
        // way it enters an index at the window, not the table at its start
        expect(plan).toMatch(/Index (Only )?Scan (using|on) (bookings_busy_idx|bookings_status_start_idx)/);
        expect(plan).toMatch(/Index Cond: .*start_time < /);
        expect(plan).not.toContain('Seq Scan');
        expect(plan).not.toContain('Sort');
      }
    }
  });

  if (adapter === 'postgres')
    test('prepared, under a generic plan, the deep page and the busy read keep their index ranges', async () => {
      const page = listBookingsQuery(db, tables, postgresJsonRows, ws.id, { limit: 50, after: middle }).query.toSQL();
      const pagePlan = await explainGeneric(page.sql, page.params);
      expect(pagePlan).toContain('Index Scan using bookings_workspace_time_idx');
      // a generic plan keeps the parameters as such
      expect(pagePlan).toMatch(/ROW\(\$\d+, \$\d+\)/);
      expect(pagePlan).toMatch(/Index Cond: .*ROW\(start_time, id\) > ROW\(/);
      expect(pagePlan).not.toContain('Sort');
      const ids = providers.map((provider) => provider.id);
      const busy = busyAndHeldQuery(db, tables, postgresJsonRows, ids, middle.startTime, middle.startTime + 24 * 60 * MINUTE, undefined, 0).toSQL();
      const busyPlan = await explainGeneric(busy.sql, busy.params);
      expect(busyPlan).toMatch(/Index (Only )?Scan (using|on) (bookings_busy_idx|bookings_status_start_idx)/);
      expect(busyPlan).not.toMatch(/Seq Scan on bookings/);
    });

  test('the statement listBusy runs, with the held seats of waiting lists, reads the bookings the same way', async () => {
    const from = middle.startTime;
    const ids = providers.map((provider) => provider.id);
    const query = busyAndHeldQuery(db, tables, jsonRows, ids, from, from + 24 * 60 * MINUTE, undefined, 0).toSQL();
    const plan = await explain(query.sql, query.params);
    if (adapter === 'libsql') {
      expect(plan).toContain('USING COVERING INDEX bookings_busy_idx (provider_id=? AND status=? AND start_time>? AND start_time<?)');
    } else {
      expect(plan).toMatch(/Index (Only )?Scan (using|on) (bookings_busy_idx|bookings_status_start_idx)/);
      expect(plan).not.toMatch(/Seq Scan on bookings/);
    }
  });
});
