import { describe, expect, test } from 'bun:test';
import { newId } from '../../../src/core/ids.ts';
import { UniqueViolation, type MailEntry, type Storage, type StorageChange } from '../../../src/ports/storage/index.ts';
import {
  MINUTE,
  T0,
  aWorkspace,
  aService,
  aProvider,
  aCustomField,
  aBooking,
  aWebhook,
  anApiKey,
  aPayment,
  anEvent,
  seed,
  book,
  caught,
  racer,
} from './fixtures.ts';
import { db, storage } from './database.ts';
import { waitFor } from '../../support/wait.ts';

/** StorageChanges: what each write announces once committed. */
export function changesContract() {
  describe('change announcements', () => {
    /** Every change `storage` announces from now on; `take()` returns those since the last take. */
    function listen(on: Storage) {
      const seen: StorageChange[] = [];
      const stop = on.onChange((change) => seen.push(change));
      return { stop, take: () => seen.splice(0) };
    }

    test('catalogue writes announce what they changed, with the workspace; reads announce nothing', async () => {
      const changes = listen(storage);
      const ws = aWorkspace();
      const key = anApiKey(ws);
      await storage.createWorkspace(ws, key);
      expect(changes.take()).toEqual([
        { kind: 'workspace', workspaceId: ws.id },
        { kind: 'api-keys', workspaceId: ws.id },
      ]);
      await storage.updateWorkspace(ws.id, { name: 'Renamed' }, T0 + MINUTE);
      await storage.createApiKey(anApiKey(ws));
      await storage.revokeApiKey(ws.id, key.id, T0 + MINUTE);
      expect(changes.take()).toEqual([
        { kind: 'workspace', workspaceId: ws.id },
        { kind: 'api-keys', workspaceId: ws.id },
        { kind: 'api-keys', workspaceId: ws.id },
      ]);
      const prv = aProvider(ws);
      await storage.createProvider(prv);
      await storage.updateProvider(ws.id, prv.id, { name: 'Sam', updatedAt: T0 + MINUTE });
      const srv = aService(ws, { providerIds: [prv.id] });
      await storage.createService(srv);
      await storage.updateService(ws.id, srv.id, { active: false, updatedAt: T0 + MINUTE });
      const field = aCustomField(ws);
      await storage.createCustomField(field);
      await storage.updateCustomField(ws.id, field.id, { label: 'Notes' });
      await storage.deleteCustomField(ws.id, field.id);
      expect(changes.take()).toEqual([
        { kind: 'providers', workspaceId: ws.id },
        { kind: 'providers', workspaceId: ws.id },
        { kind: 'services', workspaceId: ws.id },
        { kind: 'services', workspaceId: ws.id },
        { kind: 'custom-fields', workspaceId: ws.id },
        { kind: 'custom-fields', workspaceId: ws.id },
        { kind: 'custom-fields', workspaceId: ws.id },
      ]);
      await storage.getWorkspaceBySlug(ws.slug);
      await storage.listServices(ws.id, { activeOnly: false });
      await storage.getProvider(ws.id, prv.id);
      await storage.findApiKeyByHash(key.hash);
      expect(changes.take()).toEqual([]);
      await storage.deleteWorkspace(ws.id);
      expect(changes.take()).toEqual([{ kind: 'workspace', workspaceId: ws.id }]);
    });

    test('a write that changed nothing (a missing record, a refused or missed move) announces nothing', async () => {
      const { ws, srv, prv } = await seed(storage);
      const changes = listen(storage);
      expect(await storage.updateWorkspace(newId('ws'), { name: 'Nobody' }, T0)).toBeNull();
      expect(await storage.updateService(ws.id, newId('srv'), { name: 'Nothing' })).toBeNull();
      expect(await storage.revokeApiKey(ws.id, newId('key'), T0)).toBeNull();
      expect(await storage.deleteCustomField(ws.id, newId('cf'))).toBe(false);
      const refused = await storage.reserveBooking({ ...racer(srv, [prv.id], 1), fits: () => 'taken' });
      expect(refused).toEqual({ ok: false, reason: 'taken' });
      expect(await storage.transitionBooking(ws.id, newId('bk'), { from: ['PENDING'], to: 'CONFIRMED', at: T0, emit: () => [] })).toBeNull();
      expect(await storage.enqueueEvents([])).toEqual([]);
      expect(changes.take()).toEqual([]);
    });

    test("booking writes announce the workspace's bookings and the outbox; a settled payment that moved its booking too", async () => {
      const { ws, srv, prv } = await seed(storage);
      const changes = listen(storage);
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
      expect(changes.take()).toEqual([{ kind: 'bookings', workspaceId: ws.id }, { kind: 'outbox' }]);
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      const transition = { from: ['PENDING' as const], to: 'CONFIRMED' as const, at: T0 + MINUTE, emit: () => [] };
      expect(await storage.settlePayment(payment.id, 'pending', { status: 'paid' }, T0 + MINUTE, { workspaceId: ws.id, transition })).not.toBeNull();
      expect(changes.take()).toEqual([{ kind: 'bookings', workspaceId: ws.id }, { kind: 'outbox' }]);
      expect(await storage.transitionBooking(ws.id, booking.id, { ...transition, from: ['CONFIRMED'], to: 'CANCELLED' })).not.toBeNull();
      expect(changes.take()).toEqual([{ kind: 'bookings', workspaceId: ws.id }, { kind: 'outbox' }]);
    });

    test('enqueueEvents and enqueueMails announce the outbox when they wrote something', async () => {
      const { ws, srv, prv } = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv));
      await storage.createWebhook(aWebhook(ws));
      const changes = listen(storage);
      expect(await storage.enqueueEvents([anEvent(ws, 'webhook.test')])).toHaveLength(1);
      const reminder: MailEntry = {
        workspaceId: ws.id,
        bookingId: booking.id,
        kind: 'reminder',
        revision: booking.revision,
        snapshot: { status: booking.status, startTime: booking.startTime, endTime: booking.endTime, cancelReason: null },
        createdAt: T0,
      };
      expect(await storage.enqueueMails([reminder])).toBe(1);
      expect(changes.take()).toEqual([{ kind: 'outbox' }, { kind: 'outbox' }]);
      expect(await storage.enqueueMails([reminder])).toBe(0);
      expect(changes.take()).toEqual([]);
    });

    test('listeners hear the change before the write resolves; a throwing listener neither fails the write nor silences others', async () => {
      const order: string[] = [];
      const stopThrowing = storage.onChange(() => {
        throw new Error('listener bug');
      });
      const stopOrdering = storage.onChange((change) => order.push(`heard ${change.kind}`));
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      order.push('resolved');
      expect(order).toEqual(['heard workspace', 'resolved']);
      expect(await storage.getWorkspaceById(ws.id)).toEqual(ws);
      stopThrowing();
      stopOrdering();
      await storage.updateWorkspace(ws.id, { name: 'Unheard' }, T0 + MINUTE);
      expect(order).toEqual(['heard workspace', 'resolved']);
    });

    test('a write that fails announces nothing; a write through another connection only where other instances are heard (Postgres)', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const changes = listen(storage);
      expect(await caught(storage.createWorkspace(aWorkspace({ slug: ws.slug })))).toBeInstanceOf(UniqueViolation);
      expect(changes.take()).toEqual([]);
      if (db.adapter === 'postgres') await waitFor(() => storage.hearsEveryBookingWrite(), { what: 'the change channel to listen' });
      const other = db.reopen();
      await other.updateWorkspace(ws.id, { name: 'Elsewhere' }, T0 + MINUTE);
      const service = aService(ws);
      await other.createService(service);
      if (db.adapter === 'libsql') {
        // another client of the same database: svc serves a libSQL file alone (docs/decisions/0012), and a remote
        // server's other clients go unheard
        expect(changes.take()).toEqual([]);
        return;
      }
      const heard: StorageChange[] = [];
      await waitFor(() => heard.push(...changes.take()) >= 2, { what: "the other instance's changes" });
      expect(heard).toEqual([
        { kind: 'workspace', workspaceId: ws.id },
        { kind: 'services', workspaceId: ws.id },
      ]);
    });
  });
}
