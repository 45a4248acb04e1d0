import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { systemClock } from '../../src/core/clock.ts';
import { newId } from '../../src/core/ids.ts';
import type { ProviderRecord, ServiceRecord } from '../../src/ports/storage/index.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from '../support/storage.ts';
import { waitFor } from '../support/wait.ts';

const REPO = join(import.meta.dir, '..', '..');
const REQUESTS = 40;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, process: Subprocess, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    async () => {
      if (process.exitCode !== null)
        throw new Error(`server exited early with code ${process.exitCode}: ${await new Response(process.stderr as ReadableStream).text()}`);
      return fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
    },
    { timeoutMs, what: `${url}/healthz` },
  );
}

/** The first Monday–Friday at least two days from now (UTC), so that every slot of it lies ahead of the servers' real clock. */
function nextWorkday(): string {
  let day = Temporal.Now.plainDateISO('UTC').add({ days: 2 });
  while (day.dayOfWeek > 5) day = day.add({ days: 1 });
  return day.toString();
}

/*
 * Two real server processes on one Postgres database, racing bookings for the same few slots over HTTP: the
 * capacity invariant holds across instances (docs/contract/lifecycle.md), checked in the database.
 */
(POSTGRES_URL ? describe : describe.skip)('createBooking across two server instances [postgres]', () => {
  let db: TestDatabase;
  let apiKey: string;
  let workspaceId: string;
  let single: ServiceRecord;
  let group: ServiceRecord;
  const servers: { process: Subprocess; url: string }[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    const deps = { storage: db.storage, clock: systemClock };
    const created = await createWorkspace(deps, { slug: 'race', name: 'Race' });
    apiKey = created.apiKey;
    workspaceId = created.workspace.id;
    const now = Date.now();
    const provider = (name: string): ProviderRecord => ({
      id: newId('prv', now),
      workspaceId,
      name,
      email: null,
      active: true,
      hours: null,
      serviceIds: [],
      createdAt: now,
      updatedAt: now,
    });
    const [alex, sam] = [provider('Alex'), provider('Sam')];
    await db.storage.createProvider(alex);
    await db.storage.createProvider(sam);
    const service = (name: string, capacity: number, providerIds: string[]): ServiceRecord => ({
      id: newId('srv', now),
      workspaceId,
      name,
      description: null,
      duration: 60,
      priceMinor: 0,
      currency: 'EUR',
      active: true,
      category: null,
      capacity,
      bufferTime: 0,
      minNotice: 0,
      maxAdvance: null,
      depositMinor: null,
      order: 0,
      slotInterval: null,
      waitlist: false,
      providerIds,
      createdAt: now,
      updatedAt: now,
    });
    single = service('Single', 1, [alex.id]);
    group = service('Group', 3, [sam.id]);
    await db.storage.createService(single);
    await db.storage.createService(group);

    for (let index = 0; index < 2; index++) {
      const port = await freePort();
      const process = Bun.spawn([globalThis.process.execPath, 'src/main.ts', 'serve', '--port', String(port)], {
        cwd: REPO,
        env: { ...globalThis.process.env, ...db.env, SVC_DEMO: 'false', LOG_LEVEL: 'warn', HOST: '127.0.0.1' },
        stdout: 'ignore',
        stderr: 'pipe',
      });
      servers.push({ process, url: `http://127.0.0.1:${port}` });
    }
    await Promise.all(servers.map((server) => waitForHealth(server.url, server.process)));
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) server.process.kill();
    await Promise.all(servers.map((server) => server.process.exited));
    await db?.drop();
  });

  test(`${REQUESTS} requests over HTTP to two instances for four slots -> no slot beyond its capacity`, async () => {
    const day = nextWorkday();
    const slots = [
      { service: single, date: `${day}T10:00:00Z` },
      { service: single, date: `${day}T11:00:00Z` },
      { service: group, date: `${day}T10:00:00Z` },
      { service: group, date: `${day}T11:00:00Z` },
    ];
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, index) => {
        const slot = slots[index % slots.length]!;
        const server = servers[index % servers.length]!;
        const response = await fetch(`${server.url}/api/v1/workspaces/race/bookings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-svc-api-key': apiKey },
          body: JSON.stringify({ serviceId: slot.service.id, email: `racer${index}@example.com`, date: slot.date }),
        });
        return { status: response.status, body: (await response.json()) as { code?: string } };
      }),
    );

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
    expect(responses.filter((response) => response.status === 409).every((response) => response.body.code === 'SLOT_UNAVAILABLE')).toBe(true);
    // Demand (10 per slot) exceeds every capacity: each slot fills exactly, never more.
    expect(statuses.filter((status) => status === 200).length).toBe(1 + 1 + 3 + 3);

    const stored = await db.storage.listBookings(workspaceId, { limit: 1000 });
    const perSlot = new Map<string, number>();
    for (const booking of stored) {
      const key = `${booking.serviceId} ${new Date(booking.startTime).toISOString()}`;
      perSlot.set(key, (perSlot.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(perSlot)).toEqual(
      Object.fromEntries(slots.map((slot) => [`${slot.service.id} ${new Date(slot.date).toISOString()}`, slot.service.capacity])),
    );
  }, 60_000);
});
