import { afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Client, createClient, LibsqlError } from '@libsql/client';
import { openFileClient } from '../../adapters/storage/libsql/file-client.ts';

/*
 * The file client (adapters/storage/libsql/file-client.ts) stands in for @libsql/client on database files: what
 * drizzle and the adapter rely on must answer as @libsql/client's own file client does. Both are run side by side
 * on the same statements; the storage contract (tests/storage/contract) runs every query through it as well.
 */

let dir: string;
let path: string;
let ours: Client;
let theirs: Client;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-file-client-'));
  path = join(dir, 'svc.db');
  ours = openFileClient(path, 1000);
  await ours.execute('PRAGMA journal_mode = WAL');
  await ours.execute('CREATE TABLE t (id text primary key, n integer, flag integer, data blob, note text)');
  theirs = createClient({ url: `file:${path}`, intMode: 'number' });
});

afterEach(() => {
  ours.close();
  theirs.close();
  rmSync(dir, { recursive: true, force: true });
});

test('rows are arrays of the values by position, as @libsql/client gives them', async () => {
  await ours.execute({ sql: 'INSERT INTO t VALUES (?, ?, ?, ?, ?)', args: ['a', 1_795_000_000_000, true, new Uint8Array([1, 2, 3]).buffer, null] });
  const sql = 'SELECT id, n, flag, data, note FROM t';
  const [mine, reference] = [await ours.execute(sql), await theirs.execute(sql)];
  expect(mine.columns).toEqual(reference.columns);
  const row = mine.rows[0]!;
  // drizzle reads a row so: Array.prototype.slice.call(row)
  const values = Array.prototype.slice.call(row);
  expect(values).toHaveLength(5);
  expect([values[0], values[1], values[2], values[4]]).toEqual(['a', 1_795_000_000_000, 1, null]);
  expect([values[0], values[1], values[2], values[4]]).toEqual(Array.prototype.slice.call(reference.rows[0]!).filter((_, i) => i !== 3));
  expect(new Uint8Array(values[3] as ArrayBuffer)).toEqual(new Uint8Array([1, 2, 3]));
  expect(new Uint8Array(reference.rows[0]![3] as ArrayBuffer)).toEqual(new Uint8Array([1, 2, 3]));
});

test('a write reports the rows it changed; the same statement text runs again with new arguments', async () => {
  for (const id of ['a', 'b', 'c']) await ours.execute({ sql: 'INSERT INTO t (id, n) VALUES (?, ?)', args: [id, 1] });
  const updated = await ours.execute({ sql: 'UPDATE t SET n = n + 1 WHERE id <> ?', args: ['a'] });
  expect(updated.rowsAffected).toBe(2);
  expect((await ours.execute('SELECT id, n FROM t ORDER BY id')).rows.map((row) => [row[0], row[1]])).toEqual([
    ['a', 1],
    ['b', 2],
    ['c', 2],
  ]);
});

test('a transaction holds its own connection: its rows are unseen outside until it commits, and gone after a rollback', async () => {
  const tx = await ours.transaction('write');
  await tx.execute({ sql: 'INSERT INTO t (id) VALUES (?)', args: ['inside'] });
  expect((await tx.execute('SELECT count(*) FROM t')).rows[0]![0]).toBe(1);
  expect((await ours.execute('SELECT count(*) FROM t')).rows[0]![0]).toBe(0);
  await tx.commit();
  expect(tx.closed).toBe(true);
  expect((await ours.execute('SELECT count(*) FROM t')).rows[0]![0]).toBe(1);

  const undone = await ours.transaction('write');
  await undone.execute({ sql: 'INSERT INTO t (id) VALUES (?)', args: ['undone'] });
  await undone.rollback();
  expect((await ours.execute('SELECT id FROM t')).rows.map((row) => row[0])).toEqual(['inside']);
  await expect(undone.execute('SELECT 1')).rejects.toMatchObject({ code: 'TRANSACTION_CLOSED' });
});

test("SQLite's errors come as LibsqlError with the base and extended codes, as from @libsql/client", async () => {
  await ours.execute({ sql: 'INSERT INTO t (id) VALUES (?)', args: ['a'] });
  const insert = { sql: 'INSERT INTO t (id) VALUES (?)', args: ['a'] };
  const [mine, reference] = await Promise.all([ours.execute(insert).catch((error) => error), theirs.execute(insert).catch((error) => error)]);
  expect(mine).toBeInstanceOf(LibsqlError);
  expect({ code: mine.code, extendedCode: mine.extendedCode, rawCode: mine.rawCode }).toEqual({
    code: reference.code,
    extendedCode: reference.extendedCode,
    rawCode: reference.rawCode,
  });
  expect(mine.code).toBe('SQLITE_CONSTRAINT');
  await expect(ours.execute('SELECT nothing FROM nowhere')).rejects.toMatchObject({ code: 'SQLITE_ERROR' });
  await expect(ours.execute({ sql: 'SELECT ?', args: [undefined as never] })).rejects.toThrow(TypeError);
});

test('a closed client refuses further statements', async () => {
  ours.close();
  expect(ours.closed).toBe(true);
  await expect(ours.execute('SELECT 1')).rejects.toMatchObject({ code: 'CLIENT_CLOSED' });
});

test('statistics ANALYZE writes on one connection are planned with on the others', async () => {
  await ours.executeMultiple('CREATE TABLE s (a integer, b integer); CREATE INDEX s_b ON s (b); CREATE INDEX s_a ON s (a);');
  const fill = await ours.transaction('write');
  for (let i = 0; i < 2000; i++) await fill.execute({ sql: 'INSERT INTO s VALUES (?, ?)', args: [1, i] });
  await fill.commit();
  const plan = async () =>
    (await ours.execute({ sql: 'EXPLAIN QUERY PLAN SELECT * FROM s WHERE a = ? AND b > ?', args: [1, 5] })).rows.map((row) => row[3]).join();
  // without statistics SQLite takes the equality's index, though every row has a = 1
  expect(await plan()).toContain('USING INDEX s_a');
  // the connection that planned so far is held by a transaction: ANALYZE runs on another one
  const holding = await ours.transaction('read');
  await ours.execute('ANALYZE');
  expect(await plan()).toContain('USING INDEX s_b');
  await holding.commit();
  // back on the first connection, which read no statistics when it opened
  expect(await plan()).toContain('USING INDEX s_b');
});
