import type { WorkspaceRecord } from '../../ports/storage/index.ts';
import { CAPABILITIES, type Capability } from './capabilities.ts';
import type { HostCredentialGrant } from './credentials.ts';

/** Who is calling a workspace route, as resolved once per request from the route's policy. */
export interface Principal {
  workspace: WorkspaceRecord;
  /**
   * `anonymous`: no credential (the widget, the demo workspace's reads); `apiKey`: the workspace's key;
   * `panelSession`: the admin panel; `hostCredential`: a linked host platform's server.
   */
  kind: 'anonymous' | 'apiKey' | 'panelSession' | 'hostCredential';
  /** what the caller may change; an API key may change everything, an anonymous caller nothing */
  capabilities: ReadonlySet<Capability>;
  /** the bucket the request was counted in: the key, the session, or the client address */
  rateLimitIdentity: string;
  /** the host credential that authenticated the request, with its stored hash, when `kind` is `hostCredential` */
  hostCredential?: HostCredentialGrant & { credentialHash: string };
}

export const ALL_CAPABILITIES: ReadonlySet<Capability> = new Set(CAPABILITIES);
export const NO_CAPABILITIES: ReadonlySet<Capability> = new Set();
