import { Elysia } from 'elysia';
import { newId } from '../../core/ids.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';

interface RequestTrace {
  id: string;
  startedAt: number;
  /** when the handler or the error handler finished; the response hook itself runs later */
  finishedAt?: number;
}

/**
 * Each request's trace, by its Request. Kept beside the Elysia context rather than on it: a hook that takes the
 * whole context makes Elysia prepare every part of it (cookies, headers, query) for every route, which cost a
 * cached availability answer a tenth of its time; the hooks here name the parts they read.
 */
const traces = new WeakMap<Request, RequestTrace>();

/** The id of the request (`x-request-id`). */
export function requestIdOf(request: Request): string {
  return traces.get(request)?.id ?? 'unknown';
}

function markFinished(request: Request) {
  const trace = traces.get(request);
  if (trace) trace.finishedAt ??= performance.now();
}

/**
 * Path segments that are capabilities (whoever holds the address may pay or cancel a hold, manage a booking,
 * read a calendar feed): the segment after one of these is never written to a log.
 */
const TOKEN_BEFORE = new Set(['checkout', 'manage', 'ics', 'waitlist']);

/** A segment holding an email address, written plainly or percent-encoded (`ada%40example.org`). */
const ADDRESS = /@|%40/i;

/** What a path needs to hold for redactPath to change it: an address, or a token word with a segment after it. */
const MAY_REDACT = new RegExp(`@|%40|(?:^|/)(?:${[...TOKEN_BEFORE].join('|')})/[^/]`, 'iu');

/**
 * `path` with its capability tokens replaced: `/checkout/cs_123/pay` → `/checkout/[redacted]/pay`; and any
 * segment holding an address, which no route has but a client may send (`/customers/ada@example.org` → 404),
 * replaced alike: no log line carries an email address (docs/contract/operations.md §10).
 */
export function redactPath(path: string): string {
  if (!MAY_REDACT.test(path)) return path;
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    if ((TOKEN_BEFORE.has(segments[i - 1]!.toLowerCase()) || ADDRESS.test(segments[i]!)) && segments[i] !== '') segments[i] = '[redacted]';
  }
  return segments.join('/');
}

/**
 * What the log says for a request whose client closed the connection before the answer was sent (nginx's
 * convention): no status was sent, and logging the one the handler produced would claim an answer nobody got.
 */
const CLIENT_CLOSED_REQUEST = 499;

/** The status of the answer: a Response's own, else the one set on the context (200 unless set). */
function statusSent(context: { set: { status?: unknown }; responseValue?: unknown }): number {
  if (context.responseValue instanceof Response) return context.responseValue.status;
  return typeof context.set.status === 'number' ? context.set.status : 200;
}

/**
 * A caller's own request id that is safe to echo and log: 1–128 characters of `[A-Za-z0-9._:-]` (no `@`, so it
 * cannot carry an email address, and no space or quote that could break a log line or a header).
 */
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `X-Request-Id` when well formed (so traces across services join up), else a new id. */
export function requestIdFor(request: Request): string {
  const given = request.headers.get('x-request-id');
  return given !== null && CALLER_REQUEST_ID.test(given) ? given : newId('req');
}

/**
 * Gives every request an id (the caller's `X-Request-Id` when well formed, else a new one; echoed as
 * `x-request-id`) and logs one line when its response is sent; the same status and duration go to `metrics`,
 * under the matched route's template.
 */
export function requestLogPlugin(logger: Logger, metrics?: Metrics) {
  return new Elysia({ name: 'request-log' })
    .onRequest(({ request, set }) => {
      const trace: RequestTrace = { id: requestIdFor(request), startedAt: performance.now() };
      traces.set(request, trace);
      set.headers['x-request-id'] = trace.id;
    })
    .onAfterHandle({ as: 'global' }, ({ request }) => markFinished(request))
    .onError({ as: 'global' }, ({ request }) => markFinished(request))
    .onAfterResponse({ as: 'global' }, ({ request, path, route: matched, set, responseValue }) => {
      const trace = traces.get(request);
      const finishedAt = trace?.finishedAt ?? performance.now();
      const gone = request.signal.aborted;
      const status = gone ? CLIENT_CLOSED_REQUEST : statusSent({ set, responseValue });
      // the template the request matched (`/api/v1/workspaces/:slug`), never the path: undefined when none did
      const route = matched || undefined;
      logger.info('request', {
        method: request.method,
        path: redactPath(path),
        route,
        status,
        ...(gone ? { aborted: true } : {}),
        ms: trace ? Math.round((finishedAt - trace.startedAt) * 10) / 10 : undefined,
        requestId: trace?.id,
      });
      if (trace) metrics?.observeRequest({ method: request.method, route, status, seconds: (finishedAt - trace.startedAt) / 1000 });
    });
}
