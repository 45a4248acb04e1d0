import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { addProvider, addService, catalogue, tuesday } from '../bookings/fixtures.ts';

describeEachAdapter('availability security', (adapter) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(adapter);
  });
  afterEach(() => app.close());

  test('a service of another workspace is not found through this workspace', async () => {
    const { workspace: other } = await createWorkspace(app.deps, { slug: 'other', name: 'Other', timezone: 'Europe/Berlin' });
    const { service } = await catalogue(app);
    const response = await app.request('GET', `/api/v1/workspaces/other/availability?serviceId=${service.id}&date=2026-11-24`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: `serviceId ${service.id} is not an active service of workspace other`, code: 'SERVICE_NOT_FOUND' });
    expect(other.slug).toBe('other');
  });

  test('a provider of another workspace cannot be named', async () => {
    await createWorkspace(app.deps, { slug: 'other', name: 'Other', timezone: 'Europe/Berlin' });
    const otherWorkspace = (await app.deps.storage.getWorkspaceBySlug('other'))!;
    const stranger = await addProvider({ ...app, workspace: otherWorkspace }, { name: 'Stranger' });
    const { service } = await catalogue(app);
    const response = await app.request('GET', `/api/v1/workspaces/acme/availability?serviceId=${service.id}&date=2026-11-24&providerId=${stranger.id}`);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('SERVICE_NOT_FOUND');
  });

  test('availability tells nothing about the bookings that fill it: only free start times', async () => {
    const alex = await addProvider(app);
    const service = await addService(app, [alex]);
    const booked = await app.request('POST', '/api/v1/workspaces/acme/bookings', {
      key: app.apiKey,
      body: { serviceId: service.id, email: 'secret@example.com', name: 'Secret Customer', date: tuesday('10:00') },
    });
    expect(booked.status).toBe(200);
    const response = await app.request('GET', `/api/v1/workspaces/acme/availability?serviceId=${service.id}&date=2026-11-24`);
    expect(response.body).toEqual({ success: true, slots: ['09:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00'], timezone: 'Europe/Berlin' });
    expect(JSON.stringify(response.body)).not.toContain('secret');
  });
});
