import { Elysia } from 'elysia';
import { newId } from '../shared/ids.ts';
import type { Logger } from '../shared/logger.ts';

interface RequestTrace {
  id: string;
  startedAt: number;
  /** when the handler or the error handler finished; the response hook itself runs later */
  finishedAt?: number;
}

const traces = new WeakMap<Request, RequestTrace>();

export function requestIdOf(request: Request): string {
  return traces.get(request)?.id ?? 'unknown';
}

function markFinished(request: Request) {
  const trace = traces.get(request);
  if (trace) trace.finishedAt ??= performance.now();
}

/** Gives every request an id (echoed as `x-request-id`) and logs one line when its response is sent. */
export function requestLogPlugin(logger: Logger) {
  return new Elysia({ name: 'request-log' })
    .onRequest(({ request, set }) => {
      const trace = { id: newId('req'), startedAt: performance.now() };
      traces.set(request, trace);
      set.headers['x-request-id'] = trace.id;
    })
    .onAfterHandle({ as: 'global' }, ({ request }) => markFinished(request))
    .onError({ as: 'global' }, ({ request }) => markFinished(request))
    .onAfterResponse({ as: 'global' }, ({ request, set, path }) => {
      const trace = traces.get(request);
      const finishedAt = trace?.finishedAt ?? performance.now();
      logger.info('request', {
        method: request.method,
        path,
        status: typeof set.status === 'number' ? set.status : 200,
        ms: trace ? Math.round((finishedAt - trace.startedAt) * 10) / 10 : undefined,
        requestId: trace?.id,
      });
    });
}
