import { openPayments } from '../adapters/payments/index.ts';
import { openRateLimiter } from '../adapters/ratelimit/index.ts';
import { openStorage } from '../adapters/storage/index.ts';
import { createApp, serveFetch } from './app.ts';
import type { Config } from './platform/config.ts';
import { ensureDemoWorkspace } from './features/demo/index.ts';
import type { AppDeps } from './platform/app-deps.ts';
import { buildDeps } from './deps.ts';
import { systemClock } from './core/clock.ts';
import { serve } from './platform/runtime/index.ts';
import { createLogger } from './platform/logger.ts';
import { resolveServerSecret, secretSource } from './platform/server-secret.ts';
import { startBackground, type Background } from './scheduler/index.ts';

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  /** Stops accepting, lets requests in flight finish, stops the jobs and closes the database. */
  stop(): Promise<void>;
}

/**
 * How long stop() lets requests already received finish, ms. A client that opened a connection and sends its
 * request slowly (or never) must not hold the process: what is still open after this is closed.
 */
const REQUEST_GRACE_MS = 3000;
/** How long stop() then waits for webhook attempts and job runs in progress, ms; the process exits within 5 s. */
const BACKGROUND_GRACE_MS = 1000;

/** Whether `work` settled within `ms`. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true as const), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** `response` telling the client not to send another request on this connection (it is about to close). */
function closingConnection(response: Response): Response {
  try {
    response.headers.set('connection', 'close');
    return response;
  } catch {
    // a response with immutable headers (e.g. Response.redirect): copy it
    const copy = new Response(response.body, response);
    copy.headers.set('connection', 'close');
    return copy;
  }
}

/** `svc serve`: migrates, seeds the demo workspace, then serves until stopped. */
export async function startServer(config: Config): Promise<RunningServer> {
  const logger = createLogger(config.LOG_LEVEL);
  // A missing SVC_SECRET where one is required stops the start before the database is touched.
  secretSource(config);
  let background: Background | undefined;
  const storage = openStorage(config.DATABASE_URL);
  await storage.migrate();
  const secret = await resolveServerSecret(storage, config, logger);
  const rateLimiter = openRateLimiter(config.DATABASE_URL);
  const payments = openPayments(config);
  const deps = buildDeps({
    storage,
    config: { ...config, SVC_SECRET: secret },
    clock: systemClock,
    logger,
    rateLimiter,
    payments,
    // Every write that adds webhook messages wakes the delivery loop at once.
    onOutboxWrite: () => background?.wake(),
  });
  if (config.SVC_DEMO && (await ensureDemoWorkspace(deps))) logger.info('created the demo workspace');

  const app = createApp(deps);
  const handle = serveFetch(app);
  let draining = false;
  // While stopping, every answer says `Connection: close`: a keep-alive client sends its next request on a
  // new connection (refused, so it can retry elsewhere) instead of on this one as it closes, where it is lost.
  const server = await serve({
    port: config.PORT,
    hostname: config.HOST,
    fetch: async (request, peerAddress) => {
      const response = await handle(request, peerAddress);
      return draining ? closingConnection(response) : response;
    },
  });
  const url = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${server.port}`;
  logger.info('svc listening', { url, database: config.DATABASE_URL.replace(/\/\/[^@/]*@/, '//***@') });
  background = startBackground(deps);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      draining = true;
      logger.info('shutting down');
      if (!(await settlesWithin(server.stop(), REQUEST_GRACE_MS))) {
        logger.warn('closing connections still open after the grace period', { graceMs: REQUEST_GRACE_MS, requests: server.pendingRequests() });
        await server.forceStop();
      }
      // Webhook attempts in flight and job runs finish (and are recorded) before the database closes; an attempt
      // still running after the grace period is left to its lease, and another instance (or the next start) retries it.
      if (background && !(await settlesWithin(background.stop(), BACKGROUND_GRACE_MS))) {
        logger.warn('stopping with background work in progress', { graceMs: BACKGROUND_GRACE_MS, webhookAttempts: background.dispatcher.inFlight() });
      }
      // The request log is written by an after-response hook Elysia defers with setImmediate: let the last
      // requests' lines out before the process exits.
      await new Promise((resolve) => setImmediate(resolve));
      await rateLimiter.close();
      await storage.close();
      logger.info('stopped');
    })());
  return { url, port: server.port, deps, stop };
}
