import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createClient, type Client } from '@libsql/client';
import { and, asc, inArray } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/libsql';
import type { Storage } from '../../../src/storage/port.ts';
import { DrizzleStorage, dueMessagesCondition, toMessage, type Db, type Dialect, type Tables } from '../sql/drizzle-storage.ts';
import { MIGRATIONS_TABLE } from '../sql/embedded-migration.ts';
import { errorChain } from '../sql/errors.ts';
import { WriteLock } from '../sql/write-lock.ts';
import { migrations } from './migrations.ts';
import * as schema from './schema.ts';

/** How long a write waits for another process holding SQLite's write lock, ms. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Storage on libSQL: `file:path` (embedded, the default; the folder is created) or `libsql://` (a remote sqld).
 * Writes are serialised: in this process by a queue, across processes by SQLite's write lock, taken up front
 * (BEGIN IMMEDIATE) so that a reservation's read and write see no other writer in between.
 */
export function libsqlStorage(url: string): Storage {
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length).split('?')[0] ?? '';
    if (path && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  }
  const client = createClient({ url, intMode: 'number', timeout: BUSY_TIMEOUT_MS } as Parameters<typeof createClient>[0]);
  const db = drizzle(client, { schema }) as unknown as Db;
  const tables = schema as unknown as Tables;
  const lock = new WriteLock();
  let walReady: Promise<unknown> | undefined;

  const write = <T>(work: (tx: Db) => Promise<T>) =>
    lock.run(() => (db as unknown as { transaction: (fn: (tx: Db) => Promise<T>) => Promise<T> }).transaction(work));

  const dialect: Dialect = {
    db,
    tables,
    write,
    async lockProviders() {
      // The write transaction is already exclusive: SQLite has one writer.
    },
    claimDueMessages(owner, now, leaseUntil, limit) {
      const m = tables.webhookMessages;
      return write(async (tx) => {
        const due = await tx.select({ id: m.id }).from(m).where(dueMessagesCondition(tables, now)).orderBy(asc(m.nextAttemptAt)).limit(limit);
        if (due.length === 0) return [];
        const rows = await tx.update(m).set({ leaseOwner: owner, leaseUntil })
          .where(and(inArray(m.id, due.map((row) => row.id)), dueMessagesCondition(tables, now))).returning();
        return rows.map(toMessage);
      });
    },
    isUniqueViolation(error) {
      for (const link of errorChain(error)) {
        if (String(link.code ?? '').startsWith('SQLITE_CONSTRAINT') && /UNIQUE/i.test(String(link.message ?? ''))) return true;
      }
      return false;
    },
    async migrate() {
      walReady ??= url.startsWith('file:') ? client.execute('PRAGMA journal_mode = WAL') : Promise.resolve();
      await walReady;
      await lock.run(() => applyMigrations(client));
    },
    async ping() {
      await client.execute('SELECT 1');
    },
    async close() {
      await lock.run(async () => client.close());
    },
  };
  return new DrizzleStorage(dialect);
}

async function applyMigrations(client: Client) {
  const tx = await client.transaction('write');
  try {
    await tx.execute(`CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" (id INTEGER PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
    const last = await tx.execute(`SELECT max(created_at) AS at FROM "${MIGRATIONS_TABLE}"`);
    const appliedUpTo = Number(last.rows[0]?.at ?? 0);
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
