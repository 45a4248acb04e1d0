import { Elysia } from 'elysia';
import { authorizationCredential } from '../../platform/access/credentials.ts';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { hostCredential, openRoute } from '../../platform/access/policy.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { validation } from '../../core/errors.ts';
import { ErrorResponse } from '../../core/models.ts';
import { BootstrapBody, BootstrapResponse, LinkOriginBody, LinkOriginResponse, SessionBody, SessionResponse } from './model.ts';
import { PANEL_PLATFORMS } from './origin.ts';
import { bootstrap, exchangeCode, linkOrigin, refreshSession, signInWithApiKey, unlinkOrigin } from './service.ts';

const tags = ['Embedded panel'];
const panelErrors = { 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse };
const title = (platform: string) => (platform === 'wordpress' ? 'WordPress' : 'host platform');
const idSuffix = (platform: string) => (platform === 'wordpress' ? 'Wordpress' : '');

/** Origin linking and bootstrap, served under both path segments (docs/contract/panel.md). */
function integrationRoutes(deps: AppDeps) {
  let routes = new Elysia({ name: 'panel-integrations' }).use(accessDeclarations);
  for (const platform of PANEL_PLATFORMS) {
    const base = `/api/integrations/${platform}/panel`;
    routes = routes
      .put(
        `${base}/origin`,
        async ({ body, headers, set }) => {
          const linked = await linkOrigin(deps, {
            pairingCode: authorizationCredential(headers.authorization, 'SvcPair'),
            platform,
            workspaceSlug: body.workspaceSlug,
            origin: body.origin,
          });
          set.status = 201;
          return { success: true, ...linked };
        },
        {
          openAccess: openRoute('panelLinking'),
          body: LinkOriginBody,
          response: { 201: LinkOriginResponse, ...panelErrors },
          detail: {
            operationId: `linkPanelOrigin${idSuffix(platform)}`,
            summary: `Link a site origin (${title(platform)})`,
            description:
              'Server to server, once per site: spends a single-use pairing code (`Authorization: SvcPair <code>`, from `svc pairing-code create` '
              + 'or the panel settings) and returns the host credential, shown once. Linking the same origin again with a new code replaces its credential '
              + 'and ends the panel sessions and unspent bootstrap codes of the old one. '
              + "The origin's host is added to the widget domains. 10 requests per minute per client IP.",
            tags,
            security: [{ pairingCode: [] }],
          },
        },
      )
      .delete(
        `${base}/origin`,
        async ({ principal, set }) => {
          await unlinkOrigin(deps, principal);
          set.status = 204;
        },
        {
          access: hostCredential('panelLinking'),
          response: { 401: ErrorResponse, 429: ErrorResponse },
          detail: {
            operationId: `unlinkPanelOrigin${idSuffix(platform)}`,
            summary: `Disconnect a linked site (${title(platform)})`,
            description:
              'The host forgets its link (`Authorization: SvcHost <credential>`): 204, and the credential, its unspent bootstrap codes and every '
              + 'panel session opened through it stop at once.',
            tags,
          },
        },
      )
      .post(
        `${base}/bootstrap`,
        async ({ body, principal, set }) => {
          const issued = await bootstrap(deps, principal, body);
          set.status = 201;
          return { success: true, ...issued };
        },
        {
          access: hostCredential('panelBootstrap'),
          body: BootstrapBody,
          response: { 201: BootstrapResponse, ...panelErrors },
          detail: {
            operationId: `bootstrapPanel${idSuffix(platform)}`,
            summary: `Open the panel for a user (${title(platform)})`,
            description:
              'Server to server, on every page load that shows the panel (`Authorization: SvcHost <credential>`). Returns a one-time `code` '
              + '(60 seconds) for the iframe, handed over by message, and the signed `frameContext` for the iframe address. Only `role: ADMIN` and the '
              + 'linked `origin` are accepted (else 401). 60 requests per minute per client IP.',
            tags,
          },
        },
      );
  }
  return routes;
}

/** Routes of {app_url} for the embedded and standalone admin panel (docs/contract/routes.md, docs/contract/panel.md). */
export function panelRoutes(deps: AppDeps) {
  return new Elysia({ name: 'panel' })
    .use(accessDeclarations)
    .use(integrationRoutes(deps))
    .post(
      '/api/panel/session',
      async ({ body, set }) => {
        let issued;
        if (body.code !== undefined && body.frameContext !== undefined && body.apiKey === undefined) {
          issued = await exchangeCode(deps, body.code, body.frameContext);
        } else if (body.workspaceSlug !== undefined && body.apiKey !== undefined && body.code === undefined) {
          issued = await signInWithApiKey(deps, body.workspaceSlug, body.apiKey);
        } else {
          throw validation('send either { code, frameContext } (embedded panel) or { workspaceSlug, apiKey } (standalone)');
        }
        set.status = 201;
        return { success: true, ...issued };
      },
      {
        // A guessed code, key or token counts against the client address like a failed API key (docs/contract/limits.md).
        openAccess: openRoute('v1'),
        body: SessionBody,
        response: { 201: SessionResponse, ...panelErrors },
        detail: {
          operationId: 'createPanelSession',
          summary: 'Open a panel session',
          description:
            'The embedded panel exchanges the one-time `code` with its `frameContext`; the standalone /admin signs in with the workspace slug and '
            + 'an API key (the session gets both capabilities; the key is not kept). A session lasts 30 minutes; a standalone one renews at /api/panel/session/refresh.',
          tags,
        },
      },
    )
    .post(
      '/api/panel/session/refresh',
      async ({ headers, set }) => {
        const issued = await refreshSession(deps, authorizationCredential(headers.authorization, 'Bearer'));
        set.status = 201;
        return { success: true, ...issued };
      },
      {
        // A guessed code, key or token counts against the client address like a failed API key (docs/contract/limits.md).
        openAccess: openRoute('v1'),
        response: { 201: SessionResponse, 401: ErrorResponse, 429: ErrorResponse },
        detail: {
          operationId: 'refreshPanelSession',
          summary: 'Renew a panel session',
          description:
            'Standalone (/admin) sessions only. With the current token (`Authorization: Bearer`): a new token for another 30 minutes; the old one ends. '
            + 'Refused (401) 12 hours after sign-in, and always for an embedded session: that one renews only through a fresh bootstrap by its host, '
            + 'so a user the host platform no longer trusts loses the panel when the session ends.',
          tags,
          security: [{ panelSession: [] }],
        },
      },
    );
}
