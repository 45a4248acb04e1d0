import { API_KEY_HEADER, findWorkspace, findWorkspaceKey, recordKeyUse } from './api-key.ts';
import type { AppDeps } from '../app-deps.ts';
import { AppError, unauthorized } from '../../core/errors.ts';
import { sha256Hex } from '../../core/secrets.ts';
import type { WorkspaceRecord } from '../../ports/storage/index.ts';
import { isWidgetOriginAllowed } from './domains.ts';
import { authorizationCredential, type CredentialResolvers } from './credentials.ts';
import type { WorkspacePolicy } from './policy.ts';
import { ALL_CAPABILITIES, NO_CAPABILITIES, type Principal } from './principal.ts';

/** What the access step reads from one request. */
export interface AccessRequest {
  method: string;
  /** the decoded `:slug` path parameter, when the route has one */
  slug: string | null;
  headers: Headers;
  /** the rate-limit bucket of the client address: `ip:203.0.113.7` */
  addressIdentity: string;
  now: number;
}

function authorization(headers: Headers, scheme: 'Bearer' | 'SvcHost'): string | null {
  return authorizationCredential(headers.get('authorization'), scheme);
}

const missingCredential = () => unauthorized(`missing API key: send it in the ${API_KEY_HEADER} header`);

/**
 * Resolves the principal of a workspace route, or throws the contract's error. Order (docs/contract/errors.md):
 * unknown slug → 404; then a missing, wrong or foreign credential → 401; a panel session without the
 * capability → 403 FORBIDDEN; a keyless widget call from a foreign origin → 403 DOMAIN_NOT_ALLOWED.
 * `perCredential`: whether the route's rate limit counts per key or session (else per client address).
 */
export async function resolvePrincipal(
  deps: Pick<AppDeps, 'storage' | 'config'>,
  resolvers: CredentialResolvers,
  policy: WorkspacePolicy,
  request: AccessRequest,
  perCredential: boolean,
): Promise<Principal> {
  const identity = (credentialIdentity: string) => (perCredential ? credentialIdentity : request.addressIdentity);

  if (policy.workspaceFrom === 'hostCredential') {
    const presented = authorization(request.headers, 'SvcHost');
    if (!presented) throw unauthorized('missing host credential: send it as Authorization: SvcHost <credential>');
    const grant = await resolvers.hostCredential(presented, request.now);
    const workspace = grant ? await deps.storage.getWorkspaceById(grant.workspaceId) : null;
    if (!grant || !workspace) throw unauthorized('invalid host credential');
    return {
      workspace,
      kind: 'hostCredential',
      capabilities: NO_CAPABILITIES,
      rateLimitIdentity: identity(`host:${grant.id}`),
      hostCredential: { ...grant, credentialHash: sha256Hex(presented) },
    };
  }

  const workspace = await findWorkspace(deps, request.slug ?? '');
  const accepts = (kind: 'apiKey' | 'panelSession') => policy.credentials.includes(kind);

  const key = accepts('apiKey') ? request.headers.get(API_KEY_HEADER) : null;
  if (key) {
    const record = await findWorkspaceKey(deps, workspace, key);
    if (!record) throw unauthorized('invalid API key');
    await recordKeyUse(deps, record, request.now);
    return { workspace, kind: 'apiKey', capabilities: ALL_CAPABILITIES, rateLimitIdentity: identity(`key:${sha256Hex(key).slice(0, 32)}`) };
  }

  const token = accepts('panelSession') ? authorization(request.headers, 'Bearer') : null;
  if (token) {
    const session = await resolvers.panelSession(token, request.now);
    if (!session || session.workspaceId !== workspace.id) throw unauthorized('invalid or expired panel session');
    for (const capability of [policy.capability, ...(policy.alsoNeeds ?? [])]) {
      if (capability && !session.capabilities.includes(capability)) {
        throw new AppError('FORBIDDEN', `this panel session lacks the ${capability} capability this action needs`);
      }
    }
    return { workspace, kind: 'panelSession', capabilities: new Set(session.capabilities), rateLimitIdentity: identity(`session:${session.id}`) };
  }

  const anonymous: Principal = { workspace, kind: 'anonymous', capabilities: NO_CAPABILITIES, rateLimitIdentity: request.addressIdentity };
  const open = workspace.slug === policy.openWorkspace;
  if (open && (request.method === 'GET' || request.method === 'HEAD')) return anonymous;
  switch (policy.keyless) {
    case 'allowed':
      return anonymous;
    case 'allowedOrigin':
      if (!open) requireWidgetOrigin(workspace, request.headers.get('origin'), deps.config.SVC_PUBLIC_URL);
      return anonymous;
    case 'refused':
      throw missingCredential();
  }
}

/** A keyless booking must come from a page on an allowed widget domain or one of svc's own hosted pages. */
function requireWidgetOrigin(workspace: WorkspaceRecord, origin: string | null, publicUrl: string) {
  if (isWidgetOriginAllowed(origin, workspace, publicUrl)) return;
  throw new AppError(
    'DOMAIN_NOT_ALLOWED',
    origin
      ? `origin ${origin} is not an allowed widget domain of workspace ${workspace.slug}: add its domain to the workspace's allowed domains, or call with the API key from a backend`
      : `a booking without an API key must come from a page on an allowed widget domain of workspace ${workspace.slug} (Origin header), or carry the API key in ${API_KEY_HEADER}`,
  );
}
