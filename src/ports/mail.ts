/** One mail, ready to send: what the templates produce and a MailTransport delivers. */
export interface OutgoingMail {
  /** `bookings@example.com` or `Acme Studio <bookings@example.com>` */
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** the Message-ID header's value, stable per outbox row so a resent mail is recognisably the same */
  messageId: string;
  /** a calendar invite (`.ics`), `method` as in its METHOD line */
  calendar?: { filename: string; method: 'REQUEST' | 'CANCEL'; content: string };
}

/**
 * How mails leave svc: adapters/mail/<backend>/ (SMTP through nodemailer). `send` resolves once the server
 * accepted the mail and rejects with an Error whose message carries no personal data (no addresses, no body).
 */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}
