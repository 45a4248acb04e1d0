import { and, eq, gt, isNull, lte } from 'drizzle-orm';
import type { PanelStore } from '../../../src/ports/storage/index.ts';
import type { Dialect, Tables } from './dialect.ts';

export function panelQueries(dialect: Dialect): PanelStore {
  const { db, tables: t } = dialect;

  /** Marks the code used, once and before it expires; resolves with it, or null when it is unknown, used or expired. */
  async function consume<T extends Tables['pairingCodes'] | Tables['panelCodes']>(table: T, codeHash: string, now: number): Promise<T['$inferSelect'] | null> {
    const c: Tables['pairingCodes'] | Tables['panelCodes'] = table;
    const [row] = await db
      .update(c)
      .set({ usedAt: now })
      .where(and(eq(c.codeHash, codeHash), isNull(c.usedAt), gt(c.expiresAt, now)))
      .returning();
    return (row as T['$inferSelect'] | undefined) ?? null;
  }

  return {
    async createPairingCode(code) {
      await db.insert(t.pairingCodes).values(code);
    },

    consumePairingCode(codeHash, now) {
      return consume(t.pairingCodes, codeHash, now);
    },

    async putHostCredential(credential) {
      const h = t.hostCredentials;
      await db
        .insert(h)
        .values(credential)
        .onConflictDoUpdate({
          target: [h.workspaceId, h.origin],
          set: {
            id: credential.id,
            credentialHash: credential.credentialHash,
            platform: credential.platform,
            createdAt: credential.createdAt,
            lastUsedAt: credential.lastUsedAt,
          },
        });
    },

    async findHostCredential(credentialHash) {
      const [row] = await db.select().from(t.hostCredentials).where(eq(t.hostCredentials.credentialHash, credentialHash));
      return row ?? null;
    },

    async createPanelCode(code) {
      await db.insert(t.panelCodes).values(code);
    },

    consumePanelCode(codeHash, now) {
      return consume(t.panelCodes, codeHash, now);
    },

    async voidPanelCodes(workspaceId, origin) {
      const c = t.panelCodes;
      const voided = await db
        .delete(c)
        .where(and(eq(c.workspaceId, workspaceId), eq(c.origin, origin), isNull(c.usedAt)))
        .returning({ id: c.id });
      return voided.length;
    },

    async purgeExpiredCodes(now) {
      const pairing = await db.delete(t.pairingCodes).where(lte(t.pairingCodes.expiresAt, now)).returning({ id: t.pairingCodes.id });
      const panel = await db.delete(t.panelCodes).where(lte(t.panelCodes.expiresAt, now)).returning({ id: t.panelCodes.id });
      return pairing.length + panel.length;
    },
  };
}
