import type { AppDeps } from '../../platform/app-deps.ts';
import { isValidCurrency, toMajor, toMinor } from '../../core/money.ts';
import { notFound, validation } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { CatalogueStore, ProviderPatch, ProviderRecord, ServicePatch, ServiceRecord, WorkspaceRecord } from '../../ports/storage/index.ts';
import { requireKnownIds, requireText, serviceSummary, withoutRepeats } from '../workspaces/index.ts';
import type { ProviderCreate, ProviderJson, ProviderPatchBody, ServiceCreate, ServiceJson, ServicePatchBody } from './model.ts';

type Deps = Pick<AppDeps, 'clock'> & { storage: CatalogueStore };

/** Money columns are 32-bit integers of minor units: 21 474 836.47 EUR, 2 147 483 647 JPY. */
const MAX_MINOR = 2_147_483_647;

export function toServiceJson(service: ServiceRecord): ServiceJson {
  return {
    ...serviceSummary(service),
    active: service.active,
    category: service.category,
    capacity: service.capacity,
    bufferTime: service.bufferTime,
    minNotice: service.minNotice,
    maxAdvance: service.maxAdvance,
    deposit: service.depositMinor === null ? null : toMajor(service.depositMinor, service.currency),
    order: service.order,
    providerIds: service.providerIds,
    slotInterval: service.slotInterval,
    waitlist: service.waitlist,
    repeatable: service.repeatable ?? false,
  };
}

export function toProviderJson(provider: ProviderRecord): ProviderJson {
  return { id: provider.id, name: provider.name, email: provider.email, active: provider.active, serviceIds: provider.serviceIds };
}

function checkCurrency(currency: string): string {
  if (!isValidCurrency(currency)) throw validation(`currency must be an ISO 4217 code in upper case such as EUR, got ${currency}`);
  return currency;
}

/** Decimal major units of `currency` to minor units, or a 400 naming `field` and the decimals allowed. */
function minorUnits(field: 'price' | 'deposit', amount: number, currency: string): number {
  let minor: number;
  try {
    minor = toMinor(amount, currency);
  } catch (error) {
    if (error instanceof RangeError) throw validation(error.message.replace(/^amount/, field));
    throw error;
  }
  if (minor > MAX_MINOR) throw validation(`${field} must be at most ${toMajor(MAX_MINOR, currency)} ${currency}`);
  return minor;
}

interface Money {
  priceMinor: number;
  depositMinor: number | null;
}

/** Price and deposit in minor units of `currency`; the deposit may not exceed the price. */
function money(price: number, deposit: number | null, currency: string): Money {
  const priceMinor = minorUnits('price', price, currency);
  const depositMinor = deposit === null ? null : minorUnits('deposit', deposit, currency);
  if (depositMinor !== null && depositMinor > priceMinor) throw validation(`deposit must be at most the price (${price} ${currency}), got ${deposit}`);
  return { priceMinor, depositMinor };
}

async function checkProviderIds(deps: { storage: CatalogueStore }, workspace: WorkspaceRecord, providerIds: string[]): Promise<string[]> {
  if (providerIds.length === 0) return [];
  const providers = await deps.storage.listProviders(workspace.id);
  requireKnownIds('providerIds', 'a provider', providerIds, new Set(providers.map((provider) => provider.id)));
  return withoutRepeats(providerIds);
}

async function checkServiceIds(deps: { storage: CatalogueStore }, workspace: WorkspaceRecord, serviceIds: string[]): Promise<string[]> {
  if (serviceIds.length === 0) return [];
  const services = await deps.storage.listServices(workspace.id, { activeOnly: false });
  requireKnownIds('serviceIds', 'a service', serviceIds, new Set(services.map((service) => service.id)));
  return withoutRepeats(serviceIds);
}

// services

export async function findService(deps: { storage: CatalogueStore }, workspace: WorkspaceRecord, serviceId: string): Promise<ServiceRecord> {
  const service = await deps.storage.getService(workspace.id, serviceId);
  if (!service) throw notFound(`service ${serviceId}`);
  return service;
}

/** Creates a service with the defaults: active, capacity 1, no buffer, no notice, no advance limit, order 0. */
export async function createService(deps: Deps, workspace: WorkspaceRecord, body: ServiceCreate): Promise<ServiceRecord> {
  requireText('name', body.name);
  if (body.category !== undefined && body.category !== null) requireText('category', body.category);
  const currency = checkCurrency(body.currency);
  const { priceMinor, depositMinor } = money(body.price, body.deposit ?? null, currency);
  const providerIds = await checkProviderIds(deps, workspace, body.providerIds ?? []);
  const now = deps.clock.now();
  const service: ServiceRecord = {
    id: newId('srv', now),
    workspaceId: workspace.id,
    name: body.name,
    description: body.description ?? null,
    duration: body.duration,
    priceMinor,
    currency,
    active: body.active ?? true,
    category: body.category ?? null,
    capacity: body.capacity ?? 1,
    bufferTime: body.bufferTime ?? 0,
    minNotice: body.minNotice ?? 0,
    maxAdvance: body.maxAdvance ?? null,
    depositMinor,
    order: body.order ?? 0,
    slotInterval: body.slotInterval ?? null,
    waitlist: body.waitlist ?? false,
    repeatable: body.repeatable ?? false,
    providerIds,
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.createService(service);
  return findService(deps, workspace, service.id);
}

/**
 * Applies PATCH …/services/{serviceId}: the fields sent, the others kept. A new `currency` re-checks the
 * price and deposit kept in their decimal value (35.5 EUR → 35.5 JPY is refused, naming price).
 * `providerIds` replaces the whole list.
 */
export async function updateService(deps: Deps, workspace: WorkspaceRecord, serviceId: string, body: ServicePatchBody): Promise<ServiceRecord> {
  if (body.name !== undefined) requireText('name', body.name);
  if (body.category !== undefined && body.category !== null) requireText('category', body.category);
  if (body.currency !== undefined) checkCurrency(body.currency);
  const current = await findService(deps, workspace, serviceId);
  const patch: ServicePatch = {};
  if (body.price !== undefined || body.deposit !== undefined || body.currency !== undefined) {
    const currency = body.currency ?? current.currency;
    const price = body.price ?? toMajor(current.priceMinor, current.currency);
    const deposit = body.deposit !== undefined ? body.deposit : current.depositMinor === null ? null : toMajor(current.depositMinor, current.currency);
    Object.assign(patch, { currency, ...money(price, deposit, currency) });
  }
  if (body.providerIds !== undefined) patch.providerIds = await checkProviderIds(deps, workspace, body.providerIds);
  const kept = [
    'name',
    'description',
    'duration',
    'active',
    'category',
    'capacity',
    'bufferTime',
    'minNotice',
    'maxAdvance',
    'order',
    'slotInterval',
    'waitlist',
    'repeatable',
  ] as const;
  for (const field of kept) if (body[field] !== undefined) Object.assign(patch, { [field]: body[field] });
  if (Object.keys(patch).length === 0) return current;
  patch.updatedAt = deps.clock.now();
  const updated = await deps.storage.updateService(workspace.id, serviceId, patch);
  if (!updated) throw notFound(`service ${serviceId}`);
  return updated;
}

/** DELETE deactivates: the service is no longer listed or bookable; its bookings keep their history. */
export async function deactivateService(deps: Deps, workspace: WorkspaceRecord, serviceId: string): Promise<ServiceRecord> {
  const current = await findService(deps, workspace, serviceId);
  if (!current.active) return current;
  const updated = await deps.storage.updateService(workspace.id, serviceId, { active: false, updatedAt: deps.clock.now() });
  if (!updated) throw notFound(`service ${serviceId}`);
  return updated;
}

// providers

export async function findProvider(deps: { storage: CatalogueStore }, workspace: WorkspaceRecord, providerId: string): Promise<ProviderRecord> {
  const provider = await deps.storage.getProvider(workspace.id, providerId);
  if (!provider) throw notFound(`provider ${providerId}`);
  return provider;
}

/** Creates an active provider that works the workspace's hours until it is given its own. */
export async function createProvider(deps: Deps, workspace: WorkspaceRecord, body: ProviderCreate): Promise<ProviderRecord> {
  requireText('name', body.name);
  const serviceIds = await checkServiceIds(deps, workspace, body.serviceIds ?? []);
  const now = deps.clock.now();
  const provider: ProviderRecord = {
    id: newId('prv', now),
    workspaceId: workspace.id,
    name: body.name,
    email: body.email ?? null,
    active: body.active ?? true,
    hours: null,
    serviceIds,
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.createProvider(provider);
  return findProvider(deps, workspace, provider.id);
}

/** Applies PATCH …/providers/{providerId}; `serviceIds` replaces the whole list. */
export async function updateProvider(deps: Deps, workspace: WorkspaceRecord, providerId: string, body: ProviderPatchBody): Promise<ProviderRecord> {
  if (body.name !== undefined) requireText('name', body.name);
  const current = await findProvider(deps, workspace, providerId);
  const patch: ProviderPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.email !== undefined) patch.email = body.email;
  if (body.active !== undefined) patch.active = body.active;
  if (body.serviceIds !== undefined) patch.serviceIds = await checkServiceIds(deps, workspace, body.serviceIds);
  if (Object.keys(patch).length === 0) return current;
  patch.updatedAt = deps.clock.now();
  const updated = await deps.storage.updateProvider(workspace.id, providerId, patch);
  if (!updated) throw notFound(`provider ${providerId}`);
  return updated;
}

/** DELETE deactivates: the provider gets no new bookings; existing bookings keep it. */
export async function deactivateProvider(deps: Deps, workspace: WorkspaceRecord, providerId: string): Promise<ProviderRecord> {
  const current = await findProvider(deps, workspace, providerId);
  if (!current.active) return current;
  const updated = await deps.storage.updateProvider(workspace.id, providerId, { active: false, updatedAt: deps.clock.now() });
  if (!updated) throw notFound(`provider ${providerId}`);
  return updated;
}
