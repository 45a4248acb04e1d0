import { messagesFor } from '../../core/i18n/catalogue.ts';
import type { MailTransport, OutgoingMail } from '../../ports/mail.ts';
import type { CalendarConnectionRecord, Storage, WorkspaceRecord } from '../../ports/storage/index.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Config } from '../../platform/config.ts';
import { layoutMail, mailBrand } from './compose.ts';
import type { MailLayout } from './templates/layout.ts';

/*
 * The owner's one mail about a failing calendar connection (docs/contract/calendars.md §8), to the workspace's
 * notificationEmail. The move to `error` marks it due in storage; whoever claims the mark sends it, so of several
 * instances one does. It names the calendar and the problem in words, never a password, token or secret URL.
 */

export interface CalendarFailureContext {
  workspace: WorkspaceRecord;
  connection: CalendarConnectionRecord;
  providerName: string;
  /** SVC_MAIL_FROM */
  from: string;
  /** SVC_PUBLIC_URL */
  publicUrl: string;
}

/** Pure: the mail, in the workspace's language. */
export function composeCalendarFailureMail(context: CalendarFailureContext): OutgoingMail {
  const { workspace, connection } = context;
  const wording = messagesFor(workspace.language).mail;
  const words = wording.calendarFailed;
  const values = { provider: context.providerName, calendar: connection.name };
  const base = context.publicUrl.replace(/\/$/, '');
  const layout: MailLayout = {
    lang: workspace.language,
    subject: words.subject(values),
    brand: mailBrand(workspace),
    heading: words.heading,
    greeting: wording.owner.greeting,
    paragraphs: words.body(values),
    details: [
      [words.labels.provider, context.providerName],
      [words.labels.calendar, connection.name],
      ...(connection.lastError ? [[words.labels.problem, connection.lastError] as [string, string]] : []),
    ],
    actions: [{ label: words.open, url: `${base}/admin/providers` }],
    notes: [],
    footer: wording.owner.footer(workspace.name),
  };
  return layoutMail(layout, {
    from: context.from,
    workspaceName: workspace.name,
    to: workspace.notificationEmail ?? '',
    key: `${connection.id}.${connection.updatedAt}`,
    publicUrl: context.publicUrl,
  });
}

/** Notices claimed per run. */
const NOTICE_BATCH = 50;

/**
 * Sends the failure mails that are due: each claimed once (the storage's compare-and-set), then sent. A workspace
 * without a notificationEmail gets none; a send that fails is logged, not retried (a mail too many would be
 * worse than the connection's status, webhook and admin showing it). Returns how many were sent.
 */
export async function sendCalendarFailureMails(
  deps: { storage: Storage; config: Pick<Config, 'SVC_MAIL_FROM' | 'SVC_PUBLIC_URL'>; logger: Logger },
  transport: MailTransport,
): Promise<number> {
  let sent = 0;
  for (const connection of await deps.storage.listCalendarFailureNotices(NOTICE_BATCH)) {
    if (!(await deps.storage.claimCalendarFailureNotice(connection.id))) continue;
    const workspace = await deps.storage.getWorkspaceById(connection.workspaceId);
    if (!workspace?.notificationEmail) continue;
    const provider = await deps.storage.getProvider(workspace.id, connection.providerId);
    const mail = composeCalendarFailureMail({
      workspace,
      connection,
      providerName: provider?.name ?? '',
      from: deps.config.SVC_MAIL_FROM ?? '',
      publicUrl: deps.config.SVC_PUBLIC_URL,
    });
    try {
      await transport.send(mail);
      sent++;
    } catch (error) {
      deps.logger.warn('calendar failure mail not sent', { connectionId: connection.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return sent;
}
