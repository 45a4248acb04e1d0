import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';

/** Public v1 routes: available slots and days. */
export function availabilityRoutes(_deps: AppDeps) {
  return new Elysia({ name: 'availability', prefix: '/workspaces' });
}
