import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';

/** v1 routes of working hours (workspace and provider schedules). */
export function hoursRoutes(_deps: AppDeps) {
  return new Elysia({ name: 'working-hours', prefix: '/workspaces' });
}
