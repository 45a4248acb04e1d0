import type { HostCredentialRecord } from './panel-store.ts';
import type { ApiKeyRecord } from './workspace-store.ts';

/** A signed-in panel: embedded (from a bootstrap code) or standalone (from an API key). */
export interface PanelSessionRecord {
  id: string;
  workspaceId: string;
  /** hex SHA-256 of the bearer token; the token itself is never stored */
  tokenHash: string;
  /** the host's user id (embedded) or `key:<apiKeyId>` (standalone) */
  subject: string;
  /** capability names granted: svc_manage_operations, svc_manage_settings */
  capabilities: string[];
  /** the linked origin it was opened from; null for the standalone /admin */
  origin: string | null;
  /** when the user signed in; renewals keep it, and none is granted 12 hours after it */
  signedInAt: number;
  expiresAt: number;
  createdAt: number;
}

/**
 * What the panel's administration keeps beyond the pairing codes: sessions, the linked origins' listing and
 * revocation, and the API keys' listing and revocation. Tokens and credentials are looked up by hash only.
 */
export interface PanelSessionStore {
  createPanelSession(session: PanelSessionRecord): Promise<void>;
  /** The session with this token hash while it is live (expiresAt > now), else null. */
  findPanelSession(tokenHash: string, now: number): Promise<PanelSessionRecord | null>;
  /**
   * Renewal: deletes the live session with `tokenHash` and stores `next` in its place, in one transaction,
   * returning the old one. Guarantee: of N concurrent calls with the same token exactly one gets it back; the
   * others get null and store nothing.
   */
  rotatePanelSession(tokenHash: string, next: PanelSessionRecord, now: number): Promise<PanelSessionRecord | null>;
  /** Ends the workspace's sessions opened from `origin`, or those of `subject`; returns how many. */
  endPanelSessions(workspaceId: string, match: { origin: string } | { subject: string }): Promise<number>;
  /** Deletes sessions that expired by `now` (expiresAt <= now); returns how many. */
  purgeExpiredPanelSessions(now: number): Promise<number>;

  /** The workspace's linked origins, oldest first. */
  listHostCredentials(workspaceId: string): Promise<HostCredentialRecord[]>;
  /** Removes the credential (it stops at once); null when the workspace has none with this id. */
  deleteHostCredential(workspaceId: string, id: string): Promise<HostCredentialRecord | null>;
  /** Removes the credential with this hash; null when there is none. */
  deleteHostCredentialByHash(credentialHash: string): Promise<HostCredentialRecord | null>;
  /** Sets lastUsedAt when it is unset or older than `at`. */
  touchHostCredential(id: string, at: number): Promise<void>;

  /** The workspace's live (not revoked) API keys, oldest first. */
  listApiKeys(workspaceId: string): Promise<ApiKeyRecord[]>;
  /** Marks the live key revoked at `at`; it stops at once. Null when the workspace has no live key with this id. */
  revokeApiKey(workspaceId: string, id: string, at: number): Promise<ApiKeyRecord | null>;
  /** Sets lastUsedAt when it is unset or older than `at`. */
  touchApiKey(id: string, at: number): Promise<void>;
}
