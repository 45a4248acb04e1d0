import type { AppDeps } from '../app-deps.ts';
import { retrySchedule } from '../config.ts';
import { backoffMs } from './backoff.ts';
import { createOutboxWorker, type OutboxHandler, type OutboxQueue, type OutboxWorker, type OutboxWorkerOptions } from './worker.ts';

/*
 * What every kind of delivery (webhook messages, mails, calendar writes) builds its worker from, so that a kind
 * writes only its queue's storage calls and its handler: the options its factory takes, a queue over stored
 * rows, the retry wait of its failed attempts, and the worker itself on the tuning those options carry.
 */

/** The options of a kind's worker factory: the deps it works with, the worker's tuning, the jitter of its retries. */
export interface OutboxKindOptions
  extends Pick<AppDeps, 'storage' | 'config' | 'clock' | 'logger'>,
    Pick<OutboxWorkerOptions<unknown, unknown>, 'owner' | 'leaseMs' | 'heartbeatMs' | 'pollIntervalMs'> {
  /** attempts in flight at most, and the size of a claim; default: the kind's */
  concurrency?: number;
  /** jitter source, uniform in [0, 1); default Math.random */
  random?: () => number;
}

/** The storage calls of a queue whose items are its rows as claimed, recorded by their id. */
export interface RowQueueCalls<Row, Outcome> extends Pick<OutboxQueue<Row, Outcome>, 'nextDueAt' | 'claim' | 'extendLeases'> {
  record(owner: string, id: string, outcome: Outcome): Promise<boolean>;
}

/** A queue of rows that are their own items (`kind` for log lines). */
export function rowQueue<Row extends { readonly id: string }, Outcome>(kind: string, calls: RowQueueCalls<Row, Outcome>): OutboxQueue<Row, Outcome> {
  return {
    kind,
    idOf: (row) => row.id,
    nextDueAt: () => calls.nextDueAt(),
    claim: (owner, now, leaseUntil, limit) => calls.claim(owner, now, leaseUntil, limit),
    extendLeases: (owner, ids, leaseUntil) => calls.extendLeases(owner, ids, leaseUntil),
    record: (owner, row, outcome) => calls.record(owner, row.id, outcome),
  };
}

/**
 * The retry wait of a kind: after an item's `failedAttempts`-th failure, the delay of the retry schedule
 * (SVC_WEBHOOK_RETRY_SCHEDULE) ±10% jitter, ms, or null once the schedule is used up (backoff.ts).
 */
export function retryWait(options: Pick<OutboxKindOptions, 'config' | 'random'>): (failedAttempts: number) => number | null {
  const schedule = retrySchedule(options.config);
  const random = options.random ?? Math.random;
  return (failedAttempts) => backoffMs(schedule, failedAttempts, random);
}

/** An item's next attempt for a log line: ISO text, or null when none is planned. */
export const retryAtOf = (nextAttemptAt: number | null): string | null => (nextAttemptAt === null ? null : new Date(nextAttemptAt).toISOString());

/** A kind's worker: its queue and handler on the tuning of `options`, `defaultConcurrency` attempts at once unless they say. */
export function createKindWorker<Item, Outcome>(
  options: OutboxKindOptions,
  defaultConcurrency: number,
  queue: OutboxQueue<Item, Outcome>,
  handler: OutboxHandler<Item, Outcome>,
): OutboxWorker {
  const { clock, logger, owner, leaseMs, heartbeatMs, pollIntervalMs } = options;
  return createOutboxWorker({
    queue,
    handler,
    clock,
    logger,
    owner,
    concurrency: options.concurrency ?? defaultConcurrency,
    leaseMs,
    heartbeatMs,
    pollIntervalMs,
  });
}
