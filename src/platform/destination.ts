import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';

/*
 * Where svc may send a request whose URL a user chose (a webhook, a calendar): public addresses only, unless
 * SVC_WEBHOOK_ALLOW_PRIVATE (webhooks) or SVC_CALENDAR_ALLOW_PRIVATE (calendars) is set. Such a URL is chosen by
 * whoever holds an API key; without this check it would make the server call its own loopback, the cloud
 * metadata service (169.254.169.254) or hosts on the private network (SSRF). The check runs when a URL is set
 * and again before every request, since a name may resolve differently later.
 */

/** Resolves a host name to every address it has. */
export type Resolver = (host: string) => Promise<string[]>;

/** How long a name may take to resolve before it counts as unresolvable, ms. */
export const RESOLVE_TIMEOUT_MS = 5_000;

export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

type Range = [network: bigint, prefix: number, name: string];

const v4 = (text: string): bigint => text.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);

const IPV4_RANGES: Range[] = [
  [v4('0.0.0.0'), 8, 'unspecified'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'carrier-grade NAT'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'reserved'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

/** The 128-bit value of an IPv6 address (with `::` and an embedded dotted IPv4 tail). */
function v6(text: string): bigint {
  let address = text.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const tail = v4(dotted[1]!);
    address = address.slice(0, -dotted[1]!.length) + `${(tail >> 16n).toString(16)}:${(tail & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group || '0', 16)), 0n);
}

const IPV6_RANGES: Range[] = [
  [0n, 128, 'unspecified'],
  [1n, 128, 'loopback'],
  [v6('fc00::'), 7, 'unique-local'],
  [v6('fe80::'), 10, 'link-local'],
  [v6('fec0::'), 10, 'site-local'],
  [v6('ff00::'), 8, 'multicast'],
];

const inRange = (value: bigint, bits: number, [network, prefix]: Range) => value >> BigInt(bits - prefix) === network >> BigInt(bits - prefix);

function ipv4Range(value: bigint): string | null {
  return IPV4_RANGES.find((range) => inRange(value, 32, range))?.[2] ?? null;
}

/**
 * The kind of non-public address `address` is (`loopback`, `private`, `link-local`, `carrier-grade NAT`,
 * `unique-local`, `unspecified`, …), or null for a public one. IPv6 forms that carry an IPv4 address
 * (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by it.
 */
export function nonPublicRange(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return ipv4Range(v4(address));
  if (family !== 6) return 'not an IP address';
  const value = v6(address);
  const own = IPV6_RANGES.find((range) => inRange(value, 128, range));
  if (own) return own[2];
  const low32 = value & 0xffff_ffffn;
  if (value >> 32n === 0xffffn || value >> 32n === 0n) return ipv4Range(low32);
  if (value >> 32n === v6('64:ff9b::') >> 32n) return ipv4Range(low32);
  if (value >> 112n === 0x2002n) return ipv4Range((value >> 80n) & 0xffff_ffffn);
  return null;
}

export type DestinationCheck = { ok: true; addresses: string[] } | { ok: false; reason: string; unresolved?: boolean };

async function resolveWithin(resolve: Resolver, host: string): Promise<string[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${RESOLVE_TIMEOUT_MS / 1000} s`)), RESOLVE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([resolve(host), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** `url`'s host as DNS and address checks want it: no IPv6 brackets, no trailing dot, lower case. */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** `localhost` and `*.localhost` are loopback by definition (RFC 6761), whatever a resolver says. */
const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * The address a delivery to `url` connects to when private addresses are allowed (SVC_WEBHOOK_ALLOW_PRIVATE):
 * the host's first address, resolved once here so the request does not look the name up again; undefined for an
 * address literal, a localhost name, or a name that does not resolve (the request then fails as it would).
 */
export async function deliveryAddress(url: URL, resolve: Resolver = systemResolver): Promise<string | undefined> {
  const host = hostOf(url);
  if (isIP(host) || isLocalhostName(host)) return undefined;
  try {
    return (await resolveWithin(resolve, host))[0];
  } catch {
    return undefined;
  }
}

/**
 * Whether `url`'s host is (or resolves to) public addresses only. `localhost` and `*.localhost` are loopback
 * by definition (RFC 6761). A name that does not resolve is reported with `unresolved: true`: the caller
 * decides (a new URL may be accepted before its DNS exists; a delivery cannot go anywhere).
 */
export async function checkDestination(url: URL, resolve: Resolver = systemResolver): Promise<DestinationCheck> {
  const host = hostOf(url);
  if (isLocalhostName(host)) return { ok: false, reason: `${host} is not a public address (loopback)` };
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await resolveWithin(resolve, host);
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { ok: false, unresolved: true, reason: `${host} could not be resolved (${code ?? (error instanceof Error ? error.message : String(error))})` };
    }
    if (addresses.length === 0) return { ok: false, unresolved: true, reason: `${host} could not be resolved (no addresses)` };
  }
  for (const address of addresses) {
    const range = nonPublicRange(address);
    if (range)
      return {
        ok: false,
        reason: address === host ? `${host} is not a public address (${range})` : `${host} resolves to ${address}, not a public address (${range})`,
      };
  }
  return { ok: true, addresses };
}

/**
 * A lookup that answers every name with `address` (the one the destination check approved), in whichever form the
 * caller asked for: a connection made with it goes where the check looked, whatever a second DNS answer would say.
 */
export function pinnedLookup(address: string): LookupFunction {
  const family = address.includes(':') ? 6 : 4;
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}
