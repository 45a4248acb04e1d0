import type { Clock } from '../../core/clock.ts';
import { createLoadingCache } from '../../core/loading-cache.ts';
import { cachedCalendarBusy } from './calendar-busy-cache.ts';
import type { ApiKeyRecord, CustomFieldRecord, ProviderRecord, ServiceRecord, Storage, StorageChangeKind, WorkspaceRecord } from '../../ports/storage/index.ts';

/** The catalogue reads every request makes, which the read cache answers from memory. */
type CatalogueReads = Pick<
  Storage,
  'getWorkspaceBySlug' | 'getWorkspaceById' | 'findApiKeyByHash' | 'listServices' | 'getService' | 'listProviders' | 'getProvider' | 'listCustomFields'
>;

/** Which changes make a cached catalogue read stale: every kind is decided here, so a new one must be too. */
const STALES_CATALOGUE: Record<StorageChangeKind, boolean> = {
  workspace: true,
  'api-keys': true,
  services: true,
  providers: true,
  'custom-fields': true,
  bookings: false,
  calendars: false,
  outbox: false,
  missed: true,
};

/**
 * The catalogue reads every request makes (workspace by slug, API key, services, providers, custom fields)
 * answered from memory for up to `ttlMs`, so a booking or an availability request costs one or two database
 * round trips instead of ten. Any catalogue change `storage` announces (a write through it) drops the cache at
 * once; writes made elsewhere (another instance, the CLI) show within `ttlMs`. Only found records are kept: a
 * workspace or key created elsewhere works at once. Bookings, messages and payments are never cached, and the
 * booking check itself runs inside reserveBooking on fresh data (calendar busy times: calendar-busy-cache.ts).
 *
 * Concurrent misses of one key share one load, and a load that began before a write is not kept after it
 * (see loading-cache.ts): a revoked key or a changed service is never put back by a read that raced the write.
 *
 * Records are shared between callers: they must not be mutated.
 */
function cachedCatalogueReads(storage: Storage, options: { clock: Clock; ttlMs: number }): CatalogueReads {
  const cache = createLoadingCache(options);
  const ALL = 'catalogue';
  storage.onChange((change) => {
    if (STALES_CATALOGUE[change.kind]) cache.invalidate();
  });
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => cache.load(ALL, key, load, (value) => value !== null);

  const services = (workspaceId: string) => cached(`services:${workspaceId}`, () => storage.listServices(workspaceId, { activeOnly: false }));
  const providers = (workspaceId: string) => cached(`providers:${workspaceId}`, () => storage.listProviders(workspaceId));

  return {
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
  };
}

/**
 * `storage` with its catalogue reads answered by cachedCatalogueReads and availability's calendar busy times by
 * cachedCalendarBusy (calendar-busy-cache.ts): a plain object holding the adapter's methods and the cached
 * reads, so the whole app reads through the cache without knowing it.
 */
export function withReadCache(storage: Storage, options: { clock: Clock; ttlMs: number }): Storage {
  return { ...storage, ...cachedCatalogueReads(storage, options), ...cachedCalendarBusy(storage, options) };
}
