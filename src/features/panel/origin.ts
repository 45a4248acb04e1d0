/** Platforms whose path segment the panel routes answer to (docs/contract/panel.md). */
export const PANEL_PLATFORMS = ['hostplatform', 'wordpress'] as const;
export type PanelPlatform = (typeof PANEL_PLATFORMS)[number];

/** A DNS name: letter-digit-hyphen labels, none empty or starting or ending with a hyphen, 253 characters at most. */
const DNS_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/**
 * Whether a parsed host is a DNS name or an IP literal. The URL parser lets through hosts such as `*`,
 * `*.example.com`, `a.example;script-src` or `x'.example`; copied into a CSP `frame-ancestors` or the widget
 * domains they would widen them (a wildcard) or inject into them (docs/contract/panel.md §2).
 */
const isPlainHost = (host: string) => DNS_NAME.test(host) || IPV4.test(host) || IPV6.test(host);

/**
 * The origin as `scheme://host[:port]` (http or https; the host a DNS name or an IP literal; no path, query,
 * user or fragment), in the form browsers report it (lower-case host, default port left out); null when `input`
 * is not one.
 */
export function parseOrigin(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!isPlainHost(url.hostname)) return null;
  if (url.username || url.password || url.search || url.hash) return null;
  const withoutSlash = input.replace(/\/$/, '');
  if (url.pathname !== '/' || /[?#@]/.test(withoutSlash.slice(url.protocol.length + 2))) return null;
  if (withoutSlash.toLowerCase() !== url.origin && withoutSlash.toLowerCase() !== `${url.origin}:${defaultPort(url.protocol)}`) return null;
  return url.origin;
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80');
