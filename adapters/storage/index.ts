import type { Storage } from '../../src/ports/storage/index.ts';
import { libsqlStorage } from './libsql/index.ts';
import { postgresStorage } from './postgres/index.ts';

/** The adapter a DATABASE_URL names: postgres:// or postgresql:// → Postgres, anything else → libSQL. */
export function openStorage(url: string): Storage {
  return /^postgres(ql)?:\/\//.test(url) ? postgresStorage(url) : libsqlStorage(url);
}
