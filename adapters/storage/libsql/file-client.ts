import { Buffer } from 'node:buffer';
import { type Client, type InArgs, type InStatement, LibsqlError, type ResultSet, type Transaction, type TransactionMode } from '@libsql/client';
import Database from 'libsql';

/*
 * A libSQL client for a database file, with the part of @libsql/client's `Client` that drizzle and this adapter use
 * (execute, batch, transaction, executeMultiple, close), over the same native `libsql` connections. It exists for
 * speed: @libsql/client prepares every statement anew, asks for its columns twice and builds each row with one
 * Object.defineProperty per value, which took about half of the CPU of availability and of createBooking at 100,000
 * bookings (scripts/bench/README.md, "Scale"). Here each connection keeps its prepared statements, rows are the
 * arrays SQLite's raw mode gives, read by position only (drizzle reads them so; naming every value cost 9 % of a
 * page of bookings), and integers come as numbers. docs/decisions/0025-own-client-for-the-libsql-file.md says
 * why and what it costs.
 *
 * Semantics follow @libsql/client's file client: a statement outside a transaction runs on an idle connection
 * (autocommit), a transaction holds a connection of its own until commit or rollback, so reads outside it never see
 * its uncommitted rows. Only for files: `:memory:` (one connection) and remote URLs keep @libsql/client.
 */

/** Prepared statements kept per connection; drizzle's texts vary with list lengths (`in (?, ?, …)`), so it is bounded. */
const STATEMENTS_PER_CONNECTION = 500;

interface Prepared {
  statement: Database.Statement;
  /** null for a statement that returns no rows */
  columns: string[] | null;
  columnTypes: string[];
}

/** One SQLite connection with its statement cache. */
class Connection {
  readonly db: Database.Database;
  readonly #statements = new Map<string, Prepared>();
  constructor(
    path: string,
    timeoutMs: number,
    /** the client's statistics generation this connection plans with (see openFileClient) */
    readonly statistics: number,
  ) {
    this.db = new Database(path, { timeout: timeoutMs });
    // WAL with synchronous=NORMAL (adapters/storage/libsql/index.ts says why); per connection, so set on each.
    this.db.exec('PRAGMA synchronous = NORMAL');
  }

  prepared(sql: string): Prepared {
    const known = this.#statements.get(sql);
    if (known) return known;
    const statement = this.db.prepare(sql);
    statement.safeIntegers(false);
    let columns: string[] | null = null;
    let columnTypes: string[] = [];
    try {
      statement.raw(true);
      const definitions = statement.columns();
      columns = definitions.map((column) => column.name);
      columnTypes = definitions.map((column) => column.type ?? '');
    } catch {
      // raw() throws for a statement that returns no rows
    }
    if (this.#statements.size >= STATEMENTS_PER_CONNECTION) this.#statements.delete(this.#statements.keys().next().value!);
    const entry = { statement, columns, columnTypes };
    this.#statements.set(sql, entry);
    return entry;
  }

  execute(input: InStatement | string, args?: InArgs): ResultSet {
    const { sql, values } = normalize(input, args);
    try {
      const { statement, columns, columnTypes } = this.prepared(sql);
      if (columns === null) {
        const info = statement.run(values);
        return resultSet([], [], [], info.changes, BigInt(info.lastInsertRowid));
      }
      const rows = statement.all(values) as unknown[][];
      if (columnTypes.some((type) => /blob/i.test(type)) || columnTypes.includes('')) {
        for (const row of rows) {
          for (let index = 0; index < row.length; index++) {
            const value = row[index];
            if (value instanceof Buffer) row[index] = value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength);
          }
        }
      }
      return resultSet(columns, columnTypes, rows, 0, undefined);
    } catch (error) {
      throw asLibsqlError(error);
    }
  }

  exec(sql: string) {
    try {
      this.db.exec(sql);
    } catch (error) {
      throw asLibsqlError(error);
    }
  }

  close() {
    this.#statements.clear();
    if (this.db.open) this.db.close();
  }
}

function normalize(input: InStatement | string, args?: InArgs): { sql: string; values: unknown[] | Record<string, unknown> } {
  if (typeof input === 'string') return { sql: input, values: argsToSql(args ?? []) };
  if (Array.isArray(input)) return { sql: input[0] as string, values: argsToSql((input[1] as InArgs | undefined) ?? []) };
  return { sql: input.sql, values: argsToSql(input.args ?? []) };
}

function argsToSql(args: InArgs): unknown[] | Record<string, unknown> {
  if (Array.isArray(args)) return args.map(valueToSql);
  const named: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) named[/^[@$:]/.test(name) ? name.slice(1) : name] = valueToSql(value);
  return named;
}

/** As @libsql/client converts arguments (intMode "number"). */
function valueToSql(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError('Only finite numbers (not Infinity or NaN) can be passed as arguments');
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError('undefined cannot be passed as argument to the database');
  return value;
}

const SQLITE_BASE_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  4: 'SQLITE_ABORT',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  17: 'SQLITE_SCHEMA',
  19: 'SQLITE_CONSTRAINT',
  26: 'SQLITE_NOTADB',
};

/** SQLite's error as @libsql/client reports it: the base code, the extended code, the raw number, the cause. */
function asLibsqlError(error: unknown): unknown {
  if (!(error instanceof Database.SqliteError)) return error;
  const raw = error.rawCode;
  const code = raw === undefined ? 'SQLITE_UNKNOWN' : (SQLITE_BASE_CODES[raw & 0xff] ?? `SQLITE_UNKNOWN_${raw & 0xff}`);
  return new LibsqlError(error.message, code, error.code, raw, error);
}

function resultSet(columns: string[], columnTypes: string[], rows: unknown[][], rowsAffected: number, lastInsertRowid: bigint | undefined): ResultSet {
  return {
    columns,
    columnTypes,
    rows: rows as unknown as ResultSet['rows'],
    rowsAffected,
    lastInsertRowid,
    toJSON: () => ({ columns, columnTypes, rows, rowsAffected, lastInsertRowid: lastInsertRowid?.toString() ?? null }),
  };
}

const BEGIN: Record<TransactionMode, string> = { write: 'BEGIN IMMEDIATE', read: 'BEGIN TRANSACTION READONLY', deferred: 'BEGIN DEFERRED' };

/** A statement that is an ANALYZE (anchored: every statement of every request is tested), and a script holding one. */
const ANALYZE_STATEMENT = /^\s*analyze\b/i;
const ANALYZE_IN_SCRIPT = /(^|;)\s*analyze\b/i;

const closedError = () => new LibsqlError('The client is closed', 'CLIENT_CLOSED');

/**
 * The client for the database file at `path` (see the top of this file); `timeoutMs` is SQLite's busy timeout.
 * Opens one connection at once, so a file that cannot be opened fails here, as createClient does.
 */
export function openFileClient(path: string, timeoutMs: number): Client {
  const idle: Connection[] = [new Connection(path, timeoutMs, 0)];
  const busy = new Set<Connection>();
  let closed = false;
  // SQLite reads its planner statistics when a connection opens and when ANALYZE runs on it; an ANALYZE on one
  // connection leaves the others planning with what they read before (for a file analysed empty at its first start,
  // that is no statistics at all). So every ANALYZE through this client raises a generation, and an idle
  // connection behind it is closed for a new one, which reads them as it opens. (ANALYZE sqlite_schema would
  // reload them in place, but it takes the write lock, and may wait for a transaction of another connection.)
  let statistics = 0;
  const noting = <T>(analysed: boolean, result: T): T => {
    if (analysed) statistics += 1;
    return result;
  };

  const take = (): Connection => {
    if (closed) throw closedError();
    let connection = idle.pop();
    if (connection && connection.statistics !== statistics) {
      connection.close();
      connection = undefined;
    }
    connection ??= new Connection(path, timeoutMs, statistics);
    busy.add(connection);
    return connection;
  };
  const giveBack = (connection: Connection) => {
    busy.delete(connection);
    if (closed || !connection.db.open) return connection.close();
    if (connection.db.inTransaction) {
      try {
        connection.exec('ROLLBACK');
      } catch {
        return connection.close();
      }
    }
    idle.push(connection);
  };
  /** A statement outside any transaction: synchronous, so the connection is back before anything else runs. */
  const autocommit = <T>(work: (connection: Connection) => T): Promise<T> => {
    try {
      const connection = take();
      try {
        return Promise.resolve(work(connection));
      } finally {
        giveBack(connection);
      }
    } catch (error) {
      return Promise.reject(error);
    }
  };

  const client = {
    protocol: 'file' as const,
    get closed() {
      return closed;
    },
    execute: (input: InStatement | string, args?: InArgs) =>
      autocommit((connection) =>
        noting(ANALYZE_STATEMENT.test(typeof input === 'string' ? input : 'sql' in input ? input.sql : ''), connection.execute(input, args)),
      ),
    batch: (statements: (InStatement | [string, InArgs?])[], mode: TransactionMode = 'deferred') =>
      autocommit((connection) => {
        connection.exec(BEGIN[mode]);
        const results = statements.map((statement) => connection.execute(statement as InStatement));
        connection.exec('COMMIT');
        return results;
      }),
    executeMultiple: (sql: string) => autocommit((connection) => noting(ANALYZE_IN_SCRIPT.test(sql), connection.exec(sql))),
    async transaction(mode: TransactionMode = 'write'): Promise<Transaction> {
      const connection = take();
      try {
        connection.exec(BEGIN[mode]);
      } catch (error) {
        giveBack(connection);
        throw error;
      }
      return fileTransaction(connection, giveBack);
    },
    close() {
      closed = true;
      for (const connection of [...idle, ...busy]) connection.close();
      idle.length = 0;
      busy.clear();
    },
  };
  return client as unknown as Client;
}

function fileTransaction(connection: Connection, giveBack: (connection: Connection) => void): Transaction {
  let open = true;
  const settle = () => {
    if (!open) return;
    open = false;
    giveBack(connection);
  };
  const live = () => {
    if (!open || !connection.db.open) throw new LibsqlError('The transaction is closed', 'TRANSACTION_CLOSED');
    return connection;
  };
  const transaction = {
    async execute(input: InStatement | string, args?: InArgs) {
      return live().execute(input, args);
    },
    async batch(statements: InStatement[]) {
      const on = live();
      return statements.map((statement) => on.execute(statement));
    },
    async executeMultiple(sql: string) {
      live().exec(sql);
    },
    async commit() {
      try {
        live().exec('COMMIT');
      } finally {
        settle();
      }
    },
    async rollback() {
      try {
        if (open && connection.db.open && connection.db.inTransaction) connection.exec('ROLLBACK');
      } finally {
        settle();
      }
    },
    close: settle,
    get closed() {
      return !open || !connection.db.open || !connection.db.inTransaction;
    },
  };
  return transaction as unknown as Transaction;
}
