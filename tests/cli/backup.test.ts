import { createClient } from '@libsql/client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { libsqlStorage } from '../../adapters/storage/libsql/index.ts';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { readLibsqlRows, runCli, startServe, type ServeProcess } from '../support/process.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';
import { call, createCatalogue, slotAt } from '../server/ops-support.ts';

/*
 * svc backup while svc serves and takes bookings; svc restore with svc stopped (refused while it serves);
 * both refused on PostgreSQL with the pg_dump / pg_restore command to use instead.
 */

const ENV = { SVC_DEMO: 'false', LOG_LEVEL: 'warn', SVC_RATE_LIMIT: '100000' };

const running: ServeProcess[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.child.exited;
    }
  }
});

/** The bookings of workspace acme as the API serves them, by id. */
async function servedBookings(url: string, key: string): Promise<Record<string, unknown>[]> {
  const { bookings } = await call(url, 'GET', '/bookings?limit=100', { key });
  return (bookings as Record<string, unknown>[]).sort((a, b) => String(a.id).localeCompare(String(b.id)));
}

describe('svc backup and svc restore on a libSQL file', () => {
  let db: TestDatabase;
  let dir: string;
  let apiKey: string;
  let backup: string;
  let inBackup: Record<string, unknown>[];

  beforeAll(async () => {
    db = await createTestDatabase('libsql');
    dir = mkdtempSync(join(tmpdir(), 'svc-backup-'));
    backup = join(dir, 'nested', 'svc-backup.db');
    ({ apiKey } = await createWorkspace({ storage: db.storage, clock: systemClock }, { slug: 'acme', name: 'Acme Studio', timezone: 'Europe/Berlin' }));
  });
  afterAll(async () => {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('backup while svc serves and takes bookings: exit 0, and the copy opens and holds every booking made before it began', async () => {
    const server = await startServe({ env: { ...db.env, ...ENV } });
    running.push(server);
    const { service } = await createCatalogue(server.url, apiKey);
    const before: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { booking } = await call(server.url, 'POST', '/bookings', {
        key: apiKey,
        body: { serviceId: service.id, email: `guest${i}@example.com`, name: `Guest ${i}`, date: slotAt(i) },
      });
      before.push(booking.id);
    }
    // Bookings keep coming while the backup runs.
    let booking = true;
    const during = (async () => {
      let made = 0;
      for (let i = 6; booking && i < 14; i++) {
        await call(server.url, 'POST', '/bookings', { key: apiKey, body: { serviceId: service.id, email: `late${i}@example.com`, date: slotAt(i) } });
        made++;
      }
      return made;
    })();
    const result = await runCli(['backup', '--out', backup, '--json'], db.env);
    booking = false;
    await during;
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({ backup, bytes: expect.any(Number) });
    // Only the copy: no partial file, no -wal beside it; and SQLite finds it whole.
    expect(readdirSync(join(dir, 'nested'))).toEqual(['svc-backup.db']);
    const check = createClient({ url: `file:${backup}` });
    try {
      expect((await check.execute('PRAGMA integrity_check')).rows.map((row) => row[0])).toEqual(['ok']);
    } finally {
      check.close();
    }

    const copy = libsqlStorage(`file:${backup}`);
    try {
      const workspace = await copy.getWorkspaceBySlug('acme');
      expect(workspace).not.toBeNull();
      const rows = await copy.listBookings(workspace!.id, { limit: 100 });
      const ids = rows.map((row) => row.id);
      for (const id of before) expect(ids).toContain(id);
      // Every booking in the copy is whole: its customer came along with it.
      for (const row of rows) expect(row.customerEmail).toMatch(/@example\.com$/);
    } finally {
      await copy.close();
    }
    // The server served on: a booking after the backup.
    await call(server.url, 'POST', '/bookings', { key: apiKey, body: { serviceId: service.id, email: 'after@example.com', date: slotAt(15) } });
    inBackup = (await readLibsqlRows(`file:${backup}`)).bookings!;
    expect(inBackup.length).toBeGreaterThanOrEqual(6);
    expect(await server.stop()).toBe(0);
  }, 60_000);

  test('backup never overwrites: --out naming an existing file -> exit 2, the file untouched', async () => {
    const existing = join(dir, 'existing.db');
    writeFileSync(existing, 'keep me');
    const result = await runCli(['backup', '--out', existing], db.env);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `svc backup: ${existing} exists: svc backup writes a new file and never overwrites one\n` });
    expect(await Bun.file(existing).text()).toBe('keep me');
  });

  test('restore while svc serves the file: exit 2, the database untouched', async () => {
    const server = await startServe({ env: { ...db.env, ...ENV } });
    running.push(server);
    const rows = await readLibsqlRows(db.env.DATABASE_URL!);
    const result = await runCli(['restore', '--from', backup], db.env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toStartWith(`svc restore: another svc (PID ${server.child.pid}) is serving `);
    expect(await readLibsqlRows(db.env.DATABASE_URL!)).toEqual(rows);
    expect(await server.stop()).toBe(0);
  });

  test('restore into the stopped instance: the restarted server serves exactly the bookings of the backup; the replaced database is kept', async () => {
    const file = db.env.DATABASE_URL!.slice('file:'.length);
    const currentBookings = (await readLibsqlRows(db.env.DATABASE_URL!)).bookings!;
    // The database has moved on since the backup: the booking made after it is not in the copy.
    expect(currentBookings.length).toBeGreaterThan(inBackup.length);

    const result = await runCli(['restore', '--from', backup, '--json'], db.env);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const output = JSON.parse(result.stdout);
    expect(output).toEqual({ restored: file, from: backup, previous: expect.stringMatching(/\.before-restore-/) });
    expect((await readLibsqlRows(`file:${output.previous}`)).bookings).toEqual(currentBookings);

    const server = await startServe({ env: { ...db.env, ...ENV } });
    running.push(server);
    const served = await servedBookings(server.url, apiKey);
    expect(served.map((booking) => booking.id)).toEqual(inBackup.map((row) => String(row.id)).sort());
    expect(served.map((booking) => booking.customerEmail)).toContain('guest0@example.com');
    expect(served.some((booking) => booking.customerEmail === 'after@example.com')).toBe(false);
    expect(await server.stop()).toBe(0);
    expect(await readLibsqlRows(db.env.DATABASE_URL!)).toMatchObject({ bookings: inBackup });
  }, 60_000);

  test('restore from a file that is not an svc database: exit 2, nothing replaced', async () => {
    const rows = await readLibsqlRows(db.env.DATABASE_URL!);
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database at all, but long enough to be read as one'.repeat(100));
    const notDb = await runCli(['restore', '--from', junk], db.env);
    expect(notDb.code).toBe(2);
    expect(notDb.stderr).toStartWith(`svc restore: ${junk} is not a database`);
    const missing = await runCli(['restore', '--from', join(dir, 'missing.db')], db.env);
    expect(missing).toEqual({ code: 2, stdout: '', stderr: `svc restore: there is no file ${join(dir, 'missing.db')}\n` });
    expect(await readLibsqlRows(db.env.DATABASE_URL!)).toEqual(rows);
  });
});

describe('svc backup and svc restore on PostgreSQL', () => {
  // No connection is made: the commands refuse on the URL alone.
  const env = { DATABASE_URL: 'postgres://svc@127.0.0.1:1/svc', SVC_SECRET: 'x'.repeat(40) };

  test('backup: exit 2, names pg_dump with a command to run, writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-backup-pg-'));
    try {
      const result = await runCli(['backup', '--out', join(dir, 'out.db')], env);
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: 'svc backup: svc backup copies a libSQL file; on PostgreSQL use pg_dump, e.g.\n  pg_dump --format=custom --file=svc.dump "$DATABASE_URL"\n',
      });
      expect(existsSync(join(dir, 'out.db'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('restore: exit 2, names pg_restore with a command to run', async () => {
    const result = await runCli(['restore', '--from', 'svc.dump'], env);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'svc restore: svc restore puts back a libSQL file; on PostgreSQL use pg_restore (with svc stopped), e.g.\n  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" svc.dump\n',
    });
  });
});
