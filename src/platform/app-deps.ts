import type { Clock } from '../core/clock.ts';
import type { LoadingCache } from '../core/loading-cache.ts';
import type { CalendarConnector } from '../ports/calendar.ts';
import type { PaymentProvider } from '../ports/payments.ts';
import type { RateLimiter } from '../ports/ratelimit.ts';
import type { Storage } from '../ports/storage/index.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';

/** Everything the app is built from: made by buildDeps, for the server and the tests alike. */
export interface AppDeps {
  storage: Storage;
  config: Config;
  clock: Clock;
  logger: Logger;
  rateLimiter: RateLimiter;
  /** SVC_PAYMENTS: how a sum due at booking is collected (adapters/payments) */
  payments: PaymentProvider;
  /** a provider's other calendars (CalDAV, iCalendar URLs), fetched under SVC_CALENDAR_ALLOW_PRIVATE's rules */
  calendars: CalendarConnector;
  /** the process's Prometheus metrics (GET /metrics with SVC_METRICS_TOKEN); buildDeps makes one, and createApp one of its own without */
  metrics?: Metrics;
  /** computed availability kept between requests (without it every request computes) */
  availabilityCache?: LoadingCache;
  /** the busy bookings availability read, kept per provider and day (without it every computation reads them) */
  busyCache?: LoadingCache;
}
