import { Cron } from 'croner';
import { mailEnabled } from '../platform/config.ts';
import { queueReminders } from '../features/mail/index.ts';
import type { MailTransport } from '../ports/mail.ts';
import {
  completeEnded,
  expireHolds,
  purgeExpiredCodes,
  purgeRateLimitWindows,
  resetDemoWorkspace,
  syncCalendars,
  tendWaitlists,
  type JobDeps,
} from './jobs.ts';

/*
 * The built-in scheduler: croner jobs in UTC, each `protect`ed so a run never overlaps the previous one, with
 * errors logged and never thrown out of the job (a failing job must not take the server down).
 */

export interface Job {
  name: string;
  /** croner pattern with seconds, in UTC */
  pattern: string;
  /** whether the job runs on this install */
  enabled(deps: JobDeps): boolean;
  /** `mail`: how the owner's mails leave (null when mail is off) */
  run(deps: JobDeps, now: number, claimant: string, mail: MailTransport | null): Promise<unknown>;
  /** part of tick(): the periodic housekeeping (the daily demo reset is not) */
  periodic: boolean;
}

export const JOBS: readonly Job[] = [
  { name: 'expire-holds', pattern: '*/15 * * * * *', periodic: true, enabled: () => true, run: (deps, now) => expireHolds(deps, now) },
  { name: 'tend-waitlists', pattern: '5,20,35,50 * * * * *', periodic: true, enabled: () => true, run: (deps, now) => tendWaitlists(deps, now) },
  { name: 'complete-ended', pattern: '30 * * * * *', periodic: true, enabled: () => true, run: (deps, now) => completeEnded(deps, now) },
  {
    name: 'queue-reminders',
    pattern: '10 * * * * *',
    periodic: true,
    enabled: (deps) => mailEnabled(deps.config),
    run: (deps, now) => queueReminders(deps, now),
  },
  { name: 'purge-codes', pattern: '0 */10 * * * *', periodic: true, enabled: () => true, run: (deps, now) => purgeExpiredCodes(deps, now) },
  { name: 'purge-rate-limits', pattern: '45 * * * * *', periodic: true, enabled: () => true, run: (deps, now) => purgeRateLimitWindows(deps, now) },
  {
    // Each run syncs only the connections due (SVC_CALENDAR_SYNC_SECONDS after their last claim); a short period
    // keeps a connection's sync close to its interval.
    name: 'sync-calendars',
    pattern: '*/10 * * * * *',
    periodic: true,
    enabled: () => true,
    run: (deps, now, claimant, mail) => syncCalendars(deps, now, claimant, mail),
  },
  {
    // The query planner's statistics of an embedded libSQL file, as its bookings grow (Postgres keeps its own with
    // autovacuum), from a bounded sample of each index.
    name: 'refresh-statistics',
    pattern: '0 17 * * * *',
    periodic: false,
    enabled: (deps) => !/^postgres(ql)?:/.test(deps.config.DATABASE_URL),
    run: (deps) => deps.storage.analyze(),
  },
  {
    name: 'reset-demo',
    pattern: '0 0 3 * * *',
    periodic: false,
    enabled: (deps) => deps.config.SVC_DEMO,
    run: (deps, now, claimant) => resetDemoWorkspace(deps, now, claimant),
  },
];

export type JobName =
  | 'expire-holds'
  | 'complete-ended'
  | 'queue-reminders'
  | 'purge-codes'
  | 'purge-rate-limits'
  | 'sync-calendars'
  | 'tend-waitlists'
  | 'refresh-statistics'
  | 'reset-demo';

export interface Scheduler {
  /** Schedules the enabled jobs. */
  start(): void;
  /** Runs every enabled periodic job once, in order, at `now` (default clock.now()); for tests and tools. */
  tick(now?: number): Promise<void>;
  /** Runs one job once at `now` (default clock.now()), whether it is enabled or not; resolves with its result. */
  runJob(name: JobName, now?: number): Promise<unknown>;
  /** Unschedules every job and waits for the runs in progress. */
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  /** who claims once-a-day work (the demo reset) on a shared database; default a random id */
  claimant?: string;
  jobs?: readonly Job[];
  /** how the owner's calendar-failure mails leave; none when absent or null (mail off) */
  mailTransport?: MailTransport | null;
}

export function createScheduler(deps: JobDeps, options: SchedulerOptions = {}): Scheduler {
  const jobs = options.jobs ?? JOBS;
  const claimant = options.claimant ?? crypto.randomUUID();
  const mail = options.mailTransport ?? null;
  const crons: Cron[] = [];
  const runs = new Set<Promise<unknown>>();

  /** One run of a job; logs and swallows its error. */
  function run(job: Job, now: number): Promise<unknown> {
    const started = performance.now();
    const task = job.run(deps, now, claimant, mail).then(
      (result) => {
        deps.logger.debug('job ran', { job: job.name, result, ms: Math.round(performance.now() - started) });
        return result;
      },
      (error) => {
        deps.logger.error('job failed', {
          job: job.name,
          error: error instanceof Error ? error.message : String(error),
          stack: error instanceof Error ? error.stack : undefined,
        });
        return undefined;
      },
    );
    runs.add(task);
    void task.finally(() => runs.delete(task));
    return task;
  }

  const byName = (name: JobName) => {
    const job = jobs.find((candidate) => candidate.name === name);
    if (!job) throw new Error(`unknown job ${name}`);
    return job;
  };

  return {
    start() {
      if (crons.length > 0) return;
      for (const job of jobs) {
        if (!job.enabled(deps)) continue;
        crons.push(
          new Cron(
            job.pattern,
            {
              timezone: 'UTC',
              protect: true,
              unref: true,
              catch: (error) => deps.logger.error('job failed', { job: job.name, error: error instanceof Error ? error.message : String(error) }),
            },
            () => run(job, deps.clock.now()).then(() => undefined),
          ),
        );
      }
    },
    async tick(now = deps.clock.now()) {
      for (const job of jobs) if (job.periodic && job.enabled(deps)) await run(job, now);
    },
    runJob: (name, now = deps.clock.now()) => run(byName(name), now),
    async stop() {
      for (const cron of crons.splice(0)) cron.stop();
      while (runs.size > 0) await Promise.all([...runs]);
    },
  };
}
