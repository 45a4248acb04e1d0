import { Elysia, type AnyElysia } from 'elysia';
import type { AppDeps } from '../app-deps.ts';
import { clientAddress } from '../http/client-ip.ts';
import { rateLimitedError, rateLimitHeaders, rateLimitRules, RATE_LIMIT_WINDOW_MS } from '../http/rate-limit.ts';
import { AppError, validation } from '../../core/errors.ts';
import { browserMayRead, corsHeaders, preflightResponse } from './cors.ts';
import { credentialResolvers, type CredentialResolvers } from './credentials.ts';
import { recordPrincipal } from './macro.ts';
import type { OpenPolicy, RateLimitRuleName } from './policy.ts';
import type { Principal } from './principal.ts';
import { requestTarget } from './request-target.ts';
import { resolvePrincipal } from './resolve.ts';
import { RouteTable, type RouteMatch } from './route-table.ts';

export interface AccessOptions {
  /** the app whose routes' declarations are enforced */
  app: () => AnyElysia;
  /** the policy of a path no route declares (an unknown route still counts against the v1 limit under /api/v1) */
  unmatched: (path: string) => OpenPolicy;
  /** default: credentialResolvers(deps) */
  resolvers?: CredentialResolvers;
}

/**
 * The one access step of every request, run before routing and before the body is read: finds the route's
 * declared policy, resolves the principal (unknown slug → 404, then credential → 401/403), counts the request
 * against its rate-limit bucket (the key or session when it authenticates, else the client address), and
 * answers CORS from the same declaration. Handlers receive the principal through the `access` macro.
 */
export function accessPlugin(deps: AppDeps, options: AccessOptions) {
  const rules = rateLimitRules(deps.config);
  const resolvers = options.resolvers ?? credentialResolvers(deps);
  let table: RouteTable | undefined;
  let tableBuiltFrom = -1;
  const routeTable = () => {
    const routes = options.app().routes;
    // Routes added after the first request (tests add some) join the table.
    if (!table || tableBuiltFrom !== routes.length) {
      table = new RouteTable(routes as never);
      tableBuiltFrom = routes.length;
    }
    return table;
  };

  /** Counts one request; throws 429 past the limit, else puts the rate-limit headers on the answer. */
  async function count(rule: RateLimitRuleName | null, identity: string, headers: Record<string, string | number>) {
    if (!rule) return;
    const now = deps.clock.now();
    const decision = await deps.rateLimiter.hit(`${rule}:${identity}`, rules[rule].limit, RATE_LIMIT_WINDOW_MS, now);
    if (!decision.allowed) throw rateLimitedError(decision, now);
    Object.assign(headers, rateLimitHeaders(decision));
  }

  return new Elysia({ name: 'access' }).onRequest(async (context) => {
    const { request, set } = context;
    const headers = set.headers as Record<string, string | number>;
    const { path } = requestTarget(request.url);
    const addressIdentity = `ip:${clientAddress(request, deps.config.SVC_TRUST_PROXY)}`;
    const origin = request.headers.get('origin');

    if (request.method === 'OPTIONS') {
      const method = (request.headers.get('access-control-request-method') ?? '').toUpperCase();
      const matched = routeTable().match(method, path);
      const policy = matched?.policy ?? options.unmatched(path);
      await count(policy.rateLimit, addressIdentity, headers);
      if (!origin || !matched || 'malformed' in matched || policy.scope !== 'workspace' || policy.browsers === 'none') return;
      const workspace = await deps.storage.getWorkspaceBySlug(matched.params.slug ?? '');
      return preflightResponse(
        origin,
        method,
        browserMayRead(policy.browsers, workspace, origin, deps.config.SVC_PUBLIC_URL),
        headers as Record<string, string>,
      );
    }

    const matched = routeTable().match(request.method, path);
    const policy = matched?.policy ?? options.unmatched(path);
    if (policy.scope === 'open') return count(policy.rateLimit, addressIdentity, headers);

    let principal: Principal;
    try {
      principal = await resolvePrincipal(
        deps,
        resolvers,
        policy,
        {
          method: request.method,
          slug: slugOf(matched!),
          headers: request.headers,
          addressIdentity,
          now: deps.clock.now(),
        },
        rules[policy.rateLimit].perCredential,
      );
    } catch (error) {
      // A request that does not authenticate counts against its client address, not the credential it presented.
      await count(policy.rateLimit, addressIdentity, headers);
      if (origin && policy.browsers === 'anyOrigin' && error instanceof AppError) Object.assign(headers, corsHeaders(origin, true));
      throw error;
    }
    await count(policy.rateLimit, principal.rateLimitIdentity, headers);
    if (origin && principal.kind === 'anonymous' && policy.browsers !== 'none') {
      Object.assign(headers, corsHeaders(origin, browserMayRead(policy.browsers, principal.workspace, origin, deps.config.SVC_PUBLIC_URL)));
    }
    recordPrincipal(context, policy, principal);
  });
}

function slugOf(matched: RouteMatch): string | null {
  if ('malformed' in matched) throw validation(`path segment ${matched.malformed} is not valid percent-encoding`);
  return matched.params.slug ?? null;
}
