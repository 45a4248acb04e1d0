/*
 * The message protocol between a host page and the svc admin panel (docs/contract/events.md, docs/contract/panel.md),
 * imported by both sides (web/panel-host and web/panel) so they cannot drift. A message is a plain object:
 * `{ type, source, version, channelId, ...payload }`. Every receiver runs the same four checks, in the order of
 * docs/contract/panel.md, and drops anything that fails one.
 */

export const PROTOCOL_VERSION = 1;
/** `source` of every panel message */
export const PANEL_SOURCE = 'svc-panel';
/** `source` of every host message, on every platform (a constant the protocol inherited) */
export const HOST_SOURCE = 'svc-wordpress';

export const SECTIONS = ['dashboard', 'bookings', 'calendar', 'services', 'providers', 'hours', 'fields', 'settings'] as const;
export type Section = (typeof SECTIONS)[number];

/** A known section, else `dashboard` (docs/contract/panel.md). */
export function sectionOf(value: unknown): Section {
  return (SECTIONS as readonly unknown[]).includes(value) ? (value as Section) : 'dashboard';
}

/** Panel → host. */
export type PanelMessage =
  | { type: 'svc:panel:ready' }
  | { type: 'svc:panel:resize'; height: number }
  | { type: 'svc:panel:changed' }
  | { type: 'svc:panel:session-expiring' }
  | { type: 'svc:panel:open-admin' }
  | { type: 'svc:panel:focus-mode'; enabled: boolean }
  | { type: 'svc:panel:select-logo' };

/** Host → panel. `frameContext` rides along a re-bootstrap's code, which the iframe address cannot carry. */
export type HostMessage =
  | { type: 'svc:panel:bootstrap'; code: string; origin: string; frameContext?: string }
  | { type: 'svc:panel:logo-selected'; url: string }
  | { type: 'svc:panel:logo-cancelled' }
  | { type: 'svc:panel:navigate'; section: string };

export interface Envelope {
  source: string;
  version: number;
  channelId: string;
}

export function panelEnvelope(channelId: string, message: PanelMessage): PanelMessage & Envelope {
  return { ...message, source: PANEL_SOURCE, version: PROTOCOL_VERSION, channelId };
}

export function hostEnvelope(channelId: string, message: HostMessage): HostMessage & Envelope {
  return { ...message, source: HOST_SOURCE, version: PROTOCOL_VERSION, channelId };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** What a receiver expects of every message: the peer's exact origin, its `source`, and the channel. */
export interface Expected {
  origin: string;
  source: typeof PANEL_SOURCE | typeof HOST_SOURCE;
  channelId: string;
}

/**
 * The four checks, in this order: the event's origin is the peer's exact origin; `source`; `version` 1;
 * `channelId`. Returns the message when all pass, else null (the caller drops it silently).
 */
export function checkEnvelope(event: { origin: string; data: unknown }, expected: Expected): Record<string, unknown> | null {
  if (event.origin !== expected.origin) return null;
  const data = event.data;
  if (!isObject(data) || data.source !== expected.source) return null;
  if (data.version !== PROTOCOL_VERSION) return null;
  if (data.channelId !== expected.channelId) return null;
  return data;
}

/** A panel message the host accepts, with its payload checked; null for anything else. */
export function acceptPanelMessage(event: { origin: string; data: unknown }, origin: string, channelId: string): PanelMessage | null {
  const data = checkEnvelope(event, { origin, source: PANEL_SOURCE, channelId });
  if (!data) return null;
  switch (data.type) {
    case 'svc:panel:ready':
    case 'svc:panel:changed':
    case 'svc:panel:session-expiring':
    case 'svc:panel:open-admin':
    case 'svc:panel:select-logo':
      return { type: data.type };
    case 'svc:panel:resize':
      return typeof data.height === 'number' && Number.isFinite(data.height) && data.height >= 0 ? { type: data.type, height: data.height } : null;
    case 'svc:panel:focus-mode':
      return typeof data.enabled === 'boolean' ? { type: data.type, enabled: data.enabled } : null;
    default:
      return null;
  }
}

/** A host message the panel accepts, with its payload checked; null for anything else. */
export function acceptHostMessage(event: { origin: string; data: unknown }, origin: string, channelId: string): HostMessage | null {
  const data = checkEnvelope(event, { origin, source: HOST_SOURCE, channelId });
  if (!data) return null;
  switch (data.type) {
    case 'svc:panel:bootstrap':
      if (!isText(data.code) || !isText(data.origin)) return null;
      return { type: data.type, code: data.code, origin: data.origin, ...(isText(data.frameContext) ? { frameContext: data.frameContext } : {}) };
    case 'svc:panel:logo-selected':
      return isText(data.url) ? { type: data.type, url: data.url } : null;
    case 'svc:panel:logo-cancelled':
      return { type: data.type };
    case 'svc:panel:navigate':
      return typeof data.section === 'string' ? { type: data.type, section: data.section } : null;
    default:
      return null;
  }
}

/** The iframe address of docs/contract/routes.md: both values URL-encoded, so a `#` or `+` in them survives. */
export function panelAddress(panelOrigin: string, workspaceSlug: string, channelId: string, frameContext: string, section: string): string {
  const query = `channelId=${encodeURIComponent(channelId)}&frameContext=${encodeURIComponent(frameContext)}&section=${encodeURIComponent(section)}`;
  return `${panelOrigin}/widget/panel/admin/${encodeURIComponent(workspaceSlug)}?${query}`;
}

/** The query value of the standalone `/admin` page that prefills its workspace field (no secret ever goes there). */
export const ADMIN_WORKSPACE_PARAM = 'workspace';

/** The standalone admin of a workspace, `{panelOrigin}/admin?workspace={slug}`: where "Open full admin" leads. */
export function adminAddress(panelOrigin: string, workspaceSlug: string): string {
  return `${panelOrigin}/admin?${ADMIN_WORKSPACE_PARAM}=${encodeURIComponent(workspaceSlug)}`;
}

/** The host origin a frameContext names (it is signed, not encrypted: anyone may read it, only svc can check it). */
export function frameContextOrigin(frameContext: string): string | null {
  const payload = frameContext.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const claims: unknown = JSON.parse(json);
    return isObject(claims) && isText(claims.origin) ? claims.origin : null;
  } catch {
    return null;
  }
}

/** A fresh channel id: 128 random bits, hex. */
export function newChannelId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
