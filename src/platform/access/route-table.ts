import type { AccessPolicy } from './policy.ts';
import { decodeSegment } from './request-target.ts';

/** The hook property under which a route's declared policy is kept (set by the `access` macros). */
export const POLICY_HOOK = 'svcAccessPolicy';

interface DeclaredRoute {
  method: string;
  path: string;
  hooks: Record<string, unknown>;
}

interface CompiledRoute {
  segments: string[];
  /** static segments: a route with more of them wins, as in Elysia's router (`/checkout/stripe/done` over `/checkout/:id/done`) */
  staticCount: number;
  policy: AccessPolicy;
}

export type RouteMatch =
  | { policy: AccessPolicy; params: Record<string, string> }
  /** a route matched but a path segment is not valid percent-encoding */
  | { policy: AccessPolicy; malformed: string };

/**
 * The declared policies of an app's routes, looked up by method and raw path before Elysia routes the request
 * (so that a credential is checked before the body is read). It mirrors Elysia's matching: one trailing slash
 * is ignored, HEAD uses the GET route, `:name` matches one non-empty segment. A route this table cannot find
 * has no principal, and its handler refuses to run (src/platform/access/macro.ts).
 */
export class RouteTable {
  private readonly byMethod = new Map<string, CompiledRoute[]>();
  readonly size: number;

  constructor(routes: readonly DeclaredRoute[]) {
    let size = 0;
    for (const route of routes) {
      const policy = route.hooks[POLICY_HOOK] as AccessPolicy | undefined;
      if (!policy) continue;
      const segments = route.path.split('/').slice(1);
      const compiled = { segments, staticCount: segments.filter((segment) => !segment.startsWith(':')).length, policy };
      const list = this.byMethod.get(route.method) ?? [];
      list.push(compiled);
      list.sort((a, b) => b.staticCount - a.staticCount);
      this.byMethod.set(route.method, list);
      size++;
    }
    this.size = size;
  }

  match(method: string, rawPath: string): RouteMatch | null {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    const segments = path.split('/').slice(1);
    const candidates = [
      ...(this.byMethod.get(method) ?? []),
      ...(method === 'HEAD' ? (this.byMethod.get('GET') ?? []) : []),
      ...(this.byMethod.get('ALL') ?? []),
    ];
    for (const route of candidates) {
      if (route.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let matched = true;
      let malformed: string | null = null;
      for (let i = 0; i < segments.length && matched; i++) {
        const expected = route.segments[i]!;
        const actual = segments[i]!;
        if (expected.startsWith(':')) {
          if (actual === '') matched = false;
          const decoded = decodeSegment(actual);
          if (decoded === null) malformed ??= actual;
          else params[expected.slice(1)] = decoded;
        } else if (expected !== actual) {
          matched = false;
        }
      }
      if (!matched) continue;
      return malformed === null ? { policy: route.policy, params } : { policy: route.policy, malformed };
    }
    return null;
  }
}
