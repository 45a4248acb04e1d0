import { Elysia } from 'elysia';
import { authorize, findWorkspace } from '../auth/api-key.ts';
import type { AppDeps } from '../deps.ts';
import { ErrorResponse, SlugParams } from '../shared/models.ts';
import { WidgetConfigResponse, WorkspaceResponse } from './model.ts';
import { toCustomFieldJson, toWorkspaceJson } from './service.ts';

export function workspaceRoutes(deps: AppDeps) {
  return new Elysia({ name: 'workspaces', prefix: '/workspaces' })
    .get('/:slug', async ({ params, headers }) => {
      const { workspace } = await authorize(deps, params.slug, headers, { demoKeyless: true });
      return { success: true, workspace: toWorkspaceJson(workspace) };
    }, {
      params: SlugParams,
      response: { 200: WorkspaceResponse, 401: ErrorResponse, 404: ErrorResponse },
      detail: { operationId: 'getWorkspace', summary: 'Get a workspace', tags: ['Workspaces'] },
    })
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
    });
}
