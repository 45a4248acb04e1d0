import { Elysia } from 'elysia';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { CREDENTIAL_CAPABILITIES } from '../../platform/access/capabilities.ts';
import { keyOrSession } from '../../platform/access/policy.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { refuseUnknownFields } from '../../platform/http/unknown-fields.ts';
import { notFound } from '../../core/errors.ts';
import { isoTime, keyedErrors, keyedWriteErrors, SlugParams } from '../../core/models.ts';
import type { ApiKeyRecord, HostCredentialRecord } from '../../ports/storage/index.ts';
import { DeletedResponse } from '../workspaces/index.ts';
import { issueApiKey, requireText } from '../workspaces/index.ts';
import {
  ApiKeyCreate,
  ApiKeyParams,
  ApiKeysResponse,
  CreatedApiKeyResponse,
  PairingCodeResponse,
  PanelOriginParams,
  PanelOriginsResponse,
  type ApiKeyJson,
  type PanelOriginJson,
} from './admin-model.ts';
import { createPairingCode } from './pairing.ts';
import { endOriginAccess } from './service.ts';

const toApiKeyJson = (key: ApiKeyRecord): ApiKeyJson => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  createdAt: isoTime(key.createdAt),
  lastUsedAt: key.lastUsedAt === null ? null : isoTime(key.lastUsedAt),
});

const toOriginJson = (linked: HostCredentialRecord): PanelOriginJson => ({
  id: linked.id,
  origin: linked.origin,
  platform: linked.platform,
  createdAt: isoTime(linked.createdAt),
  lastUsedAt: linked.lastUsedAt === null ? null : isoTime(linked.lastUsedAt),
});

/**
 * v1 routes of docs/contract/panel.md that administer access: API keys, pairing codes, linked sites. Minting a
 * pairing code or minting or revoking an API key needs both capabilities (§9); unlinking a site, settings.
 */
export function panelAdminRoutes(deps: AppDeps) {
  return new Elysia({ name: 'panel-admin', prefix: '/workspaces' })
    .use(accessDeclarations)
    .get('/:slug/api-keys', async ({ principal }) => ({ success: true, apiKeys: (await deps.storage.listApiKeys(principal.workspace.id)).map(toApiKeyJson) }), {
      access: keyOrSession('read'),
      params: SlugParams,
      response: { 200: ApiKeysResponse, ...keyedErrors },
      detail: {
        operationId: 'listApiKeys',
        summary: 'List the live API keys, oldest first',
        description: 'The keys themselves are never shown again.',
        tags: ['API keys'],
      },
    })
    .post(
      '/:slug/api-keys',
      async ({ principal, body }) => {
        const { key, record } = await issueApiKey(deps, principal.workspace.id, requireText('name', body?.name ?? 'API key'));
        return { success: true, apiKey: toApiKeyJson(record), key };
      },
      {
        access: keyOrSession(CREDENTIAL_CAPABILITIES),
        params: SlugParams,
        transform: refuseUnknownFields(ApiKeyCreate),
        body: ApiKeyCreate,
        response: { 200: CreatedApiKeyResponse, ...keyedWriteErrors },
        detail: {
          operationId: 'createApiKey',
          summary: 'Create an API key',
          description:
            '`key` is shown only in this answer; only its hash is kept. A panel session needs both svc_manage_operations and svc_manage_settings (else 403 FORBIDDEN): a key can do everything.',
          tags: ['API keys'],
        },
      },
    )
    .delete(
      '/:slug/api-keys/:keyId',
      async ({ principal, params }) => {
        const revoked = await deps.storage.revokeApiKey(principal.workspace.id, params.keyId, deps.clock.now());
        if (!revoked) throw notFound(`API key ${params.keyId}`);
        await deps.storage.endPanelSessions(principal.workspace.id, { subject: `key:${revoked.id}` });
        return { success: true };
      },
      {
        access: keyOrSession(CREDENTIAL_CAPABILITIES),
        params: ApiKeyParams,
        response: { 200: DeletedResponse, ...keyedErrors },
        detail: {
          operationId: 'revokeApiKey',
          summary: 'Revoke an API key',
          description:
            'The key stops working at once, and so do the /admin sessions signed in with it (other server instances: within their cache time). '
            + 'A panel session needs both svc_manage_operations and svc_manage_settings (else 403 FORBIDDEN).',
          tags: ['API keys'],
        },
      },
    )
    .post('/:slug/pairing-codes', async ({ principal }) => ({ success: true, ...(await createPairingCode(deps, principal.workspace.id)) }), {
      access: keyOrSession(CREDENTIAL_CAPABILITIES),
      params: SlugParams,
      response: { 200: PairingCodeResponse, ...keyedErrors },
      detail: {
        operationId: 'createPairingCode',
        summary: 'Create a pairing code for linking a site',
        description:
          'Single use, valid for one hour; shown only in this answer. A host platform spends it at PUT {app_url}/api/integrations/{hostplatform|wordpress}/panel/origin. '
          + 'A panel session needs both svc_manage_operations and svc_manage_settings (else 403 FORBIDDEN).',
        tags: ['Embedded panel'],
      },
    })
    .get(
      '/:slug/panel/origins',
      async ({ principal }) => ({ success: true, origins: (await deps.storage.listHostCredentials(principal.workspace.id)).map(toOriginJson) }),
      {
        access: keyOrSession('read'),
        params: SlugParams,
        response: { 200: PanelOriginsResponse, ...keyedErrors },
        detail: { operationId: 'listPanelOrigins', summary: 'List the linked sites, oldest first', tags: ['Embedded panel'] },
      },
    )
    .delete(
      '/:slug/panel/origins/:originId',
      async ({ principal, params }) => {
        const removed = await deps.storage.deleteHostCredential(principal.workspace.id, params.originId);
        if (!removed) throw notFound(`linked origin ${params.originId}`);
        await endOriginAccess(deps, principal.workspace.id, removed.origin);
        return { success: true };
      },
      {
        access: keyOrSession('svc_manage_settings'),
        params: PanelOriginParams,
        response: { 200: DeletedResponse, ...keyedErrors },
        detail: {
          operationId: 'revokePanelOrigin',
          summary: 'Unlink a site',
          description:
            "Its host credential stops working at once (bootstrap answers 401), and the panel sessions and unspent bootstrap codes opened from it end. The origin's host stays in the widget domains.",
          tags: ['Embedded panel'],
        },
      },
    );
}
