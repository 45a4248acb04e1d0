import { describe, expect, test } from 'bun:test';
import { MINUTE, HOUR, DAY, T0, aWorkspace, aHostCredential, aPanelSession } from './fixtures.ts';
import { storage } from './database.ts';

/** PanelSessionStore: panel sessions, linked origins and API key listing. */
export function panelSessionsContract() {
  describe('panel sessions and linked origins', () => {
    test('findPanelSession returns a live session by token hash; an expired or unknown one -> null', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const session = aPanelSession(ws, { capabilities: ['svc_manage_operations', 'svc_manage_settings'], origin: null });
      await storage.createPanelSession(session);
      expect(await storage.findPanelSession(session.tokenHash, session.expiresAt - 1)).toEqual(session);
      expect(await storage.findPanelSession(session.tokenHash, session.expiresAt)).toBeNull();
      expect(await storage.findPanelSession('session-unknown', T0)).toBeNull();
    });

    test('rotatePanelSession replaces the live session: the old token stops, the new one works; an expired token cannot rotate', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const first = aPanelSession(ws);
      await storage.createPanelSession(first);
      const second = aPanelSession(ws, { createdAt: T0 + 10 * MINUTE, expiresAt: T0 + 40 * MINUTE });
      expect(await storage.rotatePanelSession(first.tokenHash, second, T0 + 10 * MINUTE)).toEqual(first);
      expect(await storage.findPanelSession(first.tokenHash, T0 + 10 * MINUTE)).toBeNull();
      expect(await storage.findPanelSession(second.tokenHash, T0 + 10 * MINUTE)).toEqual(second);
      const third = aPanelSession(ws);
      expect(await storage.rotatePanelSession(second.tokenHash, third, second.expiresAt)).toBeNull();
      expect(await storage.findPanelSession(third.tokenHash, T0)).toBeNull();
    });

    test("endPanelSessions ends the workspace's sessions of one origin or one subject, and no others", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const shop = aPanelSession(ws, { origin: 'https://shop.example.com' });
      const shopToo = aPanelSession(ws, { origin: 'https://shop.example.com', subject: 'someone-else' });
      const blog = aPanelSession(ws, { origin: 'https://blog.example.com' });
      const standalone = aPanelSession(ws, { origin: null, subject: 'key:key_1' });
      const otherShop = aPanelSession(other, { origin: 'https://shop.example.com' });
      for (const session of [shop, shopToo, blog, standalone, otherShop]) await storage.createPanelSession(session);
      expect(await storage.endPanelSessions(ws.id, { origin: 'https://shop.example.com' })).toBe(2);
      expect(await storage.endPanelSessions(ws.id, { subject: 'key:key_1' })).toBe(1);
      for (const gone of [shop, shopToo, standalone]) expect(await storage.findPanelSession(gone.tokenHash, T0)).toBeNull();
      for (const kept of [blog, otherShop]) expect(await storage.findPanelSession(kept.tokenHash, T0)).toEqual(kept);
    });

    test('purgeExpiredPanelSessions deletes expired sessions, returns how many, and keeps live ones', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const expired = aPanelSession(ws, { expiresAt: T0 - 1 });
      const live = aPanelSession(ws, { expiresAt: T0 + MINUTE });
      await storage.createPanelSession(expired);
      await storage.createPanelSession(live);
      expect(await storage.purgeExpiredPanelSessions(T0)).toBe(1);
      expect(await storage.purgeExpiredPanelSessions(T0)).toBe(0);
      await storage.createPanelSession(expired);
      expect(await storage.findPanelSession(live.tokenHash, T0)).toEqual(live);
    });

    test("listHostCredentials lists the workspace's linked origins oldest first; deleteHostCredential stops one at once", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const shop = aHostCredential(ws, { origin: 'https://shop.example.com', createdAt: T0 + MINUTE });
      const blog = aHostCredential(ws, { origin: 'https://blog.example.com', platform: 'hostplatform', createdAt: T0 });
      const foreign = aHostCredential(other);
      for (const credential of [shop, blog, foreign]) await storage.putHostCredential(credential);
      expect(await storage.listHostCredentials(ws.id)).toEqual([blog, shop]);
      expect(await storage.deleteHostCredential(other.id, shop.id)).toBeNull();
      expect(await storage.deleteHostCredential(ws.id, shop.id)).toEqual(shop);
      expect(await storage.findHostCredential(shop.credentialHash)).toBeNull();
      expect(await storage.deleteHostCredential(ws.id, shop.id)).toBeNull();
      expect(await storage.listHostCredentials(ws.id)).toEqual([blog]);
      expect(await storage.deleteHostCredentialByHash(blog.credentialHash)).toEqual(blog);
      expect(await storage.deleteHostCredentialByHash(blog.credentialHash)).toBeNull();
      expect(await storage.listHostCredentials(ws.id)).toEqual([]);
      expect(await storage.findHostCredential(foreign.credentialHash)).toEqual(foreign);
    });

    test('touchHostCredential records the latest use and never moves it back; a replacement starts unused', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const credential = aHostCredential(ws);
      await storage.putHostCredential(credential);
      await storage.touchHostCredential(credential.id, T0 + HOUR);
      await storage.touchHostCredential(credential.id, T0 + MINUTE);
      expect(await storage.findHostCredential(credential.credentialHash)).toEqual({ ...credential, lastUsedAt: T0 + HOUR });
      const replacement = aHostCredential(ws, { platform: 'hostplatform', createdAt: T0 + DAY });
      await storage.putHostCredential(replacement);
      expect(await storage.listHostCredentials(ws.id)).toEqual([replacement]);
    });
  });
}
