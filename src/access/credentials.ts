import type { AppDeps } from '../deps.ts';
import type { Capability } from './policy.ts';

/** A live panel session, as its store knows it. */
export interface PanelSession {
  id: string;
  workspaceId: string;
  capabilities: readonly Capability[];
}

/** A live host credential (decisions section 8): bound to one workspace and one linked origin. */
export interface HostCredentialGrant {
  id: string;
  workspaceId: string;
  origin: string;
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

/**
 * The resolvers the app uses. Panel sessions and host credentials are not stored yet (the panel issue adds
 * them), so every such token is unknown: 401.
 */
export function credentialResolvers(_deps: AppDeps): CredentialResolvers {
  return {
    panelSession: async () => null,
    hostCredential: async () => null,
  };
}
