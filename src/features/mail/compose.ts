import { formatMoney } from '../../core/money.ts';
import { bookingPayment, paymentLine } from '../../core/booking-payment.ts';
import { OWNER_MAIL_KINDS, type BookingRecord, type MailMessageRecord, type WorkspaceRecord } from '../../ports/storage/index.ts';
import { calendarDocument } from './calendar.ts';
import type { OutgoingMail } from '../../ports/mail.ts';
import { messagesFor } from '../../core/i18n/catalogue.ts';
import type { KindWording, MailMessages, MailValues } from '../../core/i18n/en/mail.ts';
import { htmlPart, textPart, type MailLayout } from './templates/layout.ts';

/** Everything a mail is made from, read when it is sent. */
export interface MailContext {
  mail: MailMessageRecord;
  booking: BookingRecord;
  workspace: WorkspaceRecord;
  serviceName: string;
  providerName: string | null;
  /** the manage page, null when the token cannot be opened (no SVC_SECRET) */
  manageUrl: string | null;
  /** pending awaiting payment: the provider's checkout page */
  checkoutUrl: string | null;
  /** SVC_MAIL_FROM */
  from: string;
  /** SVC_PUBLIC_URL */
  publicUrl: string;
  /** epoch ms */
  now: number;
}

const DEFAULT_COLOR = '#2563eb';

/** A colour safe to put in a style attribute: the workspace's hex colour, else svc's blue. */
export const brandColor = (color: string | null) => (color && /^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(color) ? color : DEFAULT_COLOR);

/** The workspace's logo where a mail client will show it: an https address (clients block others), else none. */
export const mailLogo = (logoUrl: string | null) => (logoUrl?.startsWith('https://') ? logoUrl : null);

/** The workspace as a mail's letterhead shows it. */
export const mailBrand = (workspace: Pick<WorkspaceRecord, 'name' | 'primaryColor' | 'logoUrl'>): MailLayout['brand'] => ({
  name: workspace.name,
  color: brandColor(workspace.primaryColor),
  logoUrl: mailLogo(workspace.logoUrl),
});

/**
 * The mail of `layout` to `to`: from SVC_MAIL_FROM under the workspace's name, in text and HTML, with the
 * Message-ID `<{key}@{host of publicUrl}>` (`key` stable per mail, so a resent mail is recognisably the same).
 */
export function layoutMail(layout: MailLayout, envelope: { from: string; workspaceName: string; to: string; key: string; publicUrl: string }): OutgoingMail {
  return {
    from: fromLine(envelope.from, envelope.workspaceName),
    to: envelope.to,
    subject: layout.subject,
    text: textPart(layout),
    html: htmlPart(layout),
    messageId: `<${envelope.key}@${new URL(envelope.publicUrl).host}>`,
  };
}

/** The Intl locale of a workspace language (a tag Intl does not know falls back to English). */
function localeOf(language: string): string {
  try {
    return Intl.getCanonicalLocales(language)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

/** Dates and times in the workspace's zone, language and clock, with the zone named. */
export function timeFormatter(workspace: Pick<WorkspaceRecord, 'language' | 'timezone' | 'timeFormat'> & { locale?: string | null }) {
  const locale = localeOf(workspace.locale ?? workspace.language);
  const timeZone = workspace.timezone;
  const dateFormat = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const clock = new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: workspace.timeFormat === '12h' ? 'h12' : 'h23' });
  const city = timeZone.split('/').pop()!.replaceAll('_', ' ');
  // Where the language has no abbreviation for the zone ("GMT+1" in English), the city says which zone it is.
  const zoneName = (at: number) => {
    const short =
      new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' }).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
    return /^(GMT|UTC)[+-]/.test(short) ? `${short} (${city})` : short;
  };
  return {
    date: (at: number) => dateFormat.format(at),
    /** "10:00 – 11:00 CET" */
    span: (start: number, end: number) => `${clock.format(start)} – ${clock.format(end)} ${zoneName(start)}`,
    /** "10:30 CET" */
    time: (at: number) => `${clock.format(at)} ${zoneName(at)}`,
  };
}

function kindWording(wording: MailMessages, mail: MailMessageRecord): KindWording {
  switch (mail.kind) {
    case 'pending':
      return mail.snapshot.holdExpiresAt ? wording.pendingPayment : wording.pendingConfirmation;
    case 'owner_booked':
      return wording.owner.booked;
    case 'owner_cancelled':
      return wording.owner.cancelled;
    case 'owner_rescheduled':
      return wording.owner.rescheduled;
    default:
      return wording[mail.kind];
  }
}

const isOwnerMail = (mail: MailMessageRecord) => (OWNER_MAIL_KINDS as readonly string[]).includes(mail.kind);

/** The address part of a From: `Acme <a@example.com>` → `a@example.com`. */
const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

/** Longest workspace name shown as a mail's sender, characters. */
const FROM_NAME_MAX = 64;

/**
 * A bare SVC_MAIL_FROM address gets the workspace's name, so the customer sees who writes. The name is a quoted
 * display name and nothing more: quotes, backslashes, angle brackets and control characters are dropped (a workspace
 * named `Bank <security@bank.example>` must not show a second address) and it is cut to FROM_NAME_MAX characters.
 */
export function fromLine(from: string, workspaceName: string): string {
  if (from.includes('<')) return from;
  const cleaned = workspaceName
    .replace(/["\\<>\p{Cc}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const name =
    [...cleaned].length > FROM_NAME_MAX
      ? `${[...cleaned]
          .slice(0, FROM_NAME_MAX - 1)
          .join('')
          .trimEnd()}…`
      : cleaned;
  return name ? `"${name}" <${from.trim()}>` : from.trim();
}

/**
 * Pure: the owner's mail about a booking (docs/contract/first-day.md §2), to the workspace's notificationEmail:
 * who booked what and when, whether it waits for something, and the booking's address in the admin.
 */
function composeOwnerMail(context: MailContext, values: MailValues, words: KindWording, wording: MailMessages): OutgoingMail {
  const { mail, booking, workspace } = context;
  const owner = wording.owner;
  const labels = wording.labels;
  const details: [string, string][] = [
    [owner.labels.customer, booking.customerName ?? '—'],
    [owner.labels.email, booking.customerEmail],
    ...(booking.phone ? [[owner.labels.phone, booking.phone] as [string, string]] : []),
    [labels.service, values.service],
    ...(context.providerName ? [[labels.with, context.providerName] as [string, string]] : []),
    [labels.date, values.date],
    [labels.time, values.time],
    ...(values.previous ? [[labels.previously, `${values.previous.date}, ${values.previous.time}`] as [string, string]] : []),
    ...(mail.kind === 'owner_cancelled' && values.reason ? [[labels.reason, values.reason] as [string, string]] : []),
  ];
  const waiting =
    mail.kind === 'owner_booked' && mail.snapshot.status === 'PENDING'
      ? [mail.snapshot.holdExpiresAt ? owner.waitsForPayment : owner.waitsForConfirmation]
      : [];
  const layout: MailLayout = {
    lang: workspace.language,
    subject: words.subject(values),
    brand: mailBrand(workspace),
    heading: words.heading(values),
    greeting: owner.greeting,
    paragraphs: [...words.body(values), ...waiting],
    details,
    actions: [{ label: owner.open, url: `${context.publicUrl.replace(/\/$/, '')}/admin/bookings/${encodeURIComponent(booking.id)}` }],
    notes: [],
    footer: owner.footer(workspace.name),
  };
  return layoutMail(layout, {
    from: context.from,
    workspaceName: workspace.name,
    to: workspace.notificationEmail ?? '',
    key: mail.id,
    publicUrl: context.publicUrl,
  });
}

/** Pure: the mail for `context`, in the workspace's language, with its calendar invite where the kind has one. */
export function composeMail(context: MailContext): OutgoingMail {
  const { mail, booking, workspace } = context;
  const wording = messagesFor(workspace.language).mail;
  const format = timeFormatter(workspace);
  const snapshot = mail.snapshot;
  const moneyLocale = localeOf(workspace.locale ?? workspace.language);
  const amount = booking.amountMinor !== null && booking.currency !== null ? formatMoney(booking.amountMinor, booking.currency, moneyLocale) : null;
  const view = bookingPayment(booking);
  // "Deposit €20.00 now, €69.00 at the appointment": the same sentence as on the checkout and manage pages.
  const terms = paymentLine(view, messagesFor(workspace.language).pages.payment, (minor) => formatMoney(minor, view!.currency, moneyLocale));
  const values: MailValues = {
    workspace: workspace.name,
    customer: booking.customerName,
    service: context.serviceName,
    date: format.date(snapshot.startTime),
    time: format.span(snapshot.startTime, snapshot.endTime),
    amount,
    holdUntil: snapshot.holdExpiresAt ? format.time(snapshot.holdExpiresAt) : null,
    reason: snapshot.cancelReason,
    refund: snapshot.refundMinor !== undefined && booking.currency !== null ? formatMoney(snapshot.refundMinor, booking.currency, moneyLocale) : null,
    ...(snapshot.previousStartTime !== undefined && snapshot.previousEndTime !== undefined
      ? { previous: { date: format.date(snapshot.previousStartTime), time: format.span(snapshot.previousStartTime, snapshot.previousEndTime) } }
      : {}),
  };
  const words = kindWording(wording, mail);
  if (isOwnerMail(mail)) return composeOwnerMail(context, values, words, wording);
  const labels = wording.labels;
  const details: [string, string][] = [[labels.service, values.service]];
  if (context.providerName) details.push([labels.with, context.providerName]);
  const occurrences = snapshot.occurrences && snapshot.occurrences.length > 1 ? snapshot.occurrences : null;
  if (occurrences) {
    // A series: every date, one row each (the first row names them).
    for (const [index, occurrence] of occurrences.entries()) {
      details.push([
        index === 0 ? `${labels.dates} (${occurrences.length})` : '',
        `${format.date(occurrence.startTime)}, ${format.span(occurrence.startTime, occurrence.endTime)}`,
      ]);
    }
  } else {
    details.push([labels.date, values.date], [labels.time, values.time]);
  }
  if (values.previous) details.push([labels.previously, `${values.previous.date}, ${values.previous.time}`]);
  if (mail.kind === 'pending' && snapshot.holdExpiresAt && amount) details.push([labels.amount, amount]);
  if (terms && mail.kind !== 'cancelled') details.push([labels.payment, terms]);
  if (mail.kind === 'cancelled' && values.reason) details.push([labels.reason, values.reason]);

  const cancelled = mail.kind === 'cancelled';
  const actions: MailLayout['actions'] = [];
  if (mail.kind === 'pending' && context.checkoutUrl) actions.push({ label: wording.actions.pay, url: context.checkoutUrl });
  if (context.manageUrl) actions.push({ label: cancelled ? wording.actions.view : wording.actions.manage, url: context.manageUrl });
  const invite = mail.kind === 'confirmed' || mail.kind === 'rescheduled' || cancelled;
  const notes = [
    ...(context.manageUrl && !cancelled ? [wording.manageHint(workspace.cancellationHours)] : []),
    ...(invite && !cancelled ? [wording.invite] : []),
  ];

  const layout: MailLayout = {
    lang: workspace.language,
    subject: words.subject(values),
    brand: mailBrand(workspace),
    heading: words.heading(values),
    greeting: wording.greeting(booking.customerName),
    paragraphs: occurrences ? [...words.body(values), wording.series(occurrences.length)] : words.body(values),
    details,
    actions,
    notes,
    footer: wording.footer(workspace.name),
  };
  return {
    ...layoutMail(layout, { from: context.from, workspaceName: workspace.name, to: booking.customerEmail, key: mail.id, publicUrl: context.publicUrl }),
    ...(invite
      ? {
          calendar: {
            filename: cancelled ? 'cancelled.ics' : 'invite.ics',
            method: cancelled ? ('CANCEL' as const) : ('REQUEST' as const),
            content: calendarDocument(
              {
                publicUrl: context.publicUrl,
                timezone: workspace.timezone,
                name: workspace.name,
                method: cancelled ? 'CANCEL' : 'REQUEST',
                organizer: { name: workspace.name, email: addressOf(context.from) },
                stamp: context.now,
              },
              // A series' one invite holds every occurrence, each under its own booking's UID.
              (occurrences ?? [{ bookingId: booking.id, startTime: snapshot.startTime, endTime: snapshot.endTime, revision: mail.revision }]).map(
                (occurrence) => ({
                  bookingId: occurrence.bookingId,
                  startTime: occurrence.startTime,
                  endTime: occurrence.endTime,
                  status: snapshot.status,
                  revision: occurrence.revision,
                  summary: `${context.serviceName} · ${workspace.name}`,
                  description: [context.providerName ? `${labels.with}: ${context.providerName}` : null, context.manageUrl].filter(Boolean).join('\n'),
                  url: context.manageUrl,
                  attendee: { email: booking.customerEmail, name: booking.customerName },
                }),
              ),
            ),
          },
        }
      : {}),
  };
}
