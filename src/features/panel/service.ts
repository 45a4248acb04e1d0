import { findWorkspaceKey, recordKeyUse } from '../../platform/access/api-key.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { AppError, unauthorized, validation } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { constantTimeEqual, randomToken, sha256Hex } from '../../core/secrets.ts';
import type { PanelSessionRecord } from '../../ports/storage/panel-session-store.ts';
import type { WorkspaceRecord } from '../../ports/storage/index.ts';
import { normalizeDomain } from '../../platform/access/domains.ts';
import { CAPABILITIES, knownCapabilities } from '../../platform/access/capabilities.ts';
import type { Principal } from '../../platform/access/principal.ts';
import { signFrameContext, verifyFrameContext } from './frame-context.ts';
import { parseOrigin, type PanelPlatform } from './origin.ts';

export const HOST_CREDENTIAL_PREFIX = 'svc_host_';
export const PANEL_CODE_PREFIX = 'svc_code_';
export const SESSION_TOKEN_PREFIX = 'svc_sess_';
/** A bootstrap code opens the panel within this time, once (docs/contract/panel.md). */
export const PANEL_CODE_TTL_MS = 60_000;
/** No renewal is granted this long after sign-in (docs/contract/panel.md). */
export const SESSION_MAX_AGE_MS = 12 * 60 * 60 * 1000;
/** Only this role yields a session; the others are refused by design (docs/contract/routes.md). */
export const ADMIN_ROLE = 'ADMIN';

type PanelDeps = Pick<AppDeps, 'storage' | 'clock' | 'config'>;

function signingSecret(deps: PanelDeps): string {
  if (!deps.config.SVC_SECRET) throw new AppError('INTERNAL_ERROR', 'SVC_SECRET is not set: frame contexts cannot be signed');
  return deps.config.SVC_SECRET;
}

function requireOrigin(input: string): string {
  const origin = parseOrigin(input);
  if (!origin) {
    const message = `origin must be scheme://host[:port]: http or https, a DNS name or an IP address as host (no wildcard), nothing after the port, such as https://shop.example.com; got ${input}`;
    throw validation(message, [{ path: '/origin', message }]);
  }
  return origin;
}

async function workspaceOrUnauthorized(deps: PanelDeps, slug: string, message: string): Promise<WorkspaceRecord> {
  const workspace = await deps.storage.getWorkspaceBySlug(slug);
  if (!workspace) throw unauthorized(message);
  return workspace;
}

export interface LinkRequest {
  pairingCode: string | null;
  platform: PanelPlatform;
  workspaceSlug: string;
  origin: string;
}

/**
 * PUT …/panel/origin: spends the pairing code on linking `origin` to the workspace and returns the new host
 * credential (shown this once). A new link for the same origin replaces its credential. The origin's host is
 * added to the widget domains, so the site can also show the booking widget.
 */
export async function linkOrigin(deps: PanelDeps, request: LinkRequest): Promise<{ hostCredential: string; origin: string; workspaceSlug: string }> {
  if (!request.pairingCode) throw unauthorized('missing pairing code: send Authorization: SvcPair <pairing code>');
  const origin = requireOrigin(request.origin);
  const refused = 'pairing code is unknown, used, expired or not for this workspace';
  const workspace = await workspaceOrUnauthorized(deps, request.workspaceSlug, refused);
  const now = deps.clock.now();
  const code = await deps.storage.consumePairingCode(sha256Hex(request.pairingCode), now);
  if (!code || code.workspaceId !== workspace.id) throw unauthorized(refused);
  const hostCredential = randomToken(HOST_CREDENTIAL_PREFIX, 32);
  const relinked = (await deps.storage.listHostCredentials(workspace.id)).some((each) => each.origin === origin);
  await deps.storage.putHostCredential({
    id: newId('hc', now),
    workspaceId: workspace.id,
    origin,
    credentialHash: sha256Hex(hostCredential),
    platform: request.platform,
    createdAt: now,
    lastUsedAt: null,
  });
  // The replaced credential takes along what was opened with it (docs/contract/panel.md §2).
  if (relinked) await endOriginAccess(deps, workspace.id, origin);
  const host = normalizeDomain(new URL(origin).hostname);
  if (host && !workspace.domains.includes(host)) {
    await deps.storage.updateWorkspace(workspace.id, { domains: [...workspace.domains, host] }, now);
  }
  return { hostCredential, origin, workspaceSlug: workspace.slug };
}

/** The host credential the access step resolved for a route declared `hostCredential(...)`. */
function linkedBy(principal: Principal): NonNullable<Principal['hostCredential']> {
  // The declaration guarantees it; a route declared otherwise must not reach here.
  if (!principal.hostCredential) throw unauthorized('missing host credential: send it as Authorization: SvcHost <credential>');
  return principal.hostCredential;
}

/**
 * What an origin's credential opened ends with it: its sessions, and its bootstrap codes not yet spent (a code
 * handed out before an unlink or re-link must not open a session afterwards).
 */
export async function endOriginAccess(deps: Pick<AppDeps, 'storage'>, workspaceId: string, origin: string): Promise<void> {
  await deps.storage.voidPanelCodes(workspaceId, origin);
  await deps.storage.endPanelSessions(workspaceId, { origin });
}

/** DELETE …/panel/origin: the host forgets its link; the credential, its unspent codes and its sessions stop at once. */
export async function unlinkOrigin(deps: PanelDeps, principal: Principal): Promise<void> {
  const removed = await deps.storage.deleteHostCredentialByHash(linkedBy(principal).credentialHash);
  // Unlinked by a concurrent request since the access step found it.
  if (!removed) throw unauthorized('invalid host credential');
  await endOriginAccess(deps, removed.workspaceId, removed.origin);
}

export interface BootstrapRequest {
  workspaceSlug: string;
  origin: string;
  subject: string;
  role: string;
  capabilities: string[];
}

export interface BootstrapResult {
  code: string;
  frameContext: string;
  expiresAt: string;
  workspaceSlug: string;
}

/**
 * POST …/panel/bootstrap: a one-time code (60 s) and the signed frameContext that goes with it, for an ADMIN
 * of the linked origin. Unknown capability names are dropped.
 */
export async function bootstrap(deps: PanelDeps, principal: Principal, request: BootstrapRequest): Promise<BootstrapResult> {
  const linked = linkedBy(principal);
  const { workspace } = principal;
  if (workspace.slug !== request.workspaceSlug) throw unauthorized('the host credential is not linked to this workspace');
  if (parseOrigin(request.origin) !== linked.origin) throw unauthorized(`origin ${request.origin} is not the linked origin of this host credential`);
  if (request.role !== ADMIN_ROLE) throw unauthorized(`role ${request.role} does not open the panel; only ${ADMIN_ROLE} does`);
  const now = deps.clock.now();
  const code = randomToken(PANEL_CODE_PREFIX, 32);
  const codeHash = sha256Hex(code);
  const expiresAt = now + PANEL_CODE_TTL_MS;
  const capabilities = knownCapabilities(request.capabilities);
  await deps.storage.createPanelCode({
    id: newId('pc', now),
    workspaceId: workspace.id,
    codeHash,
    origin: linked.origin,
    subject: request.subject,
    capabilities,
    expiresAt,
    usedAt: null,
    createdAt: now,
  });
  await deps.storage.touchHostCredential(linked.id, now - (now % 60_000));
  const frameContext = await signFrameContext(
    { workspaceSlug: workspace.slug, origin: linked.origin, subject: request.subject, capabilities, codeHash, expiresAt },
    signingSecret(deps),
    now,
  );
  return { code, frameContext, expiresAt: new Date(expiresAt).toISOString(), workspaceSlug: workspace.slug };
}

export interface IssuedSession {
  token: string;
  expiresAt: string;
  /** seconds from now */
  expiresIn: number;
  /** no renewal is granted after this */
  renewableUntil: string;
  capabilities: string[];
  /** the host origin the panel talks to; null when standalone */
  origin: string | null;
  workspace: { id: string; slug: string; name: string; logoUrl: string | null; primaryColor: string | null };
}

function newSession(
  deps: PanelDeps,
  workspace: WorkspaceRecord,
  grant: Pick<PanelSessionRecord, 'subject' | 'capabilities' | 'origin' | 'signedInAt'>,
): { record: PanelSessionRecord; issued: IssuedSession } {
  const now = deps.clock.now();
  const token = randomToken(SESSION_TOKEN_PREFIX, 32);
  const renewableUntil = grant.signedInAt + SESSION_MAX_AGE_MS;
  const expiresAt = Math.min(now + deps.config.SVC_PANEL_SESSION_SECONDS * 1000, renewableUntil);
  const record: PanelSessionRecord = {
    id: newId('ps', now),
    workspaceId: workspace.id,
    tokenHash: sha256Hex(token),
    subject: grant.subject,
    capabilities: grant.capabilities,
    origin: grant.origin,
    signedInAt: grant.signedInAt,
    expiresAt,
    createdAt: now,
  };
  return {
    record,
    issued: {
      token,
      expiresAt: new Date(expiresAt).toISOString(),
      expiresIn: Math.round((expiresAt - now) / 1000),
      renewableUntil: new Date(renewableUntil).toISOString(),
      capabilities: grant.capabilities,
      origin: grant.origin,
      workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name, logoUrl: workspace.logoUrl, primaryColor: workspace.primaryColor },
    },
  };
}

const REFUSED_CODE = 'panel code is unknown, used or expired, or does not match its frameContext';

/** POST /api/panel/session with `{ code, frameContext }`: spends the code on a session for the user the host named. */
export async function exchangeCode(deps: PanelDeps, code: string, frameContext: string): Promise<IssuedSession> {
  const now = deps.clock.now();
  const context = await verifyFrameContext(frameContext, signingSecret(deps), now);
  const codeHash = sha256Hex(code);
  if (!context || !constantTimeEqual(context.codeHash, codeHash)) throw unauthorized(REFUSED_CODE);
  const spent = await deps.storage.consumePanelCode(codeHash, now);
  if (!spent) throw unauthorized(REFUSED_CODE);
  const workspace = await deps.storage.getWorkspaceById(spent.workspaceId);
  const matches =
    workspace !== null
    && workspace.slug === context.workspaceSlug
    && spent.origin === context.origin
    && spent.subject === context.subject
    && spent.capabilities.join() === context.capabilities.join();
  if (!matches) throw unauthorized(REFUSED_CODE);
  // An unlink racing this exchange voids the code; one that got in between still finds the origin gone.
  if (!(await deps.storage.listHostCredentials(workspace.id)).some((each) => each.origin === spent.origin)) throw unauthorized(REFUSED_CODE);
  const { record, issued } = newSession(deps, workspace, { subject: spent.subject, capabilities: spent.capabilities, origin: spent.origin, signedInAt: now });
  await deps.storage.createPanelSession(record);
  return issued;
}

/** POST /api/panel/session with `{ workspaceSlug, apiKey }`: the standalone /admin sign-in, with every capability. */
export async function signInWithApiKey(deps: PanelDeps, workspaceSlug: string, apiKey: string): Promise<IssuedSession> {
  const refused = 'workspace slug or API key is wrong';
  const workspace = await workspaceOrUnauthorized(deps, workspaceSlug, refused);
  const key = await findWorkspaceKey(deps, workspace, apiKey);
  if (!key) throw unauthorized(refused);
  const now = deps.clock.now();
  const { record, issued } = newSession(deps, workspace, { subject: `key:${key.id}`, capabilities: [...CAPABILITIES], origin: null, signedInAt: now });
  await deps.storage.createPanelSession(record);
  await recordKeyUse(deps, key, now);
  return issued;
}

/**
 * POST /api/panel/session/refresh: a new token for a live standalone session, the old one ending; none 12 hours
 * after sign-in. Embedded sessions are refused (docs/contract/panel.md §8).
 */
export async function refreshSession(deps: PanelDeps, token: string | null): Promise<IssuedSession> {
  if (!token) throw unauthorized('missing session: send Authorization: Bearer <session token>');
  const now = deps.clock.now();
  const current = await deps.storage.findPanelSession(sha256Hex(token), now);
  if (!current) throw unauthorized('session is unknown or expired; sign in again');
  // An embedded session lives only as long as the host keeps vouching for its user: a fresh bootstrap renews it.
  if (current.origin !== null) throw unauthorized('an embedded panel session is not renewed here; the host platform opens a new one through a fresh bootstrap');
  if (now >= current.signedInAt + SESSION_MAX_AGE_MS) throw unauthorized('session cannot be renewed 12 hours after sign-in; sign in again');
  const workspace = await deps.storage.getWorkspaceById(current.workspaceId);
  if (!workspace) throw unauthorized('session is unknown or expired; sign in again');
  const { record, issued } = newSession(deps, workspace, current);
  if (!(await deps.storage.rotatePanelSession(current.tokenHash, record, now))) throw unauthorized('session is unknown or expired; sign in again');
  return issued;
}
