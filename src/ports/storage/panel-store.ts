export interface PairingCodeRecord {
  id: string;
  workspaceId: string;
  codeHash: string;
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

export interface HostCredentialRecord {
  id: string;
  workspaceId: string;
  /** scheme://host[:port] */
  origin: string;
  credentialHash: string;
  /** the path segment it was linked through: hostplatform or wordpress */
  platform: string;
  createdAt: number;
  /** last bootstrap it authorised, to the minute; null = never used */
  lastUsedAt: number | null;
}

export interface PanelCodeRecord {
  id: string;
  workspaceId: string;
  codeHash: string;
  origin: string;
  subject: string;
  capabilities: string[];
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

/**
 * What the embedded panel's pairing keeps: one-time pairing and panel codes (looked up by hash, consumed
 * once) and the host credentials they grant. Codes are secrets: only their hashes are stored.
 */
export interface PanelStore {
  createPairingCode(code: PairingCodeRecord): Promise<void>;
  /** Marks the code used and returns it when it exists, is unused and unexpired (expiresAt > now); exactly one concurrent caller wins. */
  consumePairingCode(codeHash: string, now: number): Promise<PairingCodeRecord | null>;
  /** Stores the credential, replacing any earlier one for the same workspace and origin. */
  putHostCredential(credential: HostCredentialRecord): Promise<void>;
  findHostCredential(credentialHash: string): Promise<HostCredentialRecord | null>;
  createPanelCode(code: PanelCodeRecord): Promise<void>;
  /** As consumePairingCode, for panel codes. */
  consumePanelCode(codeHash: string, now: number): Promise<PanelCodeRecord | null>;
  /**
   * Deletes the workspace's unspent panel codes issued for `origin` (on unlinking or re-linking it), so none
   * can be consumed afterwards; returns how many.
   */
  voidPanelCodes(workspaceId: string, origin: string): Promise<number>;
  /** Deletes pairing and panel codes that expired by `now` (expiresAt <= now); returns how many. */
  purgeExpiredCodes(now: number): Promise<number>;
}
