import { and, eq, gt, isNull, lte } from 'drizzle-orm';
import type { PanelStore } from '../../../src/ports/storage/index.ts';
import type { Dialect } from './dialect.ts';

export function panelQueries(dialect: Dialect): PanelStore {
  const { db, tables: t } = dialect;
  return {
    async createPairingCode(code) {
      await db.insert(t.pairingCodes).values(code);
    },

    async consumePairingCode(codeHash, now) {
      const c = t.pairingCodes;
      const [row] = await db
        .update(c)
        .set({ usedAt: now })
        .where(and(eq(c.codeHash, codeHash), isNull(c.usedAt), gt(c.expiresAt, now)))
        .returning();
      return row ?? null;
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

    async consumePanelCode(codeHash, now) {
      const c = t.panelCodes;
      const [row] = await db
        .update(c)
        .set({ usedAt: now })
        .where(and(eq(c.codeHash, codeHash), isNull(c.usedAt), gt(c.expiresAt, now)))
        .returning();
      return row ?? null;
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
