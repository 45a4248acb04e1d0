import { type AnyColumn, asc, inArray, type SQL, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres, { type Sql } from 'postgres';
import type { Storage } from '../../../src/ports/storage/index.ts';
import type { Db, Dialect, Tables } from '../sql/dialect.ts';
import { drizzleStorage } from '../sql/drizzle-storage.ts';
import { dueCondition } from '../sql/leased.ts';
import { toMessage } from '../sql/outbox.ts';
import { MIGRATIONS_TABLE } from '../sql/embedded-migration.ts';
import { errorChain } from '../sql/errors.ts';
import { changeChannel, relayingChanges } from './change-channel.ts';
import { migrations } from './migrations.ts';
import * as schema from './schema.ts';

export interface PostgresOptions {
  /** schema (search_path) to use instead of `public`; created by migrate() when missing */
  schema?: string;
  /** connections in the pool (SVC_DB_POOL_SIZE); default DEFAULT_POOL_SIZE */
  max?: number;
}

/** Dialect.jsonRows on Postgres (exported for the query-plan tests). */
export const postgresJsonRows = (columns: (SQL | AnyColumn)[]) => sql`json_agg(json_build_array(${sql.join(columns, sql`, `)}))`;

/** Connections one pool opens at most unless told otherwise (SVC_DB_POOL_SIZE). */
const DEFAULT_POOL_SIZE = 10;
/** How long opening a connection may take before the query waiting for it fails (and the request gets 503), s. */
const CONNECT_TIMEOUT_SECONDS = 3;
/** The most a statement may run (lock waits included) before the server cancels it (57014, a 503), ms. */
const STATEMENT_TIMEOUT_MS = 4000;
/** A connection unused this long is closed (and opened again when needed), s. */
const IDLE_TIMEOUT_SECONDS = 60;
/**
 * The wait before the next attempt to connect after one failed, s: postgres.js's own back-off grows to 20 s,
 * so a query could wait that long for a connection while the database is down; capped at 1 s, a request meets
 * the refusal (and answers 503) within CONNECT_TIMEOUT_SECONDS + 1 s, and the pool notices the database's
 * return within a second.
 */
const reconnectBackoff = (retries: number) => Math.min(0.05 * 2 ** retries, 1);

/**
 * Whether `error` is postgres.js's known race (porsager/postgres#1066, #1208): a write it deferred with
 * setImmediate runs after the connection closed and dereferences the socket it has let go, throwing outside
 * any query, where nothing can catch it. The queries of that connection have already failed by then (with
 * CONNECTION_CLOSED, answered 503), so the throw is noise; uncaught, it would end the process.
 */
export function isClosedSocketWriteRace(error: unknown): boolean {
  if (!(error instanceof TypeError) || typeof error.stack !== 'string') return false;
  return /\bnextWrite\b/.test(error.stack) && /postgres[\\/]src[\\/]connection\.js/.test(error.stack) && /\bwrite\b/.test(error.message);
}

/**
 * The connection pool svc uses on Postgres, with every wait bounded: connecting (connect_timeout), a statement
 * (statement_timeout, sent as a startup parameter), the pause between attempts to reconnect. The storage and the
 * rate limiter of one process share it, so a process opens at most `max` connections.
 */
export function openPostgresClient(url: string, options: PostgresOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? DEFAULT_POOL_SIZE,
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    idle_timeout: IDLE_TIMEOUT_SECONDS,
    backoff: reconnectBackoff,
    onnotice: () => {},
    // postgres.js would read Postgres's array types as the first statement of every new connection, from a
    // promise it drops: when that connection closes meanwhile (a database restart), the rejection is unhandled
    // and ends the process (porsager/postgres#1192). svc passes and reads no Postgres arrays.
    fetch_types: false,
    connection: { statement_timeout: STATEMENT_TIMEOUT_MS, ...(options.schema ? { search_path: options.schema } : {}) },
  });
}

/**
 * `client` with every query drizzle sends prepared as a named statement of its connection (postgres.js keeps
 * them per connection, by text): drizzle asks for unnamed ones, which Postgres parses and plans again each time
 * and whose whole text crosses the socket each time.
 */
function preparing(client: Sql): Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe')
        return (query: string, params?: unknown[], options?: object) => target.unsafe(query, params as never, { ...options, prepare: true });
      if (property === 'begin') {
        return (...args: unknown[]) => {
          const work = args.pop() as (tx: Sql) => unknown;
          return (target.begin as (...a: unknown[]) => unknown)(...args, (tx: Sql) => work(preparing(tx)));
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

// Arbitrary constant: the advisory lock that serialises migrations of several instances starting at once.
const MIGRATION_LOCK_KEY = 7_346_110_001;

/**
 * Storage on PostgreSQL through postgres.js. A reservation takes a transaction-scoped advisory lock per
 * candidate provider (in id order, so two reservations never wait on each other in a cycle) before it reads
 * the provider's bookings; webhook messages are claimed with FOR UPDATE SKIP LOCKED and a lease. Its changes and
 * those of every other instance on the schema are announced to its listeners (change-channel.ts).
 */
export function postgresStorage(urlOrClient: string | Sql, options: PostgresOptions = {}): Storage {
  // the storage owns the pool either way: close() ends it
  const client = typeof urlOrClient === 'string' ? openPostgresClient(urlOrClient, options) : urlOrClient;
  const db: Db = drizzle(preparing(client), { schema });
  const tables: Tables = schema;

  const dialect: Dialect = {
    db,
    tables,
    write: (work) => db.transaction(work),
    async lockProviders(tx, providerIds) {
      // One statement for all: a function scan of unnest yields the array in order, so the locks are taken in id
      // order as one round trip, where a team's "any provider" booking took one round trip per provider.
      const sorted = [...new Set(providerIds)].sort();
      if (sorted.length === 0) return;
      const ids = sql.join(
        sorted.map((id) => sql`${id}`),
        sql`, `,
      );
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(id, 0)) from unnest(array[${ids}]::text[]) as locked(id)`);
    },
    async claimDueMessages(owner, now, leaseUntil, limit) {
      const m = tables.webhookMessages;
      const due = db
        .select({ id: m.id })
        .from(m)
        .where(dueCondition(m, now))
        .orderBy(asc(m.nextAttemptAt), asc(m.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      const rows = await db.update(m).set({ leaseOwner: owner, leaseUntil }).where(inArray(m.id, due)).returning();
      return rows.map(toMessage);
    },
    jsonRows: postgresJsonRows,
    isUniqueViolation(error) {
      for (const link of errorChain(error)) if (link.code === '23505') return true;
      return false;
    },
    async migrate() {
      let applied = 0;
      await client.begin(async (tx) => {
        // a migration may rewrite a big table: it is not held to the serving statement timeout
        await tx.unsafe('set local statement_timeout = 0');
        await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
        if (options.schema) await tx.unsafe(`create schema if not exists "${options.schema.replaceAll('"', '""')}"`);
        await tx.unsafe(`create table if not exists "${MIGRATIONS_TABLE}" (id serial primary key, hash text not null, created_at bigint)`);
        const [last] = await tx.unsafe(`select max(created_at) as at from "${MIGRATIONS_TABLE}"`);
        const appliedUpTo = Number(last?.at ?? 0);
        for (const migration of migrations) {
          if (migration.folderMillis <= appliedUpTo) continue;
          for (const statement of migration.statements) await tx.unsafe(statement);
          await tx.unsafe(`insert into "${MIGRATIONS_TABLE}" (hash, created_at) values ($1, $2)`, [migration.hash, migration.folderMillis]);
          applied += 1;
        }
      });
      // A migration can create or rebuild indexes: fresh statistics let the planner use them at once.
      if (applied > 0) await dialect.analyze();
    },
    async analyze() {
      // Table by table in svc's schema only: a plain ANALYZE would go through every schema of the database.
      const tables = await client<{ name: string }[]>`select tablename as name from pg_tables where schemaname = current_schema()`;
      for (const { name } of tables) await client.unsafe(`analyze "${name.replaceAll('"', '""')}"`);
    },
    async ping() {
      await client`select 1`;
    },
    async close() {
      await client.end({ timeout: 5 });
    },
    hearsEveryBookingWrite: () => false,
  };
  const schemaName = options.schema ?? (client.options.connection as { search_path?: string }).search_path ?? 'public';
  return relayingChanges(drizzleStorage(dialect), client, changeChannel(schemaName));
}
