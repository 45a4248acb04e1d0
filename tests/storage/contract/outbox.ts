import { describe, expect, test } from 'bun:test';
import { newId } from '../../../src/core/ids.ts';
import type { WebhookMessageRecord } from '../../../src/ports/storage/index.ts';
import { SECOND, MINUTE, HOUR, DAY, T0, aWorkspace, aWebhook, anEvent, anOutcome, dueMessages, claimOne, ids, sortedIds } from './fixtures.ts';
import { storage } from './database.ts';

/** OutboxStore: webhook endpoints, the outbox and delivery attempts. */
export function outboxContract() {
  describe('webhooks', () => {
    test("createWebhook stores the record; getWebhook returns it and listWebhooks lists the workspace's webhooks by createdAt", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const later = aWebhook(ws, { createdAt: T0 + 2, updatedAt: T0 + 2, events: ['booking.created', 'payment.received'] });
      const earlier = aWebhook(ws, { createdAt: T0 + 1, updatedAt: T0 + 1, name: null, isActive: false, failingSince: T0 - DAY });
      const theirs = aWebhook(other);
      for (const hook of [later, earlier, theirs]) await storage.createWebhook(hook);
      expect(await storage.getWebhook(ws.id, later.id)).toEqual(later);
      expect(await storage.getWebhook(ws.id, earlier.id)).toEqual(earlier);
      expect(await storage.getWebhook(ws.id, theirs.id)).toBeNull();
      expect(await storage.listWebhooks(ws.id)).toEqual([earlier, later]);
      expect(await storage.listWebhooks(other.id)).toEqual([theirs]);
    });

    test("updateWebhook applies the patch and sets updatedAt; another workspace's webhook or an unknown id -> null", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const hook = aWebhook(ws);
      await storage.createWebhook(hook);
      const patch = { name: 'Renamed', url: 'https://new.example.com/hook', events: ['booking.cancelled'], isActive: false, failingSince: T0 - HOUR };
      const expected = { ...hook, ...patch, updatedAt: T0 + MINUTE };
      expect(await storage.updateWebhook(ws.id, hook.id, patch, T0 + MINUTE)).toEqual(expected);
      expect(await storage.getWebhook(ws.id, hook.id)).toEqual(expected);
      expect(await storage.updateWebhook(other.id, hook.id, { url: 'https://evil.example.com' }, T0 + HOUR)).toBeNull();
      expect(await storage.updateWebhook(ws.id, newId('wh'), { name: 'Ghost' }, T0 + HOUR)).toBeNull();
      expect(await storage.getWebhook(ws.id, hook.id)).toEqual(expected);
    });

    test("deleteWebhook removes the webhook and its pending messages; again, or another workspace's webhook -> false", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const hook = aWebhook(ws);
      const kept = aWebhook(ws);
      await storage.createWebhook(hook);
      await storage.createWebhook(kept);
      const written = await storage.enqueueEvents([anEvent(ws, 'booking.created')]);
      expect(written).toHaveLength(2);
      expect(await storage.deleteWebhook(other.id, hook.id)).toBe(false);
      expect(await storage.deleteWebhook(ws.id, hook.id)).toBe(true);
      expect(await storage.deleteWebhook(ws.id, hook.id)).toBe(false);
      expect(await storage.getWebhook(ws.id, hook.id)).toBeNull();
      expect(await storage.listWebhooks(ws.id)).toEqual([kept]);
      for (const message of written) {
        expect((await storage.getMessage(message.id))?.id).toBe(message.webhookId === hook.id ? undefined : message.id);
      }
      expect((await dueMessages(storage)).map((message) => message.webhookId)).toEqual([kept.id]);
    });
  });

  describe('outbox', () => {
    test("enqueueEvents writes one message per active subscribed webhook of the event's workspace and returns them as stored", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const all = aWebhook(ws);
      const subscribed = aWebhook(ws, { events: ['booking.completed'] });
      const notSubscribed = aWebhook(ws, { events: ['booking.created'] });
      const inactive = aWebhook(ws, { isActive: false });
      const theirs = aWebhook(other);
      for (const hook of [all, subscribed, notSubscribed, inactive, theirs]) await storage.createWebhook(hook);
      const event = anEvent(ws, 'booking.completed', T0 + 5 * SECOND);
      const written = await storage.enqueueEvents([event]);
      expect(written.map((message) => message.webhookId).sort()).toEqual([all.id, subscribed.id].sort());
      for (const message of written) {
        expect(message).toEqual({
          id: expect.stringMatching(/^msg_/),
          webhookId: message.webhookId,
          workspaceId: ws.id,
          eventType: 'booking.completed',
          body: event.body,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: T0 + 5 * SECOND,
          createdAt: T0 + 5 * SECOND,
          deliveredAt: null,
        });
        expect(await storage.getMessage(message.id)).toEqual(message);
      }
      expect(sortedIds(await dueMessages(storage))).toEqual(sortedIds(written));
      expect(await storage.enqueueEvents([])).toEqual([]);
    });

    test('enqueueEvents with onlyWebhookId writes to that webhook alone, whatever it subscribes to', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const target = aWebhook(ws, { events: ['booking.created'] });
      const bystander = aWebhook(ws, { events: [] });
      await storage.createWebhook(target);
      await storage.createWebhook(bystander);
      const written = await storage.enqueueEvents([anEvent(ws, 'webhook.test')], target.id);
      expect(written.map((message) => [message.webhookId, message.eventType])).toEqual([[target.id, 'webhook.test']]);
      expect((await dueMessages(storage)).map((message) => message.webhookId)).toEqual([target.id]);
    });

    test("enqueueEvents with onlyWebhookId of another workspace's webhook writes nothing", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const theirs = aWebhook(other);
      await storage.createWebhook(theirs);
      await storage.createWebhook(aWebhook(ws));
      expect(await storage.enqueueEvents([anEvent(ws, 'webhook.test')], theirs.id)).toEqual([]);
      expect(await dueMessages(storage)).toEqual([]);
    });

    test('claimDueMessages returns pending messages due at now, and leaves out those not yet due, delivered or failed', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      const [toDeliver] = await storage.enqueueEvents([anEvent(ws, 'booking.created', T0 - HOUR)]);
      const [toFail] = await storage.enqueueEvents([anEvent(ws, 'booking.confirmed', T0 - HOUR)]);
      const due = [
        ...(await storage.enqueueEvents([anEvent(ws, 'booking.cancelled', T0)])),
        ...(await storage.enqueueEvents([anEvent(ws, 'booking.completed', T0 + SECOND)])),
      ];
      await storage.enqueueEvents([anEvent(ws, 'booking.rescheduled', T0 + SECOND + 1)]);
      const early = await storage.claimDueMessages('early', T0 - HOUR, T0 - HOUR + MINUTE, 10);
      expect(sortedIds(early)).toEqual(sortedIds([toDeliver!, toFail!]));
      expect(await storage.recordAttempt('early', toDeliver!.id, anOutcome(toDeliver!, { status: 'delivered', nextAttemptAt: null }))).toBe(true);
      expect(await storage.recordAttempt('early', toFail!.id, anOutcome(toFail!, { status: 'failed', nextAttemptAt: null }))).toBe(true);

      const claimed = await storage.claimDueMessages('worker', T0 + SECOND, T0 + MINUTE, 10);
      expect(claimed.sort((a, b) => a.id.localeCompare(b.id))).toEqual(due.sort((a, b) => a.id.localeCompare(b.id)));
    });

    test('a leased message is not claimed again while its lease runs, and is taken over once the lease has lapsed', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const leaseUntil = T0 + MINUTE;
      const [message] = await storage.claimDueMessages('first', T0, leaseUntil, 10);
      expect(message).toBeDefined();
      expect(await storage.claimDueMessages('second', T0, T0 + MINUTE, 10)).toEqual([]);
      expect(await storage.claimDueMessages('second', leaseUntil - 1, leaseUntil + MINUTE, 10)).toEqual([]);
      expect(ids(await storage.claimDueMessages('second', leaseUntil + 1, leaseUntil + MINUTE, 10))).toEqual([message!.id]);
      // The lapsed owner lost the message: its late report is ignored, the new owner's counts.
      expect(await storage.recordAttempt('first', message!.id, anOutcome(message!, { status: 'delivered', nextAttemptAt: null }))).toBe(false);
      expect((await storage.getMessage(message!.id))?.status).toBe('pending');
      expect(await storage.recordAttempt('second', message!.id, anOutcome(message!, { status: 'delivered', nextAttemptAt: null }))).toBe(true);
      expect((await storage.getMessage(message!.id))?.status).toBe('delivered');
    });

    test('claimDueMessages takes at most `limit`; later claims get the rest, each message once', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      const written: WebhookMessageRecord[] = [];
      for (let i = 0; i < 5; i++) written.push(...(await storage.enqueueEvents([anEvent(ws, 'booking.created', T0 + i)])));
      const first = await storage.claimDueMessages('a', T0 + 10, T0 + MINUTE, 2);
      const second = await storage.claimDueMessages('b', T0 + 10, T0 + MINUTE, 2);
      const third = await storage.claimDueMessages('c', T0 + 10, T0 + MINUTE, 2);
      expect([first.length, second.length, third.length]).toEqual([2, 2, 1]);
      expect(sortedIds([...first, ...second, ...third])).toEqual(sortedIds(written));
    });

    test('recordAttempt by the lease owner stores the attempt and the new state, and releases the lease: a retry is claimable when due', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const hook = aWebhook(ws);
      await storage.createWebhook(hook);
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const message = await claimOne(storage, 'worker');
      const outcome = anOutcome(message, { status: 'pending', nextAttemptAt: T0 + 5 * SECOND });
      expect(await storage.recordAttempt('worker', message.id, outcome)).toBe(true);
      const retried = { ...message, attempts: 1, status: 'pending' as const, nextAttemptAt: T0 + 5 * SECOND, deliveredAt: null };
      expect(await storage.getMessage(message.id)).toEqual(retried);
      expect(await storage.listAttempts(hook.id, 10)).toEqual([outcome.attempt]);
      // Not due before its retry time, then claimable by anyone although the first lease would still run.
      expect(await storage.claimDueMessages('other', T0 + 5 * SECOND - 1, T0 + 2 * MINUTE, 10)).toEqual([]);
      expect(await storage.claimDueMessages('other', T0 + 5 * SECOND, T0 + 2 * MINUTE, 10)).toEqual([retried]);
    });

    test('a delivered attempt sets status delivered, deliveredAt and attempts; the message is never claimed again', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const message = await claimOne(storage, 'worker');
      const outcome = anOutcome(message, { status: 'delivered', nextAttemptAt: null, attempt: { statusCode: 204, error: null, attemptedAt: T0 + 250 } });
      expect(await storage.recordAttempt('worker', message.id, outcome)).toBe(true);
      expect(await storage.getMessage(message.id)).toEqual({ ...message, status: 'delivered', attempts: 1, nextAttemptAt: null, deliveredAt: T0 + 250 });
      expect(await dueMessages(storage)).toEqual([]);
      expect(await storage.nextDueAt()).toBeNull();
    });

    test('a failed attempt sets status failed; the message is never claimed again', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const message = await claimOne(storage, 'worker');
      expect(await storage.recordAttempt('worker', message.id, anOutcome(message, { status: 'failed', nextAttemptAt: null }))).toBe(true);
      expect(await storage.getMessage(message.id)).toEqual({ ...message, status: 'failed', attempts: 1, nextAttemptAt: null, deliveredAt: null });
      expect(await dueMessages(storage)).toEqual([]);
    });

    test('recordAttempt by an owner that does not hold the lease -> false and writes nothing', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const hook = aWebhook(ws);
      await storage.createWebhook(hook);
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const message = await claimOne(storage, 'worker');
      const outcome = anOutcome(message, { status: 'delivered', nextAttemptAt: null, webhook: { isActive: false } });
      expect(await storage.recordAttempt('intruder', message.id, outcome)).toBe(false);
      expect(await storage.getMessage(message.id)).toEqual(message);
      expect(await storage.listAttempts(hook.id, 10)).toEqual([]);
      expect(await storage.getWebhook(ws.id, hook.id)).toEqual(hook);
      expect(await storage.recordAttempt('worker', newId('msg'), outcome)).toBe(false);
    });

    test('a second recordAttempt for one claim -> false: the first released the lease', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const hook = aWebhook(ws);
      await storage.createWebhook(hook);
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const message = await claimOne(storage, 'worker');
      const first = anOutcome(message);
      expect(await storage.recordAttempt('worker', message.id, first)).toBe(true);
      expect(await storage.recordAttempt('worker', message.id, anOutcome(message))).toBe(false);
      expect((await storage.getMessage(message.id))?.attempts).toBe(1);
      expect(await storage.listAttempts(hook.id, 10)).toEqual([first.attempt]);
    });

    test("recordAttempt applies the outcome's webhook patch", async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const hook = aWebhook(ws);
      const bystander = aWebhook(ws);
      await storage.createWebhook(hook);
      await storage.createWebhook(bystander);
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)], hook.id);
      const message = await claimOne(storage, 'worker');
      const outcome = anOutcome(message, {
        status: 'failed',
        nextAttemptAt: null,
        webhook: { isActive: false, failingSince: T0 - 5 * DAY },
        attempt: { statusCode: 410 },
      });
      expect(await storage.recordAttempt('worker', message.id, outcome)).toBe(true);
      expect(await storage.getWebhook(ws.id, hook.id)).toEqual({ ...hook, isActive: false, failingSince: T0 - 5 * DAY, updatedAt: expect.any(Number) });
      expect(await storage.getWebhook(ws.id, bystander.id)).toEqual(bystander);
    });

    test('nextDueAt is the earliest nextAttemptAt of pending messages, and null when none is pending', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      expect(await storage.nextDueAt()).toBeNull();
      const [later] = await storage.enqueueEvents([anEvent(ws, 'booking.created', T0 + 2 * HOUR)]);
      const [sooner] = await storage.enqueueEvents([anEvent(ws, 'booking.created', T0 + HOUR)]);
      expect(await storage.nextDueAt()).toBe(T0 + HOUR);
      expect(ids(await storage.claimDueMessages('worker', T0 + HOUR, T0 + HOUR + MINUTE, 10))).toEqual([sooner!.id]);
      await storage.recordAttempt('worker', sooner!.id, anOutcome(sooner!, { status: 'delivered', nextAttemptAt: null }));
      expect(await storage.nextDueAt()).toBe(T0 + 2 * HOUR);
      expect(ids(await storage.claimDueMessages('worker', T0 + 2 * HOUR, T0 + 2 * HOUR + MINUTE, 10))).toEqual([later!.id]);
      await storage.recordAttempt('worker', later!.id, anOutcome(later!, { status: 'pending', nextAttemptAt: T0 + 3 * HOUR }));
      expect(await storage.nextDueAt()).toBe(T0 + 3 * HOUR);
      await storage.claimDueMessages('worker', T0 + 3 * HOUR, T0 + 3 * HOUR + MINUTE, 10);
      await storage.recordAttempt('worker', later!.id, anOutcome(later!, { status: 'failed', nextAttemptAt: null }));
      expect(await storage.nextDueAt()).toBeNull();
    });

    test('nextDueAt leaves out delivered and failed messages, whatever nextAttemptAt they were left with', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      const written = await storage.enqueueEvents([anEvent(ws, 'booking.created', T0), anEvent(ws, 'booking.confirmed', T0)]);
      const claimed = await storage.claimDueMessages('worker', T0, T0 + MINUTE, 10);
      expect(sortedIds(claimed)).toEqual(sortedIds(written));
      const [delivered, failed] = claimed;
      await storage.recordAttempt('worker', delivered!.id, anOutcome(delivered!, { status: 'delivered', nextAttemptAt: T0 + HOUR }));
      await storage.recordAttempt('worker', failed!.id, anOutcome(failed!, { status: 'failed', nextAttemptAt: T0 + 2 * HOUR }));
      expect(await storage.nextDueAt()).toBeNull();
      expect(await dueMessages(storage)).toEqual([]);
    });

    test("listAttempts returns the webhook's attempts newest first, up to limit", async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const hook = aWebhook(ws);
      const other = aWebhook(ws);
      await storage.createWebhook(hook);
      await storage.createWebhook(other);
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const record = async (message: WebhookMessageRecord, at: number, nextAttemptAt: number) => {
        const outcome = anOutcome(message, { status: 'pending', nextAttemptAt, attempt: { attemptedAt: at + 1 } });
        expect(await storage.recordAttempt('worker', message.id, outcome)).toBe(true);
        return outcome.attempt;
      };
      const first = await storage.claimDueMessages('worker', T0, T0 + MINUTE, 10);
      const mine = first.find((message) => message.webhookId === hook.id)!;
      const theirs = first.find((message) => message.webhookId === other.id)!;
      const a1 = await record(mine, T0, T0 + 5 * SECOND);
      const b1 = await record(theirs, T0, T0 + DAY);
      expect(ids(await storage.claimDueMessages('worker', T0 + 5 * SECOND, T0 + MINUTE, 10))).toEqual([mine.id]);
      const a2 = await record(mine, T0 + 5 * SECOND, T0 + 10 * SECOND);
      expect(ids(await storage.claimDueMessages('worker', T0 + 10 * SECOND, T0 + MINUTE, 10))).toEqual([mine.id]);
      const a3 = await record(mine, T0 + 10 * SECOND, T0 + 20 * SECOND);
      expect(await storage.listAttempts(hook.id, 10)).toEqual([a3, a2, a1]);
      expect(await storage.listAttempts(hook.id, 2)).toEqual([a3, a2]);
      expect(await storage.listAttempts(other.id, 10)).toEqual([b1]);
    });

    test("extendMessageLeases moves only the leases the owner still holds: a renewed message is not taken over, a lapsed one is, and the loser's extension is refused", async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0), anEvent(ws, 'booking.confirmed', T0)]);
      const lease = 20 * SECOND;
      const [kept, dropped] = await storage.claimDueMessages('live', T0, T0 + lease, 10);
      // The live owner renews one of its two messages 15 s in; someone else's id and an unknown id are left out.
      expect(await storage.extendMessageLeases('live', [kept!.id, newId('msg')], T0 + 15 * SECOND + lease)).toEqual([kept!.id]);
      expect(await storage.extendMessageLeases('intruder', [dropped!.id], T0 + DAY)).toEqual([]);
      expect(await storage.extendMessageLeases('live', [], T0 + DAY)).toEqual([]);
      // Past the first lease: only the message it stopped renewing is claimable, and the taker owns it now.
      expect(ids(await storage.claimDueMessages('taker', T0 + lease + 1, T0 + HOUR, 10))).toEqual([dropped!.id]);
      expect(await storage.extendMessageLeases('live', [kept!.id, dropped!.id], T0 + 30 * SECOND + lease)).toEqual([kept!.id]);
      expect(await storage.claimDueMessages('taker', T0 + 30 * SECOND + lease, T0 + DAY, 10)).toEqual([]);
      expect(await storage.recordAttempt('live', dropped!.id, anOutcome(dropped!, { status: 'delivered', nextAttemptAt: null }))).toBe(false);
      expect(await storage.recordAttempt('live', kept!.id, anOutcome(kept!, { status: 'delivered', nextAttemptAt: null }))).toBe(true);
      // A recorded message's lease is released: nothing is left to extend.
      expect(await storage.extendMessageLeases('live', [kept!.id], T0 + DAY)).toEqual([]);
      expect(ids(await storage.claimDueMessages('late', T0 + DAY, T0 + DAY + MINUTE, 10))).toEqual([dropped!.id]);
    });
  });
}
