import { accessDeclarations } from '../../platform/access/macro.ts';
import { keyOrSession } from '../../platform/access/policy.ts';
import { OPEN_TO_DEMO } from '../workspaces/index.ts';
import { Elysia, t } from 'elysia';
import type { AppDeps } from '../../platform/app-deps.ts';
import { refuseUnknownFields } from '../../platform/http/unknown-fields.ts';
import { keyedErrors, keyedWriteErrors, SlugParams } from '../../core/models.ts';
import {
  ProviderCreate,
  ProviderParams,
  ProviderPatchBody,
  ProviderResponse,
  ProvidersResponse,
  ServiceCreate,
  ServiceParams,
  ServicePatchBody,
  ServiceResponse,
  ServicesResponse,
} from './model.ts';
import {
  createProvider,
  createService,
  deactivateProvider,
  deactivateService,
  findProvider,
  findService,
  toProviderJson,
  toServiceJson,
  updateProvider,
  updateService,
} from './service.ts';

const serviceTags = ['Services'];
const providerTags = ['Providers'];

/** v1 routes of services, providers and their links. */
export function serviceRoutes(deps: AppDeps) {
  return new Elysia({ name: 'services', prefix: '/workspaces' })
    .use(accessDeclarations)
    .get(
      '/:slug/services',
      async ({ principal }) => {
        const services = await deps.storage.listServices(principal.workspace.id, { activeOnly: true });
        return { success: true, services: services.map(toServiceJson) };
      },
      {
        access: keyOrSession('read', OPEN_TO_DEMO),
        params: SlugParams,
        response: { 200: ServicesResponse, ...keyedErrors },
        detail: {
          operationId: 'listServices',
          summary: 'List the active services',
          description: 'Only active services, ordered by `order`, then `name`. A deactivated service is still readable by its id.',
          tags: serviceTags,
        },
      },
    )
    .post(
      '/:slug/services',
      async ({ principal, body }) => {
        const service = await createService(deps, principal.workspace, body);
        return { success: true, service: toServiceJson(service) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: SlugParams,
        body: ServiceCreate,
        response: { 200: ServiceResponse, ...keyedWriteErrors },
        detail: {
          operationId: 'createService',
          summary: 'Create a service',
          description:
            '`duration`, `bufferTime`, `minNotice` and `slotInterval` are minutes, `maxAdvance` days; `price` and `deposit` '
            + 'decimal major units of `currency` with no more decimals than it has. Defaults: active true, capacity 1, bufferTime 0, '
            + 'minNotice 0, maxAdvance null (no limit), deposit null (the price is due), order 0, slotInterval null (= duration), providerIds [].',
          tags: serviceTags,
        },
      },
    )
    .get(
      '/:slug/services/:serviceId',
      async ({ principal, params }) => {
        const service = await findService(deps, principal.workspace, params.serviceId);
        return { success: true, service: toServiceJson(service) };
      },
      {
        access: keyOrSession('read', OPEN_TO_DEMO),
        params: ServiceParams,
        response: { 200: ServiceResponse, ...keyedErrors },
        detail: {
          operationId: 'getService',
          summary: 'Get a service, active or not',
          description: 'A deactivated service is still readable here. 404 NOT_FOUND for an id not in the workspace.',
          tags: serviceTags,
        },
      },
    )
    .patch(
      '/:slug/services/:serviceId',
      async ({ principal, params, body }) => {
        const service = await updateService(deps, principal.workspace, params.serviceId, body ?? {});
        return { success: true, service: toServiceJson(service) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: ServiceParams,
        transform: refuseUnknownFields(ServicePatchBody),
        body: t.Optional(ServicePatchBody),
        response: { 200: ServiceResponse, ...keyedWriteErrors },
        detail: {
          operationId: 'updateService',
          summary: 'Change a service',
          description:
            'Sets the fields sent and keeps the others; an empty or missing body changes nothing. `providerIds` replaces the whole list. Existing bookings keep their times.',
          tags: serviceTags,
        },
      },
    )
    .delete(
      '/:slug/services/:serviceId',
      async ({ principal, params }) => {
        const service = await deactivateService(deps, principal.workspace, params.serviceId);
        return { success: true, service: toServiceJson(service) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: ServiceParams,
        response: { 200: ServiceResponse, ...keyedErrors },
        detail: {
          operationId: 'deleteService',
          summary: 'Deactivate a service',
          description:
            'Sets `active: false`: the service is no longer listed or bookable; its bookings keep their history. ' + 'PATCH `active: true` brings it back.',
          tags: serviceTags,
        },
      },
    )
    .get(
      '/:slug/providers',
      async ({ principal }) => {
        const providers = await deps.storage.listProviders(principal.workspace.id);
        return { success: true, providers: providers.map(toProviderJson) };
      },
      {
        access: keyOrSession('read', OPEN_TO_DEMO),
        params: SlugParams,
        response: { 200: ProvidersResponse, ...keyedErrors },
        detail: { operationId: 'listProviders', summary: 'List the providers, active and inactive', description: 'Ordered by name.', tags: providerTags },
      },
    )
    .post(
      '/:slug/providers',
      async ({ principal, body }) => {
        const provider = await createProvider(deps, principal.workspace, body);
        return { success: true, provider: toProviderJson(provider) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: SlugParams,
        body: ProviderCreate,
        response: { 200: ProviderResponse, ...keyedWriteErrors },
        detail: {
          operationId: 'createProvider',
          summary: 'Create a provider',
          description:
            'A provider is anything bookable: a member of staff, a room, a device. Defaults: email null, active true, '
            + "serviceIds []. A new provider works the workspace's hours until it is given its own schedule.",
          tags: providerTags,
        },
      },
    )
    .get(
      '/:slug/providers/:providerId',
      async ({ principal, params }) => {
        const provider = await findProvider(deps, principal.workspace, params.providerId);
        return { success: true, provider: toProviderJson(provider) };
      },
      {
        access: keyOrSession('read', OPEN_TO_DEMO),
        params: ProviderParams,
        response: { 200: ProviderResponse, ...keyedErrors },
        detail: {
          operationId: 'getProvider',
          summary: 'Get a provider',
          description: 'Active or not, with the services it offers. 404 NOT_FOUND for an id not in the workspace.',
          tags: providerTags,
        },
      },
    )
    .patch(
      '/:slug/providers/:providerId',
      async ({ principal, params, body }) => {
        const provider = await updateProvider(deps, principal.workspace, params.providerId, body ?? {});
        return { success: true, provider: toProviderJson(provider) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: ProviderParams,
        transform: refuseUnknownFields(ProviderPatchBody),
        body: t.Optional(ProviderPatchBody),
        response: { 200: ProviderResponse, ...keyedWriteErrors },
        detail: {
          operationId: 'updateProvider',
          summary: 'Change a provider',
          description: 'Sets the fields sent and keeps the others; an empty or missing body changes nothing. `serviceIds` replaces the whole list.',
          tags: providerTags,
        },
      },
    )
    .delete(
      '/:slug/providers/:providerId',
      async ({ principal, params }) => {
        const provider = await deactivateProvider(deps, principal.workspace, params.providerId);
        return { success: true, provider: toProviderJson(provider) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: ProviderParams,
        response: { 200: ProviderResponse, ...keyedErrors },
        detail: {
          operationId: 'deleteProvider',
          summary: 'Deactivate a provider',
          description: 'Sets `active: false`: the provider gets no new bookings; existing bookings keep it. PATCH `active: true` brings it back.',
          tags: providerTags,
        },
      },
    );
}
