import { openMailTransport } from '../../adapters/mail/index.ts';
import { mailEnabled } from '../platform/config.ts';
import type { AppDeps } from '../platform/app-deps.ts';
import type { MailTransport } from '../ports/mail.ts';
import { createCalendarWriter, type CalendarWriterOptions } from '../features/bookings/index.ts';
import { createMailSender, sendWaitlistOffers, type MailSender, type MailSenderOptions } from '../features/mail/index.ts';
import { createDispatcher, type Dispatcher, type DispatcherOptions } from '../features/webhooks/index.ts';
import { defaultOwnerId, type OutboxWorker } from '../platform/outbox/worker.ts';
import { createScheduler, type Scheduler } from './scheduler.ts';

/** How often due waiting-list offer mails are looked for, ms. */
const OFFER_MAIL_INTERVAL_MS = 5_000;

/** What `svc serve` runs beside the HTTP server: the webhook delivery loop, the mail loop, the calendar write-back and the scheduled jobs. */
export interface Background {
  dispatcher: Dispatcher;
  /** null when mail is off (no SVC_SMTP_URL) */
  mailer: MailSender | null;
  /** writes bookings into their providers' write calendars */
  calendarWriter: OutboxWorker;
  scheduler: Scheduler;
  /** Sends newly written webhook messages and mails at once (see signalOutboxWrites). */
  wake(): void;
  /** Stops both and waits for the deliveries and job runs in progress; the storage may close after it. */
  stop(): Promise<void>;
}

/** The webhook dispatcher's options (owner: the lease owner id of every worker), and the mail loop's. */
export interface BackgroundOptions extends Partial<DispatcherOptions> {
  /** how mails leave; default the SMTP transport of SVC_SMTP_URL (none without it) */
  mailTransport?: MailTransport | null;
  mail?: Partial<MailSenderOptions>;
  calendarWrites?: Partial<CalendarWriterOptions>;
}

/** Starts the outbox workers (webhooks, and mails when SMTP is set) and the jobs on `deps` (one lease owner id per process). */
export function startBackground(deps: AppDeps, options: BackgroundOptions = {}): Background {
  const { mailTransport, mail, calendarWrites, ...dispatcherOptions } = options;
  const owner = options.owner ?? defaultOwnerId();
  const { metrics } = deps;
  const dispatcher = createDispatcher({
    storage: deps.storage,
    config: deps.config,
    clock: deps.clock,
    logger: deps.logger,
    metrics,
    ...dispatcherOptions,
    owner,
  });
  const transport = mailEnabled(deps.config) ? (mailTransport === undefined ? openMailTransport(deps.config) : mailTransport) : null;
  const scheduler = createScheduler(deps, { claimant: owner, mailTransport: transport });
  const mailer = transport
    ? createMailSender({ storage: deps.storage, config: deps.config, clock: deps.clock, logger: deps.logger, transport, owner, metrics, ...mail })
    : null;
  const calendarWriter = createCalendarWriter({
    storage: deps.storage,
    config: deps.config,
    clock: deps.clock,
    logger: deps.logger,
    calendars: deps.calendars,
    owner,
    ...calendarWrites,
  });
  // Every kind of delivery is an outbox worker: they start, wake and stop together.
  const workers: OutboxWorker[] = mailer ? [dispatcher, mailer, calendarWriter] : [dispatcher, calendarWriter];
  for (const worker of workers) worker.start();
  scheduler.start();
  // Waiting-list offer mails: due the moment an offer is written, so looked for every few seconds.
  let offers: ReturnType<typeof setInterval> | null = null;
  let sending: Promise<unknown> = Promise.resolve();
  if (transport) {
    const tick = () => {
      sending = sending
        .then(() => sendWaitlistOffers(deps, transport, deps.clock.now()))
        .catch((error) => {
          deps.logger.warn('waiting-list offer mails failed', { error: error instanceof Error ? error.message : String(error) });
        });
    };
    offers = setInterval(tick, OFFER_MAIL_INTERVAL_MS);
    offers.unref?.();
  }
  let stopping: Promise<void> | undefined;
  return {
    dispatcher,
    mailer,
    calendarWriter,
    scheduler,
    wake: () => {
      for (const worker of workers) worker.wake();
    },
    stop: () =>
      (stopping ??= (async () => {
        if (offers) clearInterval(offers);
        await sending;
        await Promise.all([scheduler.stop(), ...workers.map((worker) => worker.stop())]);
      })()),
  };
}
