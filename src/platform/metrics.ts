import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BOOKING_STATUSES } from '../core/lifecycle.ts';
import { type CalendarConnectionStatus, OUTBOX_KINDS, type OperationsSnapshot, type OutboxKind } from '../ports/storage/index.ts';

/*
 * The Prometheus metrics of one svc process (docs/contract/operations.md §14; the list with labels is in the
 * README, "Metrics"). Each app has its own registry, never prom-client's global one: tests build several apps in
 * one process. Labels carry only bounded, public values: a route's template (never the path a client sent),
 * a method from a fixed list, a status code, an outbox kind, a booking or connection status. No id, slug,
 * address or token reaches a label.
 */

/** Methods counted by name; anything else a client may invent is `other` (a label must not grow without bound). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Statuses always exported (0 when none), so that an alert on one does not see "no data" instead of 0. */
const CONNECTION_STATUSES: CalendarConnectionStatus[] = ['pending', 'ok', 'error'];
/** The route label of a request no route matched: its path is the client's and is not recorded. */
export const UNMATCHED_ROUTE = 'unmatched';

export interface RequestObservation {
  method: string;
  /** the matched route's template (`/api/v1/workspaces/:slug/bookings`); undefined when none matched */
  route: string | undefined;
  status: number;
  seconds: number;
}

export interface Metrics {
  /** Counts an answered request. */
  observeRequest(observation: RequestObservation): void;
  /** Counts a delivery attempt that failed (it is retried later, or given up). */
  deliveryFailed(kind: OutboxKind): void;
  /** `storage` with the calls it is waiting on counted (svc_db_operations_in_flight). */
  countCalls<S extends object>(storage: S): S;
  /** The Postgres pool's size, exported as svc_db_pool_max_connections (libSQL has no pool). */
  setPoolSize(size: number): void;
  /**
   * Whether every booking write of any process reaches this instance's caches now
   * (StorageChanges.hearsEveryBookingWrite), read at each scrape as svc_change_channel_up.
   */
  followChangeChannel(hears: () => boolean): void;
  /**
   * The text format. The database's counts are read now by `read` (bounded by `timeoutMs`): when it fails,
   * svc_database_up is 0 and those series are left out, while the process's own series are still answered.
   */
  scrape(read: () => Promise<OperationsSnapshot>, now: number, timeoutMs: number): Promise<string>;
  readonly contentType: string;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];

  /** A counter or a gauge of this registry, its series told apart by `labelNames`. */
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Counter({ name, help, labelNames, registers });
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Gauge({ name, help, labelNames, registers });

  const requests = counter('svc_http_requests_total', 'HTTP requests answered, by method, route template and status', ['method', 'route', 'status']);
  const durations = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time from receiving a request to its answer, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const failures = counter(
    'svc_outbox_delivery_failures_total',
    'Delivery attempts of this process that failed (webhook: no 2xx answer; mail: not accepted), by outbox kind',
    ['kind'],
  );
  for (const kind of OUTBOX_KINDS) failures.inc({ kind }, 0);
  const inFlight = gauge('svc_db_operations_in_flight', 'Storage calls this process is waiting on (for a connection or for the database)');
  const poolMax = gauge('svc_db_pool_max_connections', 'Connections the Postgres pool of this process opens at most (SVC_DB_POOL_SIZE)');
  const databaseUp = gauge('svc_database_up', '1 when the database counts of this scrape were read, else 0');
  const channelUp = gauge(
    'svc_change_channel_up',
    "1 while every booking write reaches this instance's caches (a libSQL file; Postgres while its LISTEN channel hears), else 0",
  );
  let hearsOthers: (() => boolean) | undefined;
  const bookings = gauge('svc_bookings', 'Bookings in the database, by status', ['status']);
  const outboxDepth = gauge('svc_outbox_depth', 'Outbox entries waiting to be delivered (retries included), by kind', ['kind']);
  const outboxAge = gauge('svc_outbox_oldest_age_seconds', 'Age of the oldest outbox entry waiting to be delivered, by kind; 0 when none waits', ['kind']);
  const connections = gauge('svc_calendar_connections', 'Calendar connections in the database, by status', ['status']);
  const databaseSeries = [bookings, outboxDepth, outboxAge, connections];

  let pending = 0;
  const settle = () => {
    pending -= 1;
    inFlight.set(pending);
  };

  async function readWithin(read: () => Promise<OperationsSnapshot>, ms: number): Promise<OperationsSnapshot | null> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
    try {
      return await Promise.race([read().catch(() => null), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    contentType: registry.contentType,
    observeRequest({ method, route, status, seconds }) {
      const labels = { method: METHODS.has(method) ? method : 'other', route: route || UNMATCHED_ROUTE, status: String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
    },
    deliveryFailed(kind) {
      failures.inc({ kind });
    },
    countCalls(storage) {
      return new Proxy(storage, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            const result = Reflect.apply(value, target, args);
            if (!(result instanceof Promise)) return result;
            pending += 1;
            inFlight.set(pending);
            return result.finally(settle);
          };
        },
      });
    },
    setPoolSize(size) {
      poolMax.set(size);
    },
    followChangeChannel(hears) {
      hearsOthers = hears;
    },
    async scrape(read, now, timeoutMs) {
      if (hearsOthers) channelUp.set(hearsOthers() ? 1 : 0);
      const snapshot = await readWithin(read, timeoutMs);
      for (const gauge of databaseSeries) gauge.reset();
      databaseUp.set(snapshot ? 1 : 0);
      if (snapshot) {
        for (const status of BOOKING_STATUSES) bookings.set({ status }, 0);
        for (const status of CONNECTION_STATUSES) connections.set({ status }, 0);
        for (const [status, n] of Object.entries(snapshot.bookingsByStatus)) bookings.set({ status }, n);
        for (const { kind, pending: depth, oldestCreatedAt } of snapshot.outbox) {
          outboxDepth.set({ kind }, depth);
          outboxAge.set({ kind }, oldestCreatedAt === null ? 0 : Math.max(0, (now - oldestCreatedAt) / 1000));
        }
        for (const [status, n] of Object.entries(snapshot.calendarConnectionsByStatus)) connections.set({ status }, n);
      }
      return registry.metrics();
    },
  };
}
