import type { WorkspacePolicy } from './policy.ts';
import type { WorkspaceRecord } from '../../ports/storage/index.ts';
import { isWidgetOriginAllowed } from './domains.ts';

/**
 * CORS for the widget's public routes only (docs/contract/widget.md), decided from the route's declared
 * `browsers` (src/platform/access/policy.ts). Keyed routes get no CORS headers at all, so a browser can never call them
 * with an API key. We do not use @elysiajs/cors: its origin check is synchronous (ours reads the workspace's
 * domains) and it sets headers on every route.
 */

const EXPOSED_HEADERS = 'x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after, x-request-id';
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Whether a page at `origin` may read the route's keyless answers; `workspace` null when the slug is unknown.
 * `publicUrl`: svc's own address, whose hosted booking pages are widget pages of every workspace.
 */
export function browserMayRead(policy: WorkspacePolicy, workspace: WorkspaceRecord | null, origin: string, publicUrl: string): boolean {
  if (policy.browsers === 'anyOrigin') return true;
  if (policy.browsers === 'none' || !workspace) return false;
  return workspace.slug === policy.openWorkspace || isWidgetOriginAllowed(origin, workspace, publicUrl);
}

/** The answer to a preflight of a public route: 204, with CORS headers only for an origin that may read it. */
export function preflightResponse(origin: string, method: string, allowed: boolean, extraHeaders: Record<string, string>): Response {
  const headers: Record<string, string> = { ...extraHeaders, vary: 'Origin' };
  if (allowed) {
    Object.assign(headers, {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': `${method}, OPTIONS`,
      // Deliberately not x-svc-api-key: a browser must not send a key.
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    });
  }
  return new Response(null, { status: 204, headers });
}

/** The CORS headers of a keyless answer of a public route. */
export function corsHeaders(origin: string, allowed: boolean): Record<string, string> {
  return allowed ? { vary: 'Origin', 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED_HEADERS } : { vary: 'Origin' };
}
