import { openMailTransport } from '../../adapters/mail/index.ts';
import { mailEnabled } from '../platform/config.ts';
import type { AppDeps } from '../platform/app-deps.ts';
import type { MailTransport } from '../ports/mail.ts';
import { createMailSender, sendWaitlistOffers, type MailSender, type MailSenderOptions } from '../features/mail/index.ts';
import { createDispatcher, type Dispatcher, type DispatcherOptions } from '../features/webhooks/index.ts';
import { defaultOwnerId, type OutboxWorker } from '../platform/outbox/worker.ts';
import { createScheduler, type Scheduler } from './scheduler.ts';

/** How often due waiting-list offer mails are looked for, ms. */
const OFFER_MAIL_INTERVAL_MS = 5_000;

/** What `svc serve` runs beside the HTTP server: the webhook delivery loop, the mail loop and the scheduled jobs. */
export interface Background {
  dispatcher: Dispatcher;
  /** null when mail is off (no SVC_SMTP_URL) */
  mailer: MailSender | null;
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
}

/** Starts the outbox workers (webhooks, and mails when SMTP is set) and the jobs on `deps` (one lease owner id per process). */
export function startBackground(deps: AppDeps, options: BackgroundOptions = {}): Background {
  const { mailTransport, mail, ...dispatcherOptions } = options;
  const owner = options.owner ?? defaultOwnerId();
  const dispatcher = createDispatcher({ storage: deps.storage, config: deps.config, clock: deps.clock, logger: deps.logger, ...dispatcherOptions, owner });
  const scheduler = createScheduler(deps, { claimant: owner });
  const transport = mailEnabled(deps.config) ? (mailTransport === undefined ? openMailTransport(deps.config) : mailTransport) : null;
  const mailer = transport
    ? createMailSender({ storage: deps.storage, config: deps.config, clock: deps.clock, logger: deps.logger, transport, owner, ...mail })
    : null;
  // Every kind of delivery is an outbox worker: they start, wake and stop together.
  const workers: OutboxWorker[] = mailer ? [dispatcher, mailer] : [dispatcher];
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
