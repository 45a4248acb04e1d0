import { useSignal, useSignalEffect } from '@preact/signals';
import type { Signal } from '@preact/signals';
import { SECTIONS } from '../protocol/panel-protocol.ts';
import { useWorkspaceAccent } from './accent.ts';
import { call, type Problem, type Workspace } from './api/client.ts';
import { stringsFor } from './i18n.ts';
import { SectionView, type SectionNotice } from './sections/index.tsx';
import type { Route } from './route.ts';
import type { PanelSessionState } from './session.ts';

export interface ShellProps {
  state: PanelSessionState;
  route: Signal<Route>;
  /** embedded: the "Open full admin" control; absent standalone */
  onOpenAdmin?: () => void;
  /** standalone: sign out */
  onSignOut?: () => void;
  onNavigate: (route: Route) => void;
  /** the workspace's language, once read (for words said outside the shell) */
  onLanguage?: (language: string) => void;
  /** a section's message for the host (embedded); standalone there is no host and it is dropped */
  notify: (notice: SectionNotice) => void;
  /** true inside a host's iframe */
  embedded: boolean;
  /** bumped when the workspace changed outside the sections (a logo chosen at the host): the shell reads it again */
  workspaceVersion: Signal<number>;
}

function accessLabel(state: PanelSessionState, t: ReturnType<typeof stringsFor>): string {
  if (state.canManageOperations.value && state.canManageSettings.value) return t.fullAccess;
  if (state.canManageOperations.value) return t.operationsAccess;
  if (state.canManageSettings.value) return t.settingsAccess;
  return t.readOnlyAccess;
}

/** The signed-in panel: the workspace, the sections, and the section shown. */
export function Shell({ state, route, onOpenAdmin, onSignOut, onNavigate, onLanguage, notify, embedded, workspaceVersion }: ShellProps) {
  const section = route.value.section;
  const details = useSignal<Workspace | null>(null);
  const client = state.client;
  const loadProblem = useSignal<string | null>(null);
  // Reloaded with every new session and every section: a v1 read with the current token.
  useSignalEffect(() => {
    const slug = state.session.value?.workspace.slug;
    void route.value.section;
    void workspaceVersion.value;
    if (!slug) return;
    call(client.GET('/workspaces/{slug}', { params: { path: { slug } } })).then(
      (body) => {
        details.value = body.workspace;
        loadProblem.value = null;
        onLanguage?.(body.workspace.language);
      },
      (error: Problem) => {
        // standalone, a session that ended meanwhile (its key was revoked) leads back to the sign-in
        if (error.code === 'UNAUTHORIZED' && onSignOut) onSignOut();
        loadProblem.value = error.message;
      },
    );
  });
  useWorkspaceAccent(details.value?.primaryColor ?? state.session.value?.workspace.primaryColor ?? null);
  const logo = details.value?.logoUrl ?? state.session.value?.workspace.logoUrl;
  const t = stringsFor(details.value?.language ?? 'en');
  const can = {
    operations: state.canManageOperations.value,
    settings: state.canManageSettings.value,
    credentials: state.canManageOperations.value && state.canManageSettings.value,
  };
  return (
    <div class={onSignOut ? 'shell standalone' : 'shell'}>
      <header class="bar">
        {logo?.startsWith('https:') ? (
          <img class="logo" src={logo} alt="" />
        ) : (
          <span class="mark" aria-hidden="true">
            {state.workspaceName.value.slice(0, 1)}
          </span>
        )}
        <div class="who">
          <h1>{details.value?.name ?? state.workspaceName.value}</h1>
          <span class="access">{accessLabel(state, t)}</span>
        </div>
        {onOpenAdmin && (
          <button type="button" class="quiet" onClick={onOpenAdmin}>
            {t.openAdmin}
          </button>
        )}
        {onSignOut && (
          <button type="button" class="quiet" onClick={onSignOut}>
            {t.signOut}
          </button>
        )}
      </header>
      <nav aria-label="Sections">
        <ul>
          {SECTIONS.map((each) => (
            <li key={each}>
              <button
                type="button"
                class="item"
                aria-current={each === section ? 'page' : undefined}
                onClick={() => onNavigate({ section: each, bookingId: null })}
              >
                {t.sections[each]}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main id="section" data-section={section}>
        <h2>{t.sections[section]}</h2>
        {details.value ? (
          <SectionView
            section={section}
            bookingId={route.value.bookingId}
            navigate={onNavigate}
            client={client}
            workspace={details.value}
            can={can}
            notify={notify}
            t={t}
            embedded={embedded}
            onWorkspace={(next) => (details.value = next)}
          />
        ) : loadProblem.value ? (
          <p role="alert" class="problem">
            {loadProblem.value}
          </p>
        ) : (
          <p role="status" class="muted">
            {t.loading}
          </p>
        )}
      </main>
    </div>
  );
}

export function Connecting({ problem }: { problem: string | null }) {
  return problem ? (
    <div class="center">
      <p role="alert" class="problem">
        The panel could not be opened: {problem}
      </p>
    </div>
  ) : (
    <div class="center">
      <p role="status">Connecting…</p>
    </div>
  );
}

/**
 * The standalone /admin sign-in: workspace slug and API key, exchanged for a session; the key is not kept.
 * `workspace` prefills the slug (from `/admin?workspace=…`, where "Open full admin" leads).
 */
export function SignIn({ state, workspace = '' }: { state: PanelSessionState; workspace?: string }) {
  const busy = useSignal(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    busy.value = true;
    const signedIn = await state.open({ workspaceSlug: String(data.get('slug') ?? '').trim(), apiKey: String(data.get('key') ?? '').trim() }).catch(() => {
      state.problem.value = 'svc could not be reached. Check your connection and try again.';
      return false;
    });
    busy.value = false;
    (form.elements.namedItem('key') as HTMLInputElement).value = '';
    if (!signedIn) (form.elements.namedItem('key') as HTMLInputElement).focus();
  };
  return (
    <div class="center">
      <form class="card sign-in" onSubmit={submit}>
        <h1>Sign in to svc</h1>
        <p class="muted">Use your workspace's slug and one of its API keys. The key is only used to sign you in.</p>
        <label for="slug">Workspace</label>
        <input
          id="slug"
          name="slug"
          autocomplete="username"
          required
          autocapitalize="none"
          spellcheck={false}
          defaultValue={workspace}
          autofocus={!workspace}
        />
        <label for="key">API key</label>
        <input id="key" name="key" type="password" autocomplete="current-password" required autofocus={!!workspace} />
        {state.problem.value && (
          <p role="alert" class="problem">
            {state.problem.value}
          </p>
        )}
        <button type="submit" disabled={busy.value}>
          {busy.value ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
