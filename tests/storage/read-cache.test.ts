import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { manualClock } from '../../src/core/clock.ts';
import type { Storage } from '../../src/ports/storage/index.ts';
import { withReadCache } from '../../src/platform/storage-effects/read-cache.ts';
import { createApiKey, createWorkspace } from '../../src/features/workspaces/service.ts';
import { sha256Hex } from '../../src/core/secrets.ts';
import { newId } from '../../src/core/ids.ts';
import { createTestDatabase, type TestDatabase } from '../support/storage.ts';
import { aProvider } from './contract/fixtures.ts';

const TTL = 2000;

describe('catalogue read cache', () => {
  let db: TestDatabase;
  let raw: Storage;
  /** another connection to the same database, as another instance or the CLI has: its writes are not announced here */
  let elsewhere: Storage;
  let cached: Storage;
  const clock = manualClock('2026-11-23T08:00:00.000Z');

  beforeAll(async () => {
    db = await createTestDatabase('libsql');
    raw = db.storage;
    elsewhere = db.reopen();
    cached = withReadCache(raw, { clock, ttlMs: TTL });
  });
  afterAll(() => db.drop());

  test('a change made elsewhere shows once the cache entry is older than the TTL, not before', async () => {
    const { workspace } = await createWorkspace({ storage: elsewhere, clock }, { slug: 'ttl-shop', name: 'Before' });
    expect((await cached.getWorkspaceBySlug('ttl-shop'))?.name).toBe('Before');
    await elsewhere.updateWorkspace(workspace.id, { name: 'After' }, clock.now());
    expect((await cached.getWorkspaceBySlug('ttl-shop'))?.name).toBe('Before');
    clock.advance(TTL);
    expect((await cached.getWorkspaceBySlug('ttl-shop'))?.name).toBe('After');
  });

  test('a write through the cache is visible at once', async () => {
    const { workspace } = await createWorkspace({ storage: cached, clock }, { slug: 'write-through', name: 'One' });
    expect((await cached.getWorkspaceBySlug('write-through'))?.name).toBe('One');
    await cached.updateWorkspace(workspace.id, { name: 'Two' }, clock.now());
    expect((await cached.getWorkspaceBySlug('write-through'))?.name).toBe('Two');
  });

  test('a write on the adapter the cache follows, whichever object it went through, is visible at once', async () => {
    const { workspace } = await createWorkspace({ storage: raw, clock }, { slug: 'same-adapter', name: 'One' });
    expect((await cached.getWorkspaceBySlug('same-adapter'))?.name).toBe('One');
    await raw.updateWorkspace(workspace.id, { name: 'Two' }, clock.now());
    expect((await cached.getWorkspaceBySlug('same-adapter'))?.name).toBe('Two');
  });

  test('a miss is not remembered: a workspace or key created by another process works at once', async () => {
    expect(await cached.getWorkspaceBySlug('created-later')).toBeNull();
    const { workspace } = await createWorkspace({ storage: elsewhere, clock }, { slug: 'created-later', name: 'Later' });
    expect((await cached.getWorkspaceBySlug('created-later'))?.id).toBe(workspace.id);
    const key = 'svc_live_not-yet-created-key';
    expect(await cached.findApiKeyByHash(sha256Hex(key))).toBeNull();
    const real = await createApiKey({ storage: elsewhere, clock }, workspace.id, 'cli');
    expect((await cached.findApiKeyByHash(sha256Hex(real)))?.workspaceId).toBe(workspace.id);
  });

  test('a read that began before a key was revoked does not put the key back: the next request is refused', async () => {
    const { workspace } = await createWorkspace({ storage: raw, clock }, { slug: 'revoke-race', name: 'R' });
    const key = await createApiKey({ storage: raw, clock }, workspace.id, 'cli');
    const hash = sha256Hex(key);
    const record = await raw.findApiKeyByHash(hash);
    let releaseRead = () => {};
    const readHeld = new Promise<void>((resolve) => {
      releaseRead = resolve;
    });
    const slowReads: Storage = {
      ...raw,
      findApiKeyByHash: async (wanted) => {
        const before = await raw.findApiKeyByHash(wanted);
        await readHeld;
        return before;
      },
    };
    const racing = withReadCache(slowReads, { clock, ttlMs: TTL });
    const staleRead = racing.findApiKeyByHash(hash);
    await racing.revokeApiKey(workspace.id, record!.id, clock.now());
    releaseRead();
    expect((await staleRead)?.id).toBe(record!.id);
    expect(await racing.findApiKeyByHash(hash)).toBeNull();
  });

  test('concurrent misses of one record share one database read', async () => {
    await createWorkspace({ storage: raw, clock }, { slug: 'herd', name: 'H' });
    let reads = 0;
    const counting: Storage = {
      ...raw,
      getWorkspaceBySlug: (slug) => {
        reads++;
        return raw.getWorkspaceBySlug(slug);
      },
    };
    const herd = withReadCache(counting, { clock, ttlMs: TTL });
    const answers = await Promise.all(Array.from({ length: 40 }, () => herd.getWorkspaceBySlug('herd')));
    expect(new Set(answers.map((workspace) => workspace?.slug))).toEqual(new Set(['herd']));
    expect(reads).toBe(1);
  });

  test('services: active filter, lookup by id and invalidation on update', async () => {
    const { workspace } = await createWorkspace({ storage: raw, clock }, { slug: 'services-shop', name: 'S' });
    const now = clock.now();
    const base = {
      workspaceId: workspace.id,
      description: null,
      duration: 30,
      priceMinor: 0,
      currency: 'EUR',
      category: null,
      capacity: 1,
      bufferTime: 0,
      minNotice: 0,
      maxAdvance: null,
      depositMinor: null,
      slotInterval: null,
      waitlist: false,
      providerIds: [],
      createdAt: now,
      updatedAt: now,
    };
    await cached.createService({ ...base, id: newId('srv'), name: 'Active', active: true, order: 0 });
    const inactiveId = newId('srv');
    await cached.createService({ ...base, id: inactiveId, name: 'Inactive', active: false, order: 1 });
    expect((await cached.listServices(workspace.id, { activeOnly: true })).map((service) => service.name)).toEqual(['Active']);
    expect((await cached.listServices(workspace.id, { activeOnly: false })).map((service) => service.name)).toEqual(['Active', 'Inactive']);
    expect((await cached.getService(workspace.id, inactiveId))?.name).toBe('Inactive');
    await cached.updateService(workspace.id, inactiveId, { active: true, updatedAt: now });
    expect((await cached.listServices(workspace.id, { activeOnly: true })).map((service) => service.name)).toEqual(['Active', 'Inactive']);
    expect(await cached.getService(workspace.id, 'srv_unknown')).toBeNull();
  });

  test('bookings are never cached: busy intervals reflect every write at once', async () => {
    const { workspace } = await createWorkspace({ storage: raw, clock }, { slug: 'busy-shop', name: 'B' });
    const now = clock.now();
    const provider = aProvider(workspace, { name: 'P', email: null, createdAt: now, updatedAt: now });
    await elsewhere.createProvider(provider);
    const providerId = provider.id;
    const serviceId = newId('srv');
    await elsewhere.createService({
      id: serviceId,
      workspaceId: workspace.id,
      name: 'S',
      description: null,
      duration: 30,
      priceMinor: 0,
      currency: 'EUR',
      active: true,
      category: null,
      capacity: 1,
      bufferTime: 0,
      minNotice: 0,
      maxAdvance: null,
      depositMinor: null,
      order: 0,
      slotInterval: null,
      waitlist: false,
      providerIds: [providerId],
      createdAt: now,
      updatedAt: now,
    });
    expect(await cached.listBusy([providerId], now, now + 3_600_000)).toEqual([]);
    const booking = {
      id: newId('bk'),
      workspaceId: workspace.id,
      serviceId,
      providerId,
      status: 'CONFIRMED' as const,
      startTime: now + 600_000,
      endTime: now + 2_400_000,
      bufferTime: 0,
      customerName: null,
      customerEmail: 'a@example.com',
      phone: null,
      notes: null,
      customFields: {},
      amountMinor: null,
      currency: null,
      cancelReason: null,
      holdExpiresAt: null,
      createdAt: now,
      updatedAt: now,
      revision: 0,
      manageTokenHash: null,
      manageTokenSealed: null,
      priceMinor: null,
      paidMinor: 0,
      refundedMinor: 0,
    };
    await elsewhere.reserveBooking({ booking, candidates: [providerId], margin: 0, fits: () => null, emit: () => [] });
    expect((await cached.listBusy([providerId], now, now + 3_600_000)).map((interval) => interval.bookingId)).toEqual([booking.id]);
  });
});

describe('calendar busy-time read cache', () => {
  const HOUR = 3_600_000;
  let db: TestDatabase;
  let raw: Storage;
  let elsewhere: Storage;
  let cached: Storage;
  const clock = manualClock('2026-11-23T08:00:00.000Z');
  const T0 = clock.now();

  beforeAll(async () => {
    db = await createTestDatabase('libsql');
    raw = db.storage;
    elsewhere = db.reopen();
    cached = withReadCache(raw, { clock, ttlMs: TTL });
  });
  afterAll(() => db.drop());

  /** A provider of a new workspace with one connection of two calendars, `blocks` on the first only. */
  async function connected(slug: string) {
    const { workspace } = await createWorkspace({ storage: raw, clock }, { slug, name: slug });
    const provider = aProvider(workspace, { name: 'P', email: null, createdAt: T0, updatedAt: T0 });
    await raw.createProvider(provider);
    const providerId = provider.id;
    const connectionId = newId('cal');
    await raw.createCalendarConnection({
      id: connectionId,
      workspaceId: workspace.id,
      providerId,
      kind: 'ics',
      name: 'feed',
      url: `https://calendar.example.com/${slug}.ics`,
      account: null,
      username: null,
      sealedSecret: null,
      status: 'ok',
      lastSyncedAt: T0,
      lastError: null,
      failures: 0,
      calendars: [
        { id: 'busy', name: 'Busy', blocks: true, writes: false, readOnly: true },
        { id: 'free', name: 'Free', blocks: false, writes: false, readOnly: true },
      ],
      syncState: {},
      createdAt: T0,
      updatedAt: T0,
    });
    return { workspace, providerId, connectionId };
  }

  test('answers every window and buffer exactly as the adapter does, calendar named, over long and short events of several providers', async () => {
    // a pseudo-random mix of short events and a few lasting days, which reach over many later ones
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const providers: string[] = [];
    for (const slug of ['busy-a', 'busy-b']) {
      const { providerId, connectionId } = await connected(slug);
      providers.push(providerId);
      const intervals = Array.from({ length: 300 }, (_, index) => {
        const start = T0 + Math.floor(random() * 60 * 24) * HOUR;
        const length = index % 50 === 0 ? Math.floor(random() * 5 * 24) * HOUR : Math.ceil(random() * 3) * HOUR;
        return { start, end: start + length, uid: `${slug}-${index}` };
      });
      await raw.storeCalendarSync(
        connectionId,
        {},
        [
          { calendarId: 'busy', intervals },
          { calendarId: 'free', intervals: intervals.slice(0, 40) },
        ],
        T0,
      );
    }
    const key = (interval: { providerId: string; startTime: number; endTime: number; calendar?: unknown }) => JSON.stringify(interval);
    for (let round = 0; round < 200; round++) {
      const from = T0 + Math.floor(random() * 70 * 24 - 5 * 24) * HOUR;
      const to = from + Math.floor(random() * 31 * 24) * HOUR;
      const buffer = [0, 15 * 60_000, HOUR][round % 3];
      const ids = round % 2 === 0 ? providers : [providers[round % 4 === 1 ? 0 : 1]!];
      const fresh = await raw.listCalendarBusy(ids, from, to, buffer);
      const fromCache = await cached.listCalendarBusy(ids, from, to, buffer);
      expect(fromCache.map(key).sort()).toEqual(fresh.map(key).sort());
      expect(fromCache.map((interval) => interval.startTime)).toEqual(fresh.map((interval) => interval.startTime));
    }
    const [one] = await cached.listCalendarBusy([providers[0]!], T0, T0 + 60 * 24 * HOUR);
    expect(one).toMatchObject({
      bookingId: null,
      serviceId: null,
      bufferTime: 0,
      calendar: { connectionId: expect.stringMatching(/^cal_/), calendarId: 'busy' },
    });
  });

  test("a sync through the adapter drops the provider's busy times at once; one made elsewhere shows once the TTL has passed", async () => {
    const { providerId, connectionId } = await connected('busy-sync');
    const window = [T0, T0 + 24 * HOUR] as const;
    expect(await cached.listCalendarBusy([providerId], ...window)).toEqual([]);
    await raw.storeCalendarSync(connectionId, {}, [{ calendarId: 'busy', intervals: [{ start: T0 + HOUR, end: T0 + 2 * HOUR, uid: 'a' }] }], T0);
    expect((await cached.listCalendarBusy([providerId], ...window)).map((interval) => interval.startTime)).toEqual([T0 + HOUR]);
    await elsewhere.storeCalendarSync(connectionId, {}, [{ calendarId: 'busy', intervals: [{ start: T0 + 3 * HOUR, end: T0 + 4 * HOUR, uid: 'b' }] }], T0);
    expect((await cached.listCalendarBusy([providerId], ...window)).map((interval) => interval.startTime)).toEqual([T0 + HOUR]);
    clock.advance(TTL);
    expect((await cached.listCalendarBusy([providerId], ...window)).map((interval) => interval.startTime)).toEqual([T0 + 3 * HOUR]);
    await raw.chooseCalendars(connectionId, [{ id: 'busy', blocks: false }], T0);
    expect(await cached.listCalendarBusy([providerId], ...window)).toEqual([]);
  });

  test('concurrent misses of one provider share one database read', async () => {
    const { providerId } = await connected('busy-herd');
    let reads = 0;
    const counting: Storage = {
      ...raw,
      listCalendarBusy: (...args) => {
        reads++;
        return raw.listCalendarBusy(...args);
      },
    };
    const herd = withReadCache(counting, { clock, ttlMs: TTL });
    await Promise.all(Array.from({ length: 40 }, () => herd.listCalendarBusy([providerId], T0, T0 + HOUR)));
    expect(reads).toBe(1);
  });
});
