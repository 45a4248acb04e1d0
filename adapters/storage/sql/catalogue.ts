import { and, asc, eq, inArray } from 'drizzle-orm';
import type { WorkingHours } from '../../../src/core/slot-engine.ts';
import type { CatalogueStore, CustomFieldRecord, ProviderRecord } from '../../../src/ports/storage/index.ts';
import { setsAnything, unique, type Dialect, type Row, type Tx } from './dialect.ts';

function toProvider(row: Row<'providers'>, serviceIds: string[]): ProviderRecord {
  const { weekly, exceptions, ...rest } = row;
  return { ...rest, hours: weekly ? ({ weekly, exceptions: exceptions ?? [] } as WorkingHours) : null, serviceIds };
}

const toCustomField = (row: Row<'customFields'>): CustomFieldRecord => row as CustomFieldRecord;

function hoursColumns(hours: WorkingHours | null | undefined) {
  if (hours === undefined) return {};
  return { weekly: hours?.weekly ?? null, exceptions: hours?.exceptions ?? null };
}

export function catalogueQueries(dialect: Dialect): CatalogueStore {
  const { db, tables: t } = dialect;

  async function serviceProviderIds(serviceIds: string[]): Promise<Map<string, string[]>> {
    const byService = new Map<string, string[]>(serviceIds.map((id) => [id, []]));
    if (serviceIds.length === 0) return byService;
    const links = await db
      .select()
      .from(t.serviceProviders)
      .where(inArray(t.serviceProviders.serviceId, serviceIds))
      .orderBy(asc(t.serviceProviders.providerId));
    for (const link of links) byService.get(link.serviceId)?.push(link.providerId);
    return byService;
  }

  async function providerServiceIds(providerIds: string[]): Promise<Map<string, string[]>> {
    const byProvider = new Map<string, string[]>(providerIds.map((id) => [id, []]));
    if (providerIds.length === 0) return byProvider;
    const links = await db
      .select()
      .from(t.serviceProviders)
      .where(inArray(t.serviceProviders.providerId, providerIds))
      .orderBy(asc(t.serviceProviders.serviceId));
    for (const link of links) byProvider.get(link.providerId)?.push(link.serviceId);
    return byProvider;
  }

  async function replaceLinks(tx: Tx, by: 'service' | 'provider', id: string, others: string[]) {
    const link = t.serviceProviders;
    await tx.delete(link).where(eq(by === 'service' ? link.serviceId : link.providerId, id));
    if (others.length === 0) return;
    await tx
      .insert(link)
      .values([...new Set(others)].map((other) => (by === 'service' ? { serviceId: id, providerId: other } : { serviceId: other, providerId: id })));
  }

  async function getService(workspaceId: string, id: string) {
    const [row] = await db
      .select()
      .from(t.services)
      .where(and(eq(t.services.workspaceId, workspaceId), eq(t.services.id, id)));
    if (!row) return null;
    const links = await serviceProviderIds([id]);
    return { ...row, providerIds: links.get(id) ?? [] };
  }

  async function getProvider(workspaceId: string, id: string) {
    const [row] = await db
      .select()
      .from(t.providers)
      .where(and(eq(t.providers.workspaceId, workspaceId), eq(t.providers.id, id)));
    if (!row) return null;
    const links = await providerServiceIds([id]);
    return toProvider(row, links.get(id) ?? []);
  }

  return {
    // services

    async createService(service) {
      const { providerIds, ...row } = service;
      await dialect.write(async (tx) => {
        await tx.insert(t.services).values(row);
        await replaceLinks(tx, 'service', service.id, providerIds);
      });
    },

    getService,

    async listServices(workspaceId, options) {
      const s = t.services;
      const rows = await db
        .select()
        .from(s)
        .where(options.activeOnly ? and(eq(s.workspaceId, workspaceId), eq(s.active, true)) : eq(s.workspaceId, workspaceId))
        .orderBy(asc(s.order), asc(s.name), asc(s.id));
      const links = await serviceProviderIds(rows.map((row) => row.id));
      return rows.map((row) => ({ ...row, providerIds: links.get(row.id) ?? [] }));
    },

    async updateService(workspaceId, id, patch) {
      const { providerIds, ...rest } = patch;
      const s = t.services;
      const updated = await dialect.write(async (tx) => {
        const where = and(eq(s.workspaceId, workspaceId), eq(s.id, id));
        // A patch of providerIds alone changes only the links; the row must still exist in this workspace.
        const rows = setsAnything(rest)
          ? await tx.update(s).set(rest).where(where).returning({ id: s.id })
          : await tx.select({ id: s.id }).from(s).where(where);
        if (rows.length === 0) return false;
        if (providerIds) await replaceLinks(tx, 'service', id, providerIds);
        return true;
      });
      return updated ? getService(workspaceId, id) : null;
    },

    // providers

    async createProvider(provider) {
      const { serviceIds, hours, ...row } = provider;
      await dialect.write(async (tx) => {
        await tx.insert(t.providers).values({ ...row, ...hoursColumns(hours) });
        await replaceLinks(tx, 'provider', provider.id, serviceIds);
      });
    },

    getProvider,

    async listProviders(workspaceId) {
      const p = t.providers;
      const rows = await db.select().from(p).where(eq(p.workspaceId, workspaceId)).orderBy(asc(p.name), asc(p.id));
      const links = await providerServiceIds(rows.map((row) => row.id));
      return rows.map((row) => toProvider(row, links.get(row.id) ?? []));
    },

    async updateProvider(workspaceId, id, patch) {
      const { serviceIds, hours, ...rest } = patch;
      const p = t.providers;
      const values = { ...rest, ...hoursColumns(hours) };
      const updated = await dialect.write(async (tx) => {
        const where = and(eq(p.workspaceId, workspaceId), eq(p.id, id));
        // A patch of serviceIds alone changes only the links; the row must still exist in this workspace.
        const rows = setsAnything(values)
          ? await tx.update(p).set(values).where(where).returning({ id: p.id })
          : await tx.select({ id: p.id }).from(p).where(where);
        if (rows.length === 0) return false;
        if (serviceIds) await replaceLinks(tx, 'provider', id, serviceIds);
        return true;
      });
      return updated ? getProvider(workspaceId, id) : null;
    },

    // custom fields

    async createCustomField(field) {
      await unique(dialect, 'custom field', () => db.insert(t.customFields).values(field));
    },

    async listCustomFields(workspaceId) {
      const f = t.customFields;
      const rows = await db.select().from(f).where(eq(f.workspaceId, workspaceId)).orderBy(asc(f.order), asc(f.key));
      return rows.map(toCustomField);
    },

    async updateCustomField(workspaceId, id, patch) {
      const f = t.customFields;
      const where = and(eq(f.workspaceId, workspaceId), eq(f.id, id));
      const [row] = setsAnything(patch)
        ? await unique(dialect, 'custom field', () => db.update(f).set(patch).where(where).returning())
        : await db.select().from(f).where(where);
      return row ? toCustomField(row) : null;
    },

    async deleteCustomField(workspaceId, id) {
      const f = t.customFields;
      const rows = await db
        .delete(f)
        .where(and(eq(f.workspaceId, workspaceId), eq(f.id, id)))
        .returning({ id: f.id });
      return rows.length > 0;
    },
  };
}
