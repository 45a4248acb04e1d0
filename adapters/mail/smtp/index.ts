import type { Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import type { MailTransport } from '../../../src/ports/mail.ts';

/** What an SMTP failure says without the addresses or the server's echo of them. */
function describe(error: unknown): string {
  const failure = error as { code?: string; responseCode?: number; command?: string };
  const parts = [
    failure.code,
    failure.responseCode ? `SMTP ${failure.responseCode}` : undefined,
    failure.command ? `at ${failure.command.split(' ')[0]}` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? `the SMTP server refused or failed: ${parts.join(', ')}` : 'the SMTP server could not be reached';
}

/**
 * SMTP through nodemailer: `smtp://user:password@host:587` (STARTTLS when the server offers it) or
 * `smtps://user:password@host:465` (TLS from the start). One pooled connection set per process.
 */
export function smtpTransport(url: string, options: { timeoutMs?: number } = {}): MailTransport {
  const timeoutMs = options.timeoutMs ?? 30_000;
  // nodemailer (a seventh of svc's JavaScript) is loaded with the first mail, not at start-up.
  let transporter: Promise<Transporter> | undefined;
  const open = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url,
        pool: true,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        // nodemailer logs nothing unless asked; kept explicit, since its log would carry addresses
        logger: false,
      } as SMTPPool.Options),
    ));
  return {
    async send(mail) {
      try {
        await (await open()).sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          attachments: mail.calendar
            ? [
                {
                  filename: mail.calendar.filename,
                  content: mail.calendar.content,
                  contentType: `text/calendar; charset=utf-8; method=${mail.calendar.method}`,
                },
              ]
            : [],
        });
      } catch (error) {
        throw new Error(describe(error));
      }
    },
    async close() {
      (await transporter)?.close();
    },
  };
}
