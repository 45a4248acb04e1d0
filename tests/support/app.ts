import { openPayments } from '../../adapters/payments/index.ts';
import { memoryRateLimiter } from '../../adapters/ratelimit/memory.ts';
import { createApp, type App } from '../../src/app.ts';
import { parseConfig, type Config } from '../../src/platform/config.ts';
import type { AppDeps } from '../../src/platform/app-deps.ts';
import { buildDeps } from '../../src/deps.ts';
import { manualClock } from '../../src/core/clock.ts';
import { silentLogger, type Logger } from '../../src/platform/logger.ts';
import type { RateLimiter } from '../../src/ports/ratelimit.ts';
import type { PaymentProvider } from '../../src/ports/payments.ts';
import type { WorkspaceRecord } from '../../src/ports/storage/index.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { createTestDatabase, type AdapterName, type TestDatabase } from './storage.ts';

/** Fixed "now" of app tests: a Monday morning. */
export const TEST_NOW = '2026-11-23T08:00:00.000Z';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** raw body text, sent as is */
  rawBody?: string;
  headers?: Record<string, string>;
  /** the API key to send in x-svc-api-key */
  key?: string;
}

export interface TestApp {
  app: App;
  deps: AppDeps;
  db: TestDatabase;
  clock: ReturnType<typeof manualClock>;
  workspace: WorkspaceRecord;
  apiKey: string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

/** Sends a request through `app.handle`, in-process, and parses a JSON answer. */
export async function send<T = any>(app: App, method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.key) headers['x-svc-api-key'] = options.key;
  const response = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export interface TestAppOptions {
  config?: Partial<Config>;
  logger?: Logger;
  rateLimiter?: RateLimiter;
  /** `none` (default), `test` (the built-in checkout page), or a provider of the test's own */
  payments?: 'none' | 'test' | PaymentProvider;
  /** called after every write that added webhook messages, as `svc serve` wakes its delivery loop */
  onOutboxWrite?: () => void;
}

/**
 * An app on a fresh database with one workspace (`acme`, Europe/Berlin) and its API key, on a manual clock
 * set to TEST_NOW, built by buildDeps as `svc serve` builds it: the catalogue read cache, the availability
 * cache and the outbox signal all run (on the manual clock). `db.storage` is the adapter the app runs on: its
 * writes are announced to the app's caches like the app's own. `db.reopen()` opens another instance's
 * connection: a write there is one this app's caches see only once their time has passed.
 */
export async function createTestApp(adapter: AdapterName = 'libsql', options: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(adapter);
  const clock = manualClock(TEST_NOW);
  const config = parseConfig({ SVC_SECRET: 'test-secret-test-secret-test-secret-0123456789', SVC_DEMO: false, ...options.config });
  const payments = typeof options.payments === 'object' ? options.payments : openPayments({ ...config, SVC_PAYMENTS: options.payments ?? config.SVC_PAYMENTS });
  const deps = buildDeps({
    storage: db.storage,
    config,
    clock,
    logger: options.logger ?? silentLogger,
    rateLimiter: options.rateLimiter ?? memoryRateLimiter(),
    payments,
    onOutboxWrite: options.onOutboxWrite,
  });
  const { workspace, apiKey } = await createWorkspace(deps, { slug: 'acme', name: 'Acme Studio', timezone: 'Europe/Berlin' });
  const app = createApp(deps);
  return {
    app,
    deps,
    db,
    clock,
    workspace,
    apiKey,
    request: (method, path, requestOptions) => send(app, method, path, requestOptions),
    close: () => db.drop(),
  };
}
