import { useSignal, useSignalEffect } from '@preact/signals';
import type { Signal } from '@preact/signals';
import { SECTIONS, type Section } from '../shared/panel-protocol.ts';
import type { PanelSessionState } from './session.ts';

const TITLES: Record<Section, string> = {
  dashboard: 'Dashboard', bookings: 'Bookings', calendar: 'Calendar', services: 'Services', providers: 'Providers',
  hours: 'Working hours', fields: 'Custom fields', settings: 'Settings',
};

interface WorkspaceDetails {
  name: string;
  timezone: string;
  logoUrl: string | null;
}

export interface ShellProps {
  state: PanelSessionState;
  section: Signal<Section>;
  /** embedded: the "Open full admin" control; absent standalone */
  onOpenAdmin?: () => void;
  /** standalone: sign out */
  onSignOut?: () => void;
  onNavigate: (section: Section) => void;
}

function accessLabel(state: PanelSessionState): string {
  if (state.canManageOperations.value && state.canManageSettings.value) return 'Full access';
  if (state.canManageOperations.value) return 'Operations';
  if (state.canManageSettings.value) return 'Settings';
  return 'Read only';
}

/** The signed-in panel: the workspace, the sections, and the section shown (its content is a later release). */
export function Shell({ state, section, onOpenAdmin, onSignOut, onNavigate }: ShellProps) {
  const details = useSignal<WorkspaceDetails | null>(null);
  const loadProblem = useSignal<string | null>(null);
  // Reloaded with every new session and every section: a v1 read with the current token.
  useSignalEffect(() => {
    const slug = state.session.value?.workspace.slug;
    void section.value;
    if (!slug) return;
    state.api<{ workspace: WorkspaceDetails }>('GET', `/workspaces/${encodeURIComponent(slug)}`).then((body) => {
      details.value = body.workspace;
      loadProblem.value = null;
    }, (error: Error) => {
      loadProblem.value = error.message;
    });
  });
  const logo = details.value?.logoUrl ?? state.session.value?.workspace.logoUrl;
  return (
    <div class={onSignOut ? 'shell standalone' : 'shell'}>
      <header class="bar">
        {logo?.startsWith('https:') ? <img class="logo" src={logo} alt="" /> : <span class="mark" aria-hidden="true">{state.workspaceName.value.slice(0, 1)}</span>}
        <div class="who">
          <h1>{details.value?.name ?? state.workspaceName.value}</h1>
          <span class="access">{accessLabel(state)}</span>
        </div>
        {onOpenAdmin && <button type="button" class="quiet" onClick={onOpenAdmin}>Open full admin</button>}
        {onSignOut && <button type="button" class="quiet" onClick={onSignOut}>Sign out</button>}
      </header>
      <nav aria-label="Sections">
        <ul>
          {SECTIONS.map((each) => (
            <li key={each}>
              <button type="button" class="item" aria-current={each === section.value ? 'page' : undefined} onClick={() => onNavigate(each)}>{TITLES[each]}</button>
            </li>
          ))}
        </ul>
      </nav>
      <main id="section" data-section={section.value}>
        <h2>{TITLES[section.value]}</h2>
        {loadProblem.value
          ? <p role="alert" class="problem">{loadProblem.value}</p>
          : details.value && <p class="facts">Time zone <strong>{details.value.timezone}</strong></p>}
        <p class="muted">This section's tools are on their way.</p>
      </main>
    </div>
  );
}

export function Connecting({ problem }: { problem: string | null }) {
  return problem
    ? <div class="center"><p role="alert" class="problem">The panel could not be opened: {problem}</p></div>
    : <div class="center"><p role="status">Connecting…</p></div>;
}

/** The standalone /admin sign-in: workspace slug and API key, exchanged for a session; the key is not kept. */
export function SignIn({ state }: { state: PanelSessionState }) {
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
        <input id="slug" name="slug" autocomplete="username" required autocapitalize="none" spellcheck={false} />
        <label for="key">API key</label>
        <input id="key" name="key" type="password" autocomplete="current-password" required />
        {state.problem.value && <p role="alert" class="problem">{state.problem.value}</p>}
        <button type="submit" disabled={busy.value}>{busy.value ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </div>
  );
}
