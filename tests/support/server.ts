import { parseConfig } from '../../src/platform/config.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import type { TestDatabase } from './storage.ts';

/**
 * `svc serve`'s server in this process, as `svc serve` starts it, on a free loopback port over `db`: silent,
 * without the demo workspace; `env` adds or overrides settings.
 */
export function startTestServer(db: TestDatabase, env: Record<string, unknown> = {}): Promise<RunningServer> {
  return startServer(
    parseConfig({
      ...db.env,
      PORT: 0,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SVC_DEMO: false,
      SVC_SECRET: 'test-secret-test-secret-test-secret-0123456789',
      ...env,
    }),
  );
}
