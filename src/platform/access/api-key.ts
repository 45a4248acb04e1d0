import type { AppDeps } from '../app-deps.ts';
import { notFound } from '../../core/errors.ts';
import { constantTimeEqual, sha256Hex } from '../../core/secrets.ts';
import type { ApiKeyRecord, WorkspaceRecord } from '../../ports/storage/index.ts';

export const API_KEY_HEADER = 'x-svc-api-key';

export async function findWorkspace(deps: Pick<AppDeps, 'storage'>, slug: string): Promise<WorkspaceRecord> {
  const workspace = await deps.storage.getWorkspaceBySlug(slug);
  if (!workspace) throw notFound(`workspace ${slug}`);
  return workspace;
}

/** What is stored of an API key, and what a presented key is looked up by: its SHA-256. */
export const hashApiKey = (key: string) => sha256Hex(key);

/** The live API key of this workspace that `presented` is, or null. */
export async function findWorkspaceKey(deps: Pick<AppDeps, 'storage'>, workspace: WorkspaceRecord, presented: string): Promise<ApiKeyRecord | null> {
  const hash = hashApiKey(presented);
  const key = await deps.storage.findApiKeyByHash(hash);
  return key !== null && key.workspaceId === workspace.id && constantTimeEqual(key.hash, hash) ? key : null;
}

/** `lastUsedAt` is kept to the minute: a busy key costs one write a minute, not one per request. */
const KEY_USE_RESOLUTION_MS = 60_000;
const keyUseWrittenAt = new Map<string, number>();

/** Records that the key authenticated a request at `now` (listed as `lastUsedAt`), at most once a minute per key. */
export async function recordKeyUse(deps: Pick<AppDeps, 'storage'>, key: ApiKeyRecord, now: number): Promise<void> {
  const last = Math.max(key.lastUsedAt ?? -Infinity, keyUseWrittenAt.get(key.id) ?? -Infinity);
  if (now - last < KEY_USE_RESOLUTION_MS) return;
  const minute = now - (now % KEY_USE_RESOLUTION_MS);
  keyUseWrittenAt.set(key.id, minute);
  await deps.storage.touchApiKey(key.id, minute);
}
