import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { unauthorized } from '../shared/errors.ts';
import { isPublicRequest } from '../widget/cors.ts';
import { API_KEY_HEADER, DEMO_SLUG, findWorkspace, isWorkspaceKey, type Access } from './api-key.ts';

const WORKSPACE_PATH = /^\/api\/v1\/workspaces\/([^/]+)(?:\/|$)/;
const accessByRequest = new WeakMap<Request, Promise<Access>>();

async function decideAccess(deps: AppDeps, request: Request, slug: string): Promise<Access> {
  const workspace = await findWorkspace(deps, slug);
  const presented = request.headers.get(API_KEY_HEADER);
  if (presented) {
    if (await isWorkspaceKey(deps, workspace, presented)) return { workspace, keyed: true };
    throw unauthorized('invalid API key');
  }
  const path = new URL(request.url).pathname;
  if (isPublicRequest(request.method, path)) return { workspace, keyed: false };
  if (workspace.slug === DEMO_SLUG && request.method === 'GET') return { workspace, keyed: false };
  throw unauthorized(`missing API key: send it in the ${API_KEY_HEADER} header`);
}

/** The access decided for this request by the guard (unknown slug → 404, then key → 401), if any. */
export function accessOf(request: Request): Promise<Access> | undefined {
  return accessByRequest.get(request);
}

/**
 * Authenticates every /api/v1/workspaces/{slug}/… request before its body is parsed or validated, so the
 * contract's order holds on every keyed route: unknown slug → 404, then missing or wrong key → 401, and only
 * then 400. Public routes and the demo workspace's reads pass without a key; routes refine from there.
 */
export function authGuardPlugin(deps: AppDeps) {
  return new Elysia({ name: 'auth-guard' }).onRequest(async ({ request }) => {
    if (request.method === 'OPTIONS') return;
    const match = WORKSPACE_PATH.exec(new URL(request.url).pathname);
    if (!match) return;
    const access = decideAccess(deps, request, decodeURIComponent(match[1]!));
    accessByRequest.set(request, access);
    await access;
  });
}
