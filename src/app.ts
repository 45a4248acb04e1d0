import { Elysia, type AnyElysia } from 'elysia';
import type { AppDeps } from './platform/app-deps.ts';
import type { CredentialResolvers } from './platform/access/credentials.ts';
import { accessDeclarations } from './platform/access/macro.ts';
import { accessSteps } from './platform/access/plugin.ts';
import { openRoute } from './platform/access/policy.ts';
import { routableUrl } from './platform/access/request-target.ts';
import { bodyLimitPlugin } from './platform/http/body-limit.ts';
import { peerAddressOf, withPeerAddress } from './platform/http/client-ip.ts';
import { errorsPlugin } from './platform/http/errors-plugin.ts';
import { requestLogPlugin } from './platform/http/request-log.ts';
import { presentsMetricsToken } from './platform/access/metrics-token.ts';
import { createMetrics } from './platform/metrics.ts';
import { buildOpenApiDocument, type OpenApiDocument } from './platform/openapi/document.ts';
import { docsPageResponse } from './platform/openapi/docs-page.ts';
import { compressedJsonResponse, type CompressedJson } from './platform/openapi/compressed.ts';
import { AppError, errorBody } from './core/errors.ts';
import { bookingRoutes } from './features/bookings/index.ts';
import { calendarRoutes, oauthCallbackRoutes } from './features/calendars/index.ts';
import { availabilityRoutes } from './features/scheduling/index.ts';
import { hoursRoutes } from './features/scheduling/index.ts';
import { serviceRoutes } from './features/services/index.ts';
import { workspaceRoutes } from './features/workspaces/index.ts';
import { webhookRoutes } from './features/webhooks/index.ts';
import { DELIVERY_TIMEOUT_MS } from './features/webhooks/index.ts';
import { WEBHOOK_EVENTS } from './features/webhooks/index.ts';
import { paymentRoutes, refundRoutes } from './features/payments/index.ts';
import { pageRoutes } from './features/pages/index.ts';
import { manageRoutes } from './features/manage/index.ts';
import { waitlistLinkRoutes, waitlistRoutes } from './features/waitlist/index.ts';
import { calendarFeedDocumentRoutes, calendarFeedRoutes } from './features/calendar-feed/index.ts';
import { webAssetRoutes } from './platform/web-assets/routes.ts';
import { brandStylesheetRoutes } from './platform/pages/brand.ts';
import { panelAdminRoutes } from './features/panel/index.ts';
import { panelPages } from './features/panel/index.ts';
import { panelRoutes } from './features/panel/index.ts';

export const API_PREFIX = '/api/v1';

/** How long /readyz waits for the database before it answers 503, ms (docs/contract/operations.md §8). */
export const READY_TIMEOUT_MS = 2000;
const READY_RETRY_AFTER_SECONDS = 5;

/** Pings the database: 'ready' when it answered within `ms`, else 'timeout', or the error's message. */
async function pingWithin(deps: AppDeps, ms: number): Promise<'ready' | 'timeout' | string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    return await Promise.race([
      deps.storage.ping().then(
        () => 'ready' as const,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      expired,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A path no route declares still counts against the v1 limit under the v1 prefix (docs/contract/limits.md). */
const undeclared = (path: string) => (path.startsWith(`${API_PREFIX}/`) ? openRoute('v1') : openRoute());

export interface AppOptions {
  /** how panel session tokens and host credentials are looked up; default credentialResolvers(deps) */
  credentials?: CredentialResolvers;
  /** whether the server is shutting down: /readyz then answers 503, so a load balancer sends no new work */
  draining?: () => boolean;
}

/** Builds the whole HTTP surface from its dependencies; nothing here opens a database or a port. */
export function createApp(deps: AppDeps, options: AppOptions = {}) {
  const api = new Elysia({ name: 'api-v1', prefix: API_PREFIX })
    .use(workspaceRoutes(deps))
    .use(serviceRoutes(deps))
    .use(calendarFeedRoutes(deps))
    .use(calendarRoutes(deps))
    .use(hoursRoutes(deps))
    .use(availabilityRoutes(deps))
    .use(bookingRoutes(deps))
    .use(waitlistRoutes(deps))
    .use(refundRoutes(deps))
    .use(webhookRoutes(deps))
    .use(panelAdminRoutes(deps));

  const metrics = deps.metrics ?? createMetrics();
  const metricsToken = deps.config.SVC_METRICS_TOKEN;
  let openApiDocument: OpenApiDocument | undefined;
  let openApiJson: CompressedJson | undefined;
  const access = accessSteps(deps, { app: () => app, unmatched: undeclared, resolvers: options.credentials });
  // 'typebox' validates first and then drops unknown properties; the default mirror would turn a wrong-typed
  // field into an empty value before validation and accept it.
  const app: AnyElysia = new Elysia({ name: 'svc', normalize: 'typebox' })
    // Elysia reads the path from a fixed offset of the URL: a request it would misread (a Host of under four
    // characters, or none) is handled again under a URL it reads right (src/platform/access/request-target.ts).
    .onRequest(({ request }) => {
      const url = routableUrl(request.url);
      if (url === null) return;
      const { method, headers, body, signal } = request;
      return app.handle(withPeerAddress(new Request(url, { method, headers, body, signal }), peerAddressOf(request)));
    })
    .use(requestLogPlugin(deps.logger, metrics))
    .use(errorsPlugin(deps.logger))
    .use(access.routes)
    .use(accessDeclarations)
    // Before the JSON body parser: a payment provider's webhook is verified over the raw bytes it signed.
    .use(paymentRoutes(deps))
    // An unknown path under the v1 prefix is 404, counted against the v1 limit like any v1 request; its body is
    // never read.
    .all(
      `${API_PREFIX}/*`,
      () => {
        throw new AppError('NOT_FOUND', 'route not found');
      },
      { parse: 'none', openAccess: openRoute('v1'), detail: { hide: true } },
    )
    // Every route from here on reads a body only once the access step has passed.
    .use(access.beforeBody)
    .use(bodyLimitPlugin)
    .get('/healthz', () => ({ success: true, status: 'ok' }), { openAccess: openRoute(), detail: { hide: true } })
    .get(
      '/readyz',
      async ({ set }) => {
        if (options.draining?.()) {
          set.status = 503;
          set.headers['retry-after'] = String(READY_RETRY_AFTER_SECONDS);
          return errorBody(new AppError('UNAVAILABLE', 'svc is shutting down'));
        }
        const outcome = await pingWithin(deps, READY_TIMEOUT_MS);
        if (outcome === 'ready') return { success: true, status: 'ready' };
        deps.logger.warn('readiness check failed', { reason: outcome });
        const error = new AppError('UNAVAILABLE', outcome === 'timeout' ? 'the database did not answer in time' : 'the database is not available');
        set.status = error.status;
        set.headers['retry-after'] = String(READY_RETRY_AFTER_SECONDS);
        return errorBody(error);
      },
      { openAccess: openRoute(), detail: { hide: true } },
    )
    // Without SVC_METRICS_TOKEN the route is not declared at all: /metrics is 404 like any unknown path.
    .use((plugin) =>
      metricsToken === undefined
        ? plugin
        : plugin.get(
            '/metrics',
            async ({ request }) => {
              if (!presentsMetricsToken(request.headers.get('authorization'), metricsToken)) {
                throw new AppError('UNAUTHORIZED', 'missing or wrong metrics token (Authorization: Bearer …)', undefined, {
                  'www-authenticate': 'Bearer realm="svc metrics"',
                });
              }
              const text = await metrics.scrape(() => deps.storage.operationsSnapshot(), deps.clock.now(), READY_TIMEOUT_MS);
              return new Response(text, { headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' } });
            },
            { openAccess: openRoute(), detail: { hide: true } },
          ),
    )
    .use(api)
    .use(panelRoutes(deps))
    .use(panelPages(deps))
    .use(webAssetRoutes())
    .use(brandStylesheetRoutes())
    .use(pageRoutes(deps))
    .use(manageRoutes(deps))
    .use(waitlistLinkRoutes(deps))
    .use(calendarFeedDocumentRoutes(deps))
    .use(oauthCallbackRoutes(deps))
    .get(
      `${API_PREFIX}/openapi.json`,
      ({ request }) => {
        openApiDocument ??= buildOpenApiDocument(app, API_PREFIX, {
          publicUrl: deps.config.SVC_PUBLIC_URL,
          rateLimit: deps.config.SVC_RATE_LIMIT,
          webhookEvents: WEBHOOK_EVENTS,
          webhookTimeoutMs: DELIVERY_TIMEOUT_MS,
        });
        openApiJson ??= { plain: JSON.stringify(openApiDocument) };
        return compressedJsonResponse(request, openApiJson);
      },
      { openAccess: openRoute('v1'), detail: { hide: true } },
    )
    .get(`${API_PREFIX}/docs`, () => docsPageResponse(API_PREFIX), {
      openAccess: openRoute('v1'),
      detail: { hide: true },
    });
  access.preflights(app);
  return app;
}

export type App = AnyElysia;

/**
 * The server's `fetch` for the app (src/runtime `serve`): hands the socket's peer address in with each request,
 * so that keyless clients are told apart (docs/contract/limits.md).
 */
export function serveFetch(app: App) {
  return (request: Request, peerAddress: string | undefined) => app.handle(withPeerAddress(request, peerAddress));
}
