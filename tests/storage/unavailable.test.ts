import { describe, expect, test } from 'bun:test';
import { createClient } from '@libsql/client';
import { postgresStorage } from '../../adapters/storage/postgres/index.ts';
import { isDatabaseUnavailable } from '../../adapters/storage/sql/unavailable.ts';
import { AppError } from '../../src/core/errors.ts';
import { freePort } from '../support/process.ts';
import { createTestDatabase } from '../support/storage.ts';

/*
 * A storage failure that means "the database cannot serve now" leaves the adapter as AppError UNAVAILABLE (503
 * with Retry-After); anything else (a query or data mistake) stays what it was, and is a 500.
 */

const code = (value: string) => Object.assign(new Error(value), { code: value });

describe('which errors mean the database is unavailable', () => {
  test('connection failures, shutdown and timeout SQLSTATEs, postgres.js connection codes and SQLite busy: yes, also as a cause', () => {
    for (const each of ['ECONNREFUSED', 'ECONNRESET', 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', '57P01', '57P03', '08006', '53300', '57014', 'SQLITE_BUSY']) {
      expect([each, isDatabaseUnavailable(code(each))]).toEqual([each, true]);
    }
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: code('57P01') }))).toBe(true);
  });

  test('a unique violation, a syntax error, a type error, no code: no', () => {
    for (const each of ['23505', '42601', '22P02', 'SQLITE_CONSTRAINT']) expect([each, isDatabaseUnavailable(code(each))]).toEqual([each, false]);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable('down')).toBe(false);
  });
});

describe('the adapters answer UNAVAILABLE', () => {
  test('Postgres: a database nobody listens on fails a read within the connect bound, as UNAVAILABLE with Retry-After', async () => {
    const storage = postgresStorage(`postgres://postgres@127.0.0.1:${freePort()}/none`);
    try {
      const began = performance.now();
      const error = await storage.getSetting('anything').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect({ code: (error as AppError).code, status: (error as AppError).status, headers: (error as AppError).headers }).toEqual({
        code: 'UNAVAILABLE',
        status: 503,
        headers: { 'retry-after': '5' },
      });
      expect(performance.now() - began).toBeLessThan(5000);
      // and again at once: the pool's reconnect back-off stays short
      const again = performance.now();
      expect(((await storage.getSetting('anything').catch((caught: unknown) => caught)) as AppError).code).toBe('UNAVAILABLE');
      expect(performance.now() - again).toBeLessThan(5000);
    } finally {
      await storage.close();
    }
  });

  test('libSQL: a write that waits for another connection’s write lock past busy_timeout is UNAVAILABLE', async () => {
    const db = await createTestDatabase('libsql');
    const other = createClient({ url: db.env.DATABASE_URL! });
    const holder = await other.transaction('write');
    try {
      await holder.execute("insert into settings (key, value) values ('held', 'by another connection')");
      const error = await db.storage.putSettingIfAbsent('blocked', 'value').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('UNAVAILABLE');
    } finally {
      await holder.rollback();
      other.close();
    }
    // the lock gone, the same write succeeds
    expect(await db.storage.putSettingIfAbsent('blocked', 'value')).toBe('value');
    await db.drop();
  }, 20_000);
});
