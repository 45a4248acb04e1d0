import { asc, inArray, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import type { Storage } from '../../../src/ports/storage/index.ts';
import type { Db, Dialect, Tables } from '../sql/dialect.ts';
import { drizzleStorage } from '../sql/drizzle-storage.ts';
import { dueMessagesCondition, toMessage } from '../sql/outbox.ts';
import { MIGRATIONS_TABLE } from '../sql/embedded-migration.ts';
import { errorChain } from '../sql/errors.ts';
import { migrations } from './migrations.ts';
import * as schema from './schema.ts';

export interface PostgresOptions {
  /** schema (search_path) to use instead of `public`; created by migrate() when missing */
  schema?: string;
  /** connections in the pool */
  max?: number;
}

// Arbitrary constant: the advisory lock that serialises migrations of several instances starting at once.
const MIGRATION_LOCK_KEY = 7_346_110_001;

/**
 * Storage on PostgreSQL through postgres.js. A reservation takes a transaction-scoped advisory lock per
 * candidate provider (in id order, so two reservations never wait on each other in a cycle) before it reads
 * the provider's bookings; webhook messages are claimed with FOR UPDATE SKIP LOCKED and a lease.
 */
export function postgresStorage(url: string, options: PostgresOptions = {}): Storage {
  const client = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: options.schema ? { search_path: options.schema } : {},
  });
  const db: Db = drizzle(client, { schema });
  const tables: Tables = schema;

  const dialect: Dialect = {
    db,
    tables,
    write: (work) => db.transaction(work),
    async lockProviders(tx, providerIds) {
      for (const id of [...providerIds].sort()) {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${id}, 0))`);
      }
    },
    async claimDueMessages(owner, now, leaseUntil, limit) {
      const m = tables.webhookMessages;
      const due = db
        .select({ id: m.id })
        .from(m)
        .where(dueMessagesCondition(tables, now))
        .orderBy(asc(m.nextAttemptAt), asc(m.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      const rows = await db.update(m).set({ leaseOwner: owner, leaseUntil }).where(inArray(m.id, due)).returning();
      return rows.map(toMessage);
    },
    isUniqueViolation(error) {
      for (const link of errorChain(error)) if (link.code === '23505') return true;
      return false;
    },
    async migrate() {
      let applied = 0;
      await client.begin(async (tx) => {
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
  };
  return drizzleStorage(dialect);
}
