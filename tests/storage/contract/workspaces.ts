import { describe, expect, test } from 'bun:test';
import { newId } from '../../../src/core/ids.ts';
import { UniqueViolation, type WorkspaceRecord } from '../../../src/ports/storage/index.ts';
import {
  MINUTE,
  HOUR,
  DAY,
  T0,
  WEEKDAY_HOURS,
  WEEKEND_HOURS,
  aWorkspace,
  aService,
  aCustomField,
  aBooking,
  aWebhook,
  anApiKey,
  aPayment,
  aPairingCode,
  aPanelCode,
  aHostCredential,
  aPanelSession,
  anEvent,
  anOutcome,
  addProvider,
  book,
  ids,
  withSortedProviders,
  caught,
} from './fixtures.ts';
import { storage } from './database.ts';

/** WorkspaceStore: workspaces and their API keys. */
export function workspacesContract() {
  describe('workspaces', () => {
    test('createWorkspace stores the record: getWorkspaceBySlug and getWorkspaceById return it as written', async () => {
      const ws = aWorkspace({ hours: WEEKEND_HOURS, domains: ['example.com', '*.example.org'], requiresConfirmation: true, primaryColor: null });
      await storage.createWorkspace(ws);
      expect(await storage.getWorkspaceBySlug(ws.slug)).toEqual(ws);
      expect(await storage.getWorkspaceById(ws.id)).toEqual(ws);
    });

    test('createWorkspace with a first key stores both; a first key that cannot be stored leaves no workspace', async () => {
      const other = aWorkspace();
      const taken = anApiKey(other);
      await storage.createWorkspace(other, taken);
      expect(await storage.findApiKeyByHash(taken.hash)).toEqual(taken);

      const ws = aWorkspace();
      const clashing = anApiKey(ws, { id: taken.id });
      expect(await caught(storage.createWorkspace(ws, clashing))).toBeInstanceOf(Error);
      expect(await storage.getWorkspaceBySlug(ws.slug)).toBeNull();
      expect(await storage.findApiKeyByHash(clashing.hash)).toBeNull();
      const key = anApiKey(ws);
      await storage.createWorkspace(ws, key);
      expect(await storage.getWorkspaceBySlug(ws.slug)).toEqual(ws);
      expect(await storage.findApiKeyByHash(key.hash)).toEqual(key);
    });

    test('getWorkspaceBySlug and getWorkspaceById of unknown values -> null', async () => {
      await storage.createWorkspace(aWorkspace());
      expect(await storage.getWorkspaceBySlug('no-such-slug')).toBeNull();
      expect(await storage.getWorkspaceById(newId('ws'))).toBeNull();
    });

    test('createWorkspace with a taken slug -> UniqueViolation("workspace") and the second record is not stored', async () => {
      const first = aWorkspace();
      await storage.createWorkspace(first);
      const second = aWorkspace({ slug: first.slug, name: 'Impostor' });
      const error = await caught(storage.createWorkspace(second));
      expect(error).toBeInstanceOf(UniqueViolation);
      expect((error as UniqueViolation).what).toBe('workspace');
      expect(await storage.getWorkspaceById(second.id)).toBeNull();
      expect(await storage.getWorkspaceBySlug(first.slug)).toEqual(first);
    });

    test('updateWorkspace applies the patch, hours and domains included, sets updatedAt and keeps the other fields', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const patch = {
        name: 'Renamed',
        primaryColor: null,
        industry: 'beauty',
        timezone: 'America/New_York',
        language: 'pt-BR',
        timeFormat: '12h' as const,
        cancellationHours: 48,
        requiresConfirmation: true,
        hours: WEEKEND_HOURS,
        domains: ['a.example', '*.b.example'],
      };
      const expected = { ...ws, ...patch, updatedAt: T0 + MINUTE };
      expect(await storage.updateWorkspace(ws.id, patch, T0 + MINUTE)).toEqual(expected);
      expect(await storage.getWorkspaceById(ws.id)).toEqual(expected);
      expect(await storage.getWorkspaceBySlug(ws.slug)).toEqual(expected);
    });

    test('updateWorkspace of one field leaves hours, domains and every other field as they were', async () => {
      const ws = aWorkspace({ hours: WEEKEND_HOURS });
      await storage.createWorkspace(ws);
      const expected = { ...ws, name: 'Only the name', updatedAt: T0 + MINUTE };
      expect(await storage.updateWorkspace(ws.id, { name: 'Only the name' }, T0 + MINUTE)).toEqual(expected);
      expect(await storage.getWorkspaceById(ws.id)).toEqual(expected);
    });

    test('updateWorkspace of an unknown id -> null and no workspace changes', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      expect(await storage.updateWorkspace(newId('ws'), { name: 'Ghost' }, T0 + MINUTE)).toBeNull();
      expect(await storage.getWorkspaceById(ws.id)).toEqual(ws);
    });

    /** Everything a workspace can own, one of each, plus an outbox message with an attempt. */
    async function populate(ws: WorkspaceRecord) {
      await storage.createWorkspace(ws);
      const prv = await addProvider(storage, ws, { hours: WEEKDAY_HOURS });
      const srv = aService(ws, { providerIds: [prv.id] });
      await storage.createService(srv);
      const key = anApiKey(ws);
      await storage.createApiKey(key);
      const field = aCustomField(ws);
      await storage.createCustomField(field);
      const hook = aWebhook(ws);
      await storage.createWebhook(hook);
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: T0 + 30 * MINUTE }), [anEvent(ws, 'booking.created')]);
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      await storage.enqueueEvents([anEvent(ws, 'webhook.test')], hook.id);
      const owner = `populate-${ws.id}`;
      const messages = (await storage.claimDueMessages(owner, T0, T0 + MINUTE, 100)).filter((message) => message.workspaceId === ws.id);
      expect(messages).toHaveLength(2);
      const outcome = anOutcome(messages[0]!);
      expect(await storage.recordAttempt(owner, messages[0]!.id, outcome)).toBe(true);
      const pairing = aPairingCode(ws);
      await storage.createPairingCode(pairing);
      const panel = aPanelCode(ws);
      await storage.createPanelCode(panel);
      const credential = aHostCredential(ws);
      await storage.putHostCredential(credential);
      const session = aPanelSession(ws);
      await storage.createPanelSession(session);
      return { ws, prv, srv, key, field, hook, booking, payment, messages, attempt: outcome.attempt, pairing, panel, credential, session };
    }

    test('deleteWorkspace removes the workspace and everything it owns, and leaves other workspaces as they were', async () => {
      const gone = await populate(aWorkspace());
      const kept = await populate(aWorkspace());

      await storage.deleteWorkspace(gone.ws.id);

      expect(await storage.getWorkspaceById(gone.ws.id)).toBeNull();
      expect(await storage.getWorkspaceBySlug(gone.ws.slug)).toBeNull();
      expect(await storage.getService(gone.ws.id, gone.srv.id)).toBeNull();
      expect(await storage.listServices(gone.ws.id, { activeOnly: false })).toEqual([]);
      expect(await storage.getProvider(gone.ws.id, gone.prv.id)).toBeNull();
      expect(await storage.listProviders(gone.ws.id)).toEqual([]);
      expect(await storage.listCustomFields(gone.ws.id)).toEqual([]);
      expect(await storage.findApiKeyByHash(gone.key.hash)).toBeNull();
      expect(await storage.getWebhook(gone.ws.id, gone.hook.id)).toBeNull();
      expect(await storage.listWebhooks(gone.ws.id)).toEqual([]);
      expect(await storage.getBooking(gone.ws.id, gone.booking.id)).toBeNull();
      expect(await storage.listBookings(gone.ws.id, { limit: 100 })).toEqual([]);
      expect(await storage.listBusy([gone.prv.id], 0, T0 + 365 * DAY)).toEqual([]);
      expect(await storage.getPaymentByReference(gone.payment.provider, gone.payment.reference)).toBeNull();
      expect(await storage.listPayments(gone.booking.id)).toEqual([]);
      for (const message of gone.messages) expect(await storage.getMessage(message.id)).toBeNull();
      expect(await storage.listAttempts(gone.hook.id, 100)).toEqual([]);
      expect(await storage.findHostCredential(gone.credential.credentialHash)).toBeNull();
      expect(await storage.consumePairingCode(gone.pairing.codeHash, T0)).toBeNull();
      expect(await storage.consumePanelCode(gone.panel.codeHash, T0)).toBeNull();
      expect(await storage.findPanelSession(gone.session.tokenHash, T0)).toBeNull();
      expect(await storage.listHostCredentials(gone.ws.id)).toEqual([]);
      expect(await storage.listApiKeys(gone.ws.id)).toEqual([]);
      // Nothing is left over: the same ids, slug, key and hashes can be used again, and no link survived.
      await storage.createWorkspace(gone.ws);
      await storage.createProvider({ ...gone.prv, serviceIds: [] });
      await storage.createService({ ...gone.srv, providerIds: [] });
      expect(await storage.getService(gone.ws.id, gone.srv.id)).toEqual({ ...gone.srv, providerIds: [] });
      expect(await storage.getProvider(gone.ws.id, gone.prv.id)).toEqual({ ...gone.prv, serviceIds: [] });
      await storage.createCustomField(gone.field);
      await storage.createApiKey(gone.key);
      await storage.createPairingCode(gone.pairing);
      await storage.createPanelCode(gone.panel);
      await storage.putHostCredential(gone.credential);
      await storage.createPanelSession(gone.session);

      expect(await storage.getWorkspaceById(kept.ws.id)).toEqual(kept.ws);
      expect(withSortedProviders(await storage.getService(kept.ws.id, kept.srv.id))).toEqual(kept.srv);
      expect(await storage.getProvider(kept.ws.id, kept.prv.id)).toEqual({ ...kept.prv, serviceIds: [kept.srv.id] });
      expect(await storage.listCustomFields(kept.ws.id)).toEqual([kept.field]);
      expect(await storage.findApiKeyByHash(kept.key.hash)).toEqual(kept.key);
      expect(await storage.getWebhook(kept.ws.id, kept.hook.id)).toEqual(kept.hook);
      expect(await storage.getBooking(kept.ws.id, kept.booking.id)).toEqual(kept.booking);
      expect(await storage.listPayments(kept.booking.id)).toEqual([kept.payment]);
      expect(ids(await storage.listExpiredHolds(T0 + HOUR, 100))).toEqual([kept.booking.id]);
      for (const message of kept.messages) expect((await storage.getMessage(message.id))?.id).toBe(message.id);
      expect(await storage.listAttempts(kept.hook.id, 100)).toEqual([kept.attempt]);
      expect(await storage.findHostCredential(kept.credential.credentialHash)).toEqual(kept.credential);
      expect(await storage.consumePairingCode(kept.pairing.codeHash, T0)).toEqual({ ...kept.pairing, usedAt: T0 });
      expect(await storage.consumePanelCode(kept.panel.codeHash, T0)).toEqual({ ...kept.panel, usedAt: T0 });
      expect(await storage.findPanelSession(kept.session.tokenHash, T0)).toEqual(kept.session);
    });
  });

  describe('API keys', () => {
    test('findApiKeyByHash returns the live key with that hash; an unknown hash -> null', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const key = anApiKey(ws);
      const other = anApiKey(ws, { name: 'ci' });
      await storage.createApiKey(key);
      await storage.createApiKey(other);
      expect(await storage.findApiKeyByHash(key.hash)).toEqual(key);
      expect(await storage.findApiKeyByHash(other.hash)).toEqual(other);
      expect(await storage.findApiKeyByHash('sha256-unknown')).toBeNull();
    });

    test('a revoked key is not found by its hash', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const live = anApiKey(ws);
      const revoked = anApiKey(ws, { revokedAt: T0 + MINUTE });
      await storage.createApiKey(live);
      await storage.createApiKey(revoked);
      expect(await storage.findApiKeyByHash(revoked.hash)).toBeNull();
      expect(await storage.findApiKeyByHash(live.hash)).toEqual(live);
    });

    test("listApiKeys lists the workspace's live keys oldest first; revoked keys and other workspaces' keys are not listed", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const newer = anApiKey(ws, { name: 'ci', createdAt: T0 + MINUTE });
      const older = anApiKey(ws, { createdAt: T0 });
      const revoked = anApiKey(ws, { revokedAt: T0 });
      for (const key of [newer, older, revoked, anApiKey(other)]) await storage.createApiKey(key);
      expect(await storage.listApiKeys(ws.id)).toEqual([older, newer]);
    });

    test('revokeApiKey stops the key at once and returns it; a second revoke, an unknown id or another workspace -> null', async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const key = anApiKey(ws);
      const kept = anApiKey(ws, { name: 'kept' });
      await storage.createApiKey(key);
      await storage.createApiKey(kept);
      expect(await storage.revokeApiKey(other.id, key.id, T0 + MINUTE)).toBeNull();
      expect(await storage.revokeApiKey(ws.id, key.id, T0 + MINUTE)).toEqual({ ...key, revokedAt: T0 + MINUTE });
      expect(await storage.findApiKeyByHash(key.hash)).toBeNull();
      expect(await storage.revokeApiKey(ws.id, key.id, T0 + 2 * MINUTE)).toBeNull();
      expect(await storage.revokeApiKey(ws.id, 'key_unknown', T0)).toBeNull();
      expect(await storage.listApiKeys(ws.id)).toEqual([kept]);
    });

    test('touchApiKey records the latest use and never moves it back', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const key = anApiKey(ws);
      await storage.createApiKey(key);
      await storage.touchApiKey(key.id, T0 + HOUR);
      await storage.touchApiKey(key.id, T0 + MINUTE);
      expect(await storage.findApiKeyByHash(key.hash)).toEqual({ ...key, lastUsedAt: T0 + HOUR });
    });
  });
}
