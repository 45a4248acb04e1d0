import type { AppDeps } from '../app-deps.ts';
import { constantTimeEqual, sha256Hex } from '../../core/secrets.ts';
import type { HostCredentialRecord, PanelSessionRecord, WorkspaceRecord } from '../../ports/storage/index.ts';
import { knownCapabilities, type Capability } from './capabilities.ts';

/** A live panel session, as its store knows it. */
export interface PanelSession {
  id: string;
  workspaceId: string;
  capabilities: readonly Capability[];
}

/** A live host credential (docs/contract/panel.md): bound to one workspace and one linked origin. */
export interface HostCredentialGrant {
  id: string;
  workspaceId: string;
  origin: string;
}

/**
 * The credential of `Authorization: <scheme> <credential>` (the scheme compared case-insensitively), or null
 * when the header is absent, empty or of another scheme. The one parser of the header.
 */
export function authorizationCredential(header: string | null | undefined, scheme: 'Bearer' | 'SvcHost' | 'SvcPair'): string | null {
  const value = header?.trim();
  if (!value) return null;
  const space = value.indexOf(' ');
  if (space < 0 || value.slice(0, space).toLowerCase() !== scheme.toLowerCase()) return null;
  return value.slice(space + 1).trim() || null;
}

/**
 * Looks up the secrets presented in `Authorization`. Each returns null for a token it does not know, an
 * expired one or a revoked one; the access step turns null into 401. Implementations compare hashes only.
 */
export interface CredentialResolvers {
  /** `Authorization: Bearer <token>` */
  panelSession(token: string, now: number): Promise<PanelSession | null>;
  /** `Authorization: SvcHost <credential>` */
  hostCredential(credential: string, now: number): Promise<HostCredentialGrant | null>;
}

/** The resolvers the app uses: panel sessions and host credentials as the panel stores them (hashes only). */
export function credentialResolvers(deps: AppDeps): CredentialResolvers {
  return {
    async panelSession(token) {
      const found = await findSession(deps, token);
      if (!found) return null;
      return { id: found.session.id, workspaceId: found.session.workspaceId, capabilities: knownCapabilities(found.session.capabilities) };
    },
    async hostCredential(credential) {
      const found = await findHostCredential(deps, credential);
      return found && { id: found.id, workspaceId: found.workspaceId, origin: found.origin };
    },
  };
}

/** The live host credential `credential` is, or null. */
async function findHostCredential(deps: Pick<AppDeps, 'storage'>, credential: string): Promise<HostCredentialRecord | null> {
  const hash = sha256Hex(credential);
  const record = await deps.storage.findHostCredential(hash);
  return record && constantTimeEqual(record.credentialHash, hash) ? record : null;
}

/** The live session a bearer token stands for, with its workspace; null when there is none. */
export async function findSession(
  deps: Pick<AppDeps, 'storage' | 'clock'>,
  token: string,
): Promise<{ session: PanelSessionRecord; workspace: WorkspaceRecord } | null> {
  const hash = sha256Hex(token);
  const session = await deps.storage.findPanelSession(hash, deps.clock.now());
  if (!session || !constantTimeEqual(session.tokenHash, hash)) return null;
  const workspace = await deps.storage.getWorkspaceById(session.workspaceId);
  return workspace ? { session, workspace } : null;
}
