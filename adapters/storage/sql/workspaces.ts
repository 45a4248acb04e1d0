import { and, eq, isNull } from 'drizzle-orm';
import type { WorkingHours } from '../../../src/core/slot-engine.ts';
import type { WorkspaceRecord, WorkspaceStore } from '../../../src/ports/storage/index.ts';
import { unique, type Dialect, type Row } from './dialect.ts';

function toWorkspace(row: Row<'workspaces'>): WorkspaceRecord {
  const { weekly, exceptions, ...rest } = row;
  return { ...rest, timeFormat: row.timeFormat as WorkspaceRecord['timeFormat'], hours: { weekly, exceptions } as WorkingHours };
}

export function workspaceQueries(dialect: Dialect): WorkspaceStore {
  const { db, tables: t } = dialect;
  return {
    async createWorkspace(workspace, firstKey) {
      const { hours, ...rest } = workspace;
      await dialect.write(async (tx) => {
        await unique(dialect, 'workspace', () => tx.insert(t.workspaces).values({ ...rest, ...hours }));
        if (firstKey) await tx.insert(t.apiKeys).values(firstKey);
      });
    },

    async getWorkspaceBySlug(slug) {
      // No slug holds one (they are checked at creation), and Postgres refuses it in a query parameter.
      if (slug.includes('\u0000')) return null;
      const [row] = await db.select().from(t.workspaces).where(eq(t.workspaces.slug, slug));
      return row ? toWorkspace(row) : null;
    },

    async getWorkspaceById(id) {
      const [row] = await db.select().from(t.workspaces).where(eq(t.workspaces.id, id));
      return row ? toWorkspace(row) : null;
    },

    async updateWorkspace(id, patch, at) {
      const { hours, ...rest } = patch;
      const [row] = await db
        .update(t.workspaces)
        .set({ ...rest, ...(hours ? { weekly: hours.weekly, exceptions: hours.exceptions } : {}), updatedAt: at })
        .where(eq(t.workspaces.id, id))
        .returning();
      return row ? toWorkspace(row) : null;
    },

    async deleteWorkspace(id) {
      await dialect.write(async (tx) => {
        // Children first: bookings reference services and providers without cascading.
        await tx.delete(t.bookings).where(eq(t.bookings.workspaceId, id));
        await tx.delete(t.workspaces).where(eq(t.workspaces.id, id));
      });
    },

    async createApiKey(key) {
      await db.insert(t.apiKeys).values(key);
    },

    async findApiKeyByHash(hash) {
      const [row] = await db
        .select()
        .from(t.apiKeys)
        .where(and(eq(t.apiKeys.hash, hash), isNull(t.apiKeys.revokedAt)));
      return row ?? null;
    },
  };
}
