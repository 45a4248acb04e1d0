import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { ensureDemoWorkspace } from '../../src/features/demo/seed.ts';
import { manualClock, systemClock } from '../../src/core/clock.ts';
import type { Storage, WorkspaceRecord } from '../../src/ports/storage/index.ts';
import { TEST_NOW } from '../support/app.ts';
import { createTestDatabase, describeEachAdapter, POSTGRES_URL, type TestDatabase } from '../support/storage.ts';

/** What the demo workspace holds, without ids and instants: two seedings must give equal shapes. */
async function demoShape(storage: Storage, workspace: WorkspaceRecord) {
  const services = await storage.listServices(workspace.id, { activeOnly: false });
  const providers = await storage.listProviders(workspace.id);
  const bookings = await storage.listBookings(workspace.id, { limit: 100 });
  const providerName = new Map(providers.map((provider) => [provider.id, provider.name]));
  const serviceName = new Map(services.map((service) => [service.id, service.name]));
  return {
    workspace: { name: workspace.name, timezone: workspace.timezone, plan: workspace.plan, hours: workspace.hours },
    services: services.map((service) => ({
      name: service.name,
      duration: service.duration,
      priceMinor: service.priceMinor,
      currency: service.currency,
      capacity: service.capacity,
      active: service.active,
      providers: service.providerIds.map((id) => providerName.get(id)).sort(),
    })),
    providers: providers.map((provider) => ({ name: provider.name, hours: provider.hours })),
    bookings: bookings.map((booking) => ({
      service: serviceName.get(booking.serviceId),
      provider: providerName.get(booking.providerId),
      status: booking.status,
    })),
  };
}

describeEachAdapter('ensureDemoWorkspace', (adapter) => {
  let db: TestDatabase;
  const clock = manualClock(TEST_NOW);

  beforeEach(async () => {
    db = await createTestDatabase(adapter);
    clock.set(TEST_NOW);
  });
  afterEach(() => db.drop());

  test('creates the demo workspace: 4 priced services, 2 providers, working hours and bookings', async () => {
    expect(await ensureDemoWorkspace({ storage: db.storage, clock })).toBe(true);
    const workspace = (await db.storage.getWorkspaceBySlug('demo'))!;
    expect(workspace).toMatchObject({ slug: 'demo', name: 'Demo Hair & Wellness', timezone: 'Europe/Berlin', createdAt: Date.parse(TEST_NOW) });
    expect(workspace.id).toMatch(/^ws_/);

    const shape = await demoShape(db.storage, workspace);
    expect(shape.services).toEqual([
      { name: 'Haircut', duration: 30, priceMinor: 3500, currency: 'EUR', capacity: 1, active: true, providers: ['Alex Hoffmann', 'Sam Richter'] },
      { name: 'Colour & cut', duration: 90, priceMinor: 8900, currency: 'EUR', capacity: 1, active: true, providers: ['Alex Hoffmann', 'Sam Richter'] },
      { name: 'Free consultation', duration: 15, priceMinor: 0, currency: 'EUR', capacity: 1, active: true, providers: ['Alex Hoffmann', 'Sam Richter'] },
      { name: 'Beginners yoga class', duration: 60, priceMinor: 1500, currency: 'EUR', capacity: 8, active: true, providers: ['Sam Richter'] },
    ]);
    expect(shape.providers.map((provider) => provider.name)).toEqual(['Alex Hoffmann', 'Sam Richter']);
    // the workspace works Mon–Fri 09–17 and Saturday mornings; Alex has split hours of their own, Sam works the workspace's
    expect(workspace.hours.weekly.mon).toEqual([{ start: '09:00', end: '17:00' }]);
    expect(workspace.hours.weekly.sat).toEqual([{ start: '10:00', end: '14:00' }]);
    expect(workspace.hours.weekly.sun).toEqual([]);
    expect(shape.providers[0]!.hours!.weekly.mon).toEqual([
      { start: '09:00', end: '12:30' },
      { start: '13:30', end: '18:00' },
    ]);
    expect(shape.providers[1]!.hours).toBeNull();

    const bookings = await db.storage.listBookings(workspace.id, { limit: 100 });
    expect(bookings.length).toBeGreaterThanOrEqual(5);
    expect(new Set(bookings.map((booking) => booking.status))).toEqual(new Set(['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED']));
    const services = new Map((await db.storage.listServices(workspace.id, { activeOnly: false })).map((service) => [service.id, service]));
    const now = Date.parse(TEST_NOW);
    for (const booking of bookings) {
      const service = services.get(booking.serviceId)!;
      expect(service).toBeDefined();
      expect(service.providerIds).toContain(booking.providerId);
      expect(booking.endTime - booking.startTime).toBe(service.duration * 60_000);
      expect(booking.amountMinor).toBe(service.priceMinor > 0 ? service.priceMinor : null);
      // open bookings lie ahead of "now", the completed one behind it
      if (booking.status === 'COMPLETED') expect(booking.endTime).toBeLessThan(now);
      else expect(booking.startTime).toBeGreaterThan(now);
    }
  });

  test('a second call does nothing: returns false, same workspace, same data', async () => {
    await ensureDemoWorkspace({ storage: db.storage, clock });
    const first = (await db.storage.getWorkspaceBySlug('demo'))!;
    const before = await demoShape(db.storage, first);

    clock.advance(60 * 60_000);
    expect(await ensureDemoWorkspace({ storage: db.storage, clock })).toBe(false);
    const second = (await db.storage.getWorkspaceBySlug('demo'))!;
    expect(second).toEqual(first);
    expect(await demoShape(db.storage, second)).toEqual(before);
  });

  test('a demo whose seeding was cut off half-way is seeded again on the next start', async () => {
    await ensureDemoWorkspace({ storage: db.storage, clock });
    const complete = (await db.storage.getWorkspaceBySlug('demo'))!;
    const shape = await demoShape(db.storage, complete);
    // What a process killed right after creating the workspace leaves: the workspace alone, no completion mark.
    await db.storage.deleteWorkspace(complete.id);
    await db.storage.createWorkspace({ ...complete, id: 'ws_half_seeded' });

    clock.advance(30_000);
    expect(await ensureDemoWorkspace({ storage: db.storage, clock })).toBe(false);
    expect((await db.storage.getWorkspaceBySlug('demo'))!.id).toBe('ws_half_seeded');

    clock.advance(60_000);
    expect(await ensureDemoWorkspace({ storage: db.storage, clock })).toBe(true);
    const reseeded = (await db.storage.getWorkspaceBySlug('demo'))!;
    expect(reseeded.id).not.toBe('ws_half_seeded');
    expect(await demoShape(db.storage, reseeded)).toEqual(shape);
  });

  test('{ reset: true } replaces it: a new id, the same shape, nothing left of the old one', async () => {
    await ensureDemoWorkspace({ storage: db.storage, clock });
    const old = (await db.storage.getWorkspaceBySlug('demo'))!;
    const oldShape = await demoShape(db.storage, old);
    const oldBooking = (await db.storage.listBookings(old.id, { limit: 1 }))[0]!;

    clock.advance(24 * 60 * 60_000);
    expect(await ensureDemoWorkspace({ storage: db.storage, clock }, { reset: true })).toBe(true);
    const fresh = (await db.storage.getWorkspaceBySlug('demo'))!;
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.createdAt).toBe(Date.parse(TEST_NOW) + 24 * 60 * 60_000);
    expect(await demoShape(db.storage, fresh)).toEqual(oldShape);

    expect(await db.storage.getWorkspaceById(old.id)).toBeNull();
    expect(await db.storage.listServices(old.id, { activeOnly: false })).toEqual([]);
    expect(await db.storage.listProviders(old.id)).toEqual([]);
    expect(await db.storage.getBooking(old.id, oldBooking.id)).toBeNull();
  });

  test('{ reset: true } on a database without a demo workspace creates it', async () => {
    expect(await ensureDemoWorkspace({ storage: db.storage, clock }, { reset: true })).toBe(true);
    expect(await db.storage.getWorkspaceBySlug('demo')).not.toBeNull();
  });
});

describe.skipIf(!POSTGRES_URL)('ensureDemoWorkspace from two instances at once [postgres]', () => {
  test('two instances seeding the same database at the same moment: one creates it, the other does nothing, neither fails', async () => {
    const db = await createTestDatabase('postgres');
    const other = db.reopen();
    try {
      for (let round = 0; round < 3; round++) {
        const previous = await db.storage.getWorkspaceBySlug('demo');
        if (previous) await db.storage.deleteWorkspace(previous.id);
        await Promise.all([db.storage.ping(), other.ping()]);
        const results = await Promise.all([
          ensureDemoWorkspace({ storage: db.storage, clock: systemClock }),
          ensureDemoWorkspace({ storage: other, clock: systemClock }),
        ]);
        expect(results.filter(Boolean)).toHaveLength(1);
        const workspace = (await db.storage.getWorkspaceBySlug('demo'))!;
        expect((await db.storage.listServices(workspace.id, { activeOnly: false })).length).toBe(4);
      }
    } finally {
      await db.drop();
    }
  });
});
