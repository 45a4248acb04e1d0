import { RETRY_JITTER } from '../config.ts';

/**
 * The wait before the next attempt of an outbox item after its `failedAttempts`-th failure (1 for the first), ms:
 * the schedule's delay for it (seconds, in order: `retrySchedule(config)`) ±10% jitter, so that items that failed
 * together do not all come back at once. Null when the schedule is used up: the item has failed for good.
 */
export function backoffMs(schedule: readonly number[], failedAttempts: number, random: () => number): number | null {
  const delaySeconds = schedule[failedAttempts - 1];
  if (delaySeconds === undefined) return null;
  return Math.round(delaySeconds * 1000 * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}
