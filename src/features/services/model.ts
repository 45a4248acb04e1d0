import { Type } from '@sinclair/typebox';
import { t } from 'elysia';
import { createBody, nullable } from '../../core/models.ts';

/*
 * Integers use TypeBox's plain `Type.Integer`: Elysia's `t.Integer` is a union with numeric strings, which
 * documents as `anyOf` and whose errors read `expected union value` instead of `must be an integer between …`.
 */

/** The Service of docs/contract/resources.md plus `providerIds` and `slotInterval`. */
export const ServiceJson = t.Object(
  {
    id: t.String(),
    name: t.String(),
    description: t.Union([t.String(), t.Null()]),
    duration: Type.Integer({ description: 'minutes' }),
    price: t.Number({ description: 'decimal major units of currency, e.g. 35.5' }),
    currency: t.String({ description: 'ISO 4217, upper case' }),
    active: t.Boolean({ description: 'inactive services are not listed and cannot be booked' }),
    category: t.Union([t.String(), t.Null()]),
    capacity: Type.Integer({ description: 'bookings that may share one slot of a provider' }),
    bufferTime: Type.Integer({ description: 'minutes kept free before and after each booking' }),
    minNotice: Type.Integer({ description: 'minutes: a booking must start at least this long after it is made' }),
    maxAdvance: t.Union([Type.Integer(), t.Null()], { description: 'days ahead a booking may start; null = no limit' }),
    deposit: t.Union([t.Number(), t.Null()], { description: 'decimal major units due at booking instead of the price; null = the price' }),
    order: Type.Integer({ description: 'position in lists, ascending, then by name' }),
    providerIds: t.Array(t.String(), { description: 'providers offering the service' }),
    slotInterval: t.Union([Type.Integer(), t.Null()], { description: 'minutes between slot starts; null = duration' }),
    waitlist: t.Boolean({ description: 'full times are shown as full and a customer may join their waiting list' }),
    repeatable: t.Boolean({ description: 'the widget offers to repeat a booking weekly (the API books a series of any service)' }),
  },
  { $id: 'Service' },
);
export type ServiceJson = typeof ServiceJson.static;

export const ServiceResponse = t.Object({ success: t.Boolean(), service: ServiceJson }, { $id: 'ServiceResponse', description: 'The service' });
export const ServicesResponse = t.Object({ success: t.Boolean(), services: t.Array(ServiceJson) }, { $id: 'ServicesResponse', description: 'The services' });

const serviceFields = {
  name: t.String({ minLength: 1, maxLength: 200 }),
  description: nullable(t.String({ maxLength: 2000 })),
  duration: Type.Integer({ minimum: 5, maximum: 1440, description: 'minutes' }),
  price: t.Number({ minimum: 0, description: 'decimal major units, with no more decimals than the currency has' }),
  currency: t.String({ pattern: '^[A-Z]{3}$', description: 'an ISO 4217 code in upper case such as EUR' }),
  active: t.Boolean(),
  // a blank category is refused in code: `must not be empty or null` would read as if null were refused
  category: nullable(t.String({ maxLength: 200 })),
  capacity: Type.Integer({ minimum: 1, maximum: 1000 }),
  bufferTime: Type.Integer({ minimum: 0, maximum: 1440, description: 'minutes' }),
  minNotice: Type.Integer({ minimum: 0, maximum: 525_600, description: 'minutes' }),
  maxAdvance: nullable(Type.Integer({ minimum: 1, maximum: 3650, description: 'days' })),
  deposit: nullable(t.Number({ minimum: 0, description: 'decimal major units, at most the price' })),
  order: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
  slotInterval: nullable(Type.Integer({ minimum: 5, maximum: 1440, description: 'minutes' })),
  providerIds: t.Array(t.String({ maxLength: 64 }), { maxItems: 100, description: 'ids of providers of the workspace' }),
  waitlist: t.Boolean({ description: 'full times are shown as full and take a waiting list; default false' }),
  repeatable: t.Boolean({ description: 'the widget offers "Repeat weekly" for it; default false' }),
};

export const ServiceCreate = createBody(serviceFields, ['name', 'duration', 'price', 'currency'], { $id: 'ServiceCreate' });
export type ServiceCreate = typeof ServiceCreate.static;

/** Every field of ServiceCreate, each optional: a PATCH changes only what it names. */
export const ServicePatchBody = t.Partial(ServiceCreate, { $id: 'ServicePatch' });
export type ServicePatchBody = typeof ServicePatchBody.static;

export const ServiceParams = t.Object({
  slug: t.String({ description: 'workspace slug' }),
  serviceId: t.String({ description: 'service id (srv_…)' }),
});

/** A provider: a member of staff, a room, any bookable resource. */
export const ProviderJson = t.Object(
  {
    id: t.String(),
    name: t.String(),
    email: t.Union([t.String(), t.Null()]),
    active: t.Boolean({ description: 'inactive providers are not offered for new bookings' }),
    serviceIds: t.Array(t.String(), { description: 'services the provider offers' }),
  },
  { $id: 'Provider' },
);
export type ProviderJson = typeof ProviderJson.static;

export const ProviderResponse = t.Object({ success: t.Boolean(), provider: ProviderJson }, { $id: 'ProviderResponse', description: 'The provider' });
export const ProvidersResponse = t.Object(
  { success: t.Boolean(), providers: t.Array(ProviderJson) },
  { $id: 'ProvidersResponse', description: 'The providers' },
);

const providerFields = {
  name: t.String({ minLength: 1, maxLength: 200 }),
  email: nullable(t.String({ format: 'email', maxLength: 254 })),
  active: t.Boolean(),
  serviceIds: t.Array(t.String({ maxLength: 64 }), { maxItems: 100, description: 'ids of services of the workspace' }),
};

export const ProviderCreate = createBody(providerFields, ['name'], { $id: 'ProviderCreate' });
export type ProviderCreate = typeof ProviderCreate.static;

/** Every field of ProviderCreate, each optional: a PATCH changes only what it names. */
export const ProviderPatchBody = t.Partial(ProviderCreate, { $id: 'ProviderPatch' });
export type ProviderPatchBody = typeof ProviderPatchBody.static;

export const ProviderParams = t.Object({
  slug: t.String({ description: 'workspace slug' }),
  providerId: t.String({ description: 'provider id (prv_…)' }),
});
