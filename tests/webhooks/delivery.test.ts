import type { Storage } from '../../src/ports/storage/index.ts';
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { newId } from '../../src/core/ids.ts';
import { sha256Hex } from '../../src/core/secrets.ts';
import { createDispatcher } from '../../src/features/webhooks/dispatcher.ts';
import { OUTBOX_LEASE_MS } from '../../src/platform/outbox/worker.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { createCatalogue, createWebhookTestApp, gate, startReceiver, verify, workdayAt, type Receipt, type Receiver, type WebhookTestApp } from './support.ts';
import { waitFor } from '../support/wait.ts';

const WS = '/api/v1/workspaces/acme';
const DAY_MS = 24 * 60 * 60 * 1000;

describeEachAdapter('webhook delivery', (adapter) => {
  let t: WebhookTestApp;
  let receiver: Receiver;

  beforeEach(async () => {
    t = await createWebhookTestApp(adapter);
    receiver = startReceiver();
  });
  afterEach(async () => {
    await t.close();
    await receiver.stop();
  });

  const sendTest = async (webhookId: string): Promise<string> => {
    const response = await t.request('POST', `${WS}/webhooks/${webhookId}/test`, { key: t.apiKey });
    expect(response.status).toBe(200);
    return response.body.messageId;
  };
  const deliveries = async (webhookId: string) => (await t.request('GET', `${WS}/webhooks/${webhookId}/deliveries`, { key: t.apiKey })).body.deliveries;
  const iso = (at: number) => new Date(at).toISOString();

  test('a delivery is a signed POST of the stored body: webhook-id = message id, webhook-timestamp, v1 signature, JSON', async () => {
    const hook = await t.createWebhook(receiver.url);
    const messageId = await sendTest(hook.id);
    expect(await t.dispatcher.runOnce()).toBe(1);

    const [receipt] = receiver.receipts as [Receipt];
    expect(receiver.receipts).toHaveLength(1);
    const stored = (await t.deps.storage.getMessage(messageId))!;
    expect(receipt).toEqual({
      id: messageId,
      timestamp: String(Math.floor(t.clock.now() / 1000)),
      signature: expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
      contentType: 'application/json',
      host: new URL(receiver.url).host,
      body: stored.body,
      at: expect.any(Number),
    });
    expect(verify(hook.secret, receipt)).toEqual(JSON.parse(stored.body));
    expect(stored).toMatchObject({ status: 'delivered', attempts: 1, nextAttemptAt: null, deliveredAt: t.clock.now() });
  });

  test('a signature made with another secret does not verify (the check is real)', async () => {
    const hook = await t.createWebhook(receiver.url);
    const other = await t.createWebhook('http://127.0.0.1:9/unused');
    await sendTest(hook.id);
    await t.dispatcher.runOnce();
    expect(() => verify(other.secret, receiver.receipts[0]!)).toThrow('No matching signature found');
    expect(() => verify(hook.secret, { ...receiver.receipts[0]!, body: receiver.receipts[0]!.body.replace('acme', 'acmf') })).toThrow(
      'No matching signature found',
    );
  });

  test('every event type is delivered by the operation that causes it, with the booking as the API answers it', async () => {
    const { serviceId } = await createCatalogue(t);
    const hook = await t.createWebhook(receiver.url);
    const now = () => t.clock.now();
    let seen = 0;
    /** Delivers what is due and returns the verified bodies that arrived since the last call. */
    const delivered = async () => {
      await t.dispatcher.runOnce();
      const fresh = receiver.receipts.slice(seen);
      seen = receiver.receipts.length;
      return fresh.map((receipt) => verify(hook.secret, receipt, now()));
    };
    const event = (type: string, booking: unknown) => ({ type, timestamp: iso(now()), data: { workspace: 'acme', booking } });

    // booking.created: createBooking
    const created = await t.request('POST', `${WS}/bookings`, {
      key: t.apiKey,
      body: { serviceId, email: 'ada@example.com', name: 'Ada', date: workdayAt(now(), '10:00') },
    });
    expect(created.status).toBe(200);
    expect(await delivered()).toEqual([event('booking.created', created.body.booking)]);

    // booking.rescheduled: reschedule
    const moved = await t.request('POST', `${WS}/bookings/${created.body.booking.id}/reschedule`, { key: t.apiKey, body: { date: workdayAt(now(), '11:00') } });
    expect(moved.status).toBe(200);
    expect(await delivered()).toEqual([event('booking.rescheduled', moved.body.booking)]);

    // booking.confirmed: confirm of a PENDING booking (a workspace that confirms by hand)
    await t.deps.storage.updateWorkspace(t.workspace.id, { requiresConfirmation: true }, now());
    const pending = await t.request('POST', `${WS}/bookings`, { key: t.apiKey, body: { serviceId, email: 'bo@example.com', date: workdayAt(now(), '13:00') } });
    expect(pending.body.booking.status).toBe('PENDING');
    expect(await delivered()).toEqual([event('booking.created', pending.body.booking)]);
    const confirmed = await t.request('POST', `${WS}/bookings/${pending.body.booking.id}/confirm`, { key: t.apiKey });
    expect(confirmed.status).toBe(200);
    expect(await delivered()).toEqual([event('booking.confirmed', confirmed.body.booking)]);

    // booking.cancelled: cancel
    const cancelled = await t.request('POST', `${WS}/bookings/${pending.body.booking.id}/cancel`, { key: t.apiKey, body: { reason: 'ill' } });
    expect(cancelled.status).toBe(200);
    expect(await delivered()).toEqual([event('booking.cancelled', cancelled.body.booking)]);

    // payment.received, then booking.confirmed: the customer pays at the checkout of a booking with a sum due
    const paid = await createWebhookTestApp(adapter, { payments: 'test' });
    try {
      const { serviceId: priced } = await createCatalogue(paid, { price: 40, name: 'Paid massage' });
      const paidHook = await paid.createWebhook(receiver.url, { events: ['payment.received', 'booking.confirmed'] });
      const unpaid = await paid.request('POST', `${WS}/bookings`, {
        key: paid.apiKey,
        body: { serviceId: priced, email: 'cy@example.com', date: workdayAt(paid.clock.now(), '14:00') },
      });
      expect(unpaid.body.booking.status).toBe('PENDING');
      const checkoutId = new URL(unpaid.body.checkoutUrl).pathname.split('/').at(-1)!;
      // the test provider keeps only the checkout id's hash, and that is the payment's reference (docs/decisions/0022-test-checkout-id-hashed.md)
      const reference = sha256Hex(checkoutId);
      const paidAt = paid.clock.now();
      expect((await paid.request('POST', `/checkout/${checkoutId}/pay`)).status).toBeLessThan(400);
      const confirmedByPayment = (await paid.request('GET', `${WS}/bookings/${unpaid.body.booking.id}`, { key: paid.apiKey })).body.booking;
      expect(confirmedByPayment.status).toBe('CONFIRMED');
      // The payment's two messages are stamped 1 ms apart so that they are sent in that order.
      paid.clock.advance(1);
      expect(await paid.dispatcher.runOnce()).toBe(2);
      const payments = receiver.receipts
        .slice(seen)
        .map((receipt) => verify(paidHook.secret, receipt, paid.clock.now()) as { type: string; [key: string]: unknown });
      seen = receiver.receipts.length;
      // Claimed in that order, sent concurrently: they may arrive in either order.
      expect(payments.sort((a, b) => b.type.localeCompare(a.type))).toEqual([
        {
          type: 'payment.received',
          timestamp: iso(paidAt),
          data: { workspace: 'acme', booking: confirmedByPayment, payment: { amount: 40, currency: 'EUR', provider: 'test', reference } },
        },
        { type: 'booking.confirmed', timestamp: iso(paidAt), data: { workspace: 'acme', booking: confirmedByPayment } },
      ]);
    } finally {
      await paid.close();
    }

    // booking.completed: complete once the booking has started
    t.clock.set(Date.parse(moved.body.booking.startTime) + 60_000);
    const completed = await t.request('POST', `${WS}/bookings/${created.body.booking.id}/complete`, { key: t.apiKey });
    expect(completed.status).toBe(200);
    expect(await delivered()).toEqual([event('booking.completed', completed.body.booking)]);
  });

  test('the events filter: a webhook subscribed to booking.cancelled gets only that; one with [] gets everything', async () => {
    const { serviceId } = await createCatalogue(t);
    const cancelledOnly = await t.createWebhook(receiver.url, { events: ['booking.cancelled'] });
    const everything = startReceiver();
    try {
      const all = await t.createWebhook(everything.url);
      const created = await t.request('POST', `${WS}/bookings`, {
        key: t.apiKey,
        body: { serviceId, email: 'ada@example.com', date: workdayAt(t.clock.now(), '10:00') },
      });
      await t.request('POST', `${WS}/bookings/${created.body.booking.id}/cancel`, { key: t.apiKey });
      expect(await t.dispatcher.runOnce()).toBe(3);
      expect(receiver.receipts.map((receipt) => (verify(cancelledOnly.secret, receipt) as { type: string }).type)).toEqual(['booking.cancelled']);
      expect(everything.receipts.map((receipt) => (verify(all.secret, receipt) as { type: string }).type).sort()).toEqual([
        'booking.cancelled',
        'booking.created',
      ]);
    } finally {
      await everything.stop();
    }
  });

  test('retries: the receiver fails twice then succeeds -> three attempts, same webhook-id and bytes, log 200/500/500 with next retries', async () => {
    const hook = await t.createWebhook(receiver.url);
    receiver.reply((_receipt, index) => new Response('nope', { status: index < 2 ? 500 : 200 }));
    const messageId = await sendTest(hook.id);
    const t0 = t.clock.now();

    expect(await t.dispatcher.runOnce()).toBe(1);
    expect(await t.deps.storage.getMessage(messageId)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: t0 + 1000 });
    t.clock.advance(999);
    expect(await t.dispatcher.runOnce()).toBe(0);
    t.clock.advance(1);
    expect(await t.dispatcher.runOnce()).toBe(1);
    const t1 = t.clock.now();
    expect(await t.deps.storage.getMessage(messageId)).toMatchObject({ status: 'pending', attempts: 2, nextAttemptAt: t1 + 2000 });
    t.clock.advance(2000);
    expect(await t.dispatcher.runOnce()).toBe(1);
    const t2 = t.clock.now();
    expect(await t.deps.storage.getMessage(messageId)).toMatchObject({ status: 'delivered', attempts: 3, nextAttemptAt: null, deliveredAt: t2 });

    expect(receiver.receipts.map((receipt) => receipt.id)).toEqual([messageId, messageId, messageId]);
    expect(new Set(receiver.receipts.map((receipt) => receipt.body)).size).toBe(1);
    expect(receiver.receipts.map((receipt) => receipt.timestamp)).toEqual([t0, t1, t2].map((at) => String(Math.floor(at / 1000))));
    for (const receipt of receiver.receipts) expect(verify(hook.secret, receipt, t2)).toMatchObject({ type: 'webhook.test' });
    expect((await deliveries(hook.id)).map((d: any) => [d.statusCode, d.attemptedAt, d.nextRetryAt])).toEqual([
      [200, iso(t2), null],
      [500, iso(t1), iso(t1 + 2000)],
      [500, iso(t0), iso(t0 + 1000)],
    ]);
  });

  test('after the last delay of the schedule the message is failed: 1 + schedule.length attempts in all', async () => {
    const hook = await t.createWebhook(receiver.url);
    receiver.reply(() => new Response(null, { status: 502 }));
    const messageId = await sendTest(hook.id);
    for (const wait of [0, 1000, 2000, 4000, 60_000]) {
      t.clock.advance(wait);
      await t.dispatcher.runOnce();
    }
    expect(receiver.receipts).toHaveLength(4);
    expect(await t.deps.storage.getMessage(messageId)).toMatchObject({ status: 'failed', attempts: 4, nextAttemptAt: null, deliveredAt: null });
    expect((await deliveries(hook.id))[0]).toMatchObject({ statusCode: 502, nextRetryAt: null });
  });

  test('retry delays carry ±10% jitter', async () => {
    const jittered = createDispatcher({ storage: t.deps.storage, config: t.deps.config, clock: t.clock, logger: t.deps.logger });
    const hook = await t.createWebhook(receiver.url);
    receiver.reply(() => new Response(null, { status: 500 }));
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push(await sendTest(hook.id));
    await jittered.runOnce();
    const waits = (await Promise.all(ids.map((id) => t.deps.storage.getMessage(id)))).map((message) => message!.nextAttemptAt! - t.clock.now());
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(900);
      expect(wait).toBeLessThanOrEqual(1100);
    }
    expect(new Set(waits).size).toBeGreaterThan(1);
  });

  test('a Retry-After on 429/503 is honoured when longer than the schedule, ignored when shorter or on other statuses', async () => {
    const hook = await t.createWebhook(receiver.url);
    const replies = [
      new Response(null, { status: 503, headers: { 'retry-after': '120' } }),
      new Response(null, { status: 429, headers: { 'retry-after': '0' } }),
      new Response(null, { status: 500, headers: { 'retry-after': '120' } }),
      new Response(null, { status: 429, headers: { 'retry-after': new Date(t.clock.now() + 300_000).toUTCString() } }),
    ];
    const byMessage = new Map<string, Response>();
    const ids: string[] = [];
    for (const reply of replies) {
      const id = await sendTest(hook.id);
      ids.push(id);
      byMessage.set(id, reply);
    }
    receiver.reply((receipt) => byMessage.get(receipt.id)!);
    await t.dispatcher.runOnce();
    const waits = (await Promise.all(ids.map((id) => t.deps.storage.getMessage(id)))).map((message) => message!.nextAttemptAt! - t.clock.now());
    expect(waits).toEqual([120_000, 1000, 1000, 300_000]);
  });

  test('410 Gone: the endpoint is disabled at once and the message failed; later events are not written for it', async () => {
    const hook = await t.createWebhook(receiver.url);
    receiver.reply(() => new Response('gone', { status: 410 }));
    const messageId = await sendTest(hook.id);
    await t.dispatcher.runOnce();
    expect(await t.deps.storage.getMessage(messageId)).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null });
    const shown = await t.request('GET', `${WS}/webhooks/${hook.id}`, { key: t.apiKey });
    expect(shown.body.webhook.isActive).toBe(false);
    expect(await deliveries(hook.id)).toEqual([
      expect.objectContaining({ statusCode: 410, error: 'the endpoint answered 410 Gone: it was disabled', nextRetryAt: null }),
    ]);

    const { serviceId } = await createCatalogue(t);
    await t.request('POST', `${WS}/bookings`, { key: t.apiKey, body: { serviceId, email: 'ada@example.com', date: workdayAt(t.clock.now(), '10:00') } });
    expect(await t.dispatcher.runOnce()).toBe(0);
    expect(receiver.receipts).toHaveLength(1);
  });

  test('messages of an endpoint disabled by PATCH are not sent: failed with an error, nothing reaches the receiver', async () => {
    const hook = await t.createWebhook(receiver.url);
    const { serviceId } = await createCatalogue(t);
    await t.request('POST', `${WS}/bookings`, { key: t.apiKey, body: { serviceId, email: 'ada@example.com', date: workdayAt(t.clock.now(), '10:00') } });
    await t.request('PATCH', `${WS}/webhooks/${hook.id}`, { key: t.apiKey, body: { isActive: false } });
    expect(await t.dispatcher.runOnce()).toBe(1);
    expect(receiver.receipts).toHaveLength(0);
    expect(await deliveries(hook.id)).toEqual([
      expect.objectContaining({
        statusCode: null,
        error: 'the endpoint is disabled: the message was not sent',
        nextRetryAt: null,
        eventType: 'booking.created',
      }),
    ]);
  });

  test('failing every delivery for 5 days disables the endpoint (manual clock)', async () => {
    const hook = await t.createWebhook(receiver.url);
    receiver.reply(() => new Response(null, { status: 500 }));
    const t0 = t.clock.now();
    await sendTest(hook.id);
    await t.dispatcher.runOnce();
    expect(await t.deps.storage.getWebhook(t.workspace.id, hook.id)).toMatchObject({ isActive: true, failingSince: t0 });

    t.clock.set(t0 + 5 * DAY_MS - 60_000);
    await sendTest(hook.id);
    await t.dispatcher.runOnce();
    expect(await t.deps.storage.getWebhook(t.workspace.id, hook.id)).toMatchObject({ isActive: true, failingSince: t0 });

    t.clock.set(t0 + 5 * DAY_MS);
    const last = await sendTest(hook.id);
    await t.dispatcher.runOnce();
    expect(await t.deps.storage.getWebhook(t.workspace.id, hook.id)).toMatchObject({ isActive: false, failingSince: t0 });
    expect(await t.deps.storage.getMessage(last)).toMatchObject({ status: 'failed', nextAttemptAt: null });
  });

  test('a successful delivery ends the failing run: 5 days later a failure does not disable', async () => {
    const hook = await t.createWebhook(receiver.url);
    receiver.reply((_receipt, index) => new Response(null, { status: index === 1 ? 200 : 500 }));
    const t0 = t.clock.now();
    await sendTest(hook.id);
    await t.dispatcher.runOnce();
    t.clock.advance(1000);
    await t.dispatcher.runOnce();
    expect(await t.deps.storage.getWebhook(t.workspace.id, hook.id)).toMatchObject({ isActive: true, failingSince: null });
    t.clock.set(t0 + 6 * DAY_MS);
    await sendTest(hook.id);
    await t.dispatcher.runOnce();
    expect(await t.deps.storage.getWebhook(t.workspace.id, hook.id)).toMatchObject({ isActive: true, failingSince: t0 + 6 * DAY_MS });
  });

  test('a redirect is not followed: the 3xx is recorded as a failure and retried; the target gets nothing', async () => {
    const target = startReceiver();
    try {
      const hook = await t.createWebhook(receiver.url);
      receiver.reply(() => new Response(null, { status: 307, headers: { location: target.url } }));
      const messageId = await sendTest(hook.id);
      await t.dispatcher.runOnce();
      expect(receiver.receipts).toHaveLength(1);
      expect(target.receipts).toHaveLength(0);
      expect(await deliveries(hook.id)).toEqual([
        expect.objectContaining({
          statusCode: 307,
          error: `redirects are not followed (Location: ${target.url}): set the webhook url to the final address`,
          nextRetryAt: iso(t.clock.now() + 1000),
        }),
      ]);
      expect(await t.deps.storage.getMessage(messageId)).toMatchObject({ status: 'pending', attempts: 1 });
    } finally {
      await target.stop();
    }
  });

  test('no answer within the timeout is a failure, retried', async () => {
    const slow = createDispatcher({ storage: t.deps.storage, config: t.deps.config, clock: t.clock, logger: t.deps.logger, random: () => 0.5, timeoutMs: 200 });
    const hook = await t.createWebhook(receiver.url);
    const held = gate();
    receiver.reply(async () => {
      await held.opened;
      return new Response('late');
    });
    await sendTest(hook.id);
    await slow.runOnce();
    held.open();
    expect(await deliveries(hook.id)).toEqual([
      expect.objectContaining({ statusCode: null, error: 'no response within 0.2 s', nextRetryAt: iso(t.clock.now() + 1000) }),
    ]);
  });

  test('a refused connection is a failure with the reason, retried', async () => {
    const closed = startReceiver();
    const url = closed.url;
    await closed.stop();
    const hook = await t.createWebhook(url);
    await sendTest(hook.id);
    await t.dispatcher.runOnce();
    const [attempt] = await deliveries(hook.id);
    expect(attempt).toMatchObject({ statusCode: null, nextRetryAt: iso(t.clock.now() + 1000) });
    expect(attempt.error).toStartWith('request failed: ');
  });

  test('the destination is checked again at delivery: a private address is refused without SVC_WEBHOOK_ALLOW_PRIVATE, nothing is sent', async () => {
    const hook = await t.createWebhook(receiver.url);
    const strict = createDispatcher({
      storage: t.deps.storage,
      config: { ...t.deps.config, SVC_WEBHOOK_ALLOW_PRIVATE: false },
      clock: t.clock,
      logger: t.deps.logger,
      random: () => 0.5,
    });
    const messageId = await sendTest(hook.id);
    await strict.runOnce();
    expect(receiver.receipts).toHaveLength(0);
    expect(await deliveries(hook.id)).toEqual([
      expect.objectContaining({
        statusCode: null,
        error: 'refused: 127.0.0.1 is not a public address (loopback); webhooks are only sent to public addresses (SVC_WEBHOOK_ALLOW_PRIVATE)',
        nextRetryAt: iso(t.clock.now() + 1000),
      }),
    ]);
    expect(await t.deps.storage.getMessage(messageId)).toMatchObject({ status: 'pending', attempts: 1 });
  });

  test('a host name is resolved at delivery: one that now resolves to a private address is refused', async () => {
    const hook = await t.createWebhook(`http://hooks.customer.test:${receiver.port}/hooks`);
    const resolved: string[] = [];
    const strict = createDispatcher({
      storage: t.deps.storage,
      config: { ...t.deps.config, SVC_WEBHOOK_ALLOW_PRIVATE: false },
      clock: t.clock,
      logger: t.deps.logger,
      random: () => 0.5,
      resolve: async (host) => {
        resolved.push(host);
        return ['203.0.113.7', '10.0.0.5'];
      },
    });
    await sendTest(hook.id);
    await strict.runOnce();
    expect(resolved).toEqual(['hooks.customer.test']);
    expect((await deliveries(hook.id))[0].error).toBe(
      'refused: hooks.customer.test resolves to 10.0.0.5, not a public address (private); webhooks are only sent to public addresses (SVC_WEBHOOK_ALLOW_PRIVATE)',
    );
    expect(receiver.receipts).toHaveLength(0);
  });

  test('the attempt connects to the address its one lookup gave (a rebinding DNS answers differently the next time); Host keeps the name', async () => {
    const hook = await t.createWebhook(`http://hooks.rebinding.test:${receiver.port}/hooks`);
    const resolved: string[] = [];
    const pinned = createDispatcher({
      storage: t.deps.storage,
      config: { ...t.deps.config, SVC_WEBHOOK_ALLOW_PRIVATE: true },
      clock: t.clock,
      logger: t.deps.logger,
      random: () => 0.5,
      // The first answer is the receiver; any later one would be a closed loopback address (port 9 of 127.0.0.3).
      resolve: async (host) => {
        resolved.push(host);
        return resolved.length === 1 ? ['127.0.0.1'] : ['127.0.0.3'];
      },
    });
    const messageId = await sendTest(hook.id);
    await pinned.runOnce();
    // one lookup, by svc; the name itself resolves nowhere (.test), so the request cannot have looked it up again
    expect(resolved).toEqual(['hooks.rebinding.test']);
    expect(receiver.receipts).toHaveLength(1);
    expect(receiver.receipts[0]!.host).toBe(`hooks.rebinding.test:${receiver.port}`);
    expect(await t.deps.storage.getMessage(messageId)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  test('a signing secret that does not open (SVC_SECRET changed) fails the attempt with the reason; nothing is sent', async () => {
    const hook = await t.createWebhook(receiver.url);
    const rotated = createDispatcher({
      storage: t.deps.storage,
      config: { ...t.deps.config, SVC_SECRET: 'a-different-secret-a-different-secret-0000' },
      clock: t.clock,
      logger: t.deps.logger,
      random: () => 0.5,
    });
    await sendTest(hook.id);
    await rotated.runOnce();
    expect(receiver.receipts).toHaveLength(0);
    expect((await deliveries(hook.id))[0].error).toBe('the stored signing secret does not open with this SVC_SECRET (was SVC_SECRET changed?)');
  });

  test('at most 8 deliveries are in flight at once', async () => {
    const hook = await t.createWebhook(receiver.url);
    const held = gate();
    let open = 0;
    let peak = 0;
    receiver.reply(async () => {
      peak = Math.max(peak, ++open);
      await held.opened;
      open--;
      return new Response('ok');
    });
    for (let i = 0; i < 20; i++) await sendTest(hook.id);
    t.dispatcher.start();
    await receiver.waitFor(8);
    expect(receiver.open()).toBe(8);
    expect(t.dispatcher.inFlight()).toBe(8);
    held.open();
    await receiver.waitFor(20);
    // Never a ninth at once, while the first 8 were held or after.
    expect(peak).toBe(8);
    expect(new Set(receiver.receipts.map((receipt) => receipt.id)).size).toBe(20);
  });

  test('claims are made a batch at a time (8), not once per freed slot', async () => {
    const hook = await t.createWebhook(receiver.url);
    let claims = 0;
    const counted = new Proxy(t.deps.storage, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property !== 'claimDueMessages') return typeof value === 'function' ? value.bind(target) : value;
        return (...args: Parameters<typeof target.claimDueMessages>) => {
          claims++;
          return target.claimDueMessages(...args);
        };
      },
    });
    const batched = createDispatcher({ storage: counted, config: t.deps.config, clock: t.clock, logger: t.deps.logger });
    for (let i = 0; i < 40; i++) await sendTest(hook.id);
    batched.start();
    try {
      await receiver.waitFor(40);
    } finally {
      await batched.stop();
    }
    // 5 full batches, then one that comes back short.
    expect(claims).toBeGreaterThanOrEqual(5);
    expect(claims).toBeLessThanOrEqual(7);
  });

  test('a message leased by a claimer that died is sent by another once the lease (20 s) lapses; the dead one cannot record', async () => {
    const hook = await t.createWebhook(receiver.url);
    const messageId = await sendTest(hook.id);
    const [claimed] = await t.deps.storage.claimDueMessages('crashed-process', t.clock.now(), t.clock.now() + OUTBOX_LEASE_MS, 10);
    expect(claimed?.id).toBe(messageId);

    expect(await t.dispatcher.runOnce()).toBe(0);
    t.clock.advance(OUTBOX_LEASE_MS + 1);
    expect(await t.dispatcher.runOnce()).toBe(1);
    expect(receiver.receipts.map((receipt) => receipt.id)).toEqual([messageId]);
    const late = await t.deps.storage.recordAttempt('crashed-process', messageId, {
      attempt: { id: newId('att'), messageId, webhookId: hook.id, attemptedAt: t.clock.now(), statusCode: 500, error: null, durationMs: 1, nextRetryAt: null },
      status: 'failed',
      nextAttemptAt: null,
    });
    expect(late).toBe(false);
    expect(await t.deps.storage.getMessage(messageId)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  test('an instance that dies with a message in flight: another sends it (same webhook-id) 20 s after its last heartbeat; while it beats, nobody does', async () => {
    const hook = await t.createWebhook(receiver.url);
    const held = gate();
    receiver.reply(async (_receipt, index) => {
      if (index === 0) await held.opened;
      return new Response('ok');
    });
    const messageId = await sendTest(hook.id);
    // Not started: it renews its leases only when the test says, so the test decides when it dies.
    const dying = createDispatcher({
      storage: t.deps.storage,
      config: t.deps.config,
      clock: t.clock,
      logger: t.deps.logger,
      random: () => 0.5,
      owner: 'dying',
    });
    const dyingRun = dying.runOnce();
    await receiver.waitFor(1);

    // Alive: a heartbeat 15 s in keeps the message past the claim's own lease.
    t.clock.advance(15_000);
    expect(await dying.renewLeases()).toBe(1);
    t.clock.advance(15_000);
    expect(await t.dispatcher.runOnce()).toBe(0);
    // Dead after that heartbeat: the message moves as soon as the renewed lease has run out.
    t.clock.advance(OUTBOX_LEASE_MS - 15_000 - 1);
    expect(await t.dispatcher.runOnce()).toBe(0);
    t.clock.advance(2);
    expect(await t.dispatcher.runOnce()).toBe(1);
    expect(receiver.receipts.map((receipt) => receipt.id)).toEqual([messageId, messageId]);
    expect(await dying.renewLeases()).toBe(0);

    // The dead instance's late answer is not recorded: one attempt, the taker's.
    held.open();
    expect(await dyingRun).toBe(1);
    expect(await t.deps.storage.getMessage(messageId)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await deliveries(hook.id)).toHaveLength(1);
  });

  test("a started dispatcher renews the lease of its message in flight on its heartbeat: past the claim's lease, another instance cannot take it", async () => {
    const hook = await t.createWebhook(receiver.url);
    const held = gate();
    receiver.reply(async () => {
      await held.opened;
      return new Response('ok');
    });
    const renewedUntil: number[] = [];
    const storage: Storage = {
      ...t.deps.storage,
      async extendMessageLeases(owner, ids, leaseUntil) {
        const kept = await t.deps.storage.extendMessageLeases(owner, ids, leaseUntil);
        if (kept.length > 0) renewedUntil.push(leaseUntil);
        return kept;
      },
    };
    const beating = createDispatcher({ storage, config: t.deps.config, clock: t.clock, logger: t.deps.logger, random: () => 0.5, heartbeatMs: 10 });
    const messageId = await sendTest(hook.id);
    beating.start();
    try {
      await receiver.waitFor(1);
      t.clock.advance(OUTBOX_LEASE_MS + 1);
      const expired = t.clock.now();
      await waitFor(() => renewedUntil.some((until) => until >= expired + OUTBOX_LEASE_MS), { what: 'a heartbeat after the clock moved' });
      expect(await t.dispatcher.runOnce()).toBe(0);
    } finally {
      held.open();
      await beating.stop();
    }
    expect(receiver.receipts).toHaveLength(1);
    expect(await t.deps.storage.getMessage(messageId)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  test('two dispatchers on one database deliver each of 60 messages exactly once', async () => {
    const hook = await t.createWebhook(receiver.url);
    // Postgres: a second connection pool, as another instance has. libSQL serves one process, whose writers
    // share one connection (two in-process connections to one file would wait on each other's busy lock).
    const storage = adapter === 'postgres' ? t.db.reopen() : t.deps.storage;
    const second = createDispatcher({ storage, config: t.deps.config, clock: t.clock, logger: t.deps.logger, random: () => 0.5 });
    const ids = new Set<string>();
    for (let i = 0; i < 60; i++) ids.add(await sendTest(hook.id));
    t.dispatcher.start();
    second.start();
    try {
      await receiver.waitFor(60);
      // Once every message is recorded delivered nothing is left to send: the receipts are final.
      await waitFor(async () => (await Promise.all([...ids].map((id) => t.deps.storage.getMessage(id)))).every((message) => message?.status === 'delivered'), {
        what: 'all 60 messages recorded delivered',
      });
    } finally {
      await second.stop();
    }
    const counts = new Map<string, number>();
    for (const receipt of receiver.receipts) counts.set(receipt.id, (counts.get(receipt.id) ?? 0) + 1);
    expect(new Set(counts.keys())).toEqual(ids);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
  });

  test('a write through the app wakes the started loop at once; one by another instance (its own connection) once heard, on Postgres only', async () => {
    // This dispatcher polls once a minute: within the test only a wake makes it claim.
    let woken: WebhookTestApp | undefined;
    let wakes = 0;
    woken = await createWebhookTestApp(adapter, {
      onOutbox: () => {
        wakes++;
        woken?.dispatcher.wake();
      },
      dispatcher: { pollIntervalMs: 60_000 },
    });
    try {
      const hook = await woken.createWebhook(receiver.url);
      woken.dispatcher.start();
      if (adapter === 'postgres') await waitFor(() => woken!.db.storage.hearsEveryBookingWrite(), { what: 'the change channel to listen' });
      const otherInstance = woken.db.reopen();
      const [bypassed] = await otherInstance.enqueueEvents(
        [{ workspaceId: woken.workspace.id, type: 'webhook.test', body: '{"type":"webhook.test"}', occurredAt: woken.clock.now() }],
        hook.id,
      );
      if (adapter === 'postgres') {
        // the instances hear of each other's writes (adapters/storage/postgres/change-channel.ts)
        await waitFor(() => wakes === 1, { what: "the other instance's write to be heard" });
        await receiver.waitFor(1, 5000);
      } else {
        // another client of the same database: a libSQL file has one server (docs/decisions/0012)
        expect(wakes).toBe(0);
      }
      const heard = wakes;

      const signalled = await woken.request('POST', `${WS}/webhooks/${hook.id}/test`, { key: woken.apiKey });
      expect(wakes).toBe(heard + 1);
      // The wake claims everything due, the other instance's message included; the next poll is a minute away,
      // so arriving within a few seconds (a loaded CI machine included) can only be the wake's doing.
      await receiver.waitFor(2, 5000);
      expect(receiver.receipts.map((receipt) => receipt.id).sort()).toEqual([bypassed!.id, signalled.body.messageId].sort());
    } finally {
      await woken.close();
    }
  });

  test('stop() waits for the delivery in flight, which is recorded before it resolves', async () => {
    const hook = await t.createWebhook(receiver.url);
    const held = gate();
    receiver.reply(async () => {
      await held.opened;
      return new Response('ok');
    });
    const messageId = await sendTest(hook.id);
    t.dispatcher.start();
    await receiver.waitFor(1);
    let stopped = false;
    const stopping = t.dispatcher.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    expect(t.dispatcher.inFlight()).toBe(1);
    held.open();
    await stopping;
    expect(await t.deps.storage.getMessage(messageId)).toMatchObject({ status: 'delivered', attempts: 1 });
  });
});
