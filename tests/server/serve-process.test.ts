import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from '../support/storage.ts';
import { freePort, startServe, type ServeProcess } from '../support/process.ts';
import { waitFor } from '../support/wait.ts';

/** The demo workspace as the database holds it: id, and how many bookings it has. */
async function demoState(db: TestDatabase) {
  const workspace = await db.storage.getWorkspaceBySlug('demo');
  if (!workspace) return null;
  const bookings = await db.storage.listBookings(workspace.id, { limit: 100 });
  return { id: workspace.id, bookings: bookings.length };
}

/**
 * Opens a raw connection and sends only the first part of a GET request: the request is in flight (the
 * server has accepted it and waits for the rest) until `finish()` sends the end of the headers.
 */
async function startSlowRequest(port: number, path: string) {
  let received = '';
  let closed!: () => void;
  const done = new Promise<void>((resolve) => (closed = resolve));
  const socket = await Bun.connect({
    hostname: '127.0.0.1',
    port,
    socket: {
      data(_socket, chunk) {
        received += chunk.toString();
      },
      close: () => closed(),
      error: () => closed(),
    },
  });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nUser-Agent: svc-tests\r\n`);
  return {
    /** sends the rest and resolves with the raw response once the server closed the connection */
    async finish(): Promise<string> {
      socket.write('Connection: close\r\n\r\n');
      await Promise.race([done, Bun.sleep(5000)]);
      return received;
    },
  };
}

describe('svc serve on a new database', () => {
  let db: TestDatabase;
  let server: ServeProcess;

  beforeAll(async () => {
    db = await createTestDatabase('libsql');
    server = await startServe({ env: { ...db.env, LOG_LEVEL: 'info' } });
  });
  afterAll(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await db.drop();
  });

  test('GET /healthz -> 200 { success: true, status: "ok" }', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, status: 'ok' });
  });

  test('GET /readyz -> 200 while the database answers', async () => {
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, status: 'ready' });
  });

  test('the first start creates the demo workspace: GET /api/v1/workspaces/demo/config -> 200', async () => {
    const response = await fetch(`${server.url}/api/v1/workspaces/demo/config`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ success: true, workspace: { name: 'Demo Hair & Wellness' }, customFields: [] });
    expect(await demoState(db)).toMatchObject({ id: body.workspace.id });
    expect(server.logs().some((line) => line.msg === 'created the demo workspace')).toBe(true);
  });

  test('each request is logged as one JSON line on stderr with method, path, status, ms and requestId', async () => {
    const ok = await fetch(`${server.url}/healthz`);
    const missing = await fetch(`${server.url}/no-such-route?x=1`);
    expect(missing.status).toBe(404);
    const ids = [ok.headers.get('x-request-id'), missing.headers.get('x-request-id')];
    expect(ids[0]).toMatch(/^req_/);
    expect(ids[1]).toMatch(/^req_/);
    expect(ids[0]).not.toBe(ids[1]);
    for (const id of ids) await server.waitForLog((line) => line.requestId === id);
    // Lines are written in order: once a later request's line is out, a repeated line of these two would be too.
    const marker = (await fetch(`${server.url}/healthz`)).headers.get('x-request-id');
    await server.waitForLog((line) => line.requestId === marker);

    const lines = server.logs().filter((line) => ids.includes(line.requestId as string));
    expect(lines).toHaveLength(2);
    const [first, second] = lines as [Record<string, unknown>, Record<string, unknown>];
    expect(first).toMatchObject({ level: 'info', msg: 'request', method: 'GET', path: '/healthz', status: 200, requestId: ids[0] });
    expect(second).toMatchObject({ level: 'info', msg: 'request', method: 'GET', path: '/no-such-route', status: 404, requestId: ids[1] });
    for (const line of lines) {
      expect(typeof line.ms).toBe('number');
      expect(line.ms as number).toBeGreaterThanOrEqual(0);
    }
  });

  test('SIGTERM while a request is in flight: the request completes with 200, then the process exits 0 and logs its shutdown', async () => {
    const slow = await startSlowRequest(server.port, '/api/v1/workspaces/demo/config');
    // a marker: once the server has answered a request sent after the slow one's first bytes, it has those bytes
    expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
    server.signal('SIGTERM');
    await server.waitForLog((line) => line.msg === 'shutting down');

    // Answered after the shutdown began: the process kept serving what it had received.
    const response = await slow.finish();
    expect(response).toStartWith('HTTP/1.1 200');
    expect(response).toContain('"success":true');
    expect(await server.stop()).toBe(0);
    const logs = server.logs();
    const shuttingDown = logs.findIndex((line) => line.msg === 'shutting down');
    const served = logs.findIndex((line, index) => index > shuttingDown && line.msg === 'request' && line.path === '/api/v1/workspaces/demo/config');
    expect(shuttingDown).toBeGreaterThanOrEqual(0);
    expect(served).toBeGreaterThan(shuttingDown);
    expect(logs[served]).toMatchObject({ status: 200 });
    expect(logs.at(-1)).toMatchObject({ msg: 'stopped' });
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});

describe('svc serve on a database it already served', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('libsql');
  });
  afterAll(() => db.drop());

  test('a second start is harmless: the same single demo workspace, nothing re-created; SIGINT exits 0', async () => {
    const first = await startServe({ env: db.env });
    expect(await first.stop('SIGTERM')).toBe(0);
    const seeded = await demoState(db);
    expect(seeded).not.toBeNull();
    expect(seeded!.bookings).toBeGreaterThan(0);

    const second = await startServe({ env: { ...db.env, LOG_LEVEL: 'info' } });
    try {
      const response = await fetch(`${second.url}/api/v1/workspaces/demo/config`);
      expect(response.status).toBe(200);
      expect((await response.json()).workspace.id).toBe(seeded!.id);
      expect(await demoState(db)).toEqual(seeded);
      expect(second.logs().some((line) => line.msg === 'created the demo workspace')).toBe(false);
    } finally {
      expect(await second.stop('SIGINT')).toBe(0);
    }
    expect(second.logs().at(-1)).toMatchObject({ msg: 'stopped' });
  });
});

describe('svc serve settings', () => {
  let db: TestDatabase;
  let server: ServeProcess;
  let envPort: number;

  beforeAll(async () => {
    db = await createTestDatabase('libsql');
    envPort = freePort();
    const flagPort = freePort();
    server = await startServe({
      env: { ...db.env, PORT: String(envPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      port: flagPort,
      args: ['--port', String(flagPort)],
    });
  });
  afterAll(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await db.drop();
  });

  test('--port wins over PORT: the server answers on the flag port, nothing listens on the PORT one', async () => {
    expect(server.port).not.toBe(envPort);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await expect(fetch(`http://127.0.0.1:${envPort}/healthz`)).rejects.toThrow();
  });

  test('LOG_LEVEL=warn: requests and info lines are not logged', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/no-such-route`)).status).toBe(404);
    expect(await server.stop()).toBe(0);
    expect(server.logs().filter((line) => line.level === 'info' || line.level === 'debug')).toEqual([]);
  });
});

describe.skipIf(!POSTGRES_URL)('svc serve on Postgres', () => {
  test('SIGTERM while a request waits on a locked table: the request completes with 200 once the lock goes, then exit 0', async () => {
    const db = await createTestDatabase('postgres');
    const server = await startServe({ env: db.env });
    const schema = new URL(db.env.DATABASE_URL!).searchParams.get('options')!.replace('-c search_path=', '');
    const admin = postgres(POSTGRES_URL!, { max: 1, onnotice: () => {} });
    try {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holding = admin.begin(async (tx) => {
        await tx.unsafe(`LOCK TABLE "${schema}".workspaces IN ACCESS EXCLUSIVE MODE`);
        locked();
        await released;
      });
      await isLocked;

      let settled = false;
      const pending = fetch(`${server.url}/api/v1/workspaces/demo/config`).finally(() => (settled = true));
      const observer = postgres(POSTGRES_URL!, { max: 1, onnotice: () => {} });
      try {
        await waitFor(async () => (await observer`select 1 from pg_locks where not granted and relation = ${`"${schema}".workspaces`}::regclass`).length > 0, {
          what: 'the request to wait on the table lock',
        });
      } finally {
        await observer.end();
      }
      server.signal('SIGTERM');
      await server.waitForLog((line) => line.msg === 'shutting down');
      // Still waiting on the lock, not dropped by the shutdown.
      expect(settled).toBe(false);

      release();
      await holding;
      const response = await pending;
      expect(response.status).toBe(200);
      expect((await response.json()).success).toBe(true);
      expect(await server.stop()).toBe(0);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await admin.end();
      await db.drop();
    }
  });
});
