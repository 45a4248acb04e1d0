import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';

/** v1 routes of bookings and their lifecycle. */
export function bookingRoutes(_deps: AppDeps) {
  return new Elysia({ name: 'bookings', prefix: '/workspaces' });
}
