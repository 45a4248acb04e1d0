import { and, asc, eq, gt, isNull, lt, lte, or } from 'drizzle-orm';
import type { ApiKeyRecord, HostCredentialRecord } from '../../../src/storage/port.ts';
import type { PanelSessionRecord, PanelSessionStore } from '../../../src/storage/panel-session-store.ts';
import type { Db, Dialect, Tables } from './drizzle-storage.ts';

/** The panel's sessions, linked origins and API-key administration on either SQL dialect. */
export class PanelSessionQueries implements PanelSessionStore {
  private readonly db: Db;
  private readonly t: Tables;

  constructor(private readonly dialect: Pick<Dialect, 'db' | 'tables' | 'write'>) {
    this.db = dialect.db;
    this.t = dialect.tables;
  }

  async createPanelSession(session: PanelSessionRecord) {
    await this.db.insert(this.t.panelSessions).values(session);
  }

  async findPanelSession(tokenHash: string, now: number) {
    const s = this.t.panelSessions;
    const [row] = await this.db.select().from(s).where(and(eq(s.tokenHash, tokenHash), gt(s.expiresAt, now)));
    return row ?? null;
  }

  rotatePanelSession(tokenHash: string, next: PanelSessionRecord, now: number) {
    const s = this.t.panelSessions;
    return this.dialect.write(async (tx) => {
      const [old] = await tx.delete(s).where(and(eq(s.tokenHash, tokenHash), gt(s.expiresAt, now))).returning();
      if (!old) return null;
      await tx.insert(s).values(next);
      return old;
    });
  }

  async endPanelSessions(workspaceId: string, match: { origin: string } | { subject: string }) {
    const s = this.t.panelSessions;
    const which = 'origin' in match ? eq(s.origin, match.origin) : eq(s.subject, match.subject);
    const ended = await this.db.delete(s).where(and(eq(s.workspaceId, workspaceId), which)).returning({ id: s.id });
    return ended.length;
  }

  async purgeExpiredPanelSessions(now: number) {
    const s = this.t.panelSessions;
    const purged = await this.db.delete(s).where(lte(s.expiresAt, now)).returning({ id: s.id });
    return purged.length;
  }

  listHostCredentials(workspaceId: string): Promise<HostCredentialRecord[]> {
    const h = this.t.hostCredentials;
    return this.db.select().from(h).where(eq(h.workspaceId, workspaceId)).orderBy(asc(h.createdAt), asc(h.id));
  }

  async deleteHostCredential(workspaceId: string, id: string) {
    const h = this.t.hostCredentials;
    const [row] = await this.db.delete(h).where(and(eq(h.workspaceId, workspaceId), eq(h.id, id))).returning();
    return row ?? null;
  }

  async deleteHostCredentialByHash(credentialHash: string) {
    const h = this.t.hostCredentials;
    const [row] = await this.db.delete(h).where(eq(h.credentialHash, credentialHash)).returning();
    return row ?? null;
  }

  async touchHostCredential(id: string, at: number) {
    const h = this.t.hostCredentials;
    await this.db.update(h).set({ lastUsedAt: at }).where(and(eq(h.id, id), or(isNull(h.lastUsedAt), lt(h.lastUsedAt, at))));
  }

  listApiKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
    const k = this.t.apiKeys;
    return this.db.select().from(k).where(and(eq(k.workspaceId, workspaceId), isNull(k.revokedAt))).orderBy(asc(k.createdAt), asc(k.id));
  }

  async revokeApiKey(workspaceId: string, id: string, at: number) {
    const k = this.t.apiKeys;
    const [row] = await this.db.update(k).set({ revokedAt: at }).where(and(eq(k.workspaceId, workspaceId), eq(k.id, id), isNull(k.revokedAt))).returning();
    return row ?? null;
  }

  async touchApiKey(id: string, at: number) {
    const k = this.t.apiKeys;
    await this.db.update(k).set({ lastUsedAt: at }).where(and(eq(k.id, id), or(isNull(k.lastUsedAt), lt(k.lastUsedAt, at))));
  }
}
