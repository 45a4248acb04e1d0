/*
 * The svc admin panel: embedded in a host's iframe at /widget/panel/admin/{slug} (it waits for the host's
 * bootstrap message and exchanges the code for a session) or standalone at /admin (slug and API key). Embedded,
 * the session token lives in memory only; standalone, also in the tab's sessionStorage (see session.ts), and
 * every section has its own address (route.ts).
 */
import { signal } from '@preact/signals';
import { render } from 'preact';
import { ADMIN_WORKSPACE_PARAM, sectionOf, type HostMessage } from '../protocol/panel-protocol.ts';
import { call } from './api/client.ts';
import { linkToHost, type HostLink } from './embedded.ts';
import { stringsFor } from './i18n.ts';
import { pathOfRoute, routeOfPath, type Route } from './route.ts';
import { PanelSessionState } from './session.ts';
import { Connecting, Shell, SignIn } from './ui.tsx';
import { guardUnload, mayLeave } from './unsaved.ts';

const root = document.getElementById('panel');
const params = new URLSearchParams(location.search);
const embedded = location.pathname.startsWith('/widget/panel/admin/');
const route = signal<Route>(embedded ? { section: sectionOf(params.get('section')), bookingId: null } : routeOfPath(location.pathname));
/** bumped after a logo chosen at the host was saved, so the shell shows the workspace as it is now */
const workspaceVersion = signal(0);
/** the language of the words of the "unsaved edits" question, once the workspace is known */
const language = signal('en');

/** Goes to `next`, asking first when a form holds unsaved edits; standalone, the address follows. */
function navigate(next: Route) {
  if (next.section === route.value.section && next.bookingId === route.value.bookingId) return;
  if (next.section !== route.value.section && !mayLeave(stringsFor(language.value).unsavedLeave)) return;
  route.value = next;
  if (!embedded) history.pushState(null, '', `${pathOfRoute(next)}${location.search}`);
}

function App({ state, host }: { state: PanelSessionState; host: HostLink | null }) {
  if (state.phase.value === 'ready') {
    return host ? (
      <Shell
        state={state}
        route={route}
        onNavigate={navigate}
        embedded
        notify={(notice) => host.send(notice)}
        workspaceVersion={workspaceVersion}
        onOpenAdmin={() => host.send({ type: 'svc:panel:open-admin' })}
        onLanguage={(next) => (language.value = next)}
      />
    ) : (
      <Shell
        state={state}
        route={route}
        onNavigate={navigate}
        embedded={false}
        notify={() => {}}
        workspaceVersion={workspaceVersion}
        onSignOut={() => state.signOut()}
        onLanguage={(next) => (language.value = next)}
      />
    );
  }
  if (embedded) return <Connecting problem={state.problem.value} />;
  return <SignIn state={state} workspace={params.get(ADMIN_WORKSPACE_PARAM)?.trim() ?? ''} />;
}

/** The workspace the iframe or window address names (/widget/panel/admin/{slug}). */
function addressSlug(): string {
  const segment = location.pathname.split('/')[4] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function startEmbedded(): { state: PanelSessionState; host: HostLink | null } {
  const channelId = params.get('channelId') ?? '';
  const frameContext = params.get('frameContext') ?? '';
  let host: HostLink | null = null;
  const state = new PanelSessionState(() => host?.send({ type: 'svc:panel:session-expiring' }));
  const onMessage = (message: HostMessage) => {
    switch (message.type) {
      case 'svc:panel:bootstrap':
        // the bootstrap names the host; the one frameContext names is the only one the panel serves
        if (!host || message.origin !== host.origin) return;
        void state
          .open({ code: message.code, frameContext: message.frameContext ?? frameContext }, { workspaceSlug: addressSlug(), origin: host.origin })
          .catch(() => {
            state.problem.value = 'svc could not be reached';
          });
        return;
      case 'svc:panel:navigate':
        navigate({ section: sectionOf(message.section), bookingId: null });
        return;
      case 'svc:panel:logo-selected':
        void saveLogo(state, message.url, host);
        return;
      case 'svc:panel:logo-cancelled':
        return;
    }
  };
  if (channelId && frameContext) host = linkToHost(channelId, frameContext, onMessage);
  if (!host) state.problem.value = 'this page must be opened by a host platform through svc-panel-host.js';
  else {
    watchHeight(host);
    host.send({ type: 'svc:panel:ready' });
  }
  return { state, host };
}

async function saveLogo(state: PanelSessionState, url: string, host: HostLink | null) {
  const slug = state.session.value?.workspace.slug;
  if (!slug) return;
  const saved = await call(state.client.PATCH('/workspaces/{slug}', { params: { path: { slug } }, body: { logoUrl: url } })).then(
    () => true,
    () => false,
  );
  if (saved) {
    workspaceVersion.value++;
    host?.send({ type: 'svc:panel:changed' });
  }
}

/** Reports the content height whenever it changes, so the host sizes the iframe to fit. */
function watchHeight(host: HostLink) {
  let last = -1;
  const report = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    host.send({ type: 'svc:panel:resize', height });
  };
  new ResizeObserver(report).observe(document.documentElement);
}

guardUnload();

if (root) {
  let app: { state: PanelSessionState; host: HostLink | null };
  if (embedded) {
    app = startEmbedded();
  } else {
    const state: PanelSessionState = new PanelSessionState(() => {
      void state.renew().then((renewed) => {
        if (!renewed) state.signOut();
      });
    }, sessionStorage);
    if (!state.resume()) state.phase.value = 'signed-out';
    app = { state, host: null };
    // Back and Forward move between sections and bookings; unsaved edits are asked about first
    addEventListener('popstate', () => {
      const next = routeOfPath(location.pathname);
      if (next.section !== route.value.section && !mayLeave(stringsFor(language.value).unsavedLeave)) {
        history.pushState(null, '', `${pathOfRoute(route.value)}${location.search}`);
        return;
      }
      route.value = next;
    });
  }
  render(<App state={app.state} host={app.host} />, root);
}
