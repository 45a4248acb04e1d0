import { openRoute } from '../../platform/access/policy.ts';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../platform/app-deps.ts';
import { translate, translator } from '../../core/i18n/catalogue.ts';
import { html } from '../../platform/pages/html.ts';
import { layout } from '../../platform/pages/layout.ts';
import { pageResponse } from '../../platform/pages/response.ts';
import { verifyFrameContext } from './frame-context.ts';

/** A reloaded iframe keeps its address: its frameContext still names the site that may frame it for this long. */
const FRAME_CONTEXT_REUSE_SECONDS = 12 * 60 * 60;

/** Only svc's own script, styles and API; images also from https (workspace logos). */
function panelCsp(frameAncestors: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data: https:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

/** The panel's page: the Preact app mounts into #panel (see web/panel/main.tsx). */
function shell(language: string, title: string): string {
  const t = translator(language, 'pages.panel');
  return layout({
    title,
    lang: language,
    stylesheet: '/panel/panel.css',
    scripts: ['/panel/panel.js'],
    body: html`<div id="panel"></div>
<noscript><p>${t('needsScript')}</p></noscript>`,
  });
}

const respond = (document: string, csp: string, status = 200) => pageResponse(document, { status, csp, cache: 'no-store', referrer: 'no-referrer' });

/** The standalone admin: the panel signs in and shows the section its address names (see web/panel/route.ts). */
const adminPage = () => respond(shell('en', translate('en', 'pages.panel.title')), panelCsp("'none'"));

/**
 * The panel's pages. The iframe page holds no secret: its `frameContext` names the host origin, and the page may
 * be framed by that origin while it is still linked to the workspace (plus svc itself); by nothing else.
 */
export function panelPages(deps: AppDeps) {
  return (
    new Elysia({ name: 'panel-pages' })
      .use(accessDeclarations)
      .get(
        '/widget/panel/admin/:slug',
        async ({ params, query }) => {
          const workspace = await deps.storage.getWorkspaceBySlug(params.slug);
          if (!workspace) return respond(shell('en', translate('en', 'pages.panel.notFoundTitle')), panelCsp("'none'"), 404);
          const frameContext = typeof query.frameContext === 'string' ? query.frameContext : '';
          const context =
            frameContext && deps.config.SVC_SECRET
              ? await verifyFrameContext(frameContext, deps.config.SVC_SECRET, deps.clock.now(), { toleranceSeconds: FRAME_CONTEXT_REUSE_SECONDS })
              : null;
          const linked =
            context && context.workspaceSlug === workspace.slug
              ? (await deps.storage.listHostCredentials(workspace.id)).some((each) => each.origin === context.origin)
              : false;
          return respond(
            shell(workspace.language, translate(workspace.language, 'pages.panel.workspaceTitle', { workspace: workspace.name })),
            panelCsp(linked ? `${context!.origin} 'self'` : "'self'"),
          );
        },
        { openAccess: openRoute(), detail: { hide: true } },
      )
      .get('/admin', adminPage, { openAccess: openRoute(), detail: { hide: true } })
      // every section and booking has an address of its own (/admin/bookings/{id}, …): the same shell, which routes
      .get('/admin/*', adminPage, { openAccess: openRoute(), detail: { hide: true } })
  );
}
