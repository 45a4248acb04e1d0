import type { Sql } from 'postgres';
import type { Storage } from '../../src/ports/storage/index.ts';
import { libsqlStorage } from './libsql/index.ts';
import { openPostgresClient, postgresStorage } from './postgres/index.ts';

export interface OpenedDatabase {
  storage: Storage;
  /** on Postgres, the storage's connection pool, for the rate limiter to share (one pool per process) */
  postgres?: Sql;
}

const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

/**
 * The adapter a DATABASE_URL names: postgres:// or postgresql:// → Postgres (a pool of `poolSize`
 * connections, SVC_DB_POOL_SIZE), anything else → libSQL.
 */
export function openDatabase(url: string, options: { poolSize?: number } = {}): OpenedDatabase {
  if (!isPostgresUrl(url)) return { storage: libsqlStorage(url) };
  const client = openPostgresClient(url, { max: options.poolSize });
  return { storage: postgresStorage(client), postgres: client };
}

/** The storage alone (the one-shot commands). */
export function openStorage(url: string, options: { poolSize?: number } = {}): Storage {
  return openDatabase(url, options).storage;
}
