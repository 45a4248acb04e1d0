/*
 * `{app_url}/svc-panel-host.js`: embeds the svc admin panel in a host platform's admin page (docs/contract/panel.md, docs/contract/wordpress.md). One global, `window.SvcPanelHost`, with `mount(options)`. Nothing is done before mount; every
 * failure is reported through `onError` (and the console) and shown in the container, never thrown at the page.
 */
import {
  acceptPanelMessage,
  adminAddress,
  hostEnvelope,
  newChannelId,
  panelAddress,
  sectionOf,
  type HostMessage,
  type PanelMessage,
} from '../protocol/panel-protocol.ts';

export interface MountOptions {
  /** the element the panel iframe (or, in window mode, the open button) goes in */
  container: HTMLElement;
  /** svc's origin, such as https://svc.example.com */
  panelOrigin: string;
  /** the host's own backend route that performs svc's bootstrap call and returns its JSON (same origin, credentials included) */
  bootstrapUrl: string;
  /** the section to open: dashboard, bookings, calendar, services, providers, hours, fields, settings */
  section?: string;
  /** extra headers of the bootstrap POST (WordPress: X-WP-Nonce) */
  bootstrapHeaders?: Record<string, string>;
  /** `iframe` (default) or `window`: a button opens the panel in a new window instead */
  mode?: 'iframe' | 'window';
  /** after each change the panel saved */
  onChanged?: () => void;
  /**
   * the panel's "Open full admin" control; `url` is svc's standalone admin for the same workspace
   * (`{panelOrigin}/admin?workspace={slug}`, its sign-in prefilled), to open in a new tab
   */
  onOpenAdmin?: (admin: { url: string; workspaceSlug: string }) => void;
  /** the panel asks for a logo: resolve to an image URL, or null when the user cancels */
  onSelectLogo?: () => Promise<string | null>;
  /** a full-screen view of the panel opened or closed */
  onFocusMode?: (enabled: boolean) => void;
  /** the panel could not be opened or renewed */
  onError?: (error: Error) => void;
}

export interface MountedPanel {
  /** removes the panel and every listener */
  destroy(): void;
  /** shows another section */
  navigate(section: string): void;
}

interface Bootstrap {
  code: string;
  frameContext: string;
  workspaceSlug: string;
}

/** the iframe's height until the panel reports its own, and the least it is given after */
const INITIAL_HEIGHT = 480;
const MIN_HEIGHT = 160;

function originOf(url: string): string {
  return new URL(url, location.href).origin;
}

function mount(options: MountOptions): MountedPanel {
  const report = (error: Error) => {
    console.error(`svc panel: ${error.message}`);
    try {
      options.onError?.(error);
    } catch {
      // a failing callback of the host must not break the panel
    }
  };
  const noop: MountedPanel = { destroy() {}, navigate() {} };
  if (!options || !(options.container instanceof HTMLElement)) {
    report(new Error('mount needs a container element'));
    return noop;
  }
  let panelOrigin: string;
  try {
    panelOrigin = originOf(options.panelOrigin);
  } catch {
    report(new Error(`panelOrigin ${String(options.panelOrigin)} is not a URL`));
    return noop;
  }
  const { container } = options;
  const section = sectionOf(options.section);
  const channelId = newChannelId();
  let peer: Window | null = null;
  let frame: HTMLIFrameElement | null = null;
  let destroyed = false;
  /** the bootstrap whose code has not been handed to the panel yet */
  let pending: Promise<Bootstrap> | null = null;
  /** the workspace the first bootstrap named, for the full admin's address */
  let workspaceSlug = '';

  const showProblem = (message: string) => {
    const note = document.createElement('p');
    note.setAttribute('role', 'alert');
    note.textContent = message;
    container.replaceChildren(note);
  };

  async function bootstrap(): Promise<Bootstrap> {
    const response = await fetch(options.bootstrapUrl, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.bootstrapHeaders },
      body: JSON.stringify({ section }),
    });
    const body: unknown = await response.json().catch(() => null);
    const fields = (body ?? {}) as Partial<Bootstrap> & { error?: string };
    if (!response.ok || typeof fields.code !== 'string' || typeof fields.frameContext !== 'string' || typeof fields.workspaceSlug !== 'string') {
      throw new Error(`bootstrap at ${options.bootstrapUrl} failed (${response.status})${fields.error ? `: ${fields.error}` : ''}`);
    }
    return { code: fields.code, frameContext: fields.frameContext, workspaceSlug: fields.workspaceSlug };
  }

  function send(message: HostMessage) {
    // the exact panel origin, never a wildcard
    peer?.postMessage(hostEnvelope(channelId, message), panelOrigin);
  }

  /** Hands the panel a fresh code (the pending one, or a new bootstrap). */
  async function handOver() {
    const next = pending ?? bootstrap();
    pending = null;
    try {
      const { code, frameContext } = await next;
      if (!destroyed) send({ type: 'svc:panel:bootstrap', code, origin: location.origin, frameContext });
    } catch (error) {
      report(error as Error);
    }
  }

  async function onPanelMessage(message: PanelMessage) {
    switch (message.type) {
      case 'svc:panel:ready':
      case 'svc:panel:session-expiring':
        return handOver();
      case 'svc:panel:resize':
        if (frame) frame.style.height = `${Math.max(MIN_HEIGHT, Math.ceil(message.height))}px`;
        return;
      case 'svc:panel:changed':
        return options.onChanged?.();
      case 'svc:panel:open-admin':
        return options.onOpenAdmin?.({ url: adminAddress(panelOrigin, workspaceSlug), workspaceSlug });
      case 'svc:panel:focus-mode':
        return options.onFocusMode?.(message.enabled);
      case 'svc:panel:select-logo': {
        let url: string | null = null;
        try {
          url = options.onSelectLogo ? await options.onSelectLogo() : null;
        } catch (error) {
          report(error as Error);
        }
        return send(url ? { type: 'svc:panel:logo-selected', url } : { type: 'svc:panel:logo-cancelled' });
      }
    }
  }

  const listener = (event: MessageEvent) => {
    if (!peer || event.source !== peer) return;
    const message = acceptPanelMessage(event, panelOrigin, channelId);
    if (message) void onPanelMessage(message);
  };
  window.addEventListener('message', listener);

  const address = (first: Bootstrap) => {
    workspaceSlug = first.workspaceSlug;
    return panelAddress(panelOrigin, first.workspaceSlug, channelId, first.frameContext, section);
  };

  if (options.mode === 'window') {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Open the admin panel';
    button.addEventListener('click', () => {
      // opened within the click, so no popup blocker interferes; the address follows once bootstrap answers
      const opened = window.open('about:blank', `svc-panel-${channelId}`);
      if (!opened) return report(new Error('the browser blocked the panel window'));
      peer = opened;
      pending = bootstrap();
      pending.then(
        (first) => {
          if (!destroyed) opened.location.href = address(first);
        },
        (error: Error) => {
          opened.close();
          report(error);
        },
      );
    });
    container.replaceChildren(button);
  } else {
    pending = bootstrap();
    pending.then(
      (first) => {
        if (destroyed) return;
        frame = document.createElement('iframe');
        frame.title = 'Admin panel';
        frame.src = address(first);
        frame.style.cssText = `display:block;width:100%;height:${INITIAL_HEIGHT}px;border:0`;
        container.replaceChildren(frame);
        peer = frame.contentWindow;
      },
      (error: Error) => {
        report(error);
        showProblem('The admin panel could not be opened. Reload the page to try again.');
      },
    );
  }

  return {
    destroy() {
      destroyed = true;
      window.removeEventListener('message', listener);
      frame?.remove();
      if (options.mode === 'window' && peer && !peer.closed) peer.close();
      peer = null;
      frame = null;
    },
    navigate(next: string) {
      send({ type: 'svc:panel:navigate', section: sectionOf(next) });
    },
  };
}

declare global {
  interface Window {
    SvcPanelHost?: { mount: typeof mount };
  }
}

window.SvcPanelHost = { mount };
