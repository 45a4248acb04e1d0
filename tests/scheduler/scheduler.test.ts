import { calendarConnector } from '../../adapters/calendar/index.ts';
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { Cron } from 'croner';
import { memoryRateLimiter } from '../../adapters/ratelimit/memory.ts';
import { parseConfig } from '../../src/platform/config.ts';
import { JOBS, createScheduler, type Job } from '../../src/scheduler/scheduler.ts';
import type { JobDeps } from '../../src/scheduler/jobs.ts';
import { manualClock } from '../../src/core/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';
import { waitFor } from '../support/wait.ts';

/** Resolves once `count` whole-second boundaries have passed, when every-second jobs would have fired. */
function secondBoundaries(count: number): Promise<void> {
  return new Promise((resolve) => {
    let passed = 0;
    new Cron('* * * * * *', { maxRuns: count }, () => {
      if (++passed === count) resolve();
    });
  });
}

/** The croner wiring, on real time: jobs that run every second. */
describe('scheduler (croner)', () => {
  let db: TestDatabase;
  let lines: Record<string, unknown>[];
  let deps: JobDeps;

  beforeEach(async () => {
    db = await createTestDatabase('libsql');
    lines = [];
    deps = {
      storage: db.storage,
      config: parseConfig({ SVC_SECRET: 'test-secret-test-secret-test-secret-0123456789', SVC_DEMO: false }),
      clock: manualClock('2026-11-23T08:00:00.000Z'),
      logger: createLogger('error', (line) => lines.push(JSON.parse(line))),
      rateLimiter: memoryRateLimiter(),
      calendars: calendarConnector({ allowPrivate: false }),
    };
  });
  afterEach(async () => {
    await db.drop();
  });

  test('runs never overlap (protect), a failing job is logged and keeps being scheduled, and stop() waits for the run in progress', async () => {
    let slowRuns = 0;
    let failingRuns = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let slowFinished = false;
    const every = (name: string, run: Job['run']): Job => ({ name, pattern: '* * * * * *', periodic: true, enabled: () => true, run });
    const scheduler = createScheduler(deps, {
      jobs: [
        every('slow', async () => {
          slowRuns++;
          await released;
          slowFinished = true;
        }),
        every('failing', async () => {
          failingRuns++;
          throw new Error(`boom ${failingRuns}`);
        }),
      ],
    });
    scheduler.start();
    // Both fire every second: by the failing job's second run the slow one has been due twice too.
    await waitFor(() => failingRuns >= 2, { what: 'two runs of the failing job' });
    expect(slowRuns).toBe(1);
    expect(failingRuns).toBeGreaterThanOrEqual(2);
    expect(lines.slice(0, 2)).toEqual([
      expect.objectContaining({ level: 'error', msg: 'job failed', job: 'failing', error: 'boom 1' }),
      expect.objectContaining({ level: 'error', msg: 'job failed', job: 'failing', error: 'boom 2' }),
    ]);

    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(slowFinished).toBe(true);
    const runsAtStop = failingRuns;
    await secondBoundaries(2);
    expect(failingRuns).toBe(runsAtStop);
  });

  test('the jobs run at the documented times (UTC): the demo reset daily at 03:00, only with SVC_DEMO', () => {
    const byName = Object.fromEntries(JOBS.map((job) => [job.name, job]));
    const next = (name: string, from: string, count = 1) =>
      new Cron(byName[name]!.pattern, { timezone: 'UTC', paused: true }).nextRuns(count, new Date(from)).map((date) => date.toISOString());
    expect(next('reset-demo', '2026-11-21T18:00:00.000Z', 2)).toEqual(['2026-11-22T03:00:00.000Z', '2026-11-23T03:00:00.000Z']);
    expect(next('expire-holds', '2026-11-21T18:00:01.000Z', 2)).toEqual(['2026-11-21T18:00:15.000Z', '2026-11-21T18:00:30.000Z']);
    expect(next('complete-ended', '2026-11-21T18:00:00.000Z')).toEqual(['2026-11-21T18:00:30.000Z']);
    expect(next('purge-codes', '2026-11-21T18:00:00.000Z')).toEqual(['2026-11-21T18:10:00.000Z']);
    expect(next('purge-rate-limits', '2026-11-21T18:00:00.000Z')).toEqual(['2026-11-21T18:00:45.000Z']);
    expect(byName['reset-demo']!.enabled({ ...deps, config: { ...deps.config, SVC_DEMO: true } })).toBe(true);
    expect(byName['reset-demo']!.enabled(deps)).toBe(false);
    expect(next('refresh-statistics', '2026-11-21T18:00:00.000Z', 2)).toEqual(['2026-11-21T18:17:00.000Z', '2026-11-21T19:17:00.000Z']);
    expect(byName['refresh-statistics']!.enabled({ ...deps, config: { ...deps.config, DATABASE_URL: 'file:./data/svc.db' } })).toBe(true);
    expect(byName['refresh-statistics']!.enabled({ ...deps, config: { ...deps.config, DATABASE_URL: 'postgres://db.example.com/svc' } })).toBe(false);
    expect(next('queue-reminders', '2026-11-21T18:00:00.000Z')).toEqual(['2026-11-21T18:00:10.000Z']);
    expect(byName['queue-reminders']!.enabled(deps)).toBe(false);
    expect(
      byName['queue-reminders']!.enabled({ ...deps, config: { ...deps.config, SVC_SMTP_URL: 'smtp://mail.example.com:587', SVC_MAIL_FROM: 'a@example.com' } }),
    ).toBe(true);
    expect(JOBS.filter((job) => job.periodic).map((job) => job.name)).toEqual([
      'expire-holds',
      'tend-waitlists',
      'complete-ended',
      'queue-reminders',
      'purge-codes',
      'purge-rate-limits',
      'sync-calendars',
    ]);
  });
});
