import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import postgres, { type Sql } from 'postgres';
import { changeChannel } from '../../adapters/storage/postgres/change-channel.ts';
import { postgresStorage } from '../../adapters/storage/postgres/index.ts';
import { libsqlStorage } from '../../adapters/storage/libsql/index.ts';
import type { Storage, StorageChange } from '../../src/ports/storage/index.ts';
import { POSTGRES_URL } from '../support/storage.ts';
import { waitFor } from '../support/wait.ts';
import { aBooking, aProvider, aService, aWorkspace, HOUR } from './contract/fixtures.ts';

/*
 * Instances on one Postgres schema hear of each other's writes (adapters/storage/postgres/change-channel.ts,
 * docs/decisions/0029-changes-across-instances.md): two storages over one schema stand for two instances.
 */

describe('which storages hear of every booking write', () => {
  test('an embedded libSQL database does (its one server writes all bookings); a remote one does not', async () => {
    const memory = libsqlStorage('file::memory:');
    expect(memory.hearsEveryBookingWrite()).toBe(true);
    await memory.close();
    const remote = libsqlStorage('http://127.0.0.1:9');
    expect(remote.hearsEveryBookingWrite()).toBe(false);
    await remote.close();
  });
});

describe('a channel name', () => {
  test('is an identifier Postgres takes whole: a long schema name is hashed, distinct schemas stay apart', () => {
    expect(changeChannel('public')).toBe('svc_changes:public');
    const long = changeChannel('a'.repeat(60));
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(63);
    expect(changeChannel(`${'a'.repeat(59)}b`)).not.toBe(long);
  });
});

const describePostgres = POSTGRES_URL ? describe : describe.skip;

describePostgres('Postgres: changes across instances', () => {
  const schema = `svc_channel_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  let admin: Sql;
  let here: Storage;
  let there: Storage;
  const heardHere: StorageChange[] = [];
  const ws = aWorkspace();
  const provider = aProvider(ws);
  const service = aService(ws, { providerIds: [provider.id] });

  /** the backend pids LISTENing on the schema's channel */
  const listeners = async () =>
    (await admin<{ pid: number }[]>`select pid from pg_stat_activity where query ilike ${`listen%${schema}%`}`).map((row) => row.pid);

  beforeAll(async () => {
    admin = postgres(POSTGRES_URL!, { max: 1, onnotice: () => {} });
    here = postgresStorage(POSTGRES_URL!, { schema, max: 2 });
    there = postgresStorage(POSTGRES_URL!, { schema, max: 2 });
    await here.migrate();
    here.onChange((change) => heardHere.push(change));
    await waitFor(() => here.hearsEveryBookingWrite(), { what: 'the channel to listen' });
  });

  afterAll(async () => {
    await here.close();
    await there.close();
    await admin.unsafe(`drop schema if exists "${schema}" cascade`);
    await admin.end();
  });

  test("another instance's writes are announced here, each once, as their own kinds", async () => {
    expect(there.hearsEveryBookingWrite()).toBe(false); // nothing listens on it: it hears only its own writes
    heardHere.length = 0;
    await there.createWorkspace(ws);
    await there.createProvider(provider);
    await there.createService(service);
    const reserved = await there.reserveBooking({
      booking: aBooking(service, provider),
      candidates: [provider.id],
      margin: HOUR,
      fits: () => null,
      emit: () => [],
    });
    expect(reserved.ok).toBe(true);
    await waitFor(() => heardHere.some((change) => change.kind === 'bookings'), { what: 'the booking to be heard' });
    expect(heardHere).toContainEqual({ kind: 'workspace', workspaceId: ws.id });
    expect(heardHere).toContainEqual({ kind: 'providers', workspaceId: ws.id });
    expect(heardHere).toContainEqual({ kind: 'services', workspaceId: ws.id });
    expect(heardHere.filter((change) => change.kind === 'bookings')).toEqual([{ kind: 'bookings', workspaceId: ws.id }]);
  });

  test("an instance's own writes are announced to it once, not again from the channel", async () => {
    heardHere.length = 0;
    await here.updateWorkspace(ws.id, { name: 'Renamed here' }, Date.now());
    expect(heardHere).toEqual([{ kind: 'workspace', workspaceId: ws.id }]);
    // a write of the other instance after it: once that is heard, the own one would have been too
    await there.updateWorkspace(ws.id, { name: 'Renamed there' }, Date.now());
    await waitFor(() => heardHere.length === 2, { what: "the other instance's write" });
    expect(heardHere).toEqual([
      { kind: 'workspace', workspaceId: ws.id },
      { kind: 'workspace', workspaceId: ws.id },
    ]);
  });

  test('a closed channel says everything may have been missed, stops vouching for bookings, and listens again', async () => {
    const [pid] = await listeners();
    expect(pid).toBeNumber();
    heardHere.length = 0;
    await admin`select pg_terminate_backend(${pid!})`;
    await waitFor(() => heardHere.length >= 1, { what: 'the closed channel to be noticed' });
    expect(heardHere[0]).toEqual({ kind: 'missed' });
    expect(here.hearsEveryBookingWrite()).toBe(false);
    await waitFor(() => here.hearsEveryBookingWrite(), { what: 'the channel to listen again' });
    expect(heardHere).toEqual([{ kind: 'missed' }]);
    expect(await listeners()).not.toContain(pid!);
    await there.updateWorkspace(ws.id, { name: 'After the gap' }, Date.now());
    await waitFor(() => heardHere.length === 2, { what: 'a write after the gap' });
    expect(heardHere[1]).toEqual({ kind: 'workspace', workspaceId: ws.id });
  });

  test('a channel that stops hearing its own notifications (a stalled or dropped connection) stops vouching and listens afresh', async () => {
    await waitFor(() => here.hearsEveryBookingWrite(), { what: 'the channel to listen' });
    const [pid] = await listeners();
    heardHere.length = 0;
    // The backend that LISTENs stops forwarding anything, as behind a pooler in transaction mode or a dead route.
    process.kill(pid!, 'SIGSTOP');
    try {
      await here.updateWorkspace(ws.id, { name: 'Unheard echo' }, Date.now());
      expect(heardHere).toEqual([{ kind: 'workspace', workspaceId: ws.id }]);
      await waitFor(() => !here.hearsEveryBookingWrite(), { timeoutMs: 10_000, what: 'the deaf channel to be noticed' });
      expect(heardHere).toEqual([{ kind: 'workspace', workspaceId: ws.id }, { kind: 'missed' }]);
    } finally {
      process.kill(pid!, 'SIGCONT');
    }
    await waitFor(() => here.hearsEveryBookingWrite(), { what: 'the channel to listen again' });
    await waitFor(async () => !(await listeners()).includes(pid!), { what: 'the stalled connection to be given up' });
  }, 20_000);
});
