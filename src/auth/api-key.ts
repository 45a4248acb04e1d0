import type { AppDeps } from '../deps.ts';
import { notFound } from '../shared/errors.ts';
import { constantTimeEqual, sha256Hex } from '../shared/secrets.ts';
import type { WorkspaceRecord } from '../storage/port.ts';

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
