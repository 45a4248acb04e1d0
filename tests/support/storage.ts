import { describe } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { libsqlStorage } from '../../adapters/storage/libsql/index.ts';
import { postgresStorage } from '../../adapters/storage/postgres/index.ts';
import type { Storage } from '../../src/ports/storage/index.ts';

export type AdapterName = 'libsql' | 'postgres';

export interface TestDatabase {
  adapter: AdapterName;
  storage: Storage;
  /**
   * what another process needs to open the same database: DATABASE_URL, and on Postgres the SVC_SECRET every
   * server on it must share (a libSQL file keeps a generated one beside itself)
   */
  env: Record<string, string>;
  /** opens a second, independent connection pool to the same database */
  reopen(): Storage;
  /** closes the storage and removes the database */
  drop(): Promise<void>;
}

export const POSTGRES_URL = process.env.SVC_TEST_POSTGRES_URL;

const announced = globalThis as { svcPostgresSkipAnnounced?: boolean };
if (!POSTGRES_URL && !announced.svcPostgresSkipAnnounced) {
  announced.svcPostgresSkipAnnounced = true;
  console.log('SVC_TEST_POSTGRES_URL is not set: the Postgres half of the storage tests is skipped');
}

/** A fresh, migrated database: a temp libSQL file, or a new schema in SVC_TEST_POSTGRES_URL. */
export async function createTestDatabase(adapter: AdapterName): Promise<TestDatabase> {
  if (adapter === 'libsql') {
    const dir = mkdtempSync(join(tmpdir(), 'svc-test-'));
    const url = `file:${join(dir, 'svc.db')}`;
    const storage = libsqlStorage(url);
    await storage.migrate();
    const opened: Storage[] = [storage];
    return {
      adapter,
      storage,
      env: { DATABASE_URL: url },
      reopen: () => {
        const other = libsqlStorage(url);
        opened.push(other);
        return other;
      },
      async drop() {
        for (const each of opened) await each.close().catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (!POSTGRES_URL) throw new Error('SVC_TEST_POSTGRES_URL is not set');
  const schema = `svc_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const storage = postgresStorage(POSTGRES_URL, { schema });
  await storage.migrate();
  const opened: Storage[] = [storage];
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    adapter,
    storage,
    env: { DATABASE_URL: url.toString(), SVC_SECRET: `test-secret-${schema}-0123456789abcdef` },
    reopen: () => {
      const other = postgresStorage(POSTGRES_URL, { schema });
      opened.push(other);
      return other;
    },
    async drop() {
      for (const each of opened) await each.close().catch(() => {});
      const admin = postgres(POSTGRES_URL, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop schema if exists "${schema}" cascade`);
      await admin.end();
    },
  };
}

/** The adapters a suite runs against: libSQL always, Postgres when SVC_TEST_POSTGRES_URL is set. */
export const ADAPTERS: AdapterName[] = ['libsql', 'postgres'];

/** `describe` once per adapter; the Postgres block is skipped (and says so) without SVC_TEST_POSTGRES_URL. */
export function describeEachAdapter(title: string, body: (adapter: AdapterName) => void) {
  for (const adapter of ADAPTERS) {
    const run = adapter === 'postgres' && !POSTGRES_URL ? describe.skip : describe;
    run(`${title} [${adapter}]`, () => body(adapter));
  }
}
