import type { RateLimiter } from '../../src/ports/ratelimit.ts';
import type { OpenedDatabase } from '../storage/index.ts';
import { memoryRateLimiter } from './memory.ts';
import { postgresRateLimiter } from './postgres.ts';

/**
 * The limiter that fits the database: on Postgres the counts live in the database, so every instance behind
 * a load balancer shares one budget (each leasing tokens from it in batches), over the storage's own connection
 * pool; on libSQL (one server process) they live in memory.
 */
export function openRateLimiter(database: OpenedDatabase): RateLimiter & { close(): Promise<void> } {
  if (database.postgres) return postgresRateLimiter(database.postgres, { ownsClient: false });
  return memoryRateLimiter();
}
