import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Server } from 'bun';
import { Webhook } from 'standardwebhooks';
import { sendAttempt } from '../../src/features/webhooks/delivery.ts';

/*
 * DNS rebinding: the destination check resolves the webhook's host and approves its addresses; the attempt must
 * then connect to the approved address rather than resolve the name again (a second answer could be 127.0.0.1).
 * `hooks.customer.test` is a reserved name that no resolver answers, so reaching the receiver proves the
 * connection went to the pinned address without a lookup.
 */

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const signer = new Webhook(SECRET);
const message = { id: 'msg_pinned', body: '{"type":"webhook.test"}' };
const NOW = Date.now();

let receiver: Server<undefined>;
const seen: { host: string | null; signature: string | null; body: string }[] = [];

beforeAll(() => {
  receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      seen.push({ host: request.headers.get('host'), signature: request.headers.get('webhook-signature'), body: await request.text() });
      return new Response('ok');
    },
  });
});
afterAll(() => receiver.stop(true));

test('an attempt with a pinned address connects there without resolving the name; Host still names the webhook host', async () => {
  const url = `http://hooks.customer.test:${receiver.port}/hooks`;
  const result = await sendAttempt(message, { url, signer, now: NOW, pinnedAddress: '127.0.0.1', timeoutMs: 5_000 });
  expect(result).toMatchObject({ statusCode: 200, error: null });
  expect(seen).toHaveLength(1);
  expect(seen[0]).toMatchObject({ host: `hooks.customer.test:${receiver.port}`, body: message.body });
  const verified = signer.verify(message.body, {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(NOW / 1000)),
    'webhook-signature': seen[0]!.signature!,
  });
  expect(verified).toEqual({ type: 'webhook.test' });
});

test('without a pinned address the name is resolved as usual (a name nobody answers is a failed attempt)', async () => {
  const before = seen.length;
  // Another name than the first test's, so no kept-alive connection of that test is reused.
  const result = await sendAttempt(message, { url: `http://other.customer.test:${receiver.port}/hooks`, signer, now: NOW, timeoutMs: 5_000 });
  expect(result.statusCode).toBeNull();
  expect(result.error).toStartWith('request failed: ');
  expect(seen).toHaveLength(before);
});
