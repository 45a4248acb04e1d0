import type { AppDeps } from '../deps.ts';
import { createDispatcher, defaultOwnerId, type Dispatcher, type DispatcherOptions } from '../webhooks/dispatcher.ts';
import { createScheduler, type Scheduler } from './scheduler.ts';

/** What `svc serve` runs beside the HTTP server: the webhook delivery loop and the scheduled jobs. */
export interface Background {
  dispatcher: Dispatcher;
  scheduler: Scheduler;
  /** Sends newly written webhook messages at once (see withOutboxSignal). */
  wake(): void;
  /** Stops both and waits for the deliveries and job runs in progress; the storage may close after it. */
  stop(): Promise<void>;
}

/** Starts the delivery loop and the jobs on `deps` (one lease owner id per process). */
export function startBackground(deps: AppDeps, options: Partial<DispatcherOptions> = {}): Background {
  const owner = options.owner ?? defaultOwnerId();
  const dispatcher = createDispatcher({ storage: deps.storage, config: deps.config, clock: deps.clock, logger: deps.logger, ...options, owner });
  const scheduler = createScheduler(deps, { claimant: owner });
  dispatcher.start();
  scheduler.start();
  let stopping: Promise<void> | undefined;
  return {
    dispatcher,
    scheduler,
    wake: () => dispatcher.wake(),
    stop: () => (stopping ??= Promise.all([scheduler.stop(), dispatcher.stop()]).then(() => undefined)),
  };
}
