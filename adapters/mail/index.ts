import type { Config } from '../../src/platform/config.ts';
import type { MailTransport } from '../../src/ports/mail.ts';
import { smtpTransport } from './smtp/index.ts';

/** The transport SVC_SMTP_URL names, or null when mail is off. */
export function openMailTransport(config: Pick<Config, 'SVC_SMTP_URL'>): MailTransport | null {
  return config.SVC_SMTP_URL ? smtpTransport(config.SVC_SMTP_URL) : null;
}
