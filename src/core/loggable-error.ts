import { DrizzleQueryError } from 'drizzle-orm/errors';

/**
 * What of an unexpected error may go into the log: its message and stack, without the values a failed query
 * was given (drizzle puts them in its message: a customer's name, email or notes). The query text stays, so the
 * failing statement can still be found.
 */
export function loggableError(error: unknown): { error: string; stack?: string; cause?: string } {
  if (!(error instanceof Error)) return { error: String(error) };
  const message = error instanceof DrizzleQueryError ? `Failed query: ${error.query}` : error.message;
  const frames = error.stack?.indexOf('\n    at ') ?? -1;
  const stack = frames >= 0 ? `${error.name}: ${message}${error.stack!.slice(frames)}` : undefined;
  const cause = error.cause instanceof Error ? `${error.cause.name}: ${error.cause.message}` : undefined;
  return { error: message, ...(stack ? { stack } : {}), ...(cause ? { cause } : {}) };
}
