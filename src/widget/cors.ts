import { Elysia } from 'elysia';
import { API_KEY_HEADER } from '../auth/api-key.ts';
import type { AppDeps } from '../deps.ts';
import { isWidgetOriginAllowed } from './domains.ts';

/**
 * CORS for the widget's public routes only (decisions section 7). Keyed routes get no CORS headers at all, so
 * a browser can never call them with an API key. We do not use @elysiajs/cors: its origin check is
 * synchronous (ours reads the workspace's domains) and it sets headers on every route.
 */

interface PublicRoute {
  method: string;
  pattern: RegExp;
  /** any origin may read it (the widget config); else only the workspace's allowed domains */
  anyOrigin: boolean;
}

const PUBLIC_ROUTES: PublicRoute[] = [
  { method: 'GET', pattern: /^\/api\/v1\/workspaces\/([^/]+)\/config$/, anyOrigin: true },
  { method: 'GET', pattern: /^\/api\/v1\/workspaces\/([^/]+)\/availability(?:\/days)?$/, anyOrigin: false },
  { method: 'POST', pattern: /^\/api\/v1\/workspaces\/([^/]+)\/bookings$/, anyOrigin: false },
];

const EXPOSED_HEADERS = 'x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after, x-request-id';
const PREFLIGHT_MAX_AGE_SECONDS = 600;

function matchPublicRoute(method: string, path: string): { route: PublicRoute; slug: string } | null {
  for (const route of PUBLIC_ROUTES) {
    const match = route.method === method ? route.pattern.exec(path) : null;
    if (match) return { route, slug: decodeURIComponent(match[1]!) };
  }
  return null;
}

/** Whether a request may be made without an API key (the widget's routes). */
export function isPublicRequest(method: string, path: string): boolean {
  return matchPublicRoute(method, path) !== null;
}

async function originAllowed(deps: AppDeps, route: PublicRoute, slug: string, origin: string): Promise<boolean> {
  if (route.anyOrigin) return true;
  const workspace = await deps.storage.getWorkspaceBySlug(slug);
  if (!workspace) return false;
  return isWidgetOriginAllowed(origin, workspace, deps.config.SVC_PUBLIC_URL);
}

export function corsPlugin(deps: AppDeps) {
  return new Elysia({ name: 'widget-cors' }).onRequest(async ({ request, set }) => {
    const origin = request.headers.get('origin');
    if (!origin) return;
    const path = new URL(request.url).pathname;
    const preflight = request.method === 'OPTIONS';
    const method = preflight ? (request.headers.get('access-control-request-method') ?? '').toUpperCase() : request.method;
    const matched = matchPublicRoute(method, path);
    if (!matched) return;
    // A keyed call of a public route (e.g. a backend booking with its key) is not a widget call.
    if (!preflight && request.headers.get(API_KEY_HEADER)) return;
    const allowed = await originAllowed(deps, matched.route, matched.slug, origin);
    if (preflight) {
      const headers: Record<string, string> = { vary: 'Origin' };
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
    set.headers.vary = 'Origin';
    if (allowed) {
      set.headers['access-control-allow-origin'] = origin;
      set.headers['access-control-expose-headers'] = EXPOSED_HEADERS;
    }
  });
}
