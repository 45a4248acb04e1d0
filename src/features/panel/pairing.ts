import type { AppDeps } from '../../platform/app-deps.ts';
import { newId } from '../../core/ids.ts';
import { randomToken, sha256Hex } from '../../core/secrets.ts';

export const PAIRING_CODE_PREFIX = 'svc_pair_';
/** A pairing code links one origin within this time, once (docs/contract/panel.md). */
export const PAIRING_CODE_TTL_MS = 60 * 60 * 1000;

export async function createPairingCode(deps: Pick<AppDeps, 'storage' | 'clock'>, workspaceId: string): Promise<{ pairingCode: string; expiresAt: string }> {
  const now = deps.clock.now();
  const pairingCode = randomToken(PAIRING_CODE_PREFIX, 32);
  const expiresAt = now + PAIRING_CODE_TTL_MS;
  await deps.storage.createPairingCode({ id: newId('pc', now), workspaceId, codeHash: sha256Hex(pairingCode), expiresAt, usedAt: null, createdAt: now });
  return { pairingCode, expiresAt: new Date(expiresAt).toISOString() };
}
