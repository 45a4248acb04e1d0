import { smtpTransport } from '../../adapters/mail/smtp/index.ts';
import { createMailSender, type MailSender } from '../../src/features/mail/sender.ts';
import { silentLogger } from '../../src/platform/logger.ts';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/app.ts';
import type { AdapterName } from '../support/storage.ts';
import { startTestSmtp, type TestSmtp } from './smtp.ts';

/** An app whose mails leave through svc's own sender to an SMTP server in the test process. */
export interface MailApp {
  app: TestApp;
  smtp: TestSmtp;
  sender: MailSender;
  close(): Promise<void>;
}

/** The mail config every such test shares (sender address, public URL for links), under `options.config`. */
export async function startMailApp(adapter: AdapterName, options: TestAppOptions = {}): Promise<MailApp> {
  const smtp = await startTestSmtp();
  const logger = options.logger ?? silentLogger;
  const app = await createTestApp(adapter, {
    ...options,
    logger,
    config: { SVC_SMTP_URL: smtp.url, SVC_MAIL_FROM: 'bookings@acme.example', SVC_PUBLIC_URL: 'https://book.acme.example', ...options.config },
  });
  const sender = createMailSender({
    storage: app.deps.storage,
    config: app.deps.config,
    clock: app.clock,
    logger,
    transport: smtpTransport(smtp.url),
    owner: 'instance-a',
    random: () => 0.5,
  });
  return {
    app,
    smtp,
    sender,
    async close() {
      await sender.stop();
      await app.close();
      await smtp.close();
    },
  };
}
