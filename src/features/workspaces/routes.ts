import { accessDeclarations } from '../../platform/access/macro.ts';
import { keyOrSession, publicRoute } from '../../platform/access/policy.ts';
import { OPEN_TO_DEMO } from './demo-workspace.ts';
import { Elysia, t } from 'elysia';
import type { AppDeps } from '../../platform/app-deps.ts';
import { refuseUnknownFields } from '../../platform/http/unknown-fields.ts';
import { CONFIG_MAX_AGE_SECONDS, widgetConfig } from './widget-config.ts';
import { ErrorResponse, keyedErrors, keyedWriteErrors, SlugParams } from '../../core/models.ts';
import {
  CustomFieldCreate,
  CustomFieldParams,
  CustomFieldPatchBody,
  CustomFieldResponse,
  CustomFieldsResponse,
  DeletedResponse,
  DomainsBody,
  DomainsResponse,
  WidgetConfigResponse,
  WorkspacePatchBody,
  WorkspaceResponse,
} from './model.ts';
import {
  createCustomField,
  deleteCustomField,
  replaceDomains,
  toCustomFieldJson,
  toWorkspaceJson,
  updateCustomField,
  updateWorkspaceSettings,
} from './service.ts';

const tags = ['Workspaces'];

export function workspaceRoutes(deps: AppDeps) {
  return new Elysia({ name: 'workspaces', prefix: '/workspaces' })
    .use(accessDeclarations)
    .get(
      '/:slug/config',
      async ({ principal: { workspace }, request, set }) => {
        // `booking.allowed` depends on the Origin, so a shared cache must key on it
        set.headers['cache-control'] = `public, max-age=${CONFIG_MAX_AGE_SECONDS}`;
        set.headers.vary = 'Origin';
        return widgetConfig(deps, workspace, request.headers.get('origin'));
      },
      {
        access: publicRoute('anyOrigin'),
        params: SlugParams,
        response: { 200: WidgetConfigResponse, 404: ErrorResponse },
        detail: {
          operationId: 'getWidgetConfig',
          summary: 'Public configuration for the booking widget',
          description:
            'Everything the widget needs before the visitor acts, in one request: the workspace, its active services '
            + 'and providers, the custom fields of the booking form (ordered by `order`), whether a booking from the calling page '
            + '(its Origin) is allowed, and the captcha. Any page may read it, without a key (CORS allows every origin). '
            + 'Cached for 30 seconds (`Cache-Control: public, max-age=30`, `Vary: Origin`). 404 NOT_FOUND for an unknown slug.',
          tags: ['Widget'],
        },
      },
    )
    .get('/:slug', ({ principal }) => ({ success: true, workspace: toWorkspaceJson(principal.workspace) }), {
      access: keyOrSession('read', OPEN_TO_DEMO),
      params: SlugParams,
      response: { 200: WorkspaceResponse, ...keyedErrors },
      detail: {
        operationId: 'getWorkspace',
        summary: 'Get a workspace',
        description: 'The workspace with its settings: time zone, language, time format, cancellation window.',
        tags,
      },
    })
    .patch(
      '/:slug',
      async ({ principal, body }) => {
        const workspace = await updateWorkspaceSettings(deps, principal.workspace, body ?? {});
        return { success: true, workspace: toWorkspaceJson(workspace) };
      },
      {
        access: keyOrSession('svc_manage_settings'),
        params: SlugParams,
        transform: refuseUnknownFields(WorkspacePatchBody),
        body: t.Optional(WorkspacePatchBody),
        response: { 200: WorkspaceResponse, ...keyedWriteErrors },
        detail: {
          operationId: 'updateWorkspace',
          summary: 'Change workspace settings',
          description:
            'Sets the fields sent and keeps the others; an empty or missing body changes nothing. `timezone` is an IANA name, '
            + '`language` a BCP 47 tag (stored in canonical form, e.g. pt-BR), `cancellationHours` whole hours. `requiresConfirmation: true` makes a '
            + 'keyless booking of a free service PENDING until confirmed. A field the route does not know is a 400 naming it.',
          tags,
        },
      },
    )
    .get('/:slug/domains', ({ principal }) => ({ success: true, domains: principal.workspace.domains }), {
      access: keyOrSession('read', OPEN_TO_DEMO),
      params: SlugParams,
      response: { 200: DomainsResponse, ...keyedErrors },
      detail: {
        operationId: 'listDomains',
        summary: 'List the allowed widget domains',
        description: 'The hosts whose pages may create bookings without the API key (keyless createBooking).',
        tags,
      },
    })
    .put(
      '/:slug/domains',
      async ({ principal, body }) => {
        const domains = await replaceDomains(deps, principal.workspace, body.domains);
        return { success: true, domains };
      },
      {
        access: keyOrSession('svc_manage_settings'),
        params: SlugParams,
        body: DomainsBody,
        response: { 200: DomainsResponse, ...keyedWriteErrors },
        detail: {
          operationId: 'replaceDomains',
          summary: 'Replace the allowed widget domains',
          description:
            'Keyless bookings are accepted from pages on these hosts. `*.example.org` allows every subdomain of '
            + 'example.org (not example.org itself). Entries are stored in lower case without a trailing dot; repeats are dropped. At most 100.',
          tags,
        },
      },
    )
    .get(
      '/:slug/custom-fields',
      async ({ principal }) => {
        const fields = await deps.storage.listCustomFields(principal.workspace.id);
        return { success: true, customFields: fields.map(toCustomFieldJson) };
      },
      {
        access: keyOrSession('read', OPEN_TO_DEMO),
        params: SlugParams,
        response: { 200: CustomFieldsResponse, ...keyedErrors },
        detail: {
          operationId: 'listCustomFields',
          summary: 'List the custom fields of the booking form',
          description: 'Ordered by `order`, then `key`.',
          tags,
        },
      },
    )
    .post(
      '/:slug/custom-fields',
      async ({ principal, body }) => {
        const field = await createCustomField(deps, principal.workspace, body);
        return { success: true, customField: toCustomFieldJson(field) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: SlugParams,
        body: CustomFieldCreate,
        response: { 200: CustomFieldResponse, ...keyedWriteErrors },
        detail: {
          operationId: 'createCustomField',
          summary: 'Add a custom field to the booking form',
          description:
            '`key` is unique in the workspace. `options` is required (non-empty) for `select` and must be null otherwise. '
            + '`serviceIds` limits the field to those services; empty means every service. Defaults: required false, order 0.',
          tags,
        },
      },
    )
    .patch(
      '/:slug/custom-fields/:fieldId',
      async ({ principal, body, params }) => {
        const field = await updateCustomField(deps, principal.workspace, params.fieldId, body ?? {});
        return { success: true, customField: toCustomFieldJson(field) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: CustomFieldParams,
        transform: refuseUnknownFields(CustomFieldPatchBody),
        body: t.Optional(CustomFieldPatchBody),
        response: { 200: CustomFieldResponse, ...keyedWriteErrors },
        detail: {
          operationId: 'updateCustomField',
          summary: 'Change a custom field',
          description:
            'Sets the fields sent and keeps the others; an empty or missing body changes nothing. Changing `type` away from select drops its `options`.',
          tags,
        },
      },
    )
    .delete(
      '/:slug/custom-fields/:fieldId',
      async ({ principal, params }) => {
        await deleteCustomField(deps, principal.workspace, params.fieldId);
        return { success: true };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: CustomFieldParams,
        response: { 200: DeletedResponse, ...keyedErrors },
        detail: {
          operationId: 'deleteCustomField',
          summary: 'Remove a custom field',
          description: 'Bookings keep the values they were made with.',
          tags,
        },
      },
    );
}
