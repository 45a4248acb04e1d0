import type { Clock } from '../../core/clock.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { openCalendarSecret, sealCalendarSecret } from '../../platform/sealed-secrets.ts';
import { type CalendarAccount, CalendarAccessError, type CalendarProblem, type OAuthKind, type OAuthTokens, problemSentence } from '../../ports/calendar.ts';
import type { Config } from '../../platform/config.ts';
import type { CalendarConnector } from '../../ports/calendar.ts';
import type { CalendarConnectionRecord, CalendarStore, ProviderRecord, WorkspaceRecord, WorkspaceStore } from '../../ports/storage/index.ts';

/*
 * Google and Microsoft connections (docs/contract/calendars.md §2): OAuth 2.0 authorization code with PKCE.
 * POST makes a `pending` connection whose sealed secret holds the round: the SHA-256 of its `state` and the PKCE
 * verifier, for 10 minutes. The callback finds the connection from the state, spends the round (a state works
 * once), redeems the code, and seals the tokens in its place; the connection is then synced like any other.
 * Every outcome is said in words on the callback page and, short of a forged state, in the connection itself.
 */

/** What the OAuth rounds need of the app (the calendars feature's deps have it). */
interface OAuthDeps {
  storage: CalendarStore & Pick<WorkspaceStore, 'getWorkspaceById'>;
  config: Pick<Config, 'SVC_SECRET' | 'SVC_PUBLIC_URL'>;
  clock: Clock;
  calendars: CalendarConnector;
}

/** How long a consent round may take, ms. */
export const CONSENT_TTL_MS = 10 * 60_000;

const NAMES: Record<OAuthKind, string> = { google: 'Google Calendar', microsoft: 'Microsoft 365' };
const PROVIDERS: Record<OAuthKind, string> = { google: 'Google', microsoft: 'Microsoft' };

/** What an OAuth connection's sealed secret holds: the round while pending, the tokens after. */
type OAuthSecret = { round: { stateHash: string; verifier: string; expiresAt: number } } | { tokens: OAuthTokens };

const random = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');
const sha256 = async (text: string, encoding: 'hex' | 'base64url') =>
  Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString(encoding);

export const redirectUriOf = (config: OAuthDeps['config'], kind: OAuthKind) => `${config.SVC_PUBLIC_URL}/oauth/${kind}/callback`;

function svcSecret(deps: OAuthDeps): string {
  if (!deps.config.SVC_SECRET) throw new AppError('INTERNAL_ERROR', 'SVC_SECRET is not set: calendar tokens cannot be stored');
  return deps.config.SVC_SECRET;
}

const seal = (deps: OAuthDeps, id: string, secret: OAuthSecret) => sealCalendarSecret(JSON.stringify(secret), svcSecret(deps), id);

async function unseal(deps: OAuthDeps, connection: CalendarConnectionRecord): Promise<OAuthSecret | null> {
  if (!connection.sealedSecret) return null;
  return JSON.parse(await openCalendarSecret(connection.sealedSecret, svcSecret(deps), connection.id)) as OAuthSecret;
}

/** POST of `{ kind: "google" | "microsoft" }`: a pending connection and the consent URL that completes it. */
export async function startOAuthConnection(
  deps: OAuthDeps,
  workspace: WorkspaceRecord,
  provider: ProviderRecord,
  kind: OAuthKind,
): Promise<{ connection: CalendarConnectionRecord; authorizeUrl: string }> {
  const client = deps.calendars.oauth(kind);
  if (!client) {
    throw new AppError('NOT_CONFIGURED', `${PROVIDERS[kind]} calendars cannot be connected on this server: its client id and secret are not configured`);
  }
  const now = deps.clock.now();
  const id = newId('cal', now);
  // The state names its connection (so the callback finds it without a search) and carries 256 random bits.
  const state = `${workspace.id}.${provider.id}.${id}.${random(32)}`;
  const verifier = random(48);
  const connection: CalendarConnectionRecord = {
    id,
    workspaceId: workspace.id,
    providerId: provider.id,
    kind,
    name: NAMES[kind],
    url: null,
    account: null,
    username: null,
    sealedSecret: await seal(deps, id, { round: { stateHash: await sha256(state, 'hex'), verifier, expiresAt: now + CONSENT_TTL_MS } }),
    status: 'pending',
    lastSyncedAt: null,
    lastError: null,
    failures: 0,
    calendars: [],
    syncState: {},
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.createCalendarConnection(connection);
  const authorizeUrl = client.authorizeUrl({ state, codeChallenge: await sha256(verifier, 'base64url'), redirectUri: redirectUriOf(deps.config, kind) });
  return { connection, authorizeUrl };
}

/** The account an OAuth connection opens: its tokens, refreshed ones sealed back into the connection. */
export async function oauthAccountOf(deps: OAuthDeps, connection: CalendarConnectionRecord): Promise<CalendarAccount> {
  const secret = await unseal(deps, connection);
  if (!secret || !('tokens' in secret)) {
    throw CalendarAccessError.of('auth', { code: 'consentIncomplete', values: { provider: PROVIDERS[connection.kind as OAuthKind] } });
  }
  return {
    kind: connection.kind,
    url: '',
    oauth: {
      tokens: secret.tokens,
      async save(tokens) {
        await deps.storage.updateCalendarConnection(connection.id, { sealedSecret: await seal(deps, connection.id, { tokens }) }, deps.clock.now());
      },
    },
  };
}

export type ConsentOutcome = 'granted' | 'refused' | 'expired' | 'failed';

/**
 * `GET /oauth/{kind}/callback`: completes the round `state` names. `expired` covers an unknown, spent, forged or
 * late state (the page asks for a new attempt); `refused` the owner's or the provider's refusal; `failed` a code
 * that could not be redeemed or an account whose calendars could not be read.
 */
export async function completeOAuthConnection(
  deps: OAuthDeps,
  kind: OAuthKind,
  query: { state?: string; code?: string; error?: string },
  sync: (connection: CalendarConnectionRecord) => Promise<CalendarConnectionRecord | null>,
): Promise<{ outcome: ConsentOutcome; workspace: WorkspaceRecord | null; connection: CalendarConnectionRecord | null }> {
  const [workspaceId, providerId, id] = (query.state ?? '').split('.');
  const workspace = workspaceId ? await deps.storage.getWorkspaceById(workspaceId) : null;
  const connection = workspace && providerId && id ? await deps.storage.getCalendarConnection(workspace.id, providerId, id) : null;
  if (!workspace || !connection || connection.kind !== kind || connection.status !== 'pending') return { outcome: 'expired', workspace, connection: null };
  const secret = await unseal(deps, connection).catch(() => null);
  if (!secret || !('round' in secret) || secret.round.stateHash !== (await sha256(query.state ?? '', 'hex'))) {
    return { outcome: 'expired', workspace, connection: null };
  }
  const now = deps.clock.now();
  const fail = async (outcome: ConsentOutcome, lastError: string) => ({
    outcome,
    workspace,
    connection: await deps.storage.updateCalendarConnection(connection.id, { status: 'error', lastError, sealedSecret: null }, now),
  });
  // Spent before anything else: a second callback with this state finds no round.
  await deps.storage.updateCalendarConnection(connection.id, { sealedSecret: null }, now);
  // said in the workspace's language, as every lastError (docs/contract/calendars.md §8)
  const said = (problem: CalendarProblem) => problemSentence(workspace.language, problem);
  const provider = PROVIDERS[kind];
  if (now > secret.round.expiresAt) return fail('expired', said({ code: 'consentLate', values: { provider } }));
  if (query.error || !query.code) return fail('refused', said({ code: 'consentRefused', values: { provider, detail: query.error ?? 'no code' } }));
  const client = deps.calendars.oauth(kind);
  if (!client) return fail('failed', said({ code: 'notConfigured', values: { provider } }));
  let tokens: OAuthTokens;
  try {
    tokens = await client.exchange({ code: query.code, codeVerifier: secret.round.verifier, redirectUri: redirectUriOf(deps.config, kind) });
  } catch (error) {
    if (!(error instanceof CalendarAccessError)) throw error;
    return fail('failed', `${error.sentence(workspace.language)}.`);
  }
  const stored = await deps.storage.updateCalendarConnection(connection.id, { sealedSecret: await seal(deps, connection.id, { tokens }) }, now);
  if (!stored) return { outcome: 'expired', workspace, connection: null };
  const synced = await sync(stored);
  if (!synced) return { outcome: 'expired', workspace, connection: null };
  if (synced.status !== 'ok') {
    // A first sync that failed for a passing reason leaves it pending: the owner sees it failed, not waiting.
    const failed = synced.status === 'pending' ? await deps.storage.updateCalendarConnection(synced.id, { status: 'error' }, deps.clock.now()) : synced;
    return { outcome: 'failed', workspace, connection: failed };
  }
  return { outcome: 'granted', workspace, connection: synced };
}
