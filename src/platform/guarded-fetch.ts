import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkDestination, deliveryAddress, pinnedLookup, type Resolver, systemResolver } from './destination.ts';

/*
 * A `fetch` for URLs a user chose (calendar URLs, docs/contract/calendars.md §10): every hop's host is checked
 * against the destination rules (src/platform/destination.ts) and the connection goes to the address checked, so
 * a DNS answer that changes in between cannot send it elsewhere; redirects are followed by hand and each one is
 * checked again; each request has a time limit and a size limit on the answer's body.
 */

/** How long one request may take, headers and body, ms. */
export const GUARDED_FETCH_TIMEOUT_MS = 10_000;
/** The largest answer body read, bytes (10 MiB). */
export const GUARDED_FETCH_MAX_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 5;

export interface GuardedFetchOptions {
  /** allow loopback, private and link-local addresses (SVC_CALENDAR_ALLOW_PRIVATE) */
  allowPrivate: boolean;
  /** per request, ms; default GUARDED_FETCH_TIMEOUT_MS */
  timeoutMs?: number;
  /** per answer body, bytes; default GUARDED_FETCH_MAX_BYTES */
  maxBytes?: number;
  resolve?: Resolver;
}

/** Why a guarded request did not get an answer: a sentence without secrets. */
export class GuardedFetchError extends Error {
  constructor(
    readonly reason: 'destination' | 'timeout' | 'too-large' | 'network' | 'redirects',
    message: string,
    /** the facts of the sentence, for a caller that says it in its own words */
    readonly facts: { host: string; detail?: string; seconds?: number } | null = null,
  ) {
    super(message);
    this.name = 'GuardedFetchError';
  }
}

export type GuardedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

interface Hop {
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

async function bodyOf(init: RequestInit | undefined): Promise<string | Uint8Array | undefined> {
  const body = init?.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** One request over node:http(s) to `address` (when given), its whole body read within the limits. */
function send(url: URL, hop: Hop, address: string | undefined, timeoutMs: number, maxBytes: number): Promise<Response> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const signal = AbortSignal.timeout(timeoutMs);
  return new Promise<Response>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (error instanceof GuardedFetchError) reject(error);
      else if (signal.aborted)
        reject(new GuardedFetchError('timeout', `${url.host} did not answer within ${timeoutMs / 1000} s`, { host: url.host, seconds: timeoutMs / 1000 }));
      else {
        const detail = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
        reject(new GuardedFetchError('network', `${url.host} could not be reached (${detail})`, { host: url.host, detail }));
      }
    };
    const outgoing = request(
      url,
      {
        method: hop.method,
        headers: { ...hop.headers, ...(hop.body !== undefined ? { 'content-length': String(Buffer.byteLength(hop.body)) } : {}) },
        signal,
        ...(address ? { lookup: pinnedLookup(address) } : {}),
      },
      (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            answer.destroy();
            fail(new GuardedFetchError('too-large', `${url.host} answered with more than ${Math.round(maxBytes / 1024 / 1024)} MiB`));
            return;
          }
          chunks.push(chunk);
        });
        answer.on('error', fail);
        answer.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            if (Array.isArray(value)) for (const each of value) headers.append(name, each);
            else if (value !== undefined) headers.set(name, value);
          }
          const status = answer.statusCode ?? 502;
          const empty = status === 204 || status === 304 || hop.method === 'HEAD';
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, statusText: answer.statusMessage ?? '', headers }));
        });
      },
    );
    outgoing.on('error', fail);
    outgoing.end(hop.body);
  });
}

/** A fetch that obeys the destination rules, the time limit and the size limit on every hop. */
export function guardedFetch(options: GuardedFetchOptions): GuardedFetch {
  const timeoutMs = options.timeoutMs ?? GUARDED_FETCH_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? GUARDED_FETCH_MAX_BYTES;
  const resolveName = options.resolve ?? systemResolver;

  async function addressFor(url: URL): Promise<string | undefined> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GuardedFetchError('destination', `${url.protocol} URLs are not fetched`);
    if (options.allowPrivate) return deliveryAddress(url, resolveName);
    const check = await checkDestination(url, resolveName);
    if (!check.ok) throw new GuardedFetchError(check.unresolved ? 'network' : 'destination', check.reason);
    return check.addresses[0];
  }

  return async (input, init) => {
    let url = new URL(input instanceof Request ? input.url : input.toString());
    const headers: Record<string, string> = {};
    new Headers(input instanceof Request ? input.headers : undefined).forEach((value, name) => {
      headers[name] = value;
    });
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    let hop: Hop = { method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(), headers, body: await bodyOf(init) };
    for (let redirects = 0; ; redirects++) {
      // Credentials in the URL travel as an Authorization header the caller sets; never in the request line.
      url.username = '';
      url.password = '';
      const response = await send(url, hop, await addressFor(url), timeoutMs, maxBytes);
      const location = response.headers.get('location');
      if (![301, 302, 303, 307, 308].includes(response.status) || !location) return response;
      if (redirects >= MAX_REDIRECTS) throw new GuardedFetchError('redirects', `${url.host} redirected more than ${MAX_REDIRECTS} times`);
      const next = new URL(location, url);
      const sameOrigin = next.origin === url.origin;
      const toGet = response.status === 303 || ((response.status === 301 || response.status === 302) && hop.method === 'POST');
      const nextHeaders = { ...hop.headers };
      // Credentials are for the origin they were given for, not for wherever it redirects.
      if (!sameOrigin) delete nextHeaders.authorization;
      if (toGet) delete nextHeaders['content-type'];
      hop = { method: toGet ? 'GET' : hop.method, headers: nextHeaders, body: toGet ? undefined : hop.body };
      url = next;
    }
  };
}
