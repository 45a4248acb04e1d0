const DOMAIN_PATTERN = /^(\*\.)?(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * An allowed widget domain as stored: lower case, no scheme, path or port; `*.example.org` allows every
 * subdomain of example.org (not example.org itself). Returns null for anything else.
 */
export function normalizeDomain(input: string): string | null {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  return DOMAIN_PATTERN.test(domain) ? domain : null;
}

/** The host of an `Origin` header value, or null when it is not an http(s) origin. */
export function originHost(origin: string | null | undefined): string | null {
  if (!origin) return null;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return url.hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** Whether a page at `origin` may use the workspace's public booking routes. */
export function isAllowedOrigin(origin: string | null | undefined, domains: string[]): boolean {
  const host = originHost(origin);
  if (!host) return false;
  return domains.some((domain) => (domain.startsWith('*.') ? host.endsWith(domain.slice(1)) && host.length > domain.length - 1 : host === domain));
}

/** The `scheme://host[:port]` of a URL or origin, lower case, or null. */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * Whether a keyless widget call from a page at `origin` may book for `workspace` (docs/contract/widget.md):
 * every workspace takes svc's own origin (`publicUrl`, its hosted booking pages) and the hosts of its allowed
 * domains. (A workspace a route opens to everyone takes any origin: the access step decides that.)
 */
export function isWidgetOriginAllowed(origin: string | null | undefined, workspace: { domains: string[] }, publicUrl: string): boolean {
  if (!origin) return false;
  const own = originOf(publicUrl);
  return (own !== null && originOf(origin) === own) || isAllowedOrigin(origin, workspace.domains);
}
