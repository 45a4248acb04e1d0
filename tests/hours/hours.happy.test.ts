import { afterEach, beforeEach, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '../support/app.ts';
import { describeEachAdapter } from '../support/storage.ts';
import { V1, addProvider, defaultWeek, week } from '../services/catalogue-fixtures.ts';

describeEachAdapter('working hours: happy path', (adapter) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(adapter);
  });
  afterEach(() => t.close());

  const split = [
    { start: '09:00', end: '12:30' },
    { start: '13:30', end: '18:00' },
  ];

  test('a new workspace works Mon–Fri 09:00–17:00 with no exceptions', async () => {
    const response = await t.request('GET', `${V1}/acme/schedule`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, schedule: { weekly: defaultWeek(), exceptions: [] } });
  });

  test('PUT replaces the schedule -> 200 with it, exceptions sorted by date, and GET returns the same', async () => {
    const schedule = {
      weekly: week({ mon: split, sat: [{ start: '10:00', end: '14:00' }] }),
      exceptions: [
        { date: '2026-12-31', intervals: [] },
        { date: '2026-12-24', intervals: [{ start: '09:00', end: '12:00' }] },
      ],
    };
    const response = await t.request('PUT', `${V1}/acme/schedule`, { key: t.apiKey, body: schedule });
    expect(response.status).toBe(200);
    const [lastDay, christmasEve] = schedule.exceptions;
    const expected = { weekly: schedule.weekly, exceptions: [christmasEve!, lastDay!] };
    expect(response.body).toEqual({ success: true, schedule: expected });
    expect((await t.request('GET', `${V1}/acme/schedule`, { key: t.apiKey })).body).toEqual({ success: true, schedule: expected });
    expect((await t.deps.storage.getWorkspaceBySlug('acme'))?.hours).toEqual(expected);
  });

  test('PUT without exceptions means none', async () => {
    const response = await t.request('PUT', `${V1}/acme/schedule`, { key: t.apiKey, body: { weekly: week({ tue: split }) } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, schedule: { weekly: week({ tue: split }), exceptions: [] } });
  });

  test('PUT accepts intervals that touch, one that ends at 24:00, and a day open around the clock', async () => {
    const weekly = week({
      mon: [
        { start: '08:00', end: '12:00' },
        { start: '12:00', end: '16:00' },
      ],
      fri: [{ start: '18:00', end: '24:00' }],
      sat: [{ start: '00:00', end: '24:00' }],
    });
    const response = await t.request('PUT', `${V1}/acme/schedule`, { key: t.apiKey, body: { weekly, exceptions: [] } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, schedule: { weekly, exceptions: [] } });
  });

  test('PUT accepts the GET answer as its body, so a read-modify-write round trip works', async () => {
    const read = await t.request('GET', `${V1}/acme/schedule`, { key: t.apiKey });
    read.body.schedule.weekly.sat = [{ start: '10:00', end: '13:00' }];
    const response = await t.request('PUT', `${V1}/acme/schedule`, { key: t.apiKey, body: read.body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, schedule: { weekly: { ...defaultWeek(), sat: [{ start: '10:00', end: '13:00' }] }, exceptions: [] } });
  });

  test('PUT ignores unknown fields in intervals and days', async () => {
    const body = { weekly: { ...week(), wed: [{ start: '09:00', end: '10:00', note: 'x' }], holiday: [] }, exceptions: [], timezone: 'UTC' };
    const response = await t.request('PUT', `${V1}/acme/schedule`, { key: t.apiKey, body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, schedule: { weekly: week({ wed: [{ start: '09:00', end: '10:00' }] }), exceptions: [] } });
  });

  test("a provider without its own schedule answers the workspace's with inherited: true", async () => {
    const provider = await addProvider(t);
    const response = await t.request('GET', `${V1}/acme/providers/${provider.id}/schedule`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, schedule: { weekly: defaultWeek(), exceptions: [] }, inherited: true });
  });

  test("an inheriting provider follows changes of the workspace's schedule", async () => {
    const provider = await addProvider(t);
    await t.request('PUT', `${V1}/acme/schedule`, { key: t.apiKey, body: { weekly: week({ sun: split }) } });
    const response = await t.request('GET', `${V1}/acme/providers/${provider.id}/schedule`, { key: t.apiKey });
    expect(response.body).toEqual({ success: true, schedule: { weekly: week({ sun: split }), exceptions: [] }, inherited: true });
  });

  test('PUT a provider schedule -> 200 with inherited: false; it no longer follows the workspace', async () => {
    const provider = await addProvider(t);
    const own = { weekly: week({ mon: split }), exceptions: [{ date: '2026-12-24', intervals: [] }] };
    const response = await t.request('PUT', `${V1}/acme/providers/${provider.id}/schedule`, { key: t.apiKey, body: own });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, schedule: own, inherited: false });
    await t.request('PUT', `${V1}/acme/schedule`, { key: t.apiKey, body: { weekly: week() } });
    expect((await t.request('GET', `${V1}/acme/providers/${provider.id}/schedule`, { key: t.apiKey })).body).toEqual({
      success: true,
      schedule: own,
      inherited: false,
    });
    expect((await t.deps.storage.getProvider(t.workspace.id, provider.id))?.hours).toEqual(own);
  });

  test("DELETE a provider schedule -> 200 with the workspace's and inherited: true", async () => {
    const provider = await addProvider(t);
    await t.request('PUT', `${V1}/acme/providers/${provider.id}/schedule`, { key: t.apiKey, body: { weekly: week({ mon: split }) } });
    const response = await t.request('DELETE', `${V1}/acme/providers/${provider.id}/schedule`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, schedule: { weekly: defaultWeek(), exceptions: [] }, inherited: true });
    expect((await t.deps.storage.getProvider(t.workspace.id, provider.id))?.hours).toBeNull();
  });

  test('DELETE the schedule of an inheriting provider -> 200, it keeps inheriting', async () => {
    const provider = await addProvider(t);
    const response = await t.request('DELETE', `${V1}/acme/providers/${provider.id}/schedule`, { key: t.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, schedule: { weekly: defaultWeek(), exceptions: [] }, inherited: true });
  });

  test("a deactivated provider's schedule can still be read and set", async () => {
    const provider = await addProvider(t, { active: false });
    const response = await t.request('PUT', `${V1}/acme/providers/${provider.id}/schedule`, { key: t.apiKey, body: { weekly: week({ thu: split }) } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, schedule: { weekly: week({ thu: split }), exceptions: [] }, inherited: false });
  });
});
