import type { Clock } from '../../core/clock.ts';
import { messagesFor } from '../../core/i18n/catalogue.ts';
import { openOfferToken, waitlistUrl } from '../../platform/access/manage-token.ts';
import type { Config } from '../../platform/config.ts';
import type { Logger } from '../../platform/logger.ts';
import type { MailTransport, OutgoingMail } from '../../ports/mail.ts';
import type { Storage, WaitlistEntryRecord, WorkspaceRecord } from '../../ports/storage/index.ts';
import { layoutMail, mailBrand, timeFormatter } from './compose.ts';
import type { MailLayout } from './templates/layout.ts';

/*
 * The offer mail of a waiting list (docs/contract/classes.md §3): the link to claim the seat held for the entry.
 * An offer written with mail on is due at once (`mailDueAt`); this loop takes each due one compare-and-set (so one
 * instance sends it), sends it, and on a failure makes it due again a minute later while the offer is open.
 */

const RETRY_MS = 60_000;

/** Pure: the offer mail for `entry`, whose link is `url`. */
export function composeWaitlistOffer(
  entry: WaitlistEntryRecord,
  workspace: WorkspaceRecord,
  serviceName: string,
  url: string,
  from: string,
  publicUrl: string,
): OutgoingMail {
  const wording = messagesFor(workspace.language).mail;
  const format = timeFormatter(workspace);
  const values = {
    workspace: workspace.name,
    customer: entry.customerName,
    service: serviceName,
    date: format.date(entry.startTime),
    time: format.span(entry.startTime, entry.endTime),
    holdUntil: entry.offerExpiresAt === null ? null : `${format.date(entry.offerExpiresAt)}, ${format.time(entry.offerExpiresAt)}`,
  };
  const words = wording.waitlistOffer;
  const layout: MailLayout = {
    lang: workspace.language,
    subject: words.subject(values),
    brand: mailBrand(workspace),
    heading: words.heading(values),
    greeting: wording.greeting(entry.customerName),
    paragraphs: words.body(values),
    details: [
      [wording.labels.service, values.service],
      [wording.labels.date, values.date],
      [wording.labels.time, values.time],
    ],
    actions: [{ label: words.action, url }],
    notes: [],
    footer: words.footer(workspace.name),
  };
  return layoutMail(layout, { from, workspaceName: workspace.name, to: entry.customerEmail, key: `${entry.id}.offer`, publicUrl });
}

/** Sends the offer mails due at `now`; returns how many were sent. */
export async function sendWaitlistOffers(
  deps: { storage: Storage; config: Config; clock: Clock; logger: Logger },
  transport: MailTransport,
  now: number,
): Promise<number> {
  let sent = 0;
  for (const entry of await deps.storage.listDueWaitlistMails(now, 50)) {
    // Claim it: another instance (or an earlier run still sending) may have taken it.
    if (entry.mailDueAt === null || !(await deps.storage.moveWaitlistMail(entry.id, entry.mailDueAt, null))) continue;
    const [workspace, service] = await Promise.all([
      deps.storage.getWorkspaceById(entry.workspaceId),
      deps.storage.getService(entry.workspaceId, entry.serviceId),
    ]);
    const token = await openOfferToken(entry.offerTokenSealed, deps.config.SVC_SECRET, entry.id);
    if (!workspace || !token) continue;
    try {
      const url = waitlistUrl(deps.config.SVC_PUBLIC_URL, token);
      await transport.send(composeWaitlistOffer(entry, workspace, service?.name ?? '', url, deps.config.SVC_MAIL_FROM ?? '', deps.config.SVC_PUBLIC_URL));
      sent++;
    } catch (error) {
      // No address or link in the log: the entry id says which mail it was.
      deps.logger.warn('waiting-list offer mail not sent', { entryId: entry.id, error: error instanceof Error ? error.message : String(error) });
      if ((entry.offerExpiresAt ?? 0) > now + RETRY_MS) await deps.storage.moveWaitlistMail(entry.id, null, now + RETRY_MS);
    }
  }
  return sent;
}
