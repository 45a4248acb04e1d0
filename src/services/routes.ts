import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';

/** v1 routes of services, providers and their links. */
export function serviceRoutes(_deps: AppDeps) {
  return new Elysia({ name: 'services', prefix: '/workspaces' });
}
