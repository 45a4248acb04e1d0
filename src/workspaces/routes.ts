import { Elysia, t } from 'elysia';
import { findWorkspace, workspaceAccess } from '../auth/api-key.ts';
import type { AppDeps } from '../deps.ts';
import { refuseUnknownFields } from '../http/unknown-fields.ts';
import { ErrorResponse, keyedErrors, keyedWriteErrors, SlugParams } from '../shared/models.ts';
import {
  CustomFieldCreate, CustomFieldParams, CustomFieldPatchBody, CustomFieldResponse, CustomFieldsResponse, DeletedResponse,
  DomainsBody, DomainsResponse, WidgetConfigResponse, WorkspacePatchBody, WorkspaceResponse,
} from './model.ts';
import {
  createCustomField, deleteCustomField, replaceDomains, toCustomFieldJson, toWorkspaceJson, updateCustomField, updateWorkspaceSettings,
} from './service.ts';



const tags = ['Workspaces'];

export function workspaceRoutes(deps: AppDeps) {
  return new Elysia({ name: 'workspaces', prefix: '/workspaces' })
    .get('/:slug/config', async ({ params }) => {
      const workspace = await findWorkspace(deps, params.slug);
      const fields = await deps.storage.listCustomFields(workspace.id);
      return {
        success: true,
        workspace: { id: workspace.id, name: workspace.name, primaryColor: workspace.primaryColor },
        customFields: fields.map(toCustomFieldJson),
      };
    }, {
      params: SlugParams,
      response: { 200: WidgetConfigResponse, 404: ErrorResponse },
      detail: { operationId: 'getWidgetConfig', summary: 'Public configuration for the booking widget', tags: ['Widget'], security: [] },
    })
    // every route below needs the workspace's API key
    .derive(workspaceAccess(deps))
    .get('/:slug', ({ access }) => ({ success: true, workspace: toWorkspaceJson(access.workspace) }), {
      params: SlugParams,
      response: { 200: WorkspaceResponse, ...keyedErrors },
      detail: { operationId: 'getWorkspace', summary: 'Get a workspace', tags },
    })
    .patch('/:slug', async ({ access, body }) => {
      const workspace = await updateWorkspaceSettings(deps, access.workspace, body ?? {});
      return { success: true, workspace: toWorkspaceJson(workspace) };
    }, {
      params: SlugParams,
      transform: refuseUnknownFields(WorkspacePatchBody),
      body: t.Optional(WorkspacePatchBody),
      response: { 200: WorkspaceResponse, ...keyedWriteErrors },
      detail: {
        operationId: 'updateWorkspace',
        summary: 'Change workspace settings',
        description: 'Sets the fields sent and keeps the others; an empty or missing body changes nothing. `timezone` is an IANA name, '
          + '`language` a BCP 47 tag (stored in canonical form, e.g. pt-BR), `cancellationHours` whole hours. `requiresConfirmation: true` makes a '
          + 'keyless booking of a free service PENDING until confirmed. A field the route does not know is a 400 naming it.',
        tags,
      },
    })
    .get('/:slug/domains', ({ access }) => ({ success: true, domains: access.workspace.domains }), {
      params: SlugParams,
      response: { 200: DomainsResponse, ...keyedErrors },
      detail: { operationId: 'listDomains', summary: 'List the allowed widget domains', tags },
    })
    .put('/:slug/domains', async ({ access, body }) => {
      const domains = await replaceDomains(deps, access.workspace, body.domains);
      return { success: true, domains };
    }, {
      params: SlugParams,
      body: DomainsBody,
      response: { 200: DomainsResponse, ...keyedWriteErrors },
      detail: {
        operationId: 'replaceDomains',
        summary: 'Replace the allowed widget domains',
        description: 'Keyless bookings are accepted from pages on these hosts. `*.example.org` allows every subdomain of '
          + 'example.org (not example.org itself). Entries are stored in lower case without a trailing dot; repeats are dropped. At most 100.',
        tags,
      },
    })
    .get('/:slug/custom-fields', async ({ access }) => {
      const fields = await deps.storage.listCustomFields(access.workspace.id);
      return { success: true, customFields: fields.map(toCustomFieldJson) };
    }, {
      params: SlugParams,
      response: { 200: CustomFieldsResponse, ...keyedErrors },
      detail: { operationId: 'listCustomFields', summary: 'List the custom fields of the booking form', description: 'Ordered by `order`, then `key`.', tags },
    })
    .post('/:slug/custom-fields', async ({ access, body }) => {
      const field = await createCustomField(deps, access.workspace, body);
      return { success: true, customField: toCustomFieldJson(field) };
    }, {
      params: SlugParams,
      body: CustomFieldCreate,
      response: { 200: CustomFieldResponse, ...keyedWriteErrors },
      detail: {
        operationId: 'createCustomField',
        summary: 'Add a custom field to the booking form',
        description: '`key` is unique in the workspace. `options` is required (non-empty) for `select` and must be null otherwise. '
          + '`serviceIds` limits the field to those services; empty means every service. Defaults: required false, order 0.',
        tags,
      },
    })
    .patch('/:slug/custom-fields/:fieldId', async ({ access, body, params }) => {
      const field = await updateCustomField(deps, access.workspace, params.fieldId, body ?? {});
      return { success: true, customField: toCustomFieldJson(field) };
    }, {
      params: CustomFieldParams,
      body: t.Optional(CustomFieldPatchBody),
      response: { 200: CustomFieldResponse, ...keyedWriteErrors },
      detail: {
        operationId: 'updateCustomField',
        summary: 'Change a custom field',
        description: 'Sets the fields sent and keeps the others; an empty or missing body changes nothing. Changing `type` away from select drops its `options`.',
        tags,
      },
    })
    .delete('/:slug/custom-fields/:fieldId', async ({ access, params }) => {
      await deleteCustomField(deps, access.workspace, params.fieldId);
      return { success: true };
    }, {
      params: CustomFieldParams,
      response: { 200: DeletedResponse, ...keyedErrors },
      detail: {
        operationId: 'deleteCustomField',
        summary: 'Remove a custom field',
        description: 'Bookings keep the values they were made with.',
        tags,
      },
    });
}
