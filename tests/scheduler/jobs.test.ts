import { afterEach, beforeEach, expect, test } from 'bun:test';
import { memoryRateLimiter } from '../../adapters/ratelimit/memory.ts';
import { ensureDemoWorkspace } from '../../src/features/demo/seed.ts';
import { createPairingCode } from '../../src/features/panel/pairing.ts';
import { createScheduler, type Scheduler } from '../../src/scheduler/scheduler.ts';
import { newId } from '../../src/core/ids.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { sha256Hex } from '../../src/core/secrets.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { createCatalogue, createWebhookTestApp, startReceiver, verify, workdayAt, type Receiver, type WebhookTestApp } from '../webhooks/support.ts';

const WS = '/api/v1/workspaces/acme';
const MINUTE = 60_000;

describeEachAdapter('scheduler jobs', (adapter) => {
  let t: WebhookTestApp;
  let receiver: Receiver;
  let scheduler: Scheduler;

  beforeEach(async () => {
    // SVC_PAYMENTS=test: a booking with a sum due starts PENDING, holding its slot until it is paid or the hold ends.
    t = await createWebhookTestApp(adapter, { payments: 'test' });
    receiver = startReceiver();
    scheduler = createScheduler(t.deps);
  });
  afterEach(async () => {
    await scheduler.stop();
    await t.close();
    await receiver.stop();
  });

  const berlinDate = (instant: string) => Temporal.Instant.from(instant).toZonedDateTimeISO('Europe/Berlin').toPlainDate().toString();
  const slots = async (serviceId: string, instant: string) =>
    (await t.request('GET', `${WS}/availability?serviceId=${serviceId}&date=${berlinDate(instant)}`)).body.slots as string[];

  /** A booking of a paid service: PENDING, holding its slot for SVC_PAYMENT_HOLD_MINUTES (30), with a checkout. */
  async function holdSlot(serviceId: string, start: string) {
    const response = await t.request('POST', `${WS}/bookings`, { key: t.apiKey, body: { serviceId, email: 'ada@example.com', name: 'Ada', date: start } });
    expect(response.status).toBe(200);
    expect(response.body.booking.status).toBe('PENDING');
    expect(response.body.checkoutUrl).toStartWith('http://localhost:8080/checkout/');
    return response.body as { booking: { id: string }; checkoutUrl: string };
  }

  test('an unpaid PENDING hold is cancelled when it expires (payment hold expired), its slot is free again, and booking.cancelled is delivered', async () => {
    const { serviceId } = await createCatalogue(t, { price: 40 });
    const hook = await t.createWebhook(receiver.url, { events: ['booking.cancelled'] });
    const start = workdayAt(t.clock.now(), '10:00');
    const { booking: held } = await holdSlot(serviceId, start);
    expect(await slots(serviceId, start)).not.toContain('10:00');

    t.clock.advance(30 * MINUTE - 1);
    await scheduler.tick();
    expect((await t.deps.storage.getBooking(t.workspace.id, held.id))?.status).toBe('PENDING');
    expect(await t.dispatcher.runOnce()).toBe(0);

    t.clock.advance(1);
    await scheduler.tick();
    const after = await t.request('GET', `${WS}/bookings/${held.id}`, { key: t.apiKey });
    expect(after.body.booking).toMatchObject({ id: held.id, status: 'CANCELLED' });
    expect((await t.deps.storage.getBooking(t.workspace.id, held.id))?.cancelReason).toBe('payment hold expired');
    expect(await slots(serviceId, start)).toContain('10:00');

    expect(await t.dispatcher.runOnce()).toBe(1);
    expect(receiver.receipts.map((receipt) => verify(hook.secret, receipt, t.clock.now()))).toEqual([
      { type: 'booking.cancelled', timestamp: new Date(t.clock.now()).toISOString(), data: { workspace: 'acme', booking: after.body.booking } },
    ]);
  });

  test('a hold that was paid (CONFIRMED) in time is not cancelled by the expiry job', async () => {
    const { serviceId } = await createCatalogue(t, { price: 40 });
    const { booking: held, checkoutUrl } = await holdSlot(serviceId, workdayAt(t.clock.now(), '11:00'));
    t.clock.advance(29 * MINUTE);
    expect((await t.request('POST', new URL(checkoutUrl).pathname + '/pay')).status).toBe(303);
    expect((await t.deps.storage.getBooking(t.workspace.id, held.id))?.status).toBe('CONFIRMED');
    t.clock.advance(2 * MINUTE);
    await scheduler.tick();
    expect((await t.deps.storage.getBooking(t.workspace.id, held.id))?.status).toBe('CONFIRMED');
  });

  test('a CONFIRMED booking is completed once it has ended, and booking.completed is delivered', async () => {
    const { serviceId } = await createCatalogue(t, { price: 0 });
    const hook = await t.createWebhook(receiver.url, { events: ['booking.completed'] });
    const created = await t.request('POST', `${WS}/bookings`, {
      key: t.apiKey,
      body: { serviceId, email: 'ada@example.com', date: workdayAt(t.clock.now(), '10:00') },
    });
    expect(created.body.booking.status).toBe('CONFIRMED');
    const end = Date.parse(created.body.booking.endTime);

    t.clock.set(end - 1);
    await scheduler.tick();
    expect((await t.deps.storage.getBooking(t.workspace.id, created.body.booking.id))?.status).toBe('CONFIRMED');

    t.clock.set(end);
    await scheduler.tick();
    const after = await t.request('GET', `${WS}/bookings/${created.body.booking.id}`, { key: t.apiKey });
    expect(after.body.booking).toEqual({ ...created.body.booking, status: 'COMPLETED' });
    expect(await t.dispatcher.runOnce()).toBe(1);
    expect(receiver.receipts.map((receipt) => verify(hook.secret, receipt, t.clock.now()))).toEqual([
      { type: 'booking.completed', timestamp: new Date(end).toISOString(), data: { workspace: 'acme', booking: after.body.booking } },
    ]);
  });

  test('an ended booking that is PENDING or CANCELLED is left alone by the completion job', async () => {
    const { serviceId } = await createCatalogue(t, { price: 0 });
    const cancelled = await t.request('POST', `${WS}/bookings`, {
      key: t.apiKey,
      body: { serviceId, email: 'a@example.com', date: workdayAt(t.clock.now(), '10:00') },
    });
    await t.request('POST', `${WS}/bookings/${cancelled.body.booking.id}/cancel`, { key: t.apiKey });
    await t.deps.storage.updateWorkspace(t.workspace.id, { requiresConfirmation: true }, t.clock.now());
    const pending = await t.request('POST', `${WS}/bookings`, {
      key: t.apiKey,
      body: { serviceId, email: 'b@example.com', date: workdayAt(t.clock.now(), '12:00') },
    });
    t.clock.set(Date.parse(pending.body.booking.endTime) + MINUTE);
    await scheduler.runJob('complete-ended');
    expect((await t.deps.storage.getBooking(t.workspace.id, cancelled.body.booking.id))?.status).toBe('CANCELLED');
    expect((await t.deps.storage.getBooking(t.workspace.id, pending.body.booking.id))?.status).toBe('PENDING');
  });

  test('more ended bookings than one batch (100) are all completed in one run', async () => {
    const { serviceId } = await createCatalogue(t);
    const date = workdayAt(t.clock.now(), '10:00');
    const ids: string[] = [];
    for (let i = 0; i < 110; i++) {
      const created = await t.deps.storage.reserveBooking({
        booking: {
          id: newId('bk', t.clock.now()),
          workspaceId: t.workspace.id,
          serviceId,
          providerId: '',
          status: 'CONFIRMED',
          startTime: Date.parse(date),
          endTime: Date.parse(date) + 30 * MINUTE,
          bufferTime: 0,
          customerName: null,
          customerEmail: `c${i}@example.com`,
          phone: null,
          notes: null,
          customFields: {},
          amountMinor: null,
          currency: 'EUR',
          cancelReason: null,
          holdExpiresAt: null,
          createdAt: t.clock.now(),
          updatedAt: t.clock.now(),
          revision: 0,
          manageTokenHash: null,
          manageTokenSealed: null,
          priceMinor: null,
          paidMinor: 0,
          refundedMinor: 0,
        },
        candidates: [(await t.deps.storage.getService(t.workspace.id, serviceId))!.providerIds[0]!],
        margin: 0,
        fits: () => null,
        emit: () => [],
      });
      if (created.ok) ids.push(created.booking.id);
    }
    t.clock.set(Date.parse(date) + 31 * MINUTE);
    expect(await scheduler.runJob('complete-ended')).toBe(110);
    const statuses = await Promise.all(ids.map(async (id) => (await t.deps.storage.getBooking(t.workspace.id, id))?.status));
    expect(new Set(statuses)).toEqual(new Set(['COMPLETED']));
  });

  test('expired pairing and panel codes are purged; live ones stay usable', async () => {
    const now = t.clock.now();
    await createPairingCode(t.deps, t.workspace.id);
    t.clock.advance(2 * 60 * MINUTE);
    const live = await createPairingCode(t.deps, t.workspace.id);
    await t.deps.storage.createPanelCode({
      id: newId('pc', now),
      workspaceId: t.workspace.id,
      codeHash: sha256Hex('panel-code'),
      origin: 'https://site.example',
      subject: 'u1',
      capabilities: [],
      expiresAt: now + 60_000,
      usedAt: null,
      createdAt: now,
    });
    expect(await scheduler.runJob('purge-codes')).toBe(2);
    expect(await scheduler.runJob('purge-codes')).toBe(0);
    expect(await t.deps.storage.consumePairingCode(sha256Hex(live.pairingCode), t.clock.now())).not.toBeNull();
  });

  test('rate-limit requests out of the window are forgotten; those still in it keep counting', async () => {
    const limiter = memoryRateLimiter();
    const withLimiter = createScheduler({ ...t.deps, rateLimiter: limiter });
    const now = t.clock.now();
    await limiter.hit('old', 10, MINUTE, now - 3 * MINUTE);
    await limiter.hit('old', 10, MINUTE, now - 3 * MINUTE);
    await limiter.hit('now', 10, MINUTE, now - 30_000);
    await withLimiter.tick(now);
    // The old requests are gone (a hit at their time counts from 1 again); the recent one still counts.
    expect((await limiter.hit('old', 10, MINUTE, now - 3 * MINUTE)).remaining).toBe(9);
    expect((await limiter.hit('now', 10, MINUTE, now - 30_000)).remaining).toBe(8);
  });

  test('a job that fails is logged and does not stop the others', async () => {
    const lines: string[] = [];
    const broken = createScheduler({
      ...t.deps,
      logger: createLogger('error', (line) => lines.push(line)),
      storage: new Proxy(t.deps.storage, {
        get: (target, property) =>
          property === 'listExpiredHolds'
            ? async () => {
                throw new Error('database went away');
              }
            : Reflect.get(target, property, target).bind(target),
      }),
    });
    const { serviceId } = await createCatalogue(t, { price: 0 });
    const created = await t.request('POST', `${WS}/bookings`, {
      key: t.apiKey,
      body: { serviceId, email: 'ada@example.com', date: workdayAt(t.clock.now(), '10:00') },
    });
    t.clock.set(Date.parse(created.body.booking.endTime));
    await broken.tick();
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 'error', msg: 'job failed', job: 'expire-holds', error: 'database went away' }),
    ]);
    expect((await t.deps.storage.getBooking(t.workspace.id, created.body.booking.id))?.status).toBe('COMPLETED');
  });
});

describeEachAdapter('daily demo reset', (adapter) => {
  let t: WebhookTestApp;

  beforeEach(async () => {
    t = await createWebhookTestApp(adapter, { config: { SVC_DEMO: true } });
  });
  afterEach(async () => {
    await t.close();
  });

  test('resets the demo workspace once a day across instances: the first to claim the day resets, the others skip', async () => {
    await ensureDemoWorkspace(t.deps);
    const before = (await t.deps.storage.getWorkspaceBySlug('demo'))!;
    await t.deps.storage.updateWorkspace(before.id, { name: 'Scribbled on by a visitor' }, t.clock.now());
    const first = createScheduler(t.deps, { claimant: 'instance-a' });
    const second = createScheduler(t.deps, { claimant: 'instance-b' });
    t.clock.set('2026-11-24T03:00:00.000Z');

    expect(await first.runJob('reset-demo')).toBe(true);
    const reset = (await t.deps.storage.getWorkspaceBySlug('demo'))!;
    expect(reset.id).not.toBe(before.id);
    expect(reset.name).toBe('Demo Hair & Wellness');
    expect(await t.deps.storage.listServices(reset.id, { activeOnly: true })).toHaveLength(4);
    expect(await second.runJob('reset-demo')).toBe(false);
    expect((await t.deps.storage.getWorkspaceBySlug('demo'))!.id).toBe(reset.id);

    t.clock.set('2026-11-25T03:00:00.000Z');
    expect(await second.runJob('reset-demo')).toBe(true);
    expect((await t.deps.storage.getWorkspaceBySlug('demo'))!.id).not.toBe(reset.id);
  });

  test('without SVC_DEMO the reset does nothing', async () => {
    const off = createScheduler({ ...t.deps, config: { ...t.deps.config, SVC_DEMO: false } });
    expect(await off.runJob('reset-demo')).toBe(false);
    expect(await t.deps.storage.getWorkspaceBySlug('demo')).toBeNull();
  });
});
