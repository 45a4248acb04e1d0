import { and, eq } from 'drizzle-orm';
import type { SettingsStore } from '../../../src/ports/storage/index.ts';
import type { Dialect } from './dialect.ts';

export function settingsQueries(dialect: Dialect): SettingsStore {
  const { db, tables: t } = dialect;
  const getSetting = async (key: string) => {
    const [row] = await db.select().from(t.settings).where(eq(t.settings.key, key));
    return row?.value ?? null;
  };
  return {
    migrate: () => dialect.migrate(),
    analyze: () => dialect.analyze(),
    ping: () => dialect.ping(),
    close: () => dialect.close(),
    getSetting,
    async putSettingIfAbsent(key, value) {
      await db.insert(t.settings).values({ key, value }).onConflictDoNothing();
      return (await getSetting(key)) ?? value;
    },
    async deleteSetting(key, value) {
      await db.delete(t.settings).where(and(eq(t.settings.key, key), eq(t.settings.value, value)));
    },
  };
}
