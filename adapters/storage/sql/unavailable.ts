import { AppError } from '../../../src/core/errors.ts';
import { errorChain } from './errors.ts';

/** What a client is told to wait before it tries again while the database does not answer, seconds. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Socket and DNS errors: the database's host did not answer or went away. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** postgres.js's own connection errors (a connection that closed, was ended or destroyed, or did not open in time). */
const POSTGRES_JS_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);

/**
 * SQLSTATEs that mean "not now" rather than "wrong": class 08 (connection exception), 53 (insufficient
 * resources: too many connections, out of memory or disk), 57014 (the statement ran past statement_timeout),
 * 57P01–57P05 (the server shuts down, crashed, is starting up or ended an idle session), 55P03 (a lock not
 * granted in time).
 */
function isUnavailableSqlState(code: string): boolean {
  return /^(08|53)[0-9A-Z]{3}$/.test(code) || /^57P0[1-5]$/.test(code) || code === '57014' || code === '55P03';
}

/** libSQL/SQLite: another process held the write lock past busy_timeout, or the file is locked. */
const LIBSQL_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_BUSY_RECOVERY']);

/**
 * Whether `error` (or one of its causes: drizzle wraps driver errors) says the database cannot serve right
 * now, as opposed to a query or data mistake: the request that met it may succeed unchanged a moment later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of errorChain(error)) {
    const code = typeof link.code === 'string' ? link.code : undefined;
    if (!code) continue;
    if (NETWORK_CODES.has(code) || POSTGRES_JS_CODES.has(code) || LIBSQL_CODES.has(code) || isUnavailableSqlState(code)) return true;
  }
  return false;
}

/** The contract's 503: the database does not answer; the client may retry after Retry-After. */
function databaseUnavailable(cause?: unknown): AppError {
  const error = new AppError('UNAVAILABLE', 'the database is not available at the moment; try again shortly', undefined, {
    'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
  });
  if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause, enumerable: false });
  return error;
}

/** `error` as the contract's 503 when it means the database is unavailable, else unchanged. */
function asUnavailable(error: unknown): unknown {
  return error instanceof AppError || !isDatabaseUnavailable(error) ? error : databaseUnavailable(error);
}

/**
 * `target` with every method's failure that means "database unavailable" turned into AppError UNAVAILABLE
 * (503 with Retry-After, never a 500), whether the method throws or rejects. Other errors pass unchanged.
 */
export function translateUnavailable<T extends object>(target: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    if (typeof value !== 'function') {
      wrapped[name] = value;
      continue;
    }
    wrapped[name] = (...args: unknown[]) => {
      let result: unknown;
      try {
        result = (value as (...args: unknown[]) => unknown).apply(target, args);
      } catch (error) {
        throw asUnavailable(error);
      }
      return result instanceof Promise
        ? result.catch((error: unknown) => {
            throw asUnavailable(error);
          })
        : result;
    };
  }
  return wrapped as T;
}
