import { openRoute } from '../../platform/access/policy.ts';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../platform/app-deps.ts';
import { translator } from '../../core/i18n/catalogue.ts';
import { html } from '../../platform/pages/html.ts';
import { assetUrl, layout } from '../../platform/pages/layout.ts';
import { pageCsp, pageResponse } from '../../platform/pages/response.ts';

/** svc's own HTML pages: the welcome page and the hosted booking page of each workspace. */
export function pageRoutes(deps: AppDeps) {
  const csp = pageCsp(deps.config.SVC_CAPTCHA_PROVIDER);
  const publicUrl = deps.config.SVC_PUBLIC_URL;

  const welcome = () => {
    const t = translator('en', 'pages.welcome');
    return layout({
      title: t('title'),
      description: t('description'),
      body: html`<main class="wrap">
<header class="site"><span class="mark" aria-hidden="true">svc</span><span>svc</span></header>
<h1>${t('heading')}</h1>
<p class="lead">${t('lead')}</p>
<ul class="cards">
<li class="card"><a href="/book/demo">${t('tryBooking')}</a><p>${t('tryBookingText')}</p></li>
<li class="card"><a href="/api/v1/docs">${t('apiReference')}</a><p>${t('apiReferenceText')}</p></li>
<li class="card"><a href="/admin">${t('adminPanel')}</a><p>${t('adminPanelText')}</p></li>
</ul>
<h2>${t('addWidget')}</h2>
<pre class="snippet" tabindex="0"><code>${`<script src="${publicUrl}/svc-widget.min.js"\n        data-slug="your-workspace" async></script>`}</code></pre>
<footer>${t('footer')}</footer>
</main>`,
    });
  };

  return new Elysia({ name: 'pages' })
    .use(accessDeclarations)
    .get('/', () => pageResponse(welcome(), { csp }), { openAccess: openRoute(), detail: { hide: true } })
    .get(
      '/book/:slug',
      async ({ params }) => {
        const workspace = await deps.storage.getWorkspaceBySlug(params.slug);
        if (!workspace) {
          const t = translator('en', 'pages.bookingPage');
          return pageResponse(
            layout({
              title: t('notFoundTitle'),
              body: html`<main class="wrap narrow">
<h1>${t('notFoundHeading')}</h1>
<p class="lead">${t('notFoundLead', { slug: params.slug })}</p>
<p><a href="/">${t('home')}</a></p>
</main>`,
            }),
            { csp, status: 404 },
          );
        }
        // the page is light or dark as the visitor's system prefers (web/pages/pages.css): so is its widget, from the start
        return pageResponse(
          layout({
            title: workspace.name,
            lang: workspace.language,
            brandColor: workspace.primaryColor,
            body: html`<main class="wrap narrow">
<header class="booking-head"><h1>${workspace.name}</h1></header>
<script src="${assetUrl('/svc-widget.min.js')}" data-slug="${workspace.slug}" data-position="inline" data-theme="system" async></script>
</main>`,
          }),
          { csp },
        );
      },
      { openAccess: openRoute(), detail: { hide: true } },
    );
}
