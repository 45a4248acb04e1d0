import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** An SMTP server in the test process: every accepted mail parsed with mailparser, and a switch to refuse mails. */
export interface TestSmtp {
  url: string;
  mails: ParsedMail[];
  /** refuse the next `count` mails with a 451 */
  failNext(count: number): void;
  /** resolves once `count` mails have arrived */
  received(count: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: ParsedMail[] = [];
  let failures = 0;
  const waiters: { count: number; resolve: (mails: ParsedMail[]) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (failures > 0) {
          failures--;
          const error = Object.assign(new Error('mailbox busy, try again later'), { responseCode: 451 });
          callback(error);
          return;
        }
        mails.push(await simpleParser(Buffer.concat(chunks)));
        callback();
        for (const waiter of [...waiters]) {
          if (mails.length >= waiter.count) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve([...mails]);
          }
        }
      });
    },
  });
  // A client that dies mid-conversation (svc killed with -9 in the instances test) resets its socket; a real
  // mail server logs that and goes on serving, so this one must not turn it into an unhandled 'error' event.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    failNext: (count) => {
      failures = count;
    },
    received: (count) => (mails.length >= count ? Promise.resolve([...mails]) : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
