import { Elysia, type AnyElysia } from 'elysia';
import { AppError } from '../../core/errors.ts';
import { securityRequirements, type AccessPolicy, type OpenPolicy, type WorkspacePolicy } from './policy.ts';
import type { Principal } from './principal.ts';

/** The hook property under which a route's declared policy is kept (set by the `access` macros). */
export const POLICY_HOOK = 'svcAccessPolicy';

/** The principal the access step resolved for a request, with the declaration it was resolved for. */
const resolvedFor = new WeakMap<Request, { policy: WorkspacePolicy; principal: Principal }>();

/** Records the principal the access step resolved for the request (src/platform/access/plugin.ts). */
export function recordPrincipal(request: Request, policy: WorkspacePolicy, principal: Principal) {
  resolvedFor.set(request, { policy, principal });
}

function principalFor(request: Request, policy: WorkspacePolicy): Principal {
  const resolved = resolvedFor.get(request);
  // Fail closed: a handler only runs with a principal resolved for its own declaration.
  if (!resolved || resolved.policy !== policy) throw new AppError('NOT_FOUND', 'route not found');
  return resolved.principal;
}

/**
 * The route options `access` (a workspace route: its handler receives `principal`) and `openAccess` (a route
 * of no workspace). Route plugins `.use()` this; the app mounts the access step (src/platform/access/plugin.ts),
 * which Elysia runs on the route it matched, from this declaration, before the body is read.
 */
export const accessDeclarations = new Elysia({ name: 'access-declarations' }).macro({
  access: (policy: WorkspacePolicy) => ({
    detail: { security: securityRequirements(policy) },
    [POLICY_HOOK]: policy,
    resolve: ({ request }: { request: Request }) => ({ principal: principalFor(request, policy) }),
  }),
  openAccess: (policy: OpenPolicy) => ({
    detail: { security: securityRequirements(policy) },
    [POLICY_HOOK]: policy,
  }),
});

/**
 * The declarations of an app's routes, by the method and path Elysia registered them under: what the access
 * step reads for the route Elysia matched (its `route`). No matching happens here; routes added after the first
 * request (tests add some) are read again.
 */
export function routeDeclarations(app: () => AnyElysia) {
  let byRoute = new Map<string, Map<string, AccessPolicy>>();
  let builtFrom = -1;
  const current = () => {
    const routes = app().routes as { method: string; path: string; hooks: Record<string, unknown> }[];
    if (builtFrom !== routes.length) {
      byRoute = new Map();
      for (const route of routes) {
        const policy = route.hooks[POLICY_HOOK] as AccessPolicy | undefined;
        if (!policy) continue;
        const byMethod = byRoute.get(route.path) ?? new Map<string, AccessPolicy>();
        byMethod.set(route.method, policy);
        byRoute.set(route.path, byMethod);
      }
      builtFrom = routes.length;
    }
    return byRoute;
  };
  return {
    /** The policy of the route declared at `path` that serves `method` (HEAD is served by the GET route). */
    policyOf(method: string, path: string): AccessPolicy | undefined {
      const byMethod = current().get(path);
      return byMethod?.get(method) ?? (method === 'HEAD' ? byMethod?.get('GET') : undefined) ?? byMethod?.get('ALL');
    },
    /** Every declared path with its policies by method. */
    byPath: (): ReadonlyMap<string, ReadonlyMap<string, AccessPolicy>> => current(),
  };
}
