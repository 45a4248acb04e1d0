import type { App } from '../../src/app.ts';

export interface Operation {
  method: string;
  /** OpenAPI form, relative to /api/v1: /workspaces/{slug}/bookings/{bookingId} */
  path: string;
  operationId: string;
  /** false for routes the widget may call without a key */
  keyed: boolean;
  hasBody: boolean;
  spec: Record<string, any>;
}

export const HIDDEN_V1_PATHS = [
  '/api/v1/openapi.json',
  '/api/v1/docs',
  // the API reference page's assets (docs/decisions/0017)
  '/api/v1/docs/redoc.standalone.js',
  '/api/v1/docs/docs.js',
  '/api/v1/docs/docs.css',
];
/** Routes the access layer adds beside the operations: each path's CORS preflight answer, the 404 of unknown v1 paths. */
const NOT_OPERATIONS = ['OPTIONS', 'ALL'];

/** The v1 routes the app really serves, as `METHOD /path` with OpenAPI-style parameters. */
export function servedRoutes(app: App): string[] {
  return app.routes
    .filter((route) => route.path.startsWith('/api/v1/') && !HIDDEN_V1_PATHS.includes(route.path) && !NOT_OPERATIONS.includes(route.method))
    .map((route) => `${route.method.toUpperCase()} ${route.path.replace(/^\/api\/v1/, '').replace(/:(\w+)/g, '{$1}')}`)
    .sort();
}

/** Every operation of the OpenAPI document. */
export function documentedOperations(document: { paths: Record<string, Record<string, any>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, spec] of Object.entries(item)) {
      const security: unknown[] | undefined = spec.security;
      const keyed = !(Array.isArray(security) && (security.length === 0 || security.some((requirement) => Object.keys(requirement as object).length === 0)));
      operations.push({ method: method.toUpperCase(), path, operationId: spec.operationId, keyed, hasBody: Boolean(spec.requestBody), spec });
    }
  }
  return operations.sort((a, b) => `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`));
}

/** A concrete URL for an operation: the slug given, every other path parameter a placeholder id. */
export function concretePath(operation: Operation, slug: string): string {
  return '/api/v1' + operation.path.replace('{slug}', slug).replace(/\{(\w+)\}/g, (_match, name: string) => `${name}_placeholder`);
}
