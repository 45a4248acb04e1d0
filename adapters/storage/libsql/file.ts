import { existsSync, mkdirSync, readFileSync, renameSync, copyFileSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createClient, type Client } from '@libsql/client';
import { randomToken } from '../../../src/core/secrets.ts';
import { MIGRATIONS_TABLE } from '../sql/embedded-migration.ts';

/*
 * What only an embedded libSQL file has: one server at a time (the serve lock), and copies taken and put back
 * as files (`svc backup`, `svc restore`). docs/decisions/0012-one-server-per-libsql-file.md says why.
 */

/** The absolute path of the database file a `file:` DATABASE_URL names; null for any other URL and for `:memory:`. */
export function libsqlFilePath(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  const path = url.slice('file:'.length).split('?')[0] ?? '';
  return path === '' || path === ':memory:' ? null : resolve(path);
}

/** Something that keeps a second process off the database file. */
export interface DatabaseLock {
  /** the lock file, beside the database */
  path: string;
  release(): Promise<void>;
}

/** Another process (a running `svc serve`, or a restore) holds the database file. */
export class DatabaseInUseError extends Error {
  constructor(
    readonly database: string,
    readonly holderPid: number | null,
  ) {
    super(
      `${holderPid === null ? 'another process' : `another svc (PID ${holderPid})`} is serving ${database}: a libSQL file is served by one svc serve at a time; stop that one first, or use PostgreSQL for several instances`,
    );
    this.name = 'DatabaseInUseError';
  }
}

/** Lock files this process holds, so that it never reads one of its own (see lockLibsqlFile). */
const heldHere = new Set<string>();

/**
 * Takes the serve lock of the libSQL file `database`: `<database>.lock`, a small SQLite file that the holder keeps
 * write-locked (locking_mode EXCLUSIVE) for as long as it runs. The lock is the operating system's (fcntl on
 * Unix, LockFileEx on Windows, through SQLite, alike on Bun and Deno): it ends with the process however that
 * ends, `kill -9` included, so there is never a stale lock to clean up, and a reused PID cannot fake one. The
 * holder's PID is written into the file's header (user_version) for the message a second process prints.
 * Throws DatabaseInUseError when another process (or this one) holds it.
 */
export async function lockLibsqlFile(database: string): Promise<DatabaseLock> {
  const path = `${database}.lock`;
  if (heldHere.has(path)) throw new DatabaseInUseError(database, process.pid);
  mkdirSync(dirname(path), { recursive: true });
  // A short busy timeout: two processes starting at the same moment settle who holds it instead of both failing.
  const client = createClient({ url: `file:${path}`, timeout: 1000 } as Parameters<typeof createClient>[0]);
  try {
    await client.execute('PRAGMA locking_mode = EXCLUSIVE');
    await client.execute('PRAGMA journal_mode = OFF');
    // The first write takes the exclusive lock, and EXCLUSIVE locking mode keeps it until the connection closes.
    await client.execute(`PRAGMA user_version = ${process.pid}`);
  } catch (error) {
    client.close();
    if (busy(error)) throw new DatabaseInUseError(database, holderOf(path));
    throw error;
  }
  heldHere.add(path);
  let released = false;
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      client.close();
      heldHere.delete(path);
    },
  };
}

function busy(error: unknown): boolean {
  const text = error instanceof Error ? `${(error as { code?: unknown }).code ?? ''} ${error.message}` : String(error);
  return /SQLITE_BUSY|database is locked/i.test(text);
}

/**
 * The PID in a lock file's header, read as bytes (SQLite would wait for the lock). Only ever called when this
 * process holds no lock on that file: closing any descriptor of a file drops the process's fcntl locks on it.
 */
function holderOf(path: string): number | null {
  try {
    const header = readFileSync(path).subarray(0, 100);
    const pid = header.length === 100 ? header.readInt32BE(60) : 0;
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** A mistake in what a backup or restore was asked to do: nothing was changed. */
export class BackupUsageError extends Error {
  override name = 'BackupUsageError';
}

const open = (file: string): Client => createClient({ url: `file:${file}`, intMode: 'number', timeout: 5000 } as Parameters<typeof createClient>[0]);

/**
 * Writes a consistent copy of the database file `database` to `out` while servers and commands go on using it:
 * SQLite's `VACUUM INTO` reads one snapshot (WAL readers see no later commit) and writes a compact database of
 * its own, with no -wal beside it. Written under a temporary name and renamed, so `out` is whole or absent.
 * Never overwrites: an existing `out` is a BackupUsageError.
 */
export async function backupLibsqlFile(database: string, out: string): Promise<{ path: string; bytes: number }> {
  const target = resolve(out);
  if (!existsSync(database)) throw new BackupUsageError(`there is no database at ${database} (check DATABASE_URL)`);
  if (existsSync(target)) throw new BackupUsageError(`${target} exists: svc backup writes a new file and never overwrites one`);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial-${randomToken('', 6)}`;
  const client = open(database);
  try {
    await client.execute({ sql: 'VACUUM INTO ?', args: [partial] });
    renameSync(partial, target);
  } finally {
    client.close();
    rmSync(partial, { force: true });
  }
  return { path: target, bytes: statSync(target).size };
}

/** Checks that `file` is a whole svc database: SQLite's quick_check passes and svc's migrations table is there. */
async function checkBackup(file: string): Promise<void> {
  if (!existsSync(file)) throw new BackupUsageError(`there is no file ${file}`);
  const client = open(file);
  try {
    const check = await client.execute('PRAGMA quick_check').catch((error: unknown) => {
      throw new BackupUsageError(`${file} is not a database: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (check.rows[0]?.[0] !== 'ok') throw new BackupUsageError(`${file} is damaged: ${String(check.rows[0]?.[0])}`);
    const table = await client.execute({ sql: `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`, args: [MIGRATIONS_TABLE] });
    if (table.rows.length === 0) throw new BackupUsageError(`${file} is not an svc database (it has no ${MIGRATIONS_TABLE} table)`);
  } finally {
    client.close();
  }
}

/**
 * Puts the backup `from` in place of the database file `database`, with no server running on it: the serve
 * lock is taken for the whole restore (DatabaseInUseError while `svc serve` holds it), so no server starts
 * half-way either. The database it replaces is first copied (as by backupLibsqlFile) to
 * `<database>.before-restore-<time>`; its -wal and -shm files are checkpointed and removed before the backup's
 * copy is renamed into place, so no write-ahead log of the old database is ever replayed onto the restored one.
 */
export async function restoreLibsqlFile(database: string, from: string, now: Date): Promise<{ previous: string | null }> {
  const source = resolve(from);
  if (source === database) throw new BackupUsageError('--from names the database itself');
  await checkBackup(source);
  const lock = await lockLibsqlFile(database);
  try {
    let previous: string | null = null;
    if (existsSync(database)) {
      previous = `${database}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
      await backupLibsqlFile(database, previous);
      const client = open(database);
      try {
        await client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
      } finally {
        client.close();
      }
    }
    const incoming = `${database}.restoring-${randomToken('', 6)}`;
    try {
      copyFileSync(source, incoming);
      for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${database}${suffix}`, { force: true });
      renameSync(incoming, database);
    } finally {
      rmSync(incoming, { force: true });
    }
    return { previous };
  } finally {
    await lock.release();
  }
}
