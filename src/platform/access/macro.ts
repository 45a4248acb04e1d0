import { Elysia } from 'elysia';
import { AppError } from '../../core/errors.ts';
import { securityRequirements, type OpenPolicy, type WorkspacePolicy } from './policy.ts';
import type { Principal } from './principal.ts';
import { POLICY_HOOK } from './route-table.ts';

const RESOLVED = Symbol('svc.access.resolved');

interface Resolved {
  policy: WorkspacePolicy;
  principal: Principal;
}

/** Records the principal the access step resolved on the request's context (src/platform/access/plugin.ts). */
export function recordPrincipal(context: object, policy: WorkspacePolicy, principal: Principal) {
  (context as { [RESOLVED]?: Resolved })[RESOLVED] = { policy, principal };
}

function principalFor(context: object, policy: WorkspacePolicy): Principal {
  const resolved = (context as { [RESOLVED]?: Resolved })[RESOLVED];
  // Fail closed: a handler only runs with a principal resolved for its own declaration.
  if (!resolved || resolved.policy !== policy) throw new AppError('NOT_FOUND', 'route not found');
  return resolved.principal;
}

/**
 * The route options `access` (a workspace route: its handler receives `principal`) and `openAccess` (a route
 * of no workspace). Route plugins `.use()` this; the app mounts `accessPlugin` (src/platform/access/plugin.ts), which
 * resolves the declared policy once per request before the body is read.
 */
export const accessDeclarations = new Elysia({ name: 'access-declarations' }).macro({
  access: (policy: WorkspacePolicy) => ({
    detail: { security: securityRequirements(policy) },
    [POLICY_HOOK]: policy,
    resolve: (context: object) => ({ principal: principalFor(context, policy) }),
  }),
  openAccess: (policy: OpenPolicy) => ({
    detail: { security: securityRequirements(policy) },
    [POLICY_HOOK]: policy,
  }),
});
