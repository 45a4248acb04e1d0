/**
 * Who may call a route, declared next to the route (`{ access: keyOrSession('svc_manage_operations') }`).
 * One declaration drives everything access-related: the principal resolved for the request
 * (src/platform/access/resolve.ts), the CORS answer, the domain check, the rate-limit bucket and the OpenAPI
 * `security` entry of the operation.
 */

import type { Capability } from './capabilities.ts';

/** Credentials a route accepts; the first one the request carries is the one checked. */
export type CredentialKind = 'apiKey' | 'panelSession' | 'hostCredential';

/** Named rate-limit rules; their figures live in src/platform/http/rate-limit.ts (rateLimitRules). */
export type RateLimitRuleName = 'v1' | 'panelLinking' | 'panelBootstrap';

/**
 * Which browsers may read a keyless answer of the route (docs/contract/widget.md): `anyOrigin` (widget config),
 * `allowedDomains` (the workspace's widget domains; any origin on the route's open workspace), or none (keyed
 * routes send no CORS headers, so a browser cannot use an API key).
 */
export type BrowserAccess = 'none' | 'anyOrigin' | 'allowedDomains';

/** What a request without a credential gets on a workspace route. */
export type KeylessAccess =
  /** refused: 401 */
  | 'refused'
  /** allowed (the widget's public reads) */
  | 'allowed'
  /** allowed when `Origin` is an allowed widget domain (any origin on the route's open workspace), else 403 DOMAIN_NOT_ALLOWED */
  | 'allowedOrigin';

/** A route addressing one workspace: by the `:slug` path parameter, or by the host credential it carries. */
export interface WorkspacePolicy {
  readonly scope: 'workspace';
  /** where the workspace comes from */
  readonly workspaceFrom: 'slug' | 'hostCredential';
  readonly credentials: readonly CredentialKind[];
  /** what a panel session needs beyond being of the workspace; null: any session (reads) */
  readonly capability: Capability | null;
  /** further capabilities a panel session needs as well (a refund moves money: settings and operations) */
  readonly alsoNeeds?: readonly Capability[];
  readonly keyless: KeylessAccess;
  readonly browsers: BrowserAccess;
  readonly rateLimit: RateLimitRuleName;
  /**
   * The slug of a workspace the route opens to everyone (the demo's, declared where its routes are): its GET
   * requests pass without a credential, and any origin may make its keyless calls. null: none.
   */
  readonly openWorkspace: string | null;
}

/** A route of no workspace (health checks, the OpenAPI document, payment pages): no credential. */
export interface OpenPolicy {
  readonly scope: 'open';
  readonly rateLimit: RateLimitRuleName | null;
}

export type AccessPolicy = WorkspacePolicy | OpenPolicy;

/** Anyone; counted against the client address when `rateLimit` is given. */
export function openRoute(rateLimit: RateLimitRuleName | null = null): OpenPolicy {
  return { scope: 'open', rateLimit };
}

/**
 * The widget's keyless reads of a workspace (config, availability). A credential, when one is presented, is
 * checked all the same (a wrong key is 401) and makes the call a backend call: no CORS headers.
 */
export function publicRoute(browsers: Exclude<BrowserAccess, 'none'>, options: Pick<KeyOrSessionOptions, 'openWorkspace'> = {}): WorkspacePolicy {
  return {
    scope: 'workspace',
    workspaceFrom: 'slug',
    credentials: ['apiKey', 'panelSession'],
    capability: null,
    keyless: 'allowed',
    browsers,
    rateLimit: 'v1',
    openWorkspace: options.openWorkspace ?? null,
  };
}

export interface KeyOrSessionOptions {
  /** the slug of a workspace opened to everyone (the demo's): see WorkspacePolicy.openWorkspace */
  openWorkspace?: string;
  /** a request without a credential is a widget call: it must come from an allowed widget domain (createBooking) */
  keylessFromAllowedDomain?: boolean;
  /** capabilities a panel session needs besides `need` */
  alsoNeeds?: readonly Capability[];
}

/**
 * The workspace's API key (which may do everything) or a panel session of the workspace that holds `need`
 * (`read`: any session). Decisions section 12.
 */
export function keyOrSession(need: 'read' | Capability, options: KeyOrSessionOptions = {}): WorkspacePolicy {
  const keyless: KeylessAccess = options.keylessFromAllowedDomain ? 'allowedOrigin' : 'refused';
  return {
    scope: 'workspace',
    workspaceFrom: 'slug',
    credentials: ['apiKey', 'panelSession'],
    capability: need === 'read' ? null : need,
    keyless,
    browsers: keyless === 'allowedOrigin' ? 'allowedDomains' : 'none',
    rateLimit: 'v1',
    openWorkspace: options.openWorkspace ?? null,
    ...(options.alsoNeeds ? { alsoNeeds: options.alsoNeeds } : {}),
  };
}

/** The workspace's API key only. */
export function workspaceKey(options: Pick<KeyOrSessionOptions, 'openWorkspace'> = {}): WorkspacePolicy {
  return { ...keyOrSession('read', options), credentials: ['apiKey'] };
}

/** A host platform's server (`Authorization: SvcHost <credential>`); the credential names the workspace. */
export function hostCredential(rateLimit: RateLimitRuleName): WorkspacePolicy {
  return {
    scope: 'workspace',
    workspaceFrom: 'hostCredential',
    credentials: ['hostCredential'],
    capability: null,
    keyless: 'refused',
    browsers: 'none',
    rateLimit,
    openWorkspace: null,
  };
}

/** Names of the OpenAPI security schemes (src/platform/openapi/document.ts defines them). */
const SECURITY_SCHEME: Record<CredentialKind, string> = { apiKey: 'apiKey', panelSession: 'panelSession', hostCredential: 'hostCredential' };

/**
 * The OpenAPI `security` of an operation: `[]` for a public one (a credential it is sent is still checked, but
 * none is needed), else its credentials, with `{}` when a widget may call it without one (createBooking).
 */
export function securityRequirements(policy: AccessPolicy): Record<string, string[]>[] {
  if (policy.scope === 'open' || policy.keyless === 'allowed') return [];
  const requirements: Record<string, string[]>[] = policy.credentials.map((kind) => ({ [SECURITY_SCHEME[kind]]: [] }));
  // An open workspace's keyless reads are an exception of one workspace, not the operation's rule.
  if (policy.keyless === 'allowedOrigin') requirements.push({});
  return requirements;
}
