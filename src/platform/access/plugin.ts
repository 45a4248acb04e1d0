import { Elysia, type AnyElysia } from 'elysia';
import type { AppDeps } from '../app-deps.ts';
import { clientAddress } from '../http/client-ip.ts';
import { rateLimitedError, rateLimitHeaders, rateLimitRules, RATE_LIMIT_WINDOW_MS } from '../http/rate-limit.ts';
import { AppError, validation } from '../../core/errors.ts';
import { browserMayRead, corsHeaders, preflightResponse } from './cors.ts';
import { credentialResolvers, type CredentialResolvers } from './credentials.ts';
import { recordPrincipal, routeDeclarations } from './macro.ts';
import { openRoute, type OpenPolicy, type RateLimitRuleName } from './policy.ts';
import type { Principal } from './principal.ts';
import { requestTarget } from './request-target.ts';
import { resolvePrincipal } from './resolve.ts';

export interface AccessOptions {
  /** the app whose routes' declarations are enforced */
  app: () => AnyElysia;
  /** the policy of a path no route declares (an unknown route still counts against the v1 limit under /api/v1) */
  unmatched: (path: string) => OpenPolicy;
  /** default: credentialResolvers(deps) */
  resolvers?: CredentialResolvers;
}

/** What the access step reads of the context of a request Elysia has routed. */
interface RoutedContext {
  request: Request;
  /** the matched route's path as declared (`/api/v1/workspaces/:slug`), from Elysia */
  route: string;
  /** the route's path parameters, decoded by Elysia; null when a segment is not valid percent-encoding */
  params: Record<string, string | null | undefined>;
  set: { headers: Record<string, string | number> };
}

const routeNotFound = () => new AppError('NOT_FOUND', 'route not found');

/**
 * The one access step of every request, run by Elysia on the route it matched, from that route's own
 * declaration (src/platform/access/macro.ts): resolves the principal (unknown slug → 404, then credential →
 * 401/403), counts the request against its rate-limit bucket (the key or session when it authenticates, else
 * the client address), and answers CORS from the same declaration. Handlers receive the principal through the
 * `access` macro.
 *
 * It runs as early as Elysia's lifecycle allows, before validation and before the body is read: `routes` (a
 * global transform) serves every route mounted after it; `beforeBody` (a global parse hook) must be mounted
 * after the routes that read their raw body (`parse: 'none'`, which a global parse hook would break) and
 * before the JSON body parser, so that a route with a body is checked before that body is read.
 * `preflights(app)` adds, once every route is mounted, the OPTIONS route of each path that answers CORS
 * preflights from the declaration of the method the preflight asks for.
 */
export function accessSteps(deps: AppDeps, options: AccessOptions) {
  const rules = rateLimitRules(deps.config);
  const resolvers = options.resolvers ?? credentialResolvers(deps);
  const declarations = routeDeclarations(options.app);

  /** Counts one request; throws 429 past the limit, else puts the rate-limit headers on the answer. */
  async function count(rule: RateLimitRuleName | null, identity: string, headers: Record<string, string | number>) {
    if (!rule) return;
    const now = deps.clock.now();
    const decision = await deps.rateLimiter.hit(`${rule}:${identity}`, rules[rule].limit, RATE_LIMIT_WINDOW_MS, now);
    if (!decision.allowed) throw rateLimitedError(decision, now);
    Object.assign(headers, rateLimitHeaders(decision));
  }

  const addressOf = (request: Request) => `ip:${clientAddress(request, deps.config.SVC_TRUST_PROXY)}`;

  /** Requests whose access step ran: the parse hook runs it for a route with a body, the transform hook for the rest. */
  const checked = new WeakSet<Request>();

  async function step(context: RoutedContext) {
    const { request, set } = context;
    if (checked.has(request)) return;
    checked.add(request);
    const headers = set.headers;
    const addressIdentity = addressOf(request);
    // A route that declares nothing (tests add some) is open, as an unknown path would be.
    const policy = declarations.policyOf(request.method, context.route) ?? options.unmatched(requestTarget(request.url).path);
    if (policy.scope === 'open') return count(policy.rateLimit, addressIdentity, headers);

    const origin = request.headers.get('origin');
    let principal: Principal;
    try {
      principal = await resolvePrincipal(
        deps,
        resolvers,
        policy,
        {
          method: request.method,
          slug: slugOf(context),
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
      Object.assign(headers, corsHeaders(origin, browserMayRead(policy, principal.workspace, origin, deps.config.SVC_PUBLIC_URL)));
    }
    recordPrincipal(request, policy, principal);
  }

  /**
   * The answer to `OPTIONS <path>` of a path some route declares: counted as the route the preflight asks for
   * (`Access-Control-Request-Method`) would be, and 204 with CORS headers when that route is one a browser may
   * call; else 404, as for any other OPTIONS request.
   */
  async function preflight(context: RoutedContext) {
    const { request, set } = context;
    const headers = set.headers;
    const method = (request.headers.get('access-control-request-method') ?? '').toUpperCase();
    // The OPTIONS route is this one: a preflight of a preflight asks for no declared route.
    const policy = method === 'OPTIONS' ? undefined : declarations.policyOf(method, context.route);
    await count((policy ?? options.unmatched(requestTarget(request.url).path)).rateLimit, addressOf(request), headers);
    const origin = request.headers.get('origin');
    if (!origin || policy?.scope !== 'workspace' || policy.browsers === 'none') throw routeNotFound();
    const slug = context.params.slug;
    const workspace = typeof slug === 'string' ? await deps.storage.getWorkspaceBySlug(slug) : null;
    return preflightResponse(origin, method, browserMayRead(policy, workspace, origin, deps.config.SVC_PUBLIC_URL), headers as Record<string, string>);
  }

  return {
    // The hooks name the context properties they read: Elysia provides only those (`route` among them).
    routes: new Elysia({ name: 'access' }).onTransform({ as: 'global' }, ({ request, route, params, set }) => step({ request, route, params, set })),
    beforeBody: new Elysia({ name: 'access-before-body' }).onParse({ as: 'global' }, async ({ request, route, params, set }) => {
      await step({ request, route, params, set });
    }),
    /** Adds the OPTIONS route of every declared path that has none (call after every route is mounted). */
    preflights(app: AnyElysia) {
      for (const [path, byMethod] of declarations.byPath()) {
        if (byMethod.has('OPTIONS') || path.includes('*')) continue;
        app.options(path, ({ request, route, params, set }) => preflight({ request, route, params, set }), {
          openAccess: openRoute(),
          detail: { hide: true },
        });
      }
    },
  };
}

/** The decoded `:slug`; 400 when a path parameter of the route is not valid percent-encoding. */
function slugOf(context: RoutedContext): string | null {
  const params = context.params ?? {};
  for (const [name, value] of Object.entries(params)) {
    if (value === null) throw validation(`path segment ${rawSegment(context, name)} is not valid percent-encoding`);
  }
  return params.slug ?? null;
}

/** The raw segment of the request path where the route declares `:name`. */
function rawSegment(context: RoutedContext, name: string): string {
  const index = context.route.split('/').indexOf(`:${name}`);
  return requestTarget(context.request.url).path.split('/')[index] ?? '';
}
