import { Elysia, type AnyElysia } from 'elysia';
import type { AppDeps } from './deps.ts';
import { authGuardPlugin } from './auth/guard.ts';
import { bodyLimitPlugin } from './http/body-limit.ts';
import { errorsPlugin } from './http/errors-plugin.ts';
import { rateLimitPlugin, type RateLimitRule } from './http/rate-limit.ts';
import { requestLogPlugin } from './http/request-log.ts';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi/document.ts';
import { DOCS_PAGE } from './openapi/docs-page.ts';
import { corsPlugin } from './widget/cors.ts';
import { AppError, errorBody } from './shared/errors.ts';
import { bookingRoutes } from './bookings/routes.ts';
import { availabilityRoutes } from './scheduling/availability-routes.ts';
import { hoursRoutes } from './scheduling/hours-routes.ts';
import { serviceRoutes } from './services/routes.ts';
import { workspaceRoutes } from './workspaces/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { paymentRoutes } from './payments/routes.ts';
import { panelAdminRoutes } from './panel/admin-routes.ts';
import { panelRoutes } from './panel/routes.ts';
import { panelRateLimits } from './panel/rate-limits.ts';

export const API_PREFIX = '/api/v1';

/** Decisions section 6: 120 requests per minute (SVC_RATE_LIMIT) per API key, per client IP without one. */
const v1RateLimit = (limit: number): RateLimitRule => ({ name: 'v1', limit, perKey: true, applies: (_method, path) => path.startsWith(`${API_PREFIX}/`) });

/** Builds the whole HTTP surface from its dependencies; nothing here opens a database or a port. */
export function createApp(deps: AppDeps) {
  const api = new Elysia({ name: 'api-v1', prefix: API_PREFIX })
    .use(workspaceRoutes(deps))
    .use(serviceRoutes(deps))
    .use(hoursRoutes(deps))
    .use(availabilityRoutes(deps))
    .use(bookingRoutes(deps))
    .use(webhookRoutes(deps))
    .use(panelAdminRoutes(deps));

  let openApiDocument: OpenApiDocument | undefined;
  // 'typebox' validates first and then drops unknown properties; the default mirror would turn a wrong-typed
  // field into an empty value before validation and accept it.
  const app: AnyElysia = new Elysia({ name: 'svc', normalize: 'typebox' })
    .use(requestLogPlugin(deps.logger))
    .use(errorsPlugin(deps.logger))
    .use(corsPlugin(deps))
    .use(rateLimitPlugin(deps, [v1RateLimit(deps.config.SVC_RATE_LIMIT), ...panelRateLimits]))
    .use(authGuardPlugin(deps))
    // Before the JSON body parser: a payment provider's webhook is verified over the raw bytes it signed.
    .use(paymentRoutes(deps))
    .use(bodyLimitPlugin)
    .get('/healthz', () => ({ success: true, status: 'ok' }), { detail: { hide: true } })
    .get('/readyz', async ({ set }) => {
      try {
        await deps.storage.ping();
        return { success: true, status: 'ready' };
      } catch (error) {
        deps.logger.warn('readiness check failed', { error: error instanceof Error ? error.message : String(error) });
        set.status = 503;
        return errorBody(new AppError('INTERNAL_ERROR', 'database unreachable'));
      }
    }, { detail: { hide: true } })
    .use(api)
    .use(panelRoutes(deps))
    .get(`${API_PREFIX}/openapi.json`, (): OpenApiDocument => (openApiDocument ??= buildOpenApiDocument(app, deps.config.SVC_PUBLIC_URL)), { detail: { hide: true } })
    .get(`${API_PREFIX}/docs`, () => new Response(DOCS_PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } }), { detail: { hide: true } });
  return app;
}

export type App = AnyElysia;
