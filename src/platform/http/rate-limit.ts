import type { Config } from '../config.ts';
import type { RateLimitRuleName } from '../access/policy.ts';
import type { RateLimitDecision } from '../../ports/ratelimit.ts';
import { AppError } from '../../core/errors.ts';

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimitRule {
  /** requests per window (a minute) */
  limit: number;
  /**
   * whether an authenticated request counts per API key or panel session; else, and for every request that
   * does not authenticate, per client address (docs/contract/limits.md)
   */
  perCredential: boolean;
}

/** Decisions section 6: v1 120 per minute (SVC_RATE_LIMIT); panel origin linking 10, bootstrap 60, per client address. */
export function rateLimitRules(config: Pick<Config, 'SVC_RATE_LIMIT'>): Record<RateLimitRuleName, RateLimitRule> {
  return {
    v1: { limit: config.SVC_RATE_LIMIT, perCredential: true },
    panelLinking: { limit: 10, perCredential: false },
    panelBootstrap: { limit: 60, perCredential: false },
  };
}

export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(Math.ceil(decision.resetAt / 1000)),
  };
}

export function rateLimitedError(decision: RateLimitDecision, now: number): AppError {
  const retryAfter = Math.max(1, Math.ceil((decision.resetAt - now) / 1000));
  return new AppError('RATE_LIMITED', `rate limit of ${decision.limit} requests per minute exceeded; retry in ${retryAfter} seconds`, undefined, {
    ...rateLimitHeaders(decision),
    'retry-after': String(retryAfter),
  });
}
