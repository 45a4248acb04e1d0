import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { App } from '../../src/app.ts';
import { AVAILABILITY_CACHE_MS } from '../../src/deps.ts';
import { manualClock } from '../../src/core/clock.ts';
import { createAvailabilityCache } from '../../src/features/scheduling/availability-cache.ts';
import { createTestApp, send, type TestApp } from '../support/app.ts';
import { catalogue, tuesday } from '../bookings/fixtures.ts';

describe('availability cache', () => {
  /** A loader whose answers the test hands out, counting its calls. */
  function heldLoader() {
    const pending: ((value: string[]) => void)[] = [];
    const loader = () => new Promise<string[]>((resolve) => pending.push(resolve));
    return { loader, pending };
  }

  test('an answer is kept for the TTL, per workspace, and dropped by invalidate', async () => {
    const clock = manualClock('2026-11-23T08:00:00.000Z');
    const cache = createAvailabilityCache({ clock, ttlMs: 1000 });
    let loads = 0;
    const load = (workspace: string, answer: string) =>
      cache.load(workspace, 'slots:x', async () => {
        loads++;
        return [answer];
      });
    expect(await load('ws_a', '09:00')).toEqual(['09:00']);
    expect(await load('ws_b', '11:00')).toEqual(['11:00']);
    clock.advance(999);
    expect(await load('ws_a', 'not loaded')).toEqual(['09:00']);
    expect(loads).toBe(2);
    clock.advance(1);
    expect(await load('ws_a', '10:00')).toEqual(['10:00']);
    expect(await load('ws_b', '11:30')).toEqual(['11:30']);
    cache.invalidate('ws_a');
    expect(await load('ws_a', '12:00')).toEqual(['12:00']);
    expect(await load('ws_b', 'not loaded')).toEqual(['11:30']);
    expect(loads).toBe(5);
  });

  test('concurrent misses wait for one computation instead of each starting their own', async () => {
    const cache = createAvailabilityCache({ clock: manualClock('2026-11-23T08:00:00.000Z'), ttlMs: 1000 });
    const { loader, pending } = heldLoader();
    const answers = Promise.all(Array.from({ length: 60 }, () => cache.load('ws_a', 'days:x', loader)));
    expect(pending).toHaveLength(1);
    pending[0]!(['2026-11-24']);
    expect(new Set((await answers).map((days) => days.join()))).toEqual(new Set(['2026-11-24']));
  });

  test('a computation running when a booking invalidates is handed to its callers but not kept', async () => {
    const cache = createAvailabilityCache({ clock: manualClock('2026-11-23T08:00:00.000Z'), ttlMs: 1000 });
    const { loader, pending } = heldLoader();
    const beforeBooking = cache.load('ws_a', 'slots:x', loader);
    cache.invalidate('ws_a');
    const afterBooking = cache.load('ws_a', 'slots:x', loader);
    expect(pending).toHaveLength(2);
    pending[0]!(['09:00', '09:30']);
    pending[1]!(['09:30']);
    expect(await beforeBooking).toEqual(['09:00', '09:30']);
    expect(await afterBooking).toEqual(['09:30']);
    expect(await cache.load('ws_a', 'slots:x', loader)).toEqual(['09:30']);
    expect(pending).toHaveLength(2);
  });

  test('a failed computation is not kept: the next request computes again', async () => {
    const cache = createAvailabilityCache({ clock: manualClock('2026-11-23T08:00:00.000Z'), ttlMs: 1000 });
    await expect(cache.load('ws_a', 'slots:x', () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await cache.load('ws_a', 'slots:x', async () => ['10:00'])).toEqual(['10:00']);
  });

  describe('through the routes, as buildDeps wires it', () => {
    let ctx: TestApp;
    let app: App;
    let serviceId: string;
    let providerId: string;

    beforeAll(async () => {
      ctx = await createTestApp('libsql');
      ({
        service: { id: serviceId },
        provider: { id: providerId },
      } = await catalogue(ctx));
      app = ctx.app;
    });
    afterAll(() => ctx.close());

    const slots = async () => (await send(app, 'GET', `/api/v1/workspaces/acme/availability?serviceId=${serviceId}&date=2026-11-24`)).body.slots as string[];

    test('a booking made through this server drops the cached answer at once', async () => {
      expect(await slots()).toContain('10:00');
      const booked = await send(app, 'POST', '/api/v1/workspaces/acme/bookings', {
        key: ctx.apiKey,
        body: { serviceId, email: 'mia@example.com', date: tuesday('10:00') },
      });
      expect(booked.status).toBe(200);
      expect(await slots()).not.toContain('10:00');
    });

    test('a booking written by another client of the database, heard of nothing, shows once the TTL has passed', async () => {
      // As a remote libSQL server's other clients write (an embedded file has no other writer of bookings, and
      // Postgres instances hear of each other: tests/storage/change-channel.test.ts)
      ctx.db.storage.hearsEveryBookingWrite = () => false;
      ctx.deps.busyCache!.invalidate();
      expect(await slots()).toContain('11:00');
      // Through a connection of its own: this app hears nothing of it.
      const start = Date.parse(tuesday('11:00'));
      const now = ctx.clock.now();
      await ctx.db.reopen().reserveBooking({
        booking: {
          id: 'bk_elsewhere',
          workspaceId: ctx.workspace.id,
          serviceId,
          providerId,
          status: 'CONFIRMED',
          startTime: start,
          endTime: start + 3_600_000,
          bufferTime: 0,
          customerName: null,
          customerEmail: 'noah@example.com',
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
        },
        candidates: [providerId],
        margin: 0,
        fits: () => null,
        emit: () => [],
      });
      expect(await slots()).toContain('11:00');
      ctx.clock.advance(AVAILABILITY_CACHE_MS);
      expect(await slots()).not.toContain('11:00');
    });
  });
});
