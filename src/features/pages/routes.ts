import { openRoute } from '../../platform/access/policy.ts';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../platform/app-deps.ts';
import { assetUrl, escapeHtml, page, pageCsp } from '../../platform/pages/html.ts';

/** svc's own HTML pages (decisions section 11): the welcome page and the hosted booking page of each workspace. */
export function pageRoutes(deps: AppDeps) {
  const headers = (status = 200) => ({
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': pageCsp(deps.config.SVC_CAPTCHA_PROVIDER),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'cache-control': 'no-cache',
    },
  });
  const publicUrl = deps.config.SVC_PUBLIC_URL;

  const welcome = () =>
    page({
      title: 'svc: bookings, scheduling and payments',
      description: 'A self-hosted booking, scheduling and payments server with a REST API, a booking widget and an admin panel.',
      body: `<main class="wrap">
<header class="site"><span class="mark" aria-hidden="true">svc</span><span>svc</span></header>
<h1>Bookings, scheduling and payments for your site</h1>
<p class="lead">svc is a self-hosted booking server. Customers book your services through a widget that one script tag adds to any page;
you run the business through its REST API, webhooks and admin panel.</p>
<ul class="cards">
<li class="card"><a href="/book/demo">Try a booking</a><p>The demo salon's booking page, with sample services and times.</p></li>
<li class="card"><a href="/api/v1/docs">API reference</a><p>Every route of the REST API, with the OpenAPI description.</p></li>
<li class="card"><a href="/admin">Admin panel</a><p>Services, working hours, bookings and settings.</p></li>
</ul>
<h2>Add the widget to your site</h2>
<pre><code>${escapeHtml(`<script src="${publicUrl}/svc-widget.min.js" data-slug="your-workspace" async></script>`)}</code></pre>
<footer>svc serves this page, the API and the widget from one binary.</footer>
</main>`,
    });

  return new Elysia({ name: 'pages' })
    .use(accessDeclarations)
    .get('/', () => new Response(welcome(), headers()), { openAccess: openRoute(), detail: { hide: true } })
    .get(
      '/book/:slug',
      async ({ params }) => {
        const workspace = await deps.storage.getWorkspaceBySlug(params.slug);
        if (!workspace) {
          return new Response(
            page({
              title: 'Booking page not found',
              body: `<main class="wrap narrow">
<h1>This booking page does not exist</h1>
<p class="lead">There is no workspace called “${escapeHtml(params.slug)}”. Please check the link you were given.</p>
<p><a href="/">Go to the start page</a></p>
</main>`,
            }),
            headers(404),
          );
        }
        const name = escapeHtml(workspace.name);
        return new Response(
          page({
            title: workspace.name,
            lang: workspace.language,
            body: `<main class="wrap narrow">
<header class="booking-head"><h1>${name}</h1></header>
<script src="${assetUrl('/svc-widget.min.js')}" data-slug="${escapeHtml(workspace.slug)}" data-position="inline" async></script>
</main>`,
          }),
          headers(),
        );
      },
      { openAccess: openRoute(), detail: { hide: true } },
    );
}
