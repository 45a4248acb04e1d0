import { manageUrl, openManageToken } from '../../platform/access/manage-token.ts';
import { openCheckoutUrl } from '../../platform/sealed-secrets.ts';
import type { Metrics } from '../../platform/metrics.ts';
import { createKindWorker, retryAtOf, retryWait, rowQueue, type OutboxKindOptions } from '../../platform/outbox/kind.ts';
import type { OutboxHandler, OutboxWorker } from '../../platform/outbox/worker.ts';
import type { MailMessageRecord, MailOutcome } from '../../ports/storage/index.ts';
import { composeMail, type MailContext } from './compose.ts';
import type { MailTransport } from '../../ports/mail.ts';

/*
 * Customer mails on the outbox worker (platform/outbox/worker.ts): the queue is the mail outbox
 * (storage.claimDueMails, extendMailLeases, recordMailAttempt), the handler composes and sends one mail.
 * Failed sends are retried on the webhook schedule (SVC_WEBHOOK_RETRY_SCHEDULE, ±10% jitter); after its last
 * delay a mail is `failed`. A mail that describes a state its booking has left is `dropped` unsent. The outbox
 * writes a (booking, kind, revision) once, and only the lease owner records, so a mail is sent once unless a
 * crash (or a lost lease) falls between the server's acceptance and the record: then it is sent again.
 */

/** What createMailSender takes (concurrency: mails sent at once at most, default 4). */
export interface MailSenderOptions extends OutboxKindOptions {
  transport: MailTransport;
  /** lease owner id (one per process) */
  owner: string;
  /** where failed attempts are counted (svc_outbox_delivery_failures_total) */
  metrics?: Pick<Metrics, 'deliveryFailed'>;
}

/** The mail loop: the outbox worker, whose stop() also closes the transport. */
export type MailSender = OutboxWorker;

const DEFAULT_CONCURRENCY = 4;

/** Why a mail is not sent at all (it describes a state the booking has left), or null to send it. */
function staleness(mail: MailMessageRecord, context: { status: string; revision: number }): string | null {
  if (mail.kind === 'pending' && context.status !== 'PENDING') return 'the booking is no longer pending';
  if (mail.kind === 'reminder' && (context.status !== 'CONFIRMED' || context.revision !== mail.revision))
    return 'the booking changed after the reminder was due';
  return null;
}

export function createMailSender(options: MailSenderOptions): MailSender {
  const { storage, config, clock, logger, transport } = options;
  const wait = retryWait(options);

  /** The mail's context, or a reason to drop it. */
  async function contextOf(mail: MailMessageRecord, now: number): Promise<MailContext | { drop: string } | { retry: string }> {
    const [booking, workspace] = await Promise.all([storage.getBooking(mail.workspaceId, mail.bookingId), storage.getWorkspaceById(mail.workspaceId)]);
    if (!booking || !workspace) return { drop: 'the booking was deleted' };
    const stale = staleness(mail, { status: booking.status, revision: booking.revision ?? 0 });
    if (stale) return { drop: stale };
    if (mail.kind.startsWith('owner_') && !workspace.notificationEmail) return { drop: 'the workspace has no notification address' };
    const [service, provider] = await Promise.all([storage.getService(workspace.id, booking.serviceId), storage.getProvider(workspace.id, booking.providerId)]);
    let checkoutUrl: string | null = null;
    if (mail.kind === 'pending' && mail.snapshot.holdExpiresAt) {
      // Without SVC_SECRET no address is kept (it is not stored in clear): the mail goes without its Pay link.
      const secret = config.SVC_SECRET;
      const payment = (await storage.listPayments(booking.id)).find((candidate) => candidate.status === 'pending' && (candidate.checkoutUrlSealed || !secret));
      if (!payment) return { retry: 'the checkout is not recorded yet' };
      checkoutUrl = payment.checkoutUrlSealed && secret ? await openCheckoutUrl(payment.checkoutUrlSealed, secret, payment.id).catch(() => null) : null;
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
    const retryIn = wait(mail.attempts + 1);
    if (retryIn === null) return { status: 'failed', nextAttemptAt: null, error, at };
    return { status: 'pending', nextAttemptAt: at + retryIn, error, at };
  }

  const handler: OutboxHandler<MailMessageRecord, MailOutcome> = {
    async attempt(mail) {
      const at = clock.now();
      try {
        const context = await contextOf(mail, at);
        if ('drop' in context) return { status: 'dropped', nextAttemptAt: null, error: context.drop, at };
        if ('retry' in context) return failure(mail, at, context.retry);
        await transport.send(composeMail(context));
        return { status: 'sent', nextAttemptAt: null, error: null, at };
      } catch (error) {
        return failure(mail, at, error instanceof Error ? error.message : String(error));
      }
    },
    recorded(mail, outcome) {
      if (outcome.status === 'pending' || outcome.status === 'failed') {
        options.metrics?.deliveryFailed('mail');
        // No address, name or link here: the mail id and the booking id say which mail it was.
        logger.warn('mail not sent', {
          mailId: mail.id,
          bookingId: mail.bookingId,
          kind: mail.kind,
          attempt: mail.attempts + 1,
          error: outcome.error,
          retryAt: retryAtOf(outcome.nextAttemptAt),
        });
      } else {
        logger.debug('mail', { mailId: mail.id, bookingId: mail.bookingId, kind: mail.kind, status: outcome.status, reason: outcome.error });
      }
    },
  };

  const queue = rowQueue<MailMessageRecord, MailOutcome>('mail', {
    nextDueAt: () => storage.nextMailDueAt(),
    claim: (...args) => storage.claimDueMails(...args),
    extendLeases: (...args) => storage.extendMailLeases(...args),
    record: (...args) => storage.recordMailAttempt(...args),
  });
  const worker = createKindWorker(options, DEFAULT_CONCURRENCY, queue, handler);
  return {
    ...worker,
    async stop() {
      await worker.stop();
      await transport.close();
    },
  };
}
