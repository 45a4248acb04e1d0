import type { Clock } from '../../core/clock.ts';
import { createLoadingCache } from '../../core/loading-cache.ts';
import { decorateStorage, thenAlways } from './decorate.ts';
import type { ApiKeyRecord, CustomFieldRecord, ProviderRecord, ServiceRecord, Storage, WorkspaceRecord } from '../../ports/storage/index.ts';

/**
 * A Storage that answers the catalogue reads every request makes (workspace by slug, API key, services,
 * providers, custom fields) from memory for up to `ttlMs`, so a booking or an availability request costs one
 * or two database round trips instead of ten. Any catalogue write through this Storage drops the cache at
 * once; writes made elsewhere (another instance, the CLI) show within `ttlMs`. Only found records are kept:
 * a workspace or key created elsewhere works at once. Bookings, messages and payments are never cached, and
 * the booking check itself runs inside reserveBooking on fresh data.
 *
 * Concurrent misses of one key share one load, and a load that began before a write is not kept after it
 * (see loading-cache.ts): a revoked key or a changed service is never put back by a read that raced the write.
 *
 * Records are shared between callers: they must not be mutated.
 */
export function withReadCache(storage: Storage, options: { clock: Clock; ttlMs: number }): Storage {
  const cache = createLoadingCache(options);
  const ALL = 'catalogue';
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => cache.load(ALL, key, load, (value) => value !== null);

  const dropAfter = <A extends unknown[], R>(write: (...args: A) => Promise<R>) => thenAlways(write, () => cache.invalidate());

  const services = (workspaceId: string) => cached(`services:${workspaceId}`, () => storage.listServices(workspaceId, { activeOnly: false }));
  const providers = (workspaceId: string) => cached(`providers:${workspaceId}`, () => storage.listProviders(workspaceId));

  const overrides: Partial<Storage> = {
    getWorkspaceBySlug: (slug) => cached<WorkspaceRecord | null>(`workspace-slug:${slug}`, () => storage.getWorkspaceBySlug(slug)),
    getWorkspaceById: (id) => cached<WorkspaceRecord | null>(`workspace-id:${id}`, () => storage.getWorkspaceById(id)),
    findApiKeyByHash: (hash) => cached<ApiKeyRecord | null>(`key:${hash}`, () => storage.findApiKeyByHash(hash)),
    listServices: async (workspaceId, { activeOnly }) => {
      const all = await services(workspaceId);
      return activeOnly ? all.filter((service: ServiceRecord) => service.active) : all;
    },
    getService: async (workspaceId, id) => (await services(workspaceId)).find((service) => service.id === id) ?? null,
    listProviders: (workspaceId) => providers(workspaceId),
    getProvider: async (workspaceId, id) => (await providers(workspaceId)).find((provider: ProviderRecord) => provider.id === id) ?? null,
    listCustomFields: (workspaceId) => cached<CustomFieldRecord[]>(`fields:${workspaceId}`, () => storage.listCustomFields(workspaceId)),
    createWorkspace: dropAfter(storage.createWorkspace.bind(storage)),
    updateWorkspace: dropAfter(storage.updateWorkspace.bind(storage)),
    deleteWorkspace: dropAfter(storage.deleteWorkspace.bind(storage)),
    createApiKey: dropAfter(storage.createApiKey.bind(storage)),
    revokeApiKey: dropAfter(storage.revokeApiKey.bind(storage)),
    createService: dropAfter(storage.createService.bind(storage)),
    updateService: dropAfter(storage.updateService.bind(storage)),
    createProvider: dropAfter(storage.createProvider.bind(storage)),
    updateProvider: dropAfter(storage.updateProvider.bind(storage)),
    createCustomField: dropAfter(storage.createCustomField.bind(storage)),
    updateCustomField: dropAfter(storage.updateCustomField.bind(storage)),
    deleteCustomField: dropAfter(storage.deleteCustomField.bind(storage)),
  };

  return decorateStorage(storage, overrides);
}
