import { describe, expect, test } from 'bun:test';
import { newId } from '../../../src/core/ids.ts';
import { SECOND, MINUTE, HOUR, T0, aWorkspace, aPairingCode, aPanelCode, aHostCredential } from './fixtures.ts';
import { storage } from './database.ts';

/** PanelStore: pairing codes, host credentials and panel codes. */
export function panelContract() {
  describe('pairing codes, host credentials and panel codes', () => {
    test('consumePairingCode returns an unused, unexpired code once and marks it used; an unknown code -> null', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const code = aPairingCode(ws);
      await storage.createPairingCode(code);
      expect(await storage.consumePairingCode('pairing-unknown', T0)).toBeNull();
      expect(await storage.consumePairingCode(code.codeHash, T0 + MINUTE)).toEqual({ ...code, usedAt: T0 + MINUTE });
      expect(await storage.consumePairingCode(code.codeHash, T0 + 2 * MINUTE)).toBeNull();
    });

    test('an expired pairing code is not consumable; one used a moment before it expires is', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const expired = aPairingCode(ws);
      const live = aPairingCode(ws);
      await storage.createPairingCode(expired);
      await storage.createPairingCode(live);
      expect(await storage.consumePairingCode(expired.codeHash, expired.expiresAt + 1)).toBeNull();
      expect(await storage.consumePairingCode(live.codeHash, live.expiresAt - 1)).toEqual({ ...live, usedAt: live.expiresAt - 1 });
    });

    test('findHostCredential returns the credential with that hash; an unknown hash -> null', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const credential = aHostCredential(ws);
      await storage.putHostCredential(credential);
      expect(await storage.findHostCredential(credential.credentialHash)).toEqual(credential);
      expect(await storage.findHostCredential('cred-unknown')).toBeNull();
    });

    test('putHostCredential for the same workspace and origin replaces the old credential: the old hash is no longer found', async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const old = aHostCredential(ws, { origin: 'https://shop.example.com' });
      const otherOrigin = aHostCredential(ws, { origin: 'http://localhost:8081' });
      const otherWorkspace = aHostCredential(other, { origin: 'https://shop.example.com' });
      for (const credential of [old, otherOrigin, otherWorkspace]) await storage.putHostCredential(credential);
      const replacement = aHostCredential(ws, { origin: 'https://shop.example.com', createdAt: T0 + HOUR });
      await storage.putHostCredential(replacement);
      expect(await storage.findHostCredential(old.credentialHash)).toBeNull();
      expect(await storage.findHostCredential(replacement.credentialHash)).toEqual(replacement);
      expect(await storage.findHostCredential(otherOrigin.credentialHash)).toEqual(otherOrigin);
      expect(await storage.findHostCredential(otherWorkspace.credentialHash)).toEqual(otherWorkspace);
    });

    test('consumePanelCode returns an unused, unexpired code once, with its capabilities; an expired code -> null', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const code = aPanelCode(ws, { capabilities: ['svc_manage_settings'] });
      const expired = aPanelCode(ws);
      await storage.createPanelCode(code);
      await storage.createPanelCode(expired);
      expect(await storage.consumePanelCode('panel-unknown', T0)).toBeNull();
      expect(await storage.consumePanelCode(code.codeHash, T0 + SECOND)).toEqual({ ...code, usedAt: T0 + SECOND });
      expect(await storage.consumePanelCode(code.codeHash, T0 + 2 * SECOND)).toBeNull();
      expect(await storage.consumePanelCode(expired.codeHash, expired.expiresAt + 1)).toBeNull();
    });

    test("voidPanelCodes deletes the unspent panel codes of one workspace's origin only, returns how many; they are not consumable afterwards", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const shop = 'https://shop.example.com';
      const unspent = aPanelCode(ws, { origin: shop });
      const spent = aPanelCode(ws, { origin: shop, usedAt: T0 });
      const otherOrigin = aPanelCode(ws, { origin: 'http://localhost:8081' });
      const otherWorkspace = aPanelCode(other, { origin: shop });
      for (const code of [unspent, spent, otherOrigin, otherWorkspace]) await storage.createPanelCode(code);
      expect(await storage.voidPanelCodes(ws.id, shop)).toBe(1);
      expect(await storage.voidPanelCodes(ws.id, shop)).toBe(0);
      expect(await storage.consumePanelCode(unspent.codeHash, T0)).toBeNull();
      expect(await storage.consumePanelCode(otherOrigin.codeHash, T0)).toEqual({ ...otherOrigin, usedAt: T0 });
      expect(await storage.consumePanelCode(otherWorkspace.codeHash, T0)).toEqual({ ...otherWorkspace, usedAt: T0 });
    });

    test('purgeExpiredCodes deletes pairing and panel codes that expired before now, returns how many, and keeps live codes', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const expiredPairing = aPairingCode(ws, { expiresAt: T0 - 1 });
      const livePairing = aPairingCode(ws, { expiresAt: T0 + HOUR });
      const expiredPanel = aPanelCode(ws, { expiresAt: T0 - 1 });
      const usedExpiredPanel = aPanelCode(ws, { expiresAt: T0 - MINUTE, usedAt: T0 - 2 * MINUTE });
      const livePanel = aPanelCode(ws, { expiresAt: T0 + MINUTE });
      for (const code of [expiredPairing, livePairing]) await storage.createPairingCode(code);
      for (const code of [expiredPanel, usedExpiredPanel, livePanel]) await storage.createPanelCode(code);
      expect(await storage.purgeExpiredCodes(T0)).toBe(3);
      expect(await storage.purgeExpiredCodes(T0)).toBe(0);
      // The purged hashes are free again (their rows are gone); the live codes still work.
      await storage.createPairingCode({ ...expiredPairing, id: newId('pc') });
      await storage.createPanelCode({ ...expiredPanel, id: newId('pc') });
      expect(await storage.consumePairingCode(livePairing.codeHash, T0)).toEqual({ ...livePairing, usedAt: T0 });
      expect(await storage.consumePanelCode(livePanel.codeHash, T0)).toEqual({ ...livePanel, usedAt: T0 });
    });
  });
}
