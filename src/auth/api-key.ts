import type { AppDeps } from '../deps.ts';
import { notFound, unauthorized } from '../shared/errors.ts';
import { constantTimeEqual, sha256Hex } from '../shared/secrets.ts';
import type { WorkspaceRecord } from '../storage/port.ts';
import { accessOf } from './guard.ts';

export const API_KEY_HEADER = 'x-svc-api-key';
export const DEMO_SLUG = 'demo';

export async function findWorkspace(deps: Pick<AppDeps, 'storage'>, slug: string): Promise<WorkspaceRecord> {
  const workspace = await deps.storage.getWorkspaceBySlug(slug);
  if (!workspace) throw notFound(`workspace ${slug}`);
  return workspace;
}

/** True when `presented` is a live API key of this workspace. */
export async function isWorkspaceKey(deps: Pick<AppDeps, 'storage'>, workspace: WorkspaceRecord, presented: string): Promise<boolean> {
  const hash = sha256Hex(presented);
  const key = await deps.storage.findApiKeyByHash(hash);
  return key !== null && key.workspaceId === workspace.id && constantTimeEqual(key.hash, hash);
}

export interface Access {
  workspace: WorkspaceRecord;
  /** true when the request carried a valid API key of the workspace */
  keyed: boolean;
}

/**
 * The workspace of a keyed route. Order of checks (decisions section 2): unknown slug → 404, then a missing
 * or wrong key → 401. `demoKeyless` lets keyless requests through on the demo workspace (decisions section 7).
 */
export async function authorize(deps: Pick<AppDeps, 'storage'>, slug: string, headers: Request | Headers | Record<string, string | undefined>, options: { demoKeyless?: boolean } = {}): Promise<Access> {
  if (headers instanceof Request) {
    // The guard (src/auth/guard.ts) has already decided for this request; reuse it instead of asking again.
    const decided = await accessOf(headers);
    if (decided && decided.workspace.slug === slug && (decided.keyed || (options.demoKeyless && decided.workspace.slug === DEMO_SLUG))) return decided;
    return authorize(deps, slug, headers.headers, options);
  }
  const workspace = await findWorkspace(deps, slug);
  const presented = headers instanceof Headers ? headers.get(API_KEY_HEADER) : headers[API_KEY_HEADER];
  if (presented) {
    if (await isWorkspaceKey(deps, workspace, presented)) return { workspace, keyed: true };
    throw unauthorized('invalid API key');
  }
  if (options.demoKeyless && workspace.slug === DEMO_SLUG) return { workspace, keyed: false };
  throw unauthorized(`missing API key: send it in the ${API_KEY_HEADER} header`);
}

interface AccessContext {
  params: Record<string, string | undefined>;
  request: Request;
}

/**
 * A `derive` for keyed routes: it runs before Elysia validates params and body, so every route registered
 * after it answers an unknown slug with 404, then a missing, wrong or foreign key with 401, and only then
 * a bad body with 400 (decisions section 2), even where the global auth guard is not mounted. It reuses the
 * guard's decision for the request when there is one. GET requests of the demo workspace pass without a
 * key (decisions section 7); writes always need one.
 */
export function workspaceAccess(deps: AppDeps) {
  return async ({ params, request }: AccessContext) => ({
    access: await authorize(deps, params.slug ?? '', request, { demoKeyless: request.method === 'GET' }),
  });
}
