import { afterAll, beforeAll, test } from 'bun:test';
import type { RunningServer } from '../../src/server.ts';
import { systemClock } from '../../src/core/clock.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { startTestServer } from '../support/server.ts';
import { createTestDatabase, describeEachAdapter, type TestDatabase } from '../support/storage.ts';
import { fuzzTheWire } from './wire-fuzz.ts';

describeEachAdapter('raw HTTP fuzz against svc serve', (adapter) => {
  let db: TestDatabase;
  let server: RunningServer;
  let apiKey: string;
  let workspaceId: string;

  beforeAll(async () => {
    db = await createTestDatabase(adapter);
    server = await startTestServer(db, { SVC_RATE_LIMIT: 1_000_000 });
    const created = await createWorkspace({ storage: server.deps.storage, clock: systemClock }, { slug: 'wire', name: 'Wire' });
    apiKey = created.apiKey;
    workspaceId = created.workspace.id;
  });
  afterAll(async () => {
    await server.stop();
    await db.drop();
  });

  test('malformed lines, versions, headers, framings and bodies: never a 5xx, errors in the contract body, a write only when answered 200', async () => {
    await fuzzTheWire({
      port: server.port,
      slug: 'wire',
      apiKey,
      countServices: async () => (await server.deps.storage.listServices(workspaceId, { activeOnly: false })).length,
      runs: 2000,
      runtime: 'bun',
    });
  }, 120_000);
});
