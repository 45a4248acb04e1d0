import { and, asc, eq, gt, isNull, lt, lte, or } from 'drizzle-orm';
import type { PanelSessionStore } from '../../../src/ports/storage/index.ts';
import type { Dialect } from './dialect.ts';

/** The panel's sessions, linked origins and API-key administration on either SQL dialect. */
export function panelSessionQueries(dialect: Dialect): PanelSessionStore {
  const { db, tables: t } = dialect;
  return {
    async createPanelSession(session) {
      await db.insert(t.panelSessions).values(session);
    },

    async findPanelSession(tokenHash, now) {
      const s = t.panelSessions;
      const [row] = await db
        .select()
        .from(s)
        .where(and(eq(s.tokenHash, tokenHash), gt(s.expiresAt, now)));
      return row ?? null;
    },

    rotatePanelSession(tokenHash, next, now) {
      const s = t.panelSessions;
      return dialect.write(async (tx) => {
        const [old] = await tx
          .delete(s)
          .where(and(eq(s.tokenHash, tokenHash), gt(s.expiresAt, now)))
          .returning();
        if (!old) return null;
        await tx.insert(s).values(next);
        return old;
      });
    },

    async endPanelSessions(workspaceId, match) {
      const s = t.panelSessions;
      const which = 'origin' in match ? eq(s.origin, match.origin) : eq(s.subject, match.subject);
      const ended = await db
        .delete(s)
        .where(and(eq(s.workspaceId, workspaceId), which))
        .returning({ id: s.id });
      return ended.length;
    },

    async purgeExpiredPanelSessions(now) {
      const s = t.panelSessions;
      const purged = await db.delete(s).where(lte(s.expiresAt, now)).returning({ id: s.id });
      return purged.length;
    },

    listHostCredentials(workspaceId) {
      const h = t.hostCredentials;
      return db.select().from(h).where(eq(h.workspaceId, workspaceId)).orderBy(asc(h.createdAt), asc(h.id));
    },

    async deleteHostCredential(workspaceId, id) {
      const h = t.hostCredentials;
      const [row] = await db
        .delete(h)
        .where(and(eq(h.workspaceId, workspaceId), eq(h.id, id)))
        .returning();
      return row ?? null;
    },

    async deleteHostCredentialByHash(credentialHash) {
      const h = t.hostCredentials;
      const [row] = await db.delete(h).where(eq(h.credentialHash, credentialHash)).returning();
      return row ?? null;
    },

    async touchHostCredential(id, at) {
      const h = t.hostCredentials;
      await db
        .update(h)
        .set({ lastUsedAt: at })
        .where(and(eq(h.id, id), or(isNull(h.lastUsedAt), lt(h.lastUsedAt, at))));
    },

    listApiKeys(workspaceId) {
      const k = t.apiKeys;
      return db
        .select()
        .from(k)
        .where(and(eq(k.workspaceId, workspaceId), isNull(k.revokedAt)))
        .orderBy(asc(k.createdAt), asc(k.id));
    },

    async revokeApiKey(workspaceId, id, at) {
      const k = t.apiKeys;
      const [row] = await db
        .update(k)
        .set({ revokedAt: at })
        .where(and(eq(k.workspaceId, workspaceId), eq(k.id, id), isNull(k.revokedAt)))
        .returning();
      return row ?? null;
    },

    async touchApiKey(id, at) {
      const k = t.apiKeys;
      await db
        .update(k)
        .set({ lastUsedAt: at })
        .where(and(eq(k.id, id), or(isNull(k.lastUsedAt), lt(k.lastUsedAt, at))));
    },
  };
}
