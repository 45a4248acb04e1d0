/** Platforms whose path segment the panel routes answer to (docs/contract/panel.md). */
export const PANEL_PLATFORMS = ['hostplatform', 'wordpress'] as const;
export type PanelPlatform = (typeof PANEL_PLATFORMS)[number];

/**
 * The origin as `scheme://host[:port]` (http or https, no path, query, user or fragment), in the form browsers
 * report it (lower-case host, default port left out); null when `input` is not one.
 */
export function parseOrigin(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  const withoutSlash = input.replace(/\/$/, '');
  if (url.pathname !== '/' || /[?#@]/.test(withoutSlash.slice(url.protocol.length + 2))) return null;
  if (withoutSlash.toLowerCase() !== url.origin && withoutSlash.toLowerCase() !== `${url.origin}:${defaultPort(url.protocol)}`) return null;
  return url.origin;
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80');
