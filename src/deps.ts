import type { Config } from './config.ts';
import type { Clock } from './shared/clock.ts';
import type { RateLimiter } from './ratelimit/port.ts';
import type { Logger } from './shared/logger.ts';
import type { PaymentProvider } from './payments/port.ts';
import type { AvailabilityCache } from './scheduling/availability-cache.ts';
import type { Storage } from './storage/port.ts';

/** Everything the app is built from; tests pass their own. */
export interface AppDeps {
  storage: Storage;
  config: Config;
  clock: Clock;
  logger: Logger;
  rateLimiter: RateLimiter;
  /** SVC_PAYMENTS: how a sum due at booking is collected (adapters/payments) */
  payments: PaymentProvider;
  /** computed availability kept between requests (svc serve sets one; without it every request computes) */
  availabilityCache?: AvailabilityCache;
}
