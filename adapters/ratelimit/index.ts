import postgres from 'postgres';
import type { RateLimiter } from '../../src/ports/ratelimit.ts';
import { memoryRateLimiter } from './memory.ts';
import { postgresRateLimiter } from './postgres.ts';

/**
 * The limiter that fits a DATABASE_URL: on Postgres the counts live in the database, so every instance behind
 * a load balancer shares one budget (each leasing tokens from it in batches); on libSQL (one server process)
 * they live in memory.
 */
export function openRateLimiter(databaseUrl: string): RateLimiter & { close(): Promise<void> } {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return postgresRateLimiter(postgres(databaseUrl, { max: 10, onnotice: () => {} }));
  return memoryRateLimiter();
}
