import { Elysia, t } from 'elysia';
import { translator } from '../../core/i18n/catalogue.ts';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { openRoute } from '../../platform/access/policy.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { html } from '../../platform/pages/html.ts';
import { layout } from '../../platform/pages/layout.ts';
import { pageResponse } from '../../platform/pages/response.ts';
import { completeOAuthConnection, type ConsentOutcome } from './oauth.ts';
import { syncConnection } from './service.ts';

/*
 * `GET /oauth/{kind}/callback`: where Google's and Microsoft's consent ends (docs/contract/calendars.md §2). It
 * completes the connection and says in words what happened: connected, refused, expired, or failed. The page is in
 * the language the owner's browser asks for first among svc's (English, German), else the workspace's.
 */

/** The first of svc's languages the Accept-Language header names, or null. */
function browserLanguage(header: string | null): string | null {
  for (const part of (header ?? '').split(',')) {
    const tag = part.split(';')[0]!.trim().slice(0, 2).toLowerCase();
    if (tag === 'en' || tag === 'de') return tag;
  }
  return null;
}

const PROVIDER_NAMES = { google: 'Google', microsoft: 'Microsoft' } as const;
const STATUS: Record<ConsentOutcome, number> = { granted: 200, refused: 200, expired: 400, failed: 502 };

export function oauthCallbackRoutes(deps: AppDeps) {
  return new Elysia({ name: 'calendar-oauth-callback' }).use(accessDeclarations).get(
    '/oauth/:kind/callback',
    async ({ params, query, request }) => {
      const kind = params.kind;
      const { outcome, workspace, connection } = await completeOAuthConnection(deps, kind, query, (pending) => syncConnection(deps, pending));
      const language = browserLanguage(request.headers.get('accept-language')) ?? workspace?.language ?? 'en';
      const words = translator(language, 'pages.calendarConsent');
      const provider = PROVIDER_NAMES[kind];
      const [title, lead, next] =
        outcome === 'granted'
          ? [words('grantedTitle'), words('grantedLead', { provider, account: connection?.account ?? connection?.name ?? '' }), words('grantedNext')]
          : outcome === 'refused'
            ? [words('refusedTitle'), words('refusedLead', { provider }), words('again')]
            : outcome === 'expired'
              ? [words('expiredTitle'), words('expiredLead'), words('again')]
              : [words('failedTitle'), words('failedLead', { provider }), words('again')];
      const body = html`<main class="wrap narrow" data-outcome="${outcome}"><h1>${title}</h1><p class="lead">${lead}</p>${
        outcome === 'failed' && connection?.lastError ? html`<p>${connection.lastError}</p>` : ''
      }<p>${next}</p></main>`;
      // The URL carried a one-time code: it is sent nowhere else, and the page is not kept.
      return pageResponse(layout({ title, lang: language, noindex: true, body, brandColor: workspace?.primaryColor }), {
        status: STATUS[outcome],
        cache: 'no-store',
        referrer: 'no-referrer',
      });
    },
    {
      params: t.Object({ kind: t.Union([t.Literal('google'), t.Literal('microsoft')]) }),
      query: t.Object({
        state: t.Optional(t.String({ maxLength: 512 })),
        code: t.Optional(t.String({ maxLength: 4096 })),
        error: t.Optional(t.String({ maxLength: 256 })),
        error_description: t.Optional(t.String({ maxLength: 2048 })),
        scope: t.Optional(t.String({ maxLength: 2048 })),
      }),
      openAccess: openRoute('v1'),
      detail: { hide: true },
    },
  );
}
