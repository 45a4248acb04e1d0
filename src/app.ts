import { Elysia } from 'elysia';
import type { AppDeps } from './deps.ts';
import { bodyLimitPlugin } from './http/body-limit.ts';
import { errorsPlugin } from './http/errors-plugin.ts';
import { requestLogPlugin } from './http/request-log.ts';
import { AppError, errorBody } from './shared/errors.ts';
import { bookingRoutes } from './bookings/routes.ts';
import { availabilityRoutes } from './scheduling/availability-routes.ts';
import { hoursRoutes } from './scheduling/hours-routes.ts';
import { serviceRoutes } from './services/routes.ts';
import { workspaceRoutes } from './workspaces/routes.ts';

export const API_PREFIX = '/api/v1';

/** Builds the whole HTTP surface from its dependencies; nothing here opens a database or a port. */
export function createApp(deps: AppDeps) {
  const api = new Elysia({ name: 'api-v1', prefix: API_PREFIX })
    .use(workspaceRoutes(deps))
    .use(serviceRoutes(deps))
    .use(hoursRoutes(deps))
    .use(availabilityRoutes(deps))
    .use(bookingRoutes(deps));

  return new Elysia({ name: 'svc' })
    .use(requestLogPlugin(deps.logger))
    .use(errorsPlugin(deps.logger))
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
    .use(api);
}

export type App = ReturnType<typeof createApp>;
