import { computed, signal } from '@preact/signals';
import { createPanelClient, sentence, type PanelClient } from './api/client.ts';

/** The session as /api/panel/session answers it. */
export interface IssuedSession {
  token: string;
  expiresAt: string;
  /** seconds */
  expiresIn: number;
  capabilities: string[];
  origin: string | null;
  workspace: { id: string; slug: string; name: string; logoUrl: string | null; primaryColor: string | null };
}

export type Phase = 'connecting' | 'signed-out' | 'ready' | 'failed';

/** Shortly before expiry (about two minutes; a quarter of a short session) the panel asks for a new session. */
export function renewalDelayMs(expiresIn: number): number {
  const lead = Math.min(120, expiresIn / 4);
  return Math.max(0, (expiresIn - lead) * 1000);
}

/** A human sentence for an error body of svc, or for a failed request. */
async function problemOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: string } | null;
  return sentence(body?.error ?? `the server answered ${response.status}`);
}

/** Where the standalone admin keeps its session for the tab's life (sessionStorage; never the API key). */
export const KEPT_SESSION = 'svc-admin-session';

/**
 * The panel's one session, with what the shell shows; never in a cookie or a URL. Embedded it lives in memory
 * only. Standalone, `keep` (the tab's sessionStorage) holds it too, so a reload or Back keeps the owner signed in
 * until the session ends, the owner signs out or the tab closes (docs/decisions/0014-admin-session-per-tab.md).
 * `onExpiring` runs shortly before expiry: embedded, it asks the host for a new code; standalone, it renews.
 */
export class PanelSessionState {
  readonly phase = signal<Phase>('connecting');
  readonly session = signal<IssuedSession | null>(null);
  readonly problem = signal<string | null>(null);
  readonly workspaceName = computed(() => this.session.value?.workspace.name ?? '');
  readonly canManageSettings = computed(() => this.session.value?.capabilities.includes('svc_manage_settings') ?? false);
  readonly canManageOperations = computed(() => this.session.value?.capabilities.includes('svc_manage_operations') ?? false);
  /** The typed v1 client, sending this session's current token with every call. */
  readonly client: PanelClient = createPanelClient(() => this.session.value?.token ?? null);
  private renewal: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly onExpiring: () => void,
    private readonly keep: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null = null,
  ) {}

  /** Takes up the session the tab kept, if it is still valid for a while; true when it did. */
  resume(now = Date.now()): boolean {
    let kept: IssuedSession | null = null;
    try {
      kept = JSON.parse(this.keep?.getItem(KEPT_SESSION) ?? 'null') as IssuedSession | null;
    } catch {
      kept = null;
    }
    const left = kept ? (Date.parse(kept.expiresAt) - now) / 1000 : 0;
    if (!kept || !(left > 2)) {
      this.keep?.removeItem(KEPT_SESSION);
      return false;
    }
    this.use({ ...kept, expiresIn: Math.floor(left) });
    return true;
  }

  /**
   * POST /api/panel/session with a code and frameContext (embedded) or a slug and API key (standalone).
   * Embedded, `expected` names the workspace of the page's address and the origin of the host it talks to: a
   * session for anything else is dropped unused, since a page that opened this window could otherwise sign it
   * in to a workspace of its own under another workspace's address.
   */
  async open(
    body: { code: string; frameContext: string } | { workspaceSlug: string; apiKey: string },
    expected?: { workspaceSlug: string; origin: string },
  ): Promise<boolean> {
    const response = await fetch('/api/panel/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return this.take(response, expected);
  }

  /** POST /api/panel/session/refresh with the current token. */
  async renew(): Promise<boolean> {
    const token = this.session.value?.token;
    if (!token) return false;
    return this.take(await fetch('/api/panel/session/refresh', { method: 'POST', headers: { authorization: `Bearer ${token}` } }));
  }

  signOut() {
    clearTimeout(this.renewal);
    this.keep?.removeItem(KEPT_SESSION);
    this.session.value = null;
    this.problem.value = null;
    this.phase.value = 'signed-out';
  }

  private async take(response: Response, expected?: { workspaceSlug: string; origin: string }): Promise<boolean> {
    if (!response.ok) {
      this.problem.value = await problemOf(response);
      return false;
    }
    const issued = (await response.json()) as IssuedSession;
    if (expected && (issued.workspace.slug !== expected.workspaceSlug || issued.origin !== expected.origin)) {
      this.problem.value = 'the session offered is for another workspace or site than the one this page belongs to';
      return false;
    }
    this.keep?.setItem(KEPT_SESSION, JSON.stringify(issued));
    this.use(issued);
    return true;
  }

  private use(issued: IssuedSession) {
    this.session.value = issued;
    this.problem.value = null;
    this.phase.value = 'ready';
    clearTimeout(this.renewal);
    this.renewal = setTimeout(() => this.onExpiring(), renewalDelayMs(issued.expiresIn));
  }
}
