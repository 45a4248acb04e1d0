import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { App } from '../../src/app.ts';
import { AVAILABILITY_CACHE_MS } from '../../src/deps.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { createAvailabilityCache } from '../../src/scheduling/availability-cache.ts';
import { createTestApp, send, type TestApp } from '../support/app.ts';
import { catalogue, tuesday } from '../bookings/fixtures.ts';

describe('availability cache', () => {
  test('an answer is kept for the TTL, per workspace, and dropped by invalidate', () => {
    const clock = manualClock('2026-11-23T08:00:00.000Z');
    const cache = createAvailabilityCache({ clock, ttlMs: 1000 });
    cache.set('ws_a', 'slots:x', ['09:00']);
    expect(cache.get<string[]>('ws_a', 'slots:x')).toEqual(['09:00']);
    expect(cache.get('ws_b', 'slots:x')).toBeUndefined();
    clock.advance(999);
    expect(cache.get<string[]>('ws_a', 'slots:x')).toEqual(['09:00']);
    clock.advance(1);
    expect(cache.get('ws_a', 'slots:x')).toBeUndefined();
    cache.set('ws_a', 'slots:x', ['10:00']);
    cache.invalidate('ws_a');
    expect(cache.get('ws_a', 'slots:x')).toBeUndefined();
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

    test('a booking written by another instance shows once the TTL has passed', async () => {
      expect(await slots()).toContain('11:00');
      // Straight to the adapter, as another server process would.
      const start = Date.parse(tuesday('11:00'));
      const now = ctx.clock.now();
      await ctx.db.storage.reserveBooking({
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
