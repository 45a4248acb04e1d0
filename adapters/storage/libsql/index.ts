import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createClient, type Client, type InStatement } from '@libsql/client';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import type { Storage } from '../../../src/ports/storage/index.ts';
import type { Db, Dialect, Tables } from '../sql/dialect.ts';
import { drizzleStorage } from '../sql/drizzle-storage.ts';
import { claimDue } from '../sql/leased.ts';
import { toMessage } from '../sql/outbox.ts';
import { MIGRATIONS_TABLE } from '../sql/embedded-migration.ts';
import { errorChain } from '../sql/errors.ts';
import { openFileClient } from './file-client.ts';
import { libsqlFilePath } from './file.ts';
import { WriteLock } from '../sql/write-lock.ts';
import { migrations } from './migrations.ts';
import * as schema from './schema.ts';

/** Dialect.jsonRows on SQLite (exported for the query-plan tests). */
export const libsqlJsonRows = (columns: (SQL | AnyColumn)[]) => sql`json_group_array(json_array(${sql.join(columns, sql`, `)}))`;

/** Rows of each index SQLite reads for its statistics (PRAGMA analysis_limit): enough to plan by. */
const ANALYSIS_ROWS = 1000;

/** How long a write waits for another process holding SQLite's write lock, ms. */
const BUSY_TIMEOUT_MS = 4000;

/**
 * One write queue per database for the whole process: two storages opened on the same file (two server
 * instances in one process, the CLI beside the server in tests) must queue behind each other too, because a
 * writer blocked in SQLite's busy handler also blocks the event loop the lock holder needs to finish.
 */
const writeLocks = new Map<string, WriteLock>();

function writeLockFor(url: string): WriteLock {
  const path = url.startsWith('file:') ? (url.slice('file:'.length).split('?')[0] ?? '') : '';
  const key = path && path !== ':memory:' ? resolve(path) : url;
  let lock = writeLocks.get(key);
  if (!lock) writeLocks.set(key, (lock = new WriteLock()));
  return lock;
}

const isRead = (statement: InStatement) => /^\s*select\b/i.test(typeof statement === 'string' ? statement : statement.sql);

/**
 * The client with every statement that writes outside a transaction (single inserts, updates, deletes) put in
 * the write queue as well; reads go straight through (WAL readers never wait for the writer).
 */
function queueWrites(client: Client, lock: WriteLock): Client {
  return new Proxy(client, {
    get(target, property) {
      if (property === 'execute') {
        const execute = target.execute.bind(target) as (...args: unknown[]) => ReturnType<Client['execute']>;
        return (...args: unknown[]) => (isRead(args[0] as InStatement) ? execute(...args) : lock.run(() => execute(...args)));
      }
      if (property === 'batch') return (...args: Parameters<Client['batch']>) => lock.run(() => target.batch(...args));
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

type Rows<S> = { [K in keyof S]: S[K] extends { $inferSelect: infer Row; $inferInsert: infer Insert } ? [Row, Insert] : never };
type SameRows<A, B> = [Rows<A>] extends [Rows<B>] ? ([Rows<B>] extends [Rows<A>] ? true : false) : false;

/**
 * The libSQL database and tables as the shared queries (adapters/storage/sql) see them: through drizzle's
 * Postgres types. TypeScript cannot check one query body against two drizzle dialects (their query builders are
 * unrelated classes), so this is the one place that tells it. It holds because both dialects' tables come from
 * one description (adapters/storage/sql/schema.ts) and have the same rows, which the `tables` parameter checks
 * (it is `never` otherwise), and because the queries keep to builder calls both dialects have, which
 * tests/storage checks by running the one contract on both databases.
 */
function asShared(db: LibSQLDatabase<typeof schema>, tables: SameRows<typeof schema, Tables> extends true ? typeof schema : never): { db: Db; tables: Tables } {
  return { db: db as unknown as Db, tables: tables as unknown as Tables };
}

/**
 * Storage on libSQL: `file:path` (embedded, the default; the folder is created) or `libsql://` (a remote sqld).
 * Writes are serialised: in this process by a queue per database (transactions and single statements alike),
 * across processes by SQLite's write lock, taken up front (BEGIN IMMEDIATE) so that a reservation's read and
 * write see no other writer in between.
 */
export function libsqlStorage(url: string): Storage {
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length).split('?')[0] ?? '';
    if (path && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  }
  const file = libsqlFilePath(url);
  const client = file
    ? openFileClient(file, BUSY_TIMEOUT_MS)
    : createClient({ url, intMode: 'number', timeout: BUSY_TIMEOUT_MS } as Parameters<typeof createClient>[0]);
  const lock = writeLockFor(url);
  const { db, tables } = asShared(drizzle(queueWrites(client, lock), { schema }), schema);
  let walReady: Promise<unknown> | undefined;
  const fileDatabase = file !== null;
  const embedded = url.startsWith('file:');

  // On a file, WAL with synchronous=NORMAL: a commit is durable against a crash of svc or of the OS process, and
  // skips the fsync per commit that FULL costs (power loss may lose the last commits, never corrupt the file). The
  // file client sets it on each connection it opens (file-client.ts).
  const write = <T>(work: (tx: Db) => Promise<T>) => lock.run(() => db.transaction(work));

  const dialect: Dialect = {
    db,
    tables,
    write,
    async lockProviders() {
      // The write transaction is already exclusive: SQLite has one writer.
    },
    async claimDueMessages(owner, now, leaseUntil, limit) {
      const rows = await write((tx) => claimDue(tx, tables.webhookMessages, owner, now, leaseUntil, limit));
      return rows.map(toMessage);
    },
    jsonRows: libsqlJsonRows,
    isUniqueViolation(error) {
      for (const link of errorChain(error)) {
        if (String(link.code ?? '').startsWith('SQLITE_CONSTRAINT') && /UNIQUE/i.test(String(link.message ?? ''))) return true;
      }
      return false;
    },
    async migrate() {
      walReady ??= fileDatabase ? client.execute('PRAGMA journal_mode = WAL') : Promise.resolve();
      await walReady;
      await lock.run(() => applyMigrations(client));
      // Without statistics SQLite can plan availability's busy read over an index of every workspace's future
      // bookings (tests/storage/query-plans.test.ts): every start analyses the file (bounded: see analyze).
      await dialect.analyze();
    },
    async analyze() {
      // Plain ANALYZE, each index sampled from about ANALYSIS_ROWS rows, so the cost stays bounded however big the
      // file grows (the SQLite of libsql 0.5 is 3.45: its PRAGMA optimize only looks at tables this connection used).
      await lock.run(() => client.executeMultiple(`PRAGMA analysis_limit = ${ANALYSIS_ROWS}; ANALYZE;`));
    },
    async ping() {
      await client.execute('SELECT 1');
    },
    async close() {
      await lock.run(async () => client.close());
    },
    // A file is served by one svc serve, which writes all of its bookings (the short commands beside it write
    // none; docs/decisions/0012), and a database in memory is this process's alone; a remote server may have
    // other clients.
    hearsEveryBookingWrite: () => embedded,
  };
  return drizzleStorage(dialect);
}

async function applyMigrations(client: Client) {
  const tx = await client.transaction('write');
  try {
    await tx.execute(`CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" (id INTEGER PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
    const last = await tx.execute(`SELECT max(created_at) AS at FROM "${MIGRATIONS_TABLE}"`);
    // by position: the file client's rows have no names (file-client.ts)
    const appliedUpTo = Number(last.rows[0]?.[0] ?? 0);
    for (const migration of migrations) {
      if (migration.folderMillis <= appliedUpTo) continue;
      for (const statement of migration.statements) await tx.execute(statement);
      await tx.execute({ sql: `INSERT INTO "${MIGRATIONS_TABLE}" (hash, created_at) VALUES (?, ?)`, args: [migration.hash, migration.folderMillis] });
    }
    await tx.commit();
  } finally {
    tx.close();
  }
}
