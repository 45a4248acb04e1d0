import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';

/** v1 routes of working hours and availability. */
export function schedulingRoutes(_deps: AppDeps) {
  return new Elysia({ name: 'scheduling', prefix: '/workspaces' });
}
