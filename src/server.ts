import { openPayments } from '../adapters/payments/index.ts';
import { openRateLimiter } from '../adapters/ratelimit/index.ts';
import { openStorage } from '../adapters/storage/index.ts';
import { createApp, serveFetch } from './app.ts';
import type { Config } from './config.ts';
import { ensureDemoWorkspace } from './demo/seed.ts';
import { buildDeps, type AppDeps } from './deps.ts';
import { systemClock } from './shared/clock.ts';
import { createLogger } from './shared/logger.ts';
import { randomToken } from './shared/secrets.ts';
import { startBackground, type Background } from './scheduler/index.ts';
import type { Storage } from './storage/port.ts';

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  /** Stops accepting, lets requests in flight finish, stops the jobs and closes the database. */
  stop(): Promise<void>;
}

/** SVC_SECRET, or the one generated and stored on the first start (the first instance to store it wins). */
export async function resolveSecret(storage: Storage, config: Config): Promise<string> {
  if (config.SVC_SECRET) return config.SVC_SECRET;
  return storage.putSettingIfAbsent('svc_secret', randomToken('', 48));
}

/** `svc serve`: migrates, seeds the demo workspace, then serves until stopped. */
export async function startServer(config: Config): Promise<RunningServer> {
  const logger = createLogger(config.LOG_LEVEL);
  let background: Background | undefined;
  const storage = openStorage(config.DATABASE_URL);
  await storage.migrate();
  const secret = await resolveSecret(storage, config);
  const rateLimiter = openRateLimiter(config.DATABASE_URL);
  const payments = openPayments(config);
  const deps = buildDeps({
    storage, config: { ...config, SVC_SECRET: secret }, clock: systemClock, logger, rateLimiter, payments,
    // Every write that adds webhook messages wakes the delivery loop at once.
    onOutboxWrite: () => background?.wake(),
  });
  if (config.SVC_DEMO && (await ensureDemoWorkspace(deps))) logger.info('created the demo workspace');

  const app = createApp(deps);
  const server = Bun.serve({
    port: config.PORT,
    hostname: config.HOST,
    // Bun's own limit answers a bare 413 before the app sees the request; svc reads bodies as streams and
    // refuses any over 64 KiB itself (src/http/body-limit.ts), with the contract's error body.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch: serveFetch(app),
  });
  const url = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${server.port}`;
  logger.info('svc listening', { url, database: config.DATABASE_URL.replace(/\/\/[^@/]*@/, '//***@') });
  background = startBackground(deps);

  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= (async () => {
    logger.info('shutting down');
    await server.stop(false);
    // Webhook attempts in flight and job runs finish (and are recorded) before the database closes.
    await background?.stop();
    // The request log is written by an after-response hook Elysia defers with setImmediate: let the last
    // requests' lines out before the process exits.
    await new Promise((resolve) => setImmediate(resolve));
    await rateLimiter.close();
    await storage.close();
    logger.info('stopped');
  })());
  return { url, port: server.port ?? config.PORT, deps, stop };
}
