import { RETRY_JITTER, retrySchedule, type Config } from '../../platform/config.ts';
import { manageUrl, openManageToken } from '../../platform/access/manage-token.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { MailMessageRecord, MailOutcome, Storage } from '../../ports/storage/index.ts';
import { composeMail, type MailContext } from './compose.ts';
import type { MailTransport } from '../../ports/mail.ts';

/*
 * The mail loop: claims due mails from the mail outbox under a lease owned by this process, sends each one and
 * records the outcome (ignored unless the lease is still ours). Failed sends are retried on the webhook
 * schedule (SVC_WEBHOOK_RETRY_SCHEDULE, ±10% jitter); after its last delay a mail is `failed`. Concurrent
 * claimers (processes, instances) never hold the same mail at once, so each mail is sent by one of them; a
 * crash between the server's acceptance and the record can only repeat that one mail once its lease lapses.
 */

export interface MailSenderOptions {
  storage: Storage;
  config: Config;
  clock: Clock;
  logger: Logger;
  transport: MailTransport;
  owner: string;
  /** mails sent at once at most; default 4 */
  concurrency?: number;
  /** how long a claimed mail stays ours, ms; default 120 000 (well above the SMTP timeouts) */
  leaseMs?: number;
  /** how often due retries and mails written by other instances are looked for, ms; default 1000 */
  pollIntervalMs?: number;
  random?: () => number;
}

export interface MailSender {
  start(): void;
  /** Looks for due mails at once (after every write that adds some). */
  wake(): void;
  /** For tests and tools: sends every mail due at clock.now() until none is left; resolves with how many were attempted. */
  runOnce(): Promise<number>;
  /** Stops claiming and waits for the sends in flight. */
  stop(): Promise<void>;
}

/** Why a mail is not sent at all (it describes a state the booking has left), or null to send it. */
function staleness(mail: MailMessageRecord, context: { status: string; revision: number }): string | null {
  if (mail.kind === 'pending' && context.status !== 'PENDING') return 'the booking is no longer pending';
  if (mail.kind === 'reminder' && (context.status !== 'CONFIRMED' || context.revision !== mail.revision))
    return 'the booking changed after the reminder was due';
  return null;
}

export function createMailSender(options: MailSenderOptions): MailSender {
  const { storage, config, clock, logger, transport, owner } = options;
  const concurrency = options.concurrency ?? 4;
  const leaseMs = options.leaseMs ?? 120_000;
  const pollMs = options.pollIntervalMs ?? 1000;
  const random = options.random ?? Math.random;
  const schedule = retrySchedule(config);
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  let pumping: Promise<void> | null = null;
  let wanted = false;

  /** The mail's context, or a reason to drop it. */
  async function contextOf(mail: MailMessageRecord, now: number): Promise<MailContext | { drop: string } | { retry: string }> {
    const [booking, workspace] = await Promise.all([storage.getBooking(mail.workspaceId, mail.bookingId), storage.getWorkspaceById(mail.workspaceId)]);
    if (!booking || !workspace) return { drop: 'the booking was deleted' };
    const stale = staleness(mail, { status: booking.status, revision: booking.revision ?? 0 });
    if (stale) return { drop: stale };
    const [service, provider] = await Promise.all([storage.getService(workspace.id, booking.serviceId), storage.getProvider(workspace.id, booking.providerId)]);
    let checkoutUrl: string | null = null;
    if (mail.kind === 'pending' && mail.snapshot.holdExpiresAt) {
      const payment = (await storage.listPayments(booking.id)).find((candidate) => candidate.status === 'pending' && candidate.checkoutUrl);
      if (!payment) return { retry: 'the checkout is not recorded yet' };
      checkoutUrl = payment.checkoutUrl ?? null;
    }
    const token = booking.manageTokenSealed && config.SVC_SECRET ? await openManageToken(booking.manageTokenSealed, config.SVC_SECRET, booking.id) : null;
    return {
      mail,
      booking,
      workspace,
      serviceName: service?.name ?? '',
      providerName: provider?.name ?? null,
      manageUrl: token ? manageUrl(config.SVC_PUBLIC_URL, token) : null,
      checkoutUrl,
      from: config.SVC_MAIL_FROM ?? '',
      publicUrl: config.SVC_PUBLIC_URL,
      now,
    };
  }

  function failure(mail: MailMessageRecord, at: number, error: string): MailOutcome {
    const delaySeconds = schedule[mail.attempts];
    if (delaySeconds === undefined) return { status: 'failed', nextAttemptAt: null, error, at };
    const wait = Math.round(delaySeconds * 1000 * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
    return { status: 'pending', nextAttemptAt: at + wait, error, at };
  }

  async function deliver(mail: MailMessageRecord): Promise<void> {
    const at = clock.now();
    let outcome: MailOutcome;
    try {
      const context = await contextOf(mail, at);
      if ('drop' in context) outcome = { status: 'dropped', nextAttemptAt: null, error: context.drop, at };
      else if ('retry' in context) outcome = failure(mail, at, context.retry);
      else {
        await transport.send(composeMail(context));
        outcome = { status: 'sent', nextAttemptAt: null, error: null, at };
      }
    } catch (error) {
      outcome = failure(mail, at, error instanceof Error ? error.message : String(error));
    }
    const recorded = await storage.recordMailAttempt(owner, mail.id, outcome);
    if (!recorded) {
      logger.warn('mail outcome not recorded: the lease on it lapsed', { mailId: mail.id, owner });
      return;
    }
    if (outcome.status === 'pending' || outcome.status === 'failed') {
      // No address, name or link here: the mail id and the booking id say which mail it was.
      logger.warn('mail not sent', {
        mailId: mail.id,
        bookingId: mail.bookingId,
        kind: mail.kind,
        attempt: mail.attempts + 1,
        error: outcome.error,
        retryAt: outcome.nextAttemptAt === null ? null : new Date(outcome.nextAttemptAt).toISOString(),
      });
    } else {
      logger.debug('mail', { mailId: mail.id, bookingId: mail.bookingId, kind: mail.kind, status: outcome.status, reason: outcome.error });
    }
  }

  async function round(): Promise<number> {
    const now = clock.now();
    const mails = await storage.claimDueMails(owner, now, now + leaseMs, concurrency);
    await Promise.all(
      mails.map((mail) =>
        deliver(mail).catch((error) => {
          logger.error('mail delivery failed unexpectedly', { mailId: mail.id, error: error instanceof Error ? error.message : String(error) });
        }),
      ),
    );
    return mails.length;
  }

  async function pump(): Promise<void> {
    while (wanted && !stopped) {
      wanted = false;
      try {
        for (;;) {
          if (stopped) break;
          const due = await storage.nextMailDueAt();
          if (due === null || due > clock.now()) break;
          if ((await round()) < concurrency) break;
        }
      } catch (error) {
        logger.error('claiming mails failed', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  function wake() {
    if (stopped) return;
    wanted = true;
    pumping ??= pump().finally(() => {
      pumping = null;
      if (wanted && !stopped) wake();
    });
  }

  return {
    start() {
      if (timer || stopped) return;
      timer = setInterval(wake, pollMs);
      timer.unref?.();
      wake();
    },
    wake,
    async runOnce() {
      let attempted = 0;
      for (;;) {
        const count = await round();
        attempted += count;
        if (count === 0) return attempted;
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await pumping;
      await transport.close();
    },
  };
}
