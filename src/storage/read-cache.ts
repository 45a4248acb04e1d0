import type { Clock } from '../shared/clock.ts';
import { decorateStorage, thenAlways } from './decorate.ts';
import type { ApiKeyRecord, CustomFieldRecord, ProviderRecord, ServiceRecord, Storage, WorkspaceRecord } from './port.ts';

/**
 * A Storage that answers the catalogue reads every request makes (workspace by slug, API key, services,
 * providers, custom fields) from memory for up to `ttlMs`, so a booking or an availability request costs one
 * or two database round trips instead of ten. Any catalogue write through this Storage drops the cache at
 * once; writes made elsewhere (another instance, the CLI) show within `ttlMs`. Only found records are kept:
 * a workspace or key created elsewhere works at once. Bookings, messages and payments are never cached, and
 * the booking check itself runs inside reserveBooking on fresh data.
 *
 * Records are shared between callers: they must not be mutated.
 */
export function withReadCache(storage: Storage, options: { clock: Clock; ttlMs: number }): Storage {
  const entries = new Map<string, { value: unknown; until: number }>();

  async function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = options.clock.now();
    const hit = entries.get(key);
    if (hit && hit.until > now) return hit.value as T;
    const value = await load();
    if (value !== null) entries.set(key, { value, until: now + options.ttlMs });
    else entries.delete(key);
    return value;
  }

  const dropAfter = <A extends unknown[], R>(write: (...args: A) => Promise<R>) => thenAlways(write, () => entries.clear());

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
