import { openPayments } from '../adapters/payments/index.ts';
import { openRateLimiter } from '../adapters/ratelimit/index.ts';
import { openDatabase } from '../adapters/storage/index.ts';
import { libsqlFilePath, lockLibsqlFile, type DatabaseLock } from '../adapters/storage/libsql/file.ts';
import { createApp, serveFetch } from './app.ts';
import type { Config } from './platform/config.ts';
import { ensureDemoWorkspace } from './features/demo/index.ts';
import type { AppDeps } from './platform/app-deps.ts';
import { buildDeps } from './deps.ts';
import { systemClock } from './core/clock.ts';
import { serve } from './platform/runtime/index.ts';
import { createLogger, logFormatOf, type Logger } from './platform/logger.ts';
import { resolveServerSecret, secretSource } from './platform/server-secret.ts';
import { startBackground, type Background } from './scheduler/index.ts';
import { AppError, errorBody } from './core/errors.ts';

/**
 * What one `svc serve` process does (docs/contract/operations.md §12): `all` serves HTTP and runs the background
 * work; `web` only serves HTTP; `worker` runs the background work (outbox workers for webhooks and mails, the
 * scheduled jobs) and answers only the operations routes.
 */
export type ServeRole = 'all' | 'web' | 'worker';

/** What a `worker` answers: health, readiness, metrics. Everything else is 404 there. */
const OPERATIONS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export interface ServeOptions {
  /** default 'all' */
  role?: ServeRole;
}

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  /**
   * Stops accepting connections, answers what arrives on the open ones (each answer with `Connection: close`)
   * until they are quiet, closes them once answered (for up to SVC_SHUTDOWN_GRACE_SECONDS in all), stops the
   * jobs and closes the database.
   */
  stop(): Promise<void>;
}

/**
 * How long the connections must have been quiet (no request begun or answered, none in progress) before stop()
 * closes the listener and the idle connections, ms. A request a client wrote before SIGTERM, or on a keep-alive
 * connection just after, may not have been read yet: closing "idle" connections at once would lose it.
 */
const QUIET_MS = 500;
/**
 * Where the listener cannot close alone (Bun.serve closes the idle keep-alive connections with it), how long no
 * request may have begun before it closes (QUIET_MS at most), ms: long enough for the requests clients wrote
 * before the signal to have been read (each then holds its connection open until answered), short enough that
 * new connections are refused almost at once.
 */
const READ_WINDOW_MS = 100;
/** How long stop() then waits for webhook attempts and job runs in progress, ms. */
const BACKGROUND_GRACE_MS = 1000;

/** Whether `work` settled within `ms`. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  try {
    return await Promise.race([work.then(() => true as const), expired]);
  } finally {
    clearTimeout(timer);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves after the event loop has turned `count` times (each turn reads the sockets that are ready). */
async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
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

/**
 * `svc serve`: takes the serve lock of a libSQL file (one server per file: DatabaseInUseError otherwise),
 * migrates, seeds the demo workspace, then serves until stopped.
 */
export async function startServer(config: Config, options: ServeOptions = {}): Promise<RunningServer> {
  const role = options.role ?? 'all';
  const logger = createLogger(config.LOG_LEVEL, undefined, logFormatOf(config));
  // A missing SVC_SECRET where one is required stops the start before the database is touched.
  secretSource(config);
  const file = libsqlFilePath(config.DATABASE_URL);
  const lock: DatabaseLock | null = file ? await lockLibsqlFile(file) : null;
  try {
    return await startLocked(config, role, logger, lock);
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

async function startLocked(config: Config, role: ServeRole, logger: Logger, lock: DatabaseLock | null): Promise<RunningServer> {
  let background: Background | undefined;
  // one connection pool per process (SVC_DB_POOL_SIZE), shared by the storage and, on Postgres, the rate limiter
  const database = openDatabase(config.DATABASE_URL, { poolSize: config.SVC_DB_POOL_SIZE });
  const { storage } = database;
  try {
    await storage.migrate();
  } catch (error) {
    await storage.close();
    throw error;
  }
  const secret = await resolveServerSecret(storage, config, logger);
  const rateLimiter = openRateLimiter(database);
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
  if (database.postgres) deps.metrics?.setPoolSize(config.SVC_DB_POOL_SIZE);
  deps.metrics?.followChangeChannel(() => storage.hearsEveryBookingWrite());
  if (config.SVC_DEMO && (await ensureDemoWorkspace(deps))) {
    logger.info('created the demo workspace');
    await storage.analyze();
  }

  let draining = false;
  const app = createApp(deps, { draining: () => draining });
  const served = serveFetch(app);
  const notFound = async () => Response.json(errorBody(new AppError('NOT_FOUND', 'route not found')), { status: 404 });
  const handle: typeof served =
    role === 'worker' ? (request, peerAddress) => (OPERATIONS_PATHS.has(new URL(request.url).pathname) ? served(request, peerAddress) : notFound()) : served;
  /** when a request last began or was answered (performance.now(), ms) */
  let lastActivity = 0;
  // While stopping, every answer says `Connection: close`: a keep-alive client sends its next request on a
  // new connection instead of on this one as it closes, where it would be lost.
  const server = await serve({
    port: config.PORT,
    hostname: config.HOST,
    fetch: async (request, peerAddress) => {
      lastActivity = performance.now();
      try {
        const response = await handle(request, peerAddress);
        return draining ? closingConnection(response) : response;
      } finally {
        lastActivity = performance.now();
      }
    },
  });
  const url = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${server.port}`;
  logger.info('svc listening', { url, role, database: config.DATABASE_URL.replace(/\/\/[^@/]*@/, '//***@') });
  if (role !== 'web') background = startBackground(deps);

  /**
   * Resolves once no request has begun or been answered for `quietMs` (and, with `answered`, none is in
   * progress), or at `deadline`. The event loop turns at least twice after the last wait, so that bytes already
   * in the sockets have been read before the connections count as quiet.
   */
  const quiet = async (deadline: number, quietMs: number, answered: boolean) => {
    for (;;) {
      const now = performance.now();
      if (now >= deadline) return;
      const quietFor = now - lastActivity;
      if (quietFor >= quietMs && (!answered || server.pendingRequests() === 0)) {
        const before = lastActivity;
        await turns(2);
        if (lastActivity === before) return;
        continue;
      }
      await pause(Math.min(Math.max(quietMs - quietFor, 20), deadline - now));
    }
  };

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      draining = true;
      // the moment of quiet is counted from now: requests written just before may not have been read yet
      lastActivity = performance.now();
      const graceMs = config.SVC_SHUTDOWN_GRACE_SECONDS * 1000;
      const deadline = performance.now() + graceMs;
      // New connections are refused from here on. Requests already received, and those arriving on open
      // connections, are answered (each closing its connection) until the connections have been quiet for a
      // moment; only then are the connections left idle closed. On Bun.serve, closing the listener closes the
      // idle connections too: the requests written on them before the signal are read first (READ_WINDOW_MS).
      if (!server.listenerClosesAlone) await quiet(Math.min(deadline, performance.now() + QUIET_MS), READ_WINDOW_MS, false);
      server.stopAccepting();
      logger.info('shutting down');
      if (server.listenerClosesAlone) await quiet(deadline, QUIET_MS, true);
      if (!(await settlesWithin(server.stop(), deadline - performance.now()))) {
        logger.warn('closing connections still open after the grace period', { graceMs, requests: server.pendingRequests() });
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
      await lock?.release();
      logger.info('stopped');
    })());
  return { url, port: server.port, deps, stop };
}
