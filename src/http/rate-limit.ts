import { Elysia } from 'elysia';
import { API_KEY_HEADER } from '../auth/api-key.ts';
import type { AppDeps } from '../deps.ts';
import type { RateLimitDecision } from '../ratelimit/port.ts';
import { AppError, errorBody } from '../shared/errors.ts';
import { sha256Hex } from '../shared/secrets.ts';
import { clientIp } from './client-ip.ts';

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimitRule {
  /** requests per window */
  limit: number;
  /** bucket name: requests of different rules never share a count */
  name: string;
  /** whether the rule covers this request */
  applies(method: string, path: string): boolean;
  /** per API key when the request carries one, else per client IP */
  perKey: boolean;
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
  return new AppError('RATE_LIMITED', `rate limit of ${decision.limit} requests per minute exceeded; retry in ${retryAfter} seconds`, undefined,
    { ...rateLimitHeaders(decision), 'retry-after': String(retryAfter) });
}

/**
 * Counts every request a rule covers before routing, so that 401s and 404s count and carry the headers too
 * (decisions section 6), and answers 429 past the limit without running the route.
 */
export function rateLimitPlugin(deps: AppDeps, rules: RateLimitRule[]) {
  return new Elysia({ name: 'rate-limit' }).onRequest(async ({ request, set, server }) => {
    const path = new URL(request.url).pathname;
    const rule = rules.find((candidate) => candidate.applies(request.method, path));
    if (!rule || request.method === 'OPTIONS') return;
    const key = request.headers.get(API_KEY_HEADER);
    const bucket = rule.perKey && key
      ? `${rule.name}:key:${sha256Hex(key).slice(0, 32)}`
      : `${rule.name}:ip:${clientIp(request, server, deps.config.SVC_TRUST_PROXY)}`;
    const now = deps.clock.now();
    const decision = await deps.rateLimiter.hit(bucket, rule.limit, RATE_LIMIT_WINDOW_MS, now);
    if (decision.allowed) {
      Object.assign(set.headers, rateLimitHeaders(decision));
      return;
    }
    const error = rateLimitedError(decision, now);
    return new Response(JSON.stringify(errorBody(error)), {
      status: error.status,
      headers: { 'content-type': 'application/json', ...set.headers, ...error.headers } as Record<string, string>,
    });
  });
}
