import { openRoute } from '../../platform/access/policy.ts';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../platform/app-deps.ts';
import { assetUrl, escapeHtml } from '../../platform/pages/html.ts';
import { verifyFrameContext } from './frame-context.ts';

/** A reloaded iframe keeps its address: its frameContext still names the site that may frame it for this long. */
const FRAME_CONTEXT_REUSE_SECONDS = 12 * 60 * 60;

/** Decisions section 12: only svc's own script, styles and API; images also from https (workspace logos). */
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

function shell(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${assetUrl('/panel/panel.css')}">
<script src="${assetUrl('/panel/panel.js')}" defer></script>
</head>
<body>
<div id="panel"></div>
<noscript><p>The svc admin panel needs JavaScript.</p></noscript>
</body>
</html>
`;
}

const html = (body: string, csp: string, status = 200) =>
  new Response(body, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
  });

/**
 * The panel's pages. The iframe page holds no secret: its `frameContext` names the host origin, and the page may
 * be framed by that origin while it is still linked to the workspace (plus svc itself); by nothing else.
 */
export function panelPages(deps: AppDeps) {
  return new Elysia({ name: 'panel-pages' })
    .use(accessDeclarations)
    .get(
      '/widget/panel/admin/:slug',
      async ({ params, query }) => {
        const workspace = await deps.storage.getWorkspaceBySlug(params.slug);
        if (!workspace) return html(shell('Admin panel not found'), panelCsp("'none'"), 404);
        const frameContext = typeof query.frameContext === 'string' ? query.frameContext : '';
        const context =
          frameContext && deps.config.SVC_SECRET
            ? await verifyFrameContext(frameContext, deps.config.SVC_SECRET, deps.clock.now(), { toleranceSeconds: FRAME_CONTEXT_REUSE_SECONDS })
            : null;
        const linked =
          context && context.workspaceSlug === workspace.slug
            ? (await deps.storage.listHostCredentials(workspace.id)).some((each) => each.origin === context.origin)
            : false;
        return html(shell(`${workspace.name}: admin`), panelCsp(linked ? `${context!.origin} 'self'` : "'self'"));
      },
      { openAccess: openRoute(), detail: { hide: true } },
    )
    .get('/admin', () => html(shell('svc admin'), panelCsp("'none'")), { openAccess: openRoute(), detail: { hide: true } });
}
