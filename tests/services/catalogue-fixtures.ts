import { expect, test } from 'bun:test';
import { ensureDemoWorkspace } from '../../src/features/demo/seed.ts';
import { newId } from '../../src/core/ids.ts';
import type { BookingRecord, WorkspaceRecord } from '../../src/ports/storage/index.ts';
import { createWorkspace } from '../../src/features/workspaces/service.ts';
import type { TestApp } from '../support/app.ts';

/*
 * Shared set-up of the catalogue route tests (workspace settings, domains, custom fields, services,
 * providers, working hours).
 */

export const V1 = '/api/v1/workspaces';

export const MISSING_KEY = { success: false, error: 'missing API key: send it in the x-svc-api-key header', code: 'UNAUTHORIZED' };
export const INVALID_KEY = { success: false, error: 'invalid API key', code: 'UNAUTHORIZED' };

/** The contract's 400 body for a message produced by a schema (these carry `details` with the field's path). */
export function schemaError(path: string, message: string) {
  return { success: false, error: message, code: 'VALIDATION_ERROR', details: [{ path, message }] };
}

/** The contract's 400 body for a message produced by a rule checked in code. */
export function ruleError(message: string) {
  return { success: false, error: message, code: 'VALIDATION_ERROR' };
}

export function notFoundError(what: string) {
  return { success: false, error: `${what} not found`, code: 'NOT_FOUND' };
}

/** A second workspace with its own API key, for "a key of another workspace" checks. */
export async function otherWorkspace(t: TestApp): Promise<{ workspace: WorkspaceRecord; apiKey: string }> {
  return createWorkspace(t.deps, { slug: 'other', name: 'Other Studio', timezone: 'UTC' });
}

/** The demo workspace (docs/contract/widget.md), as a fresh install creates it. */
export async function demoWorkspace(t: TestApp): Promise<WorkspaceRecord> {
  await ensureDemoWorkspace(t.deps);
  const demo = await t.deps.storage.getWorkspaceBySlug('demo');
  if (!demo) throw new Error('demo workspace missing');
  return demo;
}

/** Everything the catalogue routes can change in a workspace, as stored, to check a refused request left it alone. */
export async function catalogueSnapshot(t: TestApp, slug = 'acme') {
  const workspace = await t.deps.storage.getWorkspaceBySlug(slug);
  if (!workspace) throw new Error(`workspace ${slug} missing`);
  const [services, providers, customFields] = await Promise.all([
    t.deps.storage.listServices(workspace.id, { activeOnly: false }),
    t.deps.storage.listProviders(workspace.id),
    t.deps.storage.listCustomFields(workspace.id),
  ]);
  return { workspace, services, providers, customFields };
}

/** Runs `refused` and checks the stored catalogue is exactly as before. */
export async function expectUnchanged(t: TestApp, refused: () => Promise<unknown>, slug = 'acme') {
  const before = await catalogueSnapshot(t, slug);
  await refused();
  expect(await catalogueSnapshot(t, slug)).toEqual(before);
}

export async function addService(t: TestApp, body: Record<string, unknown> = {}, key = t.apiKey, slug = 'acme') {
  const response = await t.request('POST', `${V1}/${slug}/services`, {
    key,
    body: { name: 'Haircut', duration: 30, price: 35, currency: 'EUR', ...body },
  });
  if (response.status !== 200) throw new Error(`service not created: ${JSON.stringify(response.body)}`);
  return response.body.service as { id: string; [field: string]: unknown };
}

export async function addProvider(t: TestApp, body: Record<string, unknown> = {}, key = t.apiKey, slug = 'acme') {
  const response = await t.request('POST', `${V1}/${slug}/providers`, { key, body: { name: 'Alex Hoffmann', ...body } });
  if (response.status !== 200) throw new Error(`provider not created: ${JSON.stringify(response.body)}`);
  return response.body.provider as { id: string; [field: string]: unknown };
}

export async function addCustomField(t: TestApp, body: Record<string, unknown> = {}, key = t.apiKey, slug = 'acme') {
  const response = await t.request('POST', `${V1}/${slug}/custom-fields`, { key, body: { key: 'allergies', label: 'Allergies', type: 'text', ...body } });
  if (response.status !== 200) throw new Error(`custom field not created: ${JSON.stringify(response.body)}`);
  return response.body.customField as { id: string; [field: string]: unknown };
}

type Day = { start: string; end: string }[];

/** A full week, closed on every day not given. */
export function week(days: Partial<Record<'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun', Day>> = {}) {
  return { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [], ...days };
}

/** Mon–Fri 09:00–17:00: the hours of a new workspace. */
export function defaultWeek() {
  const day = () => [{ start: '09:00', end: '17:00' }];
  return week({ mon: day(), tue: day(), wed: day(), thu: day(), fri: day() });
}

/** A CONFIRMED booking written straight through storage (the booking routes are not under test here). */
export async function bookDirectly(t: TestApp, serviceId: string, providerId: string): Promise<BookingRecord> {
  const startTime = Date.parse('2026-11-24T09:00:00.000Z');
  const booking: BookingRecord = {
    id: newId('bk', t.clock.now()),
    workspaceId: t.workspace.id,
    serviceId,
    providerId,
    status: 'CONFIRMED',
    startTime,
    endTime: startTime + 30 * 60_000,
    bufferTime: 0,
    customerName: 'Mia Schneider',
    customerEmail: 'mia@example.com',
    phone: null,
    notes: null,
    customFields: {},
    amountMinor: 3500,
    currency: 'EUR',
    cancelReason: null,
    holdExpiresAt: null,
    createdAt: t.clock.now(),
    updatedAt: t.clock.now(),
    revision: 0,
    manageTokenHash: null,
    manageTokenSealed: null,
    priceMinor: null,
    paidMinor: 0,
    refundedMinor: 0,
  };
  const result = await t.deps.storage.reserveBooking({ booking, candidates: [providerId], margin: 0, fits: () => null, emit: () => [] });
  if (!result.ok) throw new Error(`booking not stored: ${result.reason}`);
  return result.booking;
}

export type RouteCall = readonly [method: string, path: string, body: unknown];

/**
 * The three key refusals every catalogue route owes, with a body that would otherwise be accepted: no key, a
 * wrong key, another workspace's key -> 401 with the contract body, and the workspace unchanged.
 */
export function testKeyRefusals(feature: string, app: () => TestApp, routes: () => readonly RouteCall[]) {
  const refusals: [string, (t: TestApp) => Promise<string | undefined>, unknown][] = [
    ['without a key', async () => undefined, MISSING_KEY],
    ['with a wrong key', async () => 'svc_live_wrong', INVALID_KEY],
    ['with the key of another workspace', async (t) => (await otherWorkspace(t)).apiKey, INVALID_KEY],
  ];
  for (const [how, keyFor, expected] of refusals) {
    test(`every ${feature} route ${how} -> 401, nothing stored`, async () => {
      const t = app();
      const key = await keyFor(t);
      for (const [method, path, body] of routes()) {
        await expectUnchanged(t, async () => {
          const response = await t.request(method, path, { body, key });
          expect([method, path, response.status]).toEqual([method, path, 401]);
          expect(response.body).toEqual(expected);
        });
      }
    });
  }
}
