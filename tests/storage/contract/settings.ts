import { describe, expect, test } from 'bun:test';
import { RACE_TIMEOUT_MS, aWorkspace, caught, warm } from './fixtures.ts';
import { db, storage } from './database.ts';

/** SettingsStore: the database itself (migrations, ping) and the server-wide settings. */
export function settingsContract() {
  describe('lifecycle', () => {
    test(
      'migrate() run again, also at once from a second instance, is harmless and keeps the data',
      async () => {
        const ws = aWorkspace();
        await storage.createWorkspace(ws);
        const other = db.reopen();
        await Promise.all([storage.migrate(), other.migrate(), storage.migrate()]);
        expect(await storage.getWorkspaceById(ws.id)).toEqual(ws);
        expect(await other.getWorkspaceBySlug(ws.slug)).toEqual(ws);
        const next = aWorkspace();
        await other.createWorkspace(next);
        expect(await storage.getWorkspaceById(next.id)).toEqual(next);
      },
      RACE_TIMEOUT_MS,
    );

    test('ping resolves while the database answers and rejects once the storage is closed', async () => {
      await expect(storage.ping()).resolves.toBeUndefined();
      const other = db.reopen();
      await expect(other.ping()).resolves.toBeUndefined();
      await other.close();
      expect(await caught(other.ping())).toBeInstanceOf(Error);
    });
  });

  describe('settings', () => {
    test('getSetting of a key never written -> null', async () => {
      expect(await storage.getSetting('never-written')).toBeNull();
    });

    test('putSettingIfAbsent stores the first value; a later call keeps it and returns the stored value', async () => {
      expect(await storage.putSettingIfAbsent('secret', 'first')).toBe('first');
      expect(await storage.putSettingIfAbsent('secret', 'second')).toBe('first');
      expect(await storage.getSetting('secret')).toBe('first');
      expect(await storage.putSettingIfAbsent('other', 'own')).toBe('own');
    });

    test('deleteSetting removes the key only while it holds the given value', async () => {
      await storage.putSettingIfAbsent('secret', 'first');
      await storage.deleteSetting('secret', 'other');
      expect(await storage.getSetting('secret')).toBe('first');
      await storage.deleteSetting('secret', 'first');
      expect(await storage.getSetting('secret')).toBeNull();
      expect(await storage.putSettingIfAbsent('secret', 'second')).toBe('second');
    });

    test(
      'putSettingIfAbsent from 20 concurrent callers on two instances stores one value and returns it to every caller',
      async () => {
        const other = db.reopen();
        const values = Array.from({ length: 20 }, (_, i) => `value-${i}`);
        await warm([storage, other]);
        const returned = await Promise.all(values.map((value, i) => (i % 2 ? other : storage).putSettingIfAbsent('secret', value)));
        const stored = await storage.getSetting('secret');
        expect(values).toContain(stored as string);
        expect(returned).toEqual(values.map(() => stored as string));
        expect(await other.getSetting('secret')).toBe(stored);
      },
      RACE_TIMEOUT_MS,
    );
  });
}
