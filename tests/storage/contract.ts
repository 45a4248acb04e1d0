import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test';
import type { BookingStatus } from '../../src/core/lifecycle.ts';
import type { WorkingHours } from '../../src/core/slot-engine.ts';
import { newId } from '../../src/core/ids.ts';
import {
  MAX_BOOKING_MS,
  UniqueViolation,
  type ApiKeyRecord,
  type AttemptOutcome,
  type BookingRecord,
  type BusyInterval,
  type CustomFieldRecord,
  type DeliveryAttemptRecord,
  type HostCredentialRecord,
  type MailEntry,
  type OutboxEvent,
  type PairingCodeRecord,
  type PanelCodeRecord,
  type PaymentRecord,
  type ProviderRecord,
  type ReserveRequest,
  type ServiceRecord,
  type Storage,
  type WebhookMessageRecord,
  type WebhookRecord,
  type WorkspaceRecord,
} from '../../src/ports/storage/index.ts';
import type { PanelSessionRecord } from '../../src/ports/storage/panel-session-store.ts';
import { createTestDatabase, type AdapterName, type TestDatabase } from '../support/storage.ts';

/*
 * The storage contract: one suite, run unchanged against every adapter (tests/storage/contract.test.ts).
 * Every test gets a fresh, migrated database, so rules about global reads (due messages, expired holds,
 * codes to purge) are checked against exactly the records the test wrote. All instants are fixed.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Monday 2030-03-04 09:00 UTC: "now" for the whole suite */
const T0 = Date.parse('2030-03-04T09:00:00.000Z');
/** the start of the slot most bookings take: Tuesday 10:00 UTC */
const SLOT = T0 + DAY + HOUR;
/** for tests that race many calls (bun's default is 5 s) */
const RACE_TIMEOUT_MS = 30_000;
/** for creating and dropping a test database */
const DATABASE_TIMEOUT_MS = 30_000;

const NINE_TO_FIVE = [{ start: '09:00', end: '17:00' }];
const WEEKDAY_HOURS: WorkingHours = {
  weekly: { mon: NINE_TO_FIVE, tue: NINE_TO_FIVE, wed: NINE_TO_FIVE, thu: NINE_TO_FIVE, fri: NINE_TO_FIVE, sat: [], sun: [] },
  exceptions: [],
};
const WEEKEND_HOURS: WorkingHours = {
  weekly: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [{ start: '10:00', end: '14:00' }], sun: [{ start: '12:00', end: '24:00' }] },
  exceptions: [
    { date: '2030-12-24', intervals: [] },
    { date: '2030-12-31', intervals: [{ start: '10:00', end: '12:00' }] },
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// factories: complete records with fresh ids; `overrides` set what a test is about

let counter = 0;
/** unique per call (lower case, [a-z0-9]), so records of one test never collide */
const tag = () => `${(counter++).toString(36)}x${Math.random().toString(36).slice(2, 8)}`;

export function aWorkspace(overrides: Partial<WorkspaceRecord> = {}): WorkspaceRecord {
  return {
    id: newId('ws'),
    slug: `studio-${tag()}`,
    name: 'Studio',
    primaryColor: '#336699',
    logoUrl: null,
    plan: 'self-hosted',
    industry: 'other',
    timezone: 'Europe/Berlin',
    language: 'en',
    timeFormat: '24h',
    cancellationHours: 24,
    requiresConfirmation: false,
    hours: WEEKDAY_HOURS,
    domains: ['example.com'],
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function aService(ws: WorkspaceRecord, overrides: Partial<ServiceRecord> = {}): ServiceRecord {
  return {
    id: newId('srv'),
    workspaceId: ws.id,
    name: 'Haircut',
    description: 'Wash and cut',
    duration: 30,
    priceMinor: 3550,
    currency: 'EUR',
    active: true,
    category: 'hair',
    capacity: 1,
    bufferTime: 0,
    minNotice: 60,
    maxAdvance: 90,
    depositMinor: null,
    order: 0,
    slotInterval: null,
    providerIds: [],
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function aProvider(ws: WorkspaceRecord, overrides: Partial<ProviderRecord> = {}): ProviderRecord {
  return {
    id: newId('prv'),
    workspaceId: ws.id,
    name: 'Alex',
    email: 'alex@example.com',
    active: true,
    hours: null,
    serviceIds: [],
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function aCustomField(ws: WorkspaceRecord, overrides: Partial<CustomFieldRecord> = {}): CustomFieldRecord {
  return {
    id: newId('cf'),
    workspaceId: ws.id,
    key: `field_${tag()}`,
    label: 'Allergies',
    type: 'text',
    required: false,
    options: null,
    placeholder: null,
    order: 0,
    serviceIds: [],
    createdAt: T0,
    ...overrides,
  };
}

export function aBooking(srv: ServiceRecord, prv: Pick<ProviderRecord, 'id'>, overrides: Partial<BookingRecord> = {}): BookingRecord {
  const startTime = overrides.startTime ?? SLOT;
  return {
    id: newId('bk'),
    workspaceId: srv.workspaceId,
    serviceId: srv.id,
    providerId: prv.id,
    status: 'CONFIRMED',
    startTime,
    endTime: startTime + 30 * MINUTE,
    bufferTime: 0,
    customerName: 'Kim Lee',
    customerEmail: 'kim@example.com',
    phone: '+49 30 1234567',
    notes: null,
    customFields: { allergies: 'none', guests: 2 },
    amountMinor: null,
    currency: null,
    cancelReason: null,
    holdExpiresAt: null,
    createdAt: T0,
    updatedAt: T0,
    revision: 0,
    manageTokenHash: null,
    manageTokenSealed: null,
    ...overrides,
  };
}

export function aWebhook(ws: WorkspaceRecord, overrides: Partial<WebhookRecord> = {}): WebhookRecord {
  return {
    id: newId('wh'),
    workspaceId: ws.id,
    name: 'Orders',
    url: `https://hooks.example.com/${tag()}`,
    secret: `enc:${tag()}`,
    events: [],
    isActive: true,
    failingSince: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function anApiKey(ws: WorkspaceRecord, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: newId('key'),
    workspaceId: ws.id,
    name: 'default',
    prefix: 'svc_live_ab',
    hash: `sha256-${tag()}`,
    createdAt: T0,
    revokedAt: null,
    lastUsedAt: null,
    ...overrides,
  };
}

export function aPayment(booking: BookingRecord, overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return {
    id: newId('pay'),
    workspaceId: booking.workspaceId,
    bookingId: booking.id,
    provider: 'test',
    reference: `cs_${tag()}`,
    amountMinor: 3550,
    currency: 'EUR',
    status: 'pending',
    refundDue: false,
    checkoutUrl: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function aPairingCode(ws: WorkspaceRecord, overrides: Partial<PairingCodeRecord> = {}): PairingCodeRecord {
  return { id: newId('pc'), workspaceId: ws.id, codeHash: `pairing-${tag()}`, expiresAt: T0 + HOUR, usedAt: null, createdAt: T0, ...overrides };
}

export function aPanelCode(ws: WorkspaceRecord, overrides: Partial<PanelCodeRecord> = {}): PanelCodeRecord {
  return {
    id: newId('pc'),
    workspaceId: ws.id,
    codeHash: `panel-${tag()}`,
    origin: 'https://shop.example.com',
    subject: 'admin@shop',
    capabilities: ['svc_manage_operations', 'svc_manage_settings'],
    expiresAt: T0 + MINUTE,
    usedAt: null,
    createdAt: T0,
    ...overrides,
  };
}

export function aHostCredential(ws: WorkspaceRecord, overrides: Partial<HostCredentialRecord> = {}): HostCredentialRecord {
  return {
    id: newId('hc'),
    workspaceId: ws.id,
    origin: 'https://shop.example.com',
    credentialHash: `cred-${tag()}`,
    platform: 'wordpress',
    createdAt: T0,
    lastUsedAt: null,
    ...overrides,
  };
}

export function aPanelSession(ws: WorkspaceRecord, overrides: Partial<PanelSessionRecord> = {}): PanelSessionRecord {
  return {
    id: newId('ps'),
    workspaceId: ws.id,
    tokenHash: `session-${tag()}`,
    subject: 'admin@shop',
    capabilities: ['svc_manage_operations'],
    origin: 'https://shop.example.com',
    signedInAt: T0,
    expiresAt: T0 + 30 * MINUTE,
    createdAt: T0,
    ...overrides,
  };
}

export function anEvent(ws: WorkspaceRecord, type: string, occurredAt = T0): OutboxEvent {
  return { workspaceId: ws.id, type, body: JSON.stringify({ type, n: tag() }), occurredAt };
}

export function anOutcome(
  message: WebhookMessageRecord,
  overrides: Omit<Partial<AttemptOutcome>, 'attempt'> & { attempt?: Partial<DeliveryAttemptRecord> } = {},
): AttemptOutcome {
  const { attempt, ...rest } = overrides;
  return {
    status: 'pending',
    nextAttemptAt: T0 + 5 * SECOND,
    ...rest,
    attempt: {
      id: newId('att'),
      messageId: message.id,
      webhookId: message.webhookId,
      attemptedAt: T0 + 100,
      statusCode: 500,
      error: 'HTTP 500',
      durationMs: 120,
      nextRetryAt: rest.nextAttemptAt === undefined ? T0 + 5 * SECOND : rest.nextAttemptAt,
      ...attempt,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// helpers

/** A workspace with one provider offering one service. */
async function seed(storage: Storage, overrides: { capacity?: number } = {}) {
  const ws = aWorkspace();
  await storage.createWorkspace(ws);
  const prv = aProvider(ws);
  await storage.createProvider(prv);
  const srv = aService(ws, { providerIds: [prv.id], capacity: overrides.capacity ?? 1 });
  await storage.createService(srv);
  return { ws, srv, prv };
}

async function addProvider(storage: Storage, ws: WorkspaceRecord, overrides: Partial<ProviderRecord> = {}) {
  const prv = aProvider(ws, overrides);
  await storage.createProvider(prv);
  return prv;
}

/** Stores a booking as given (nothing refuses it) and returns what reserveBooking returned. */
async function book(storage: Storage, booking: BookingRecord, events: OutboxEvent[] = []): Promise<BookingRecord> {
  const result = await storage.reserveBooking({
    booking,
    candidates: [booking.providerId],
    margin: 0,
    fits: () => null,
    emit: () => events,
  });
  if (!result.ok) throw new Error(`setup: booking refused: ${result.reason}`);
  return result.booking;
}

/** Every message due by `now`, leased to a throw-away owner: the suite's way of reading the outbox. */
async function dueMessages(storage: Storage, now = T0 + 365 * DAY): Promise<WebhookMessageRecord[]> {
  const messages = await storage.claimDueMessages(`inspector-${tag()}`, now, now + MINUTE, 1000);
  return messages.sort((a, b) => (a.webhookId + a.eventType).localeCompare(b.webhookId + b.eventType));
}

/** Claims the only due message of the database for `owner`. */
async function claimOne(storage: Storage, owner: string, now = T0): Promise<WebhookMessageRecord> {
  const claimed = await storage.claimDueMessages(owner, now, now + MINUTE, 10);
  expect(claimed).toHaveLength(1);
  return claimed[0]!;
}

const ids = (records: { id: string }[]) => records.map((record) => record.id);
const sortedIds = (records: { id: string }[]) => ids(records).sort();
const withSortedProviders = (service: ServiceRecord | null) => service && { ...service, providerIds: [...service.providerIds].sort() };
const withSortedServices = (provider: ProviderRecord | null) => provider && { ...provider, serviceIds: [...provider.serviceIds].sort() };
const byBookingId = (a: BusyInterval, b: BusyInterval) => a.bookingId.localeCompare(b.bookingId);
const busyOf = (booking: BookingRecord): BusyInterval => ({
  bookingId: booking.id,
  providerId: booking.providerId,
  serviceId: booking.serviceId,
  startTime: booking.startTime,
  endTime: booking.endTime,
  bufferTime: booking.bufferTime,
});
/** (startTime, id) order, as listBookings promises */
const bookingOrder = (a: BookingRecord, b: BookingRecord) => a.startTime - b.startTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

async function caught(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  return null;
}

/** A racer for one slot: refuses when `capacity` bookings already overlap it on the provider. */
function racer(srv: ServiceRecord, providerIds: string[], capacity: number): ReserveRequest {
  return {
    booking: aBooking(srv, { id: providerIds[0]! }, { customerEmail: `racer-${tag()}@example.com` }),
    candidates: providerIds,
    margin: 0,
    fits: (_providerId, busy) => (busy.length >= capacity ? 'taken' : null),
    emit: () => [],
  };
}

/**
 * Opens every pooled connection before a race, so that the racers really run side by side instead of queueing
 * behind connection set-up (on a cold pool the first racer often finishes before the second has a connection).
 */
async function warm(storages: Storage[]) {
  await Promise.all(storages.flatMap((each) => Array.from({ length: 20 }, () => each.ping())));
}

/** Runs every request at once, alternating between `storages`; every call must settle with a result. */
async function race(storages: Storage[], requests: ReserveRequest[]) {
  await warm(storages);
  const settled = await Promise.allSettled(requests.map((request, i) => storages[i % storages.length]!.reserveBooking(request)));
  const errors = settled.filter((each) => each.status === 'rejected').map((each) => String((each as PromiseRejectedResult).reason));
  expect(errors).toEqual([]);
  const results = settled.map((each) => (each as PromiseFulfilledResult<Awaited<ReturnType<Storage['reserveBooking']>>>).value);
  return {
    won: results.flatMap((result) => (result.ok ? [result.booking] : [])),
    lost: results.flatMap((result) => (result.ok ? [] : [result.reason])),
  };
}

// ---------------------------------------------------------------------------------------------------------------

/** The storage contract for one adapter: call inside a describe block per adapter. */
export function storageContract(adapter: AdapterName) {
  let db: TestDatabase;
  let storage: Storage;
  let ran = 0;

  // Creating and dropping a Postgres schema waits for every other test run's migrations (one advisory lock).
  beforeEach(async () => {
    db = await createTestDatabase(adapter);
    storage = db.storage;
  }, DATABASE_TIMEOUT_MS);
  afterEach(async () => {
    ran++;
    await db.drop();
  }, DATABASE_TIMEOUT_MS);
  afterAll(() => {
    console.log(`storage contract [${adapter}]: ${ran} tests ran`);
  });

  describe('lifecycle', () => {
    test(
      'migrate() run again, also at once from a second instance, is harmless and keeps the data',
      async () => {
        const ws = aWorkspace();
        await storage.createWorkspace(ws);
        const other = db.reopen();
        await Promise.all([storage.migrate(), other.migrate(), storage.migrate()]);
        expect(await storage.getWorkspaceById(ws.id)).toEqual(ws);
        expect(await other.getWorkspaceBySlug(ws.slug)).toEqual(ws);
        const next = aWorkspace();
        await other.createWorkspace(next);
        expect(await storage.getWorkspaceById(next.id)).toEqual(next);
      },
      RACE_TIMEOUT_MS,
    );

    test('ping resolves while the database answers and rejects once the storage is closed', async () => {
      await expect(storage.ping()).resolves.toBeUndefined();
      const other = db.reopen();
      await expect(other.ping()).resolves.toBeUndefined();
      await other.close();
      expect(await caught(other.ping())).toBeInstanceOf(Error);
    });
  });

  describe('settings', () => {
    test('getSetting of a key never written -> null', async () => {
      expect(await storage.getSetting('never-written')).toBeNull();
    });

    test('putSettingIfAbsent stores the first value; a later call keeps it and returns the stored value', async () => {
      expect(await storage.putSettingIfAbsent('secret', 'first')).toBe('first');
      expect(await storage.putSettingIfAbsent('secret', 'second')).toBe('first');
      expect(await storage.getSetting('secret')).toBe('first');
      expect(await storage.putSettingIfAbsent('other', 'own')).toBe('own');
    });

    test('deleteSetting removes the key only while it holds the given value', async () => {
      await storage.putSettingIfAbsent('secret', 'first');
      await storage.deleteSetting('secret', 'other');
      expect(await storage.getSetting('secret')).toBe('first');
      await storage.deleteSetting('secret', 'first');
      expect(await storage.getSetting('secret')).toBeNull();
      expect(await storage.putSettingIfAbsent('secret', 'second')).toBe('second');
    });

    test(
      'putSettingIfAbsent from 20 concurrent callers on two instances stores one value and returns it to every caller',
      async () => {
        const other = db.reopen();
        const values = Array.from({ length: 20 }, (_, i) => `value-${i}`);
        await warm([storage, other]);
        const returned = await Promise.all(values.map((value, i) => (i % 2 ? other : storage).putSettingIfAbsent('secret', value)));
        const stored = await storage.getSetting('secret');
        expect(values).toContain(stored as string);
        expect(returned).toEqual(values.map(() => stored as string));
        expect(await other.getSetting('secret')).toBe(stored);
      },
      RACE_TIMEOUT_MS,
    );
  });

  describe('workspaces', () => {
    test('createWorkspace stores the record: getWorkspaceBySlug and getWorkspaceById return it as written', async () => {
      const ws = aWorkspace({ hours: WEEKEND_HOURS, domains: ['example.com', '*.example.org'], requiresConfirmation: true, primaryColor: null });
      await storage.createWorkspace(ws);
      expect(await storage.getWorkspaceBySlug(ws.slug)).toEqual(ws);
      expect(await storage.getWorkspaceById(ws.id)).toEqual(ws);
    });

    test('createWorkspace with a first key stores both; a first key that cannot be stored leaves no workspace', async () => {
      const other = aWorkspace();
      const taken = anApiKey(other);
      await storage.createWorkspace(other, taken);
      expect(await storage.findApiKeyByHash(taken.hash)).toEqual(taken);

      const ws = aWorkspace();
      const clashing = anApiKey(ws, { id: taken.id });
      expect(await caught(storage.createWorkspace(ws, clashing))).toBeInstanceOf(Error);
      expect(await storage.getWorkspaceBySlug(ws.slug)).toBeNull();
      expect(await storage.findApiKeyByHash(clashing.hash)).toBeNull();
      const key = anApiKey(ws);
      await storage.createWorkspace(ws, key);
      expect(await storage.getWorkspaceBySlug(ws.slug)).toEqual(ws);
      expect(await storage.findApiKeyByHash(key.hash)).toEqual(key);
    });

    test('getWorkspaceBySlug and getWorkspaceById of unknown values -> null', async () => {
      await storage.createWorkspace(aWorkspace());
      expect(await storage.getWorkspaceBySlug('no-such-slug')).toBeNull();
      expect(await storage.getWorkspaceById(newId('ws'))).toBeNull();
    });

    test('createWorkspace with a taken slug -> UniqueViolation("workspace") and the second record is not stored', async () => {
      const first = aWorkspace();
      await storage.createWorkspace(first);
      const second = aWorkspace({ slug: first.slug, name: 'Impostor' });
      const error = await caught(storage.createWorkspace(second));
      expect(error).toBeInstanceOf(UniqueViolation);
      expect((error as UniqueViolation).what).toBe('workspace');
      expect(await storage.getWorkspaceById(second.id)).toBeNull();
      expect(await storage.getWorkspaceBySlug(first.slug)).toEqual(first);
    });

    test('updateWorkspace applies the patch, hours and domains included, sets updatedAt and keeps the other fields', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const patch = {
        name: 'Renamed',
        primaryColor: null,
        industry: 'beauty',
        timezone: 'America/New_York',
        language: 'pt-BR',
        timeFormat: '12h' as const,
        cancellationHours: 48,
        requiresConfirmation: true,
        hours: WEEKEND_HOURS,
        domains: ['a.example', '*.b.example'],
      };
      const expected = { ...ws, ...patch, updatedAt: T0 + MINUTE };
      expect(await storage.updateWorkspace(ws.id, patch, T0 + MINUTE)).toEqual(expected);
      expect(await storage.getWorkspaceById(ws.id)).toEqual(expected);
      expect(await storage.getWorkspaceBySlug(ws.slug)).toEqual(expected);
    });

    test('updateWorkspace of one field leaves hours, domains and every other field as they were', async () => {
      const ws = aWorkspace({ hours: WEEKEND_HOURS });
      await storage.createWorkspace(ws);
      const expected = { ...ws, name: 'Only the name', updatedAt: T0 + MINUTE };
      expect(await storage.updateWorkspace(ws.id, { name: 'Only the name' }, T0 + MINUTE)).toEqual(expected);
      expect(await storage.getWorkspaceById(ws.id)).toEqual(expected);
    });

    test('updateWorkspace of an unknown id -> null and no workspace changes', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      expect(await storage.updateWorkspace(newId('ws'), { name: 'Ghost' }, T0 + MINUTE)).toBeNull();
      expect(await storage.getWorkspaceById(ws.id)).toEqual(ws);
    });

    /** Everything a workspace can own, one of each, plus an outbox message with an attempt. */
    async function populate(ws: WorkspaceRecord) {
      await storage.createWorkspace(ws);
      const prv = await addProvider(storage, ws, { hours: WEEKDAY_HOURS });
      const srv = aService(ws, { providerIds: [prv.id] });
      await storage.createService(srv);
      const key = anApiKey(ws);
      await storage.createApiKey(key);
      const field = aCustomField(ws);
      await storage.createCustomField(field);
      const hook = aWebhook(ws);
      await storage.createWebhook(hook);
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: T0 + 30 * MINUTE }), [anEvent(ws, 'booking.created')]);
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      await storage.enqueueEvents([anEvent(ws, 'webhook.test')], hook.id);
      const owner = `populate-${ws.id}`;
      const messages = (await storage.claimDueMessages(owner, T0, T0 + MINUTE, 100)).filter((message) => message.workspaceId === ws.id);
      expect(messages).toHaveLength(2);
      const outcome = anOutcome(messages[0]!);
      expect(await storage.recordAttempt(owner, messages[0]!.id, outcome)).toBe(true);
      const pairing = aPairingCode(ws);
      await storage.createPairingCode(pairing);
      const panel = aPanelCode(ws);
      await storage.createPanelCode(panel);
      const credential = aHostCredential(ws);
      await storage.putHostCredential(credential);
      const session = aPanelSession(ws);
      await storage.createPanelSession(session);
      return { ws, prv, srv, key, field, hook, booking, payment, messages, attempt: outcome.attempt, pairing, panel, credential, session };
    }

    test('deleteWorkspace removes the workspace and everything it owns, and leaves other workspaces as they were', async () => {
      const gone = await populate(aWorkspace());
      const kept = await populate(aWorkspace());

      await storage.deleteWorkspace(gone.ws.id);

      expect(await storage.getWorkspaceById(gone.ws.id)).toBeNull();
      expect(await storage.getWorkspaceBySlug(gone.ws.slug)).toBeNull();
      expect(await storage.getService(gone.ws.id, gone.srv.id)).toBeNull();
      expect(await storage.listServices(gone.ws.id, { activeOnly: false })).toEqual([]);
      expect(await storage.getProvider(gone.ws.id, gone.prv.id)).toBeNull();
      expect(await storage.listProviders(gone.ws.id)).toEqual([]);
      expect(await storage.listCustomFields(gone.ws.id)).toEqual([]);
      expect(await storage.findApiKeyByHash(gone.key.hash)).toBeNull();
      expect(await storage.getWebhook(gone.ws.id, gone.hook.id)).toBeNull();
      expect(await storage.listWebhooks(gone.ws.id)).toEqual([]);
      expect(await storage.getBooking(gone.ws.id, gone.booking.id)).toBeNull();
      expect(await storage.listBookings(gone.ws.id, { limit: 100 })).toEqual([]);
      expect(await storage.listBusy([gone.prv.id], 0, T0 + 365 * DAY)).toEqual([]);
      expect(await storage.getPaymentByReference(gone.payment.provider, gone.payment.reference)).toBeNull();
      expect(await storage.listPayments(gone.booking.id)).toEqual([]);
      for (const message of gone.messages) expect(await storage.getMessage(message.id)).toBeNull();
      expect(await storage.listAttempts(gone.hook.id, 100)).toEqual([]);
      expect(await storage.findHostCredential(gone.credential.credentialHash)).toBeNull();
      expect(await storage.consumePairingCode(gone.pairing.codeHash, T0)).toBeNull();
      expect(await storage.consumePanelCode(gone.panel.codeHash, T0)).toBeNull();
      expect(await storage.findPanelSession(gone.session.tokenHash, T0)).toBeNull();
      expect(await storage.listHostCredentials(gone.ws.id)).toEqual([]);
      expect(await storage.listApiKeys(gone.ws.id)).toEqual([]);
      // Nothing is left over: the same ids, slug, key and hashes can be used again, and no link survived.
      await storage.createWorkspace(gone.ws);
      await storage.createProvider({ ...gone.prv, serviceIds: [] });
      await storage.createService({ ...gone.srv, providerIds: [] });
      expect(await storage.getService(gone.ws.id, gone.srv.id)).toEqual({ ...gone.srv, providerIds: [] });
      expect(await storage.getProvider(gone.ws.id, gone.prv.id)).toEqual({ ...gone.prv, serviceIds: [] });
      await storage.createCustomField(gone.field);
      await storage.createApiKey(gone.key);
      await storage.createPairingCode(gone.pairing);
      await storage.createPanelCode(gone.panel);
      await storage.putHostCredential(gone.credential);
      await storage.createPanelSession(gone.session);

      expect(await storage.getWorkspaceById(kept.ws.id)).toEqual(kept.ws);
      expect(withSortedProviders(await storage.getService(kept.ws.id, kept.srv.id))).toEqual(kept.srv);
      expect(await storage.getProvider(kept.ws.id, kept.prv.id)).toEqual({ ...kept.prv, serviceIds: [kept.srv.id] });
      expect(await storage.listCustomFields(kept.ws.id)).toEqual([kept.field]);
      expect(await storage.findApiKeyByHash(kept.key.hash)).toEqual(kept.key);
      expect(await storage.getWebhook(kept.ws.id, kept.hook.id)).toEqual(kept.hook);
      expect(await storage.getBooking(kept.ws.id, kept.booking.id)).toEqual(kept.booking);
      expect(await storage.listPayments(kept.booking.id)).toEqual([kept.payment]);
      expect(ids(await storage.listExpiredHolds(T0 + HOUR, 100))).toEqual([kept.booking.id]);
      for (const message of kept.messages) expect((await storage.getMessage(message.id))?.id).toBe(message.id);
      expect(await storage.listAttempts(kept.hook.id, 100)).toEqual([kept.attempt]);
      expect(await storage.findHostCredential(kept.credential.credentialHash)).toEqual(kept.credential);
      expect(await storage.consumePairingCode(kept.pairing.codeHash, T0)).toEqual({ ...kept.pairing, usedAt: T0 });
      expect(await storage.consumePanelCode(kept.panel.codeHash, T0)).toEqual({ ...kept.panel, usedAt: T0 });
      expect(await storage.findPanelSession(kept.session.tokenHash, T0)).toEqual(kept.session);
    });
  });

  describe('API keys', () => {
    test('findApiKeyByHash returns the live key with that hash; an unknown hash -> null', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const key = anApiKey(ws);
      const other = anApiKey(ws, { name: 'ci' });
      await storage.createApiKey(key);
      await storage.createApiKey(other);
      expect(await storage.findApiKeyByHash(key.hash)).toEqual(key);
      expect(await storage.findApiKeyByHash(other.hash)).toEqual(other);
      expect(await storage.findApiKeyByHash('sha256-unknown')).toBeNull();
    });

    test('a revoked key is not found by its hash', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const live = anApiKey(ws);
      const revoked = anApiKey(ws, { revokedAt: T0 + MINUTE });
      await storage.createApiKey(live);
      await storage.createApiKey(revoked);
      expect(await storage.findApiKeyByHash(revoked.hash)).toBeNull();
      expect(await storage.findApiKeyByHash(live.hash)).toEqual(live);
    });

    test("listApiKeys lists the workspace's live keys oldest first; revoked keys and other workspaces' keys are not listed", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const newer = anApiKey(ws, { name: 'ci', createdAt: T0 + MINUTE });
      const older = anApiKey(ws, { createdAt: T0 });
      const revoked = anApiKey(ws, { revokedAt: T0 });
      for (const key of [newer, older, revoked, anApiKey(other)]) await storage.createApiKey(key);
      expect(await storage.listApiKeys(ws.id)).toEqual([older, newer]);
    });

    test('revokeApiKey stops the key at once and returns it; a second revoke, an unknown id or another workspace -> null', async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const key = anApiKey(ws);
      const kept = anApiKey(ws, { name: 'kept' });
      await storage.createApiKey(key);
      await storage.createApiKey(kept);
      expect(await storage.revokeApiKey(other.id, key.id, T0 + MINUTE)).toBeNull();
      expect(await storage.revokeApiKey(ws.id, key.id, T0 + MINUTE)).toEqual({ ...key, revokedAt: T0 + MINUTE });
      expect(await storage.findApiKeyByHash(key.hash)).toBeNull();
      expect(await storage.revokeApiKey(ws.id, key.id, T0 + 2 * MINUTE)).toBeNull();
      expect(await storage.revokeApiKey(ws.id, 'key_unknown', T0)).toBeNull();
      expect(await storage.listApiKeys(ws.id)).toEqual([kept]);
    });

    test('touchApiKey records the latest use and never moves it back', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const key = anApiKey(ws);
      await storage.createApiKey(key);
      await storage.touchApiKey(key.id, T0 + HOUR);
      await storage.touchApiKey(key.id, T0 + MINUTE);
      expect(await storage.findApiKeyByHash(key.hash)).toEqual({ ...key, lastUsedAt: T0 + HOUR });
    });
  });

  describe('services', () => {
    test('createService stores the record with its providerIds; getService returns it as written', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const first = await addProvider(storage, ws);
      const second = await addProvider(storage, ws, { name: 'Sam' });
      const srv = aService(ws, {
        providerIds: [first.id, second.id].sort(),
        description: null,
        category: null,
        maxAdvance: null,
        depositMinor: 1000,
        slotInterval: 15,
        capacity: 4,
        bufferTime: 10,
        order: 3,
        active: false,
      });
      await storage.createService(srv);
      expect(withSortedProviders(await storage.getService(ws.id, srv.id))).toEqual(srv);
      const bare = aService(ws, { name: 'Consultation' });
      await storage.createService(bare);
      expect(await storage.getService(ws.id, bare.id)).toEqual(bare);
    });

    test("getService is scoped to the workspace: another workspace's service or an unknown id -> null", async () => {
      const { ws, srv } = await seed(storage);
      const other = await seed(storage);
      expect(await storage.getService(other.ws.id, srv.id)).toBeNull();
      expect(await storage.getService(ws.id, other.srv.id)).toBeNull();
      expect(await storage.getService(ws.id, newId('srv'))).toBeNull();
      expect(await storage.getService(ws.id, srv.id)).toEqual(srv);
    });

    test("listServices orders by order, then name, and lists only the workspace's services", async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const other = aWorkspace();
      await storage.createWorkspace(other);
      await storage.createService(aService(other, { name: 'Elsewhere', order: 0 }));
      for (const [order, name] of [
        [2, 'Alpha'],
        [1, 'Cut'],
        [0, 'Zeta'],
        [1, 'Beard'],
        [10, 'Aardvark'],
      ] as const) {
        await storage.createService(aService(ws, { order, name }));
      }
      const listed = await storage.listServices(ws.id, { activeOnly: false });
      expect(listed.map((service) => service.name)).toEqual(['Zeta', 'Beard', 'Cut', 'Alpha', 'Aardvark']);
      expect(listed.every((service) => service.workspaceId === ws.id)).toBe(true);
    });

    test('listServices with activeOnly leaves out inactive services; without it lists them with their providerIds', async () => {
      const { ws, srv, prv } = await seed(storage);
      const inactive = aService(ws, { name: 'Retired', active: false, order: 1, providerIds: [prv.id] });
      await storage.createService(inactive);
      expect(await storage.listServices(ws.id, { activeOnly: true })).toEqual([srv]);
      expect(await storage.listServices(ws.id, { activeOnly: false })).toEqual([srv, inactive]);
    });

    test('updateService applies the patch and replaces providerIds: the old links are gone on both sides', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const [p1, p2, p3] = [await addProvider(storage, ws), await addProvider(storage, ws), await addProvider(storage, ws)];
      const srv = aService(ws, { providerIds: [p1!.id, p2!.id] });
      await storage.createService(srv);
      const patch = {
        name: 'Long cut',
        duration: 45,
        priceMinor: 4500,
        active: false,
        bufferTime: 5,
        maxAdvance: null,
        depositMinor: 500,
        providerIds: [p3!.id],
        updatedAt: T0 + MINUTE,
      };
      const expected = { ...srv, ...patch };
      expect(await storage.updateService(ws.id, srv.id, patch)).toEqual(expected);
      expect(await storage.getService(ws.id, srv.id)).toEqual(expected);
      expect((await storage.getProvider(ws.id, p1!.id))?.serviceIds).toEqual([]);
      expect((await storage.getProvider(ws.id, p2!.id))?.serviceIds).toEqual([]);
      expect((await storage.getProvider(ws.id, p3!.id))?.serviceIds).toEqual([srv.id]);
    });

    test('updateService with providerIds alone replaces the links and keeps every other field', async () => {
      const { ws, srv, prv } = await seed(storage);
      const next = await addProvider(storage, ws);
      expect(await storage.updateService(ws.id, srv.id, { providerIds: [next.id] })).toEqual({ ...srv, providerIds: [next.id] });
      expect(await storage.getService(ws.id, srv.id)).toEqual({ ...srv, providerIds: [next.id] });
      expect((await storage.getProvider(ws.id, prv.id))?.serviceIds).toEqual([]);
    });

    test('updateService with providerIds [] removes every link', async () => {
      const { ws, srv, prv } = await seed(storage);
      expect(await storage.updateService(ws.id, srv.id, { providerIds: [], updatedAt: T0 + 1 })).toEqual({ ...srv, providerIds: [], updatedAt: T0 + 1 });
      expect((await storage.getProvider(ws.id, prv.id))?.serviceIds).toEqual([]);
    });

    test("updateService of another workspace's service or an unknown id -> null and nothing changes", async () => {
      const { ws, srv } = await seed(storage);
      const other = await seed(storage);
      expect(await storage.updateService(other.ws.id, srv.id, { name: 'Hijacked', providerIds: [other.prv.id] })).toBeNull();
      expect(await storage.updateService(ws.id, newId('srv'), { name: 'Ghost' })).toBeNull();
      expect(await storage.getService(ws.id, srv.id)).toEqual(srv);
      expect((await storage.getProvider(other.ws.id, other.prv.id))?.serviceIds).toEqual([other.srv.id]);
    });
  });

  describe('providers', () => {
    test("createProvider without hours stores hours null (the workspace's hours apply); getProvider returns it as written", async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const prv = aProvider(ws, { email: null, active: false });
      await storage.createProvider(prv);
      expect(await storage.getProvider(ws.id, prv.id)).toEqual(prv);
    });

    test('createProvider with its own hours and serviceIds returns them, and the services list the provider', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const s1 = aService(ws, { name: 'One' });
      const s2 = aService(ws, { name: 'Two', order: 1 });
      await storage.createService(s1);
      await storage.createService(s2);
      const prv = aProvider(ws, { hours: WEEKEND_HOURS, serviceIds: [s1.id, s2.id].sort() });
      await storage.createProvider(prv);
      expect(withSortedServices(await storage.getProvider(ws.id, prv.id))).toEqual(prv);
      expect((await storage.listServices(ws.id, { activeOnly: true })).map((service) => service.providerIds)).toEqual([[prv.id], [prv.id]]);
    });

    test("getProvider is scoped to the workspace: another workspace's provider or an unknown id -> null", async () => {
      const { ws, prv } = await seed(storage);
      const other = await seed(storage);
      expect(await storage.getProvider(other.ws.id, prv.id)).toBeNull();
      expect(await storage.getProvider(ws.id, newId('prv'))).toBeNull();
      expect((await storage.getProvider(ws.id, prv.id))?.id).toBe(prv.id);
    });

    test("listProviders orders by name and lists only the workspace's providers", async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const other = aWorkspace();
      await storage.createWorkspace(other);
      await addProvider(storage, other, { name: 'Aaron' });
      const made: ProviderRecord[] = [];
      for (const name of ['Mia', 'Ben', 'Zoe', 'Ada']) made.push(await addProvider(storage, ws, { name }));
      const listed = await storage.listProviders(ws.id);
      expect(listed.map((provider) => provider.name)).toEqual(['Ada', 'Ben', 'Mia', 'Zoe']);
      expect(sortedIds(listed)).toEqual(sortedIds(made));
    });

    test('updateProvider sets hours, replaces serviceIds and keeps the other fields; hours null clears them', async () => {
      const { ws, srv, prv } = await seed(storage);
      const next = aService(ws, { name: 'Beard trim' });
      await storage.createService(next);
      const patch = { name: 'Alexandra', email: 'alexandra@example.com', hours: WEEKEND_HOURS, serviceIds: [next.id], updatedAt: T0 + MINUTE };
      const expected = { ...prv, ...patch };
      expect(await storage.updateProvider(ws.id, prv.id, patch)).toEqual(expected);
      expect(await storage.getProvider(ws.id, prv.id)).toEqual(expected);
      expect((await storage.getService(ws.id, srv.id))?.providerIds).toEqual([]);
      expect((await storage.getService(ws.id, next.id))?.providerIds).toEqual([prv.id]);

      const cleared = { ...expected, hours: null, updatedAt: T0 + 2 * MINUTE };
      expect(await storage.updateProvider(ws.id, prv.id, { hours: null, updatedAt: T0 + 2 * MINUTE })).toEqual(cleared);
      expect(await storage.getProvider(ws.id, prv.id)).toEqual(cleared);
    });

    test('updateProvider with serviceIds alone replaces the links and keeps every other field', async () => {
      const { ws, srv, prv } = await seed(storage);
      const next = aService(ws, { name: 'Beard trim' });
      await storage.createService(next);
      expect(await storage.updateProvider(ws.id, prv.id, { serviceIds: [next.id] })).toEqual({ ...prv, serviceIds: [next.id] });
      expect((await storage.getService(ws.id, srv.id))?.providerIds).toEqual([]);
    });

    test("updateProvider of another workspace's provider or an unknown id -> null and nothing changes", async () => {
      const { ws, prv, srv } = await seed(storage);
      const other = await seed(storage);
      expect(await storage.updateProvider(other.ws.id, prv.id, { name: 'Hijacked', serviceIds: [] })).toBeNull();
      expect(await storage.updateProvider(ws.id, newId('prv'), { name: 'Ghost' })).toBeNull();
      expect(await storage.getProvider(ws.id, prv.id)).toEqual({ ...prv, serviceIds: [srv.id] });
    });
  });

  describe('custom fields', () => {
    test("createCustomField stores the record; listCustomFields returns the workspace's fields ordered by order, then key", async () => {
      const { ws, srv } = await seed(storage);
      const other = aWorkspace();
      await storage.createWorkspace(other);
      await storage.createCustomField(aCustomField(other, { key: 'aaa', order: 0 }));
      const select = aCustomField(ws, {
        key: 'colour',
        label: 'Colour',
        type: 'select',
        required: true,
        options: ['red', 'blue'],
        placeholder: 'Pick one',
        order: 2,
        serviceIds: [srv.id],
      });
      const zulu = aCustomField(ws, { key: 'zulu', order: 1 });
      const alpha = aCustomField(ws, { key: 'alpha', order: 1, type: 'checkbox' });
      const last = aCustomField(ws, { key: 'aaa_last', order: 5, type: 'number' });
      for (const field of [select, zulu, last, alpha]) await storage.createCustomField(field);
      expect(await storage.listCustomFields(ws.id)).toEqual([alpha, zulu, select, last]);
    });

    test('a key taken in the workspace -> UniqueViolation("custom field") and the list is unchanged', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const field = aCustomField(ws, { key: 'allergies' });
      await storage.createCustomField(field);
      const error = await caught(storage.createCustomField(aCustomField(ws, { key: 'allergies', label: 'Again' })));
      expect(error).toBeInstanceOf(UniqueViolation);
      expect((error as UniqueViolation).what).toBe('custom field');
      expect(await storage.listCustomFields(ws.id)).toEqual([field]);
    });

    test('the same key in another workspace is allowed', async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const mine = aCustomField(ws, { key: 'allergies' });
      const theirs = aCustomField(other, { key: 'allergies' });
      await storage.createCustomField(mine);
      await storage.createCustomField(theirs);
      expect(await storage.listCustomFields(ws.id)).toEqual([mine]);
      expect(await storage.listCustomFields(other.id)).toEqual([theirs]);
    });

    test("updateCustomField applies the patch and returns the field; another workspace's field or an unknown id -> null", async () => {
      const { ws, srv } = await seed(storage);
      const other = aWorkspace();
      await storage.createWorkspace(other);
      const field = aCustomField(ws);
      await storage.createCustomField(field);
      const patch = {
        key: 'diet',
        label: 'Diet',
        type: 'select' as const,
        required: true,
        options: ['vegan', 'none'],
        placeholder: 'Choose',
        order: 7,
        serviceIds: [srv.id],
      };
      expect(await storage.updateCustomField(ws.id, field.id, patch)).toEqual({ ...field, ...patch });
      expect(await storage.listCustomFields(ws.id)).toEqual([{ ...field, ...patch }]);
      expect(await storage.updateCustomField(other.id, field.id, { label: 'Hijacked' })).toBeNull();
      expect(await storage.updateCustomField(ws.id, newId('cf'), { label: 'Ghost' })).toBeNull();
      expect(await storage.listCustomFields(ws.id)).toEqual([{ ...field, ...patch }]);
    });

    test('updateCustomField with an empty patch changes nothing and returns the field', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const field = aCustomField(ws);
      await storage.createCustomField(field);
      expect(await storage.updateCustomField(ws.id, field.id, {})).toEqual(field);
      expect(await storage.updateCustomField(ws.id, newId('cf'), {})).toBeNull();
      expect(await storage.listCustomFields(ws.id)).toEqual([field]);
    });

    test('updateCustomField to a key taken in the workspace -> UniqueViolation("custom field") and the field is unchanged', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const first = aCustomField(ws, { key: 'first', order: 0 });
      const second = aCustomField(ws, { key: 'second', order: 1 });
      await storage.createCustomField(first);
      await storage.createCustomField(second);
      const error = await caught(storage.updateCustomField(ws.id, second.id, { key: 'first', label: 'Clash' }));
      expect(error).toBeInstanceOf(UniqueViolation);
      expect((error as UniqueViolation).what).toBe('custom field');
      expect(await storage.listCustomFields(ws.id)).toEqual([first, second]);
    });

    test("deleteCustomField removes the field and returns true; again, or another workspace's field -> false", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const field = aCustomField(ws, { order: 0 });
      const kept = aCustomField(ws, { order: 1 });
      const theirs = aCustomField(other);
      for (const each of [field, kept, theirs]) await storage.createCustomField(each);
      expect(await storage.deleteCustomField(other.id, field.id)).toBe(false);
      expect(await storage.deleteCustomField(ws.id, field.id)).toBe(true);
      expect(await storage.deleteCustomField(ws.id, field.id)).toBe(false);
      expect(await storage.deleteCustomField(ws.id, theirs.id)).toBe(false);
      expect(await storage.listCustomFields(ws.id)).toEqual([kept]);
      expect(await storage.listCustomFields(other.id)).toEqual([theirs]);
    });
  });

  describe('bookings', () => {
    test('a reserved booking reads back as written; getBooking is scoped to its workspace', async () => {
      const { ws, srv, prv } = await seed(storage);
      const other = await seed(storage);
      const booking = aBooking(srv, prv, {
        status: 'PENDING',
        bufferTime: 10,
        customerName: null,
        phone: null,
        notes: 'Window seat, please',
        customFields: { allergies: 'nuts', guests: 3, newsletter: true, extras: { parking: 'yes' }, tags: ['a', 'b'] },
        amountMinor: 3550,
        currency: 'EUR',
        holdExpiresAt: T0 + 30 * MINUTE,
      });
      expect(await book(storage, booking)).toEqual(booking);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
      expect(await storage.getBooking(other.ws.id, booking.id)).toBeNull();
      expect(await storage.getBooking(ws.id, newId('bk'))).toBeNull();
    });

    test('listBookings filters by status', async () => {
      const { ws, srv, prv } = await seed(storage);
      const made: Record<string, BookingRecord> = {};
      for (const [i, status] of (['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] as BookingStatus[]).entries()) {
        made[status] = await book(storage, aBooking(srv, prv, { status, startTime: SLOT + i * HOUR }));
      }
      for (const status of ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] as BookingStatus[]) {
        expect(await storage.listBookings(ws.id, { status, limit: 10 })).toEqual([made[status]!]);
      }
      expect(await storage.listBookings(ws.id, { limit: 10 })).toHaveLength(4);
    });

    test('listBookings filters by from (startTime >= from) and to (startTime < to)', async () => {
      const { ws, srv, prv } = await seed(storage);
      const early = await book(storage, aBooking(srv, prv, { startTime: SLOT - HOUR, endTime: SLOT + HOUR }));
      const atFrom = await book(storage, aBooking(srv, prv, { startTime: SLOT }));
      const middle = await book(storage, aBooking(srv, prv, { startTime: SLOT + HOUR }));
      const atTo = await book(storage, aBooking(srv, prv, { startTime: SLOT + 2 * HOUR }));
      expect(await storage.listBookings(ws.id, { from: SLOT, limit: 10 })).toEqual([atFrom, middle, atTo]);
      expect(await storage.listBookings(ws.id, { to: SLOT + 2 * HOUR, limit: 10 })).toEqual([early, atFrom, middle]);
      expect(await storage.listBookings(ws.id, { from: SLOT, to: SLOT + 2 * HOUR, limit: 10 })).toEqual([atFrom, middle]);
      expect(await storage.listBookings(ws.id, { from: SLOT + 1, to: SLOT + HOUR, limit: 10 })).toEqual([]);
    });

    test('listBookings filters by serviceId', async () => {
      const { ws, srv, prv } = await seed(storage);
      const other = aService(ws, { name: 'Other', providerIds: [prv.id] });
      await storage.createService(other);
      const mine = await book(storage, aBooking(srv, prv));
      const theirs = await book(storage, aBooking(other, prv, { startTime: SLOT + HOUR }));
      expect(await storage.listBookings(ws.id, { serviceId: srv.id, limit: 10 })).toEqual([mine]);
      expect(await storage.listBookings(ws.id, { serviceId: other.id, limit: 10 })).toEqual([theirs]);
      expect(await storage.listBookings(ws.id, { serviceId: other.id, status: 'CANCELLED', limit: 10 })).toEqual([]);
    });

    test('listBookings filters by providerId', async () => {
      const { ws, srv, prv } = await seed(storage);
      const other = aProvider(ws, { name: 'Other', serviceIds: [srv.id] });
      await storage.createProvider(other);
      const mine = await book(storage, aBooking(srv, prv));
      const theirs = await book(storage, aBooking(srv, other, { startTime: SLOT + HOUR }));
      expect(await storage.listBookings(ws.id, { providerId: prv.id, limit: 10 })).toEqual([mine]);
      expect(await storage.listBookings(ws.id, { providerId: other.id, limit: 10 })).toEqual([theirs]);
      expect(await storage.listBookings(ws.id, { providerId: other.id, serviceId: srv.id, status: 'CANCELLED', limit: 10 })).toEqual([]);
    });

    test("listBookings orders by startTime, then id, honours limit and lists only the workspace's bookings", async () => {
      const { ws, srv, prv } = await seed(storage);
      const other = await seed(storage);
      await book(storage, aBooking(other.srv, other.prv, { startTime: SLOT - DAY }));
      const starts = [SLOT + 2 * HOUR, SLOT, SLOT + HOUR, SLOT, SLOT + HOUR, SLOT];
      const made: BookingRecord[] = [];
      for (const startTime of starts) made.push(await book(storage, aBooking(srv, prv, { startTime })));
      const expected = [...made].sort(bookingOrder);
      expect(await storage.listBookings(ws.id, { limit: 100 })).toEqual(expected);
      expect(await storage.listBookings(ws.id, { limit: 4 })).toEqual(expected.slice(0, 4));
      expect(await storage.listBookings(ws.id, { limit: 1 })).toEqual(expected.slice(0, 1));
    });

    test('keyset pagination with `after` returns every booking once, in order, while bookings are inserted between pages', async () => {
      const { ws, srv, prv } = await seed(storage);
      const made: BookingRecord[] = [];
      for (const startTime of [SLOT, SLOT, SLOT + HOUR, SLOT + HOUR, SLOT + HOUR, SLOT + 2 * HOUR, SLOT + 3 * HOUR, SLOT + 3 * HOUR]) {
        made.push(await book(storage, aBooking(srv, prv, { startTime })));
      }
      const seen: BookingRecord[] = [];
      const added: BookingRecord[] = [];
      let after: { startTime: number; id: string } | undefined;
      for (let page = 0; page < 20; page++) {
        const rows = await storage.listBookings(ws.id, { limit: 3, after });
        seen.push(...rows);
        if (rows.length < 3) break;
        const last = rows.at(-1)!;
        after = { startTime: last.startTime, id: last.id };
        // Behind the cursor: never shown. Ahead of it (a later start, or the same start and a greater id): shown once, in its place.
        await book(storage, aBooking(srv, prv, { startTime: last.startTime - MINUTE }));
        await book(storage, aBooking(srv, prv, { id: newId('bk', 0), startTime: last.startTime }));
        added.push(await book(storage, aBooking(srv, prv, { id: newId('bk', T0 + 365 * DAY + page), startTime: last.startTime })));
        added.push(await book(storage, aBooking(srv, prv, { startTime: SLOT + 10 * HOUR + page * MINUTE })));
      }
      const expected = [...made, ...added].sort(bookingOrder);
      expect(ids(seen)).toEqual(ids(expected));
      expect(new Set(ids(seen)).size).toBe(seen.length);
    });
  });

  describe('listBusy', () => {
    test('listBusy returns PENDING and CONFIRMED bookings only, as busy intervals', async () => {
      const { srv, prv } = await seed(storage);
      const pending = await book(storage, aBooking(srv, prv, { status: 'PENDING', bufferTime: 15 }));
      const confirmed = await book(storage, aBooking(srv, prv, { status: 'CONFIRMED', startTime: SLOT + HOUR }));
      await book(storage, aBooking(srv, prv, { status: 'CANCELLED' }));
      await book(storage, aBooking(srv, prv, { status: 'COMPLETED', startTime: SLOT + HOUR }));
      const busy = await storage.listBusy([prv.id], SLOT - DAY, SLOT + DAY);
      expect(busy.sort(byBookingId)).toEqual([busyOf(pending), busyOf(confirmed)].sort(byBookingId));
    });

    test('listBusy overlap is half-open: a booking ending at `from` or starting at `to` is not busy; one overlapping by 1 ms is', async () => {
      const { srv, prv } = await seed(storage);
      const from = SLOT;
      const to = SLOT + HOUR;
      await book(storage, aBooking(srv, prv, { startTime: from - HOUR, endTime: from }));
      await book(storage, aBooking(srv, prv, { startTime: to, endTime: to + HOUR }));
      const inside = [
        await book(storage, aBooking(srv, prv, { startTime: from - HOUR, endTime: from + 1 })),
        await book(storage, aBooking(srv, prv, { startTime: to - 1, endTime: to + HOUR })),
        await book(storage, aBooking(srv, prv, { startTime: from + MINUTE, endTime: from + 2 * MINUTE })),
        // the longest booking the port allows (MAX_BOOKING_MS), spanning the whole window
        await book(storage, aBooking(srv, prv, { startTime: from - 12 * HOUR, endTime: from - 12 * HOUR + MAX_BOOKING_MS })),
        await book(storage, aBooking(srv, prv, { startTime: from, endTime: to })),
      ];
      expect((await storage.listBusy([prv.id], from, to)).sort(byBookingId)).toEqual(inside.map(busyOf).sort(byBookingId));
    });

    test('listBusy with a buffer widens each booking by the larger of that buffer and its own, no further', async () => {
      const { srv, prv } = await seed(storage);
      const from = SLOT;
      const to = SLOT + HOUR;
      const ownBufferBefore = await book(storage, aBooking(srv, prv, { startTime: from - 2 * HOUR, endTime: from - 30 * MINUTE, bufferTime: 31 }));
      const plainBefore = await book(storage, aBooking(srv, prv, { startTime: from - 2 * HOUR, endTime: from - 30 * MINUTE, bufferTime: 0 }));
      const ownBufferAfter = await book(storage, aBooking(srv, prv, { startTime: to + 20 * MINUTE, endTime: to + HOUR, bufferTime: 20 }));
      const plainAfter = await book(storage, aBooking(srv, prv, { startTime: to + 20 * MINUTE, endTime: to + HOUR, bufferTime: 0 }));
      // a day-long buffer (the most a service has) reaches a window a day away
      const farBuffer = await book(storage, aBooking(srv, prv, { startTime: from - DAY, endTime: from - DAY + HOUR, bufferTime: 1440 }));
      const sorted = (list: BusyInterval[]) => list.sort(byBookingId);
      expect(sorted(await storage.listBusy([prv.id], from, to, 0))).toEqual(sorted([ownBufferBefore, farBuffer].map(busyOf)));
      expect(sorted(await storage.listBusy([prv.id], from, to, 30 * MINUTE))).toEqual(
        sorted([ownBufferBefore, ownBufferAfter, plainAfter, farBuffer].map(busyOf)),
      );
      expect(sorted(await storage.listBusy([prv.id], from, to, 31 * MINUTE))).toEqual(
        sorted([ownBufferBefore, plainBefore, ownBufferAfter, plainAfter, farBuffer].map(busyOf)),
      );
      // without a buffer, plain overlap as before
      expect(await storage.listBusy([prv.id], from, to)).toEqual([]);
    });

    test('listBusy covers only the given providers; no providers -> []', async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      const third = await addProvider(storage, ws);
      const a = await book(storage, aBooking(srv, prv));
      const b = await book(storage, aBooking(srv, second));
      await book(storage, aBooking(srv, third));
      expect((await storage.listBusy([prv.id, second.id], SLOT, SLOT + HOUR)).sort(byBookingId)).toEqual([busyOf(a), busyOf(b)].sort(byBookingId));
      expect(await storage.listBusy([second.id], SLOT, SLOT + HOUR)).toEqual([busyOf(b)]);
      expect(await storage.listBusy([], SLOT, SLOT + HOUR)).toEqual([]);
    });
  });

  describe('reserveBooking', () => {
    test('reserveBooking puts the booking on the first candidate that fits and returns it as stored', async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      const third = await addProvider(storage, ws);
      const asked: string[] = [];
      const booking = aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: T0 + 30 * MINUTE });
      const result = await storage.reserveBooking({
        booking,
        candidates: [prv.id, second.id, third.id],
        margin: 0,
        emit: () => [],
        fits: (providerId) => {
          asked.push(providerId);
          return providerId === prv.id ? 'away today' : null;
        },
      });
      const placed = { ...booking, providerId: second.id };
      expect(result).toEqual({ ok: true, booking: placed });
      expect(asked).toEqual([prv.id, second.id]);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(placed);
      expect(await storage.listBookings(ws.id, { limit: 10 })).toEqual([placed]);
    });

    test("fits sees only that provider's PENDING/CONFIRMED bookings overlapping [start - margin, end + margin]", async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      const margin = 15 * MINUTE;
      const start = SLOT;
      const end = SLOT + 30 * MINUTE;
      await book(storage, aBooking(srv, prv, { startTime: start - HOUR, endTime: start - margin }));
      const touchingBefore = await book(storage, aBooking(srv, prv, { startTime: start - HOUR, endTime: start - margin + 1, bufferTime: 15 }));
      await book(storage, aBooking(srv, prv, { startTime: end + margin, endTime: end + HOUR }));
      const touchingAfter = await book(storage, aBooking(srv, prv, { startTime: end + margin - 1, endTime: end + HOUR, status: 'PENDING' }));
      await book(storage, aBooking(srv, prv, { startTime: start, endTime: end, status: 'CANCELLED' }));
      await book(storage, aBooking(srv, prv, { startTime: start, endTime: end, status: 'COMPLETED' }));
      const othersBooking = await book(storage, aBooking(srv, second, { startTime: start, endTime: end }));
      const before = await storage.listBookings(ws.id, { limit: 100 });

      const seen = new Map<string, BusyInterval[]>();
      const result = await storage.reserveBooking({
        booking: aBooking(srv, prv, { startTime: start, endTime: end }),
        candidates: [prv.id, second.id],
        margin,
        emit: () => [],
        fits: (providerId, busy) => {
          seen.set(providerId, [...busy].sort(byBookingId));
          return `${providerId} is busy`;
        },
      });
      expect(result).toEqual({ ok: false, reason: `${second.id} is busy` });
      expect(seen.get(prv.id)).toEqual([busyOf(touchingBefore), busyOf(touchingAfter)].sort(byBookingId));
      expect(seen.get(second.id)).toEqual([busyOf(othersBooking)]);
      expect(await storage.listBookings(ws.id, { limit: 100 })).toEqual(before);
    });

    test('when no candidate fits, reserveBooking returns the fits reason and writes neither booking nor events', async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      let emitted = 0;
      const booking = aBooking(srv, prv);
      const result = await storage.reserveBooking({
        booking,
        candidates: [prv.id],
        margin: 0,
        fits: () => 'outside working hours',
        emit: (b) => {
          emitted++;
          return [anEvent(ws, 'booking.created', b.createdAt)];
        },
      });
      expect(result).toEqual({ ok: false, reason: 'outside working hours' });
      expect(emitted).toBe(0);
      expect(await storage.getBooking(ws.id, booking.id)).toBeNull();
      expect(await storage.listBookings(ws.id, { limit: 10 })).toEqual([]);
      expect(await dueMessages(storage)).toEqual([]);
    });

    test('reserveBooking with no candidates -> not ok and writes nothing', async () => {
      const { ws, srv, prv } = await seed(storage);
      const booking = aBooking(srv, prv);
      const result = await storage.reserveBooking({ booking, candidates: [], margin: 0, fits: () => null, emit: () => [] });
      expect(result.ok).toBe(false);
      expect(await storage.listBookings(ws.id, { limit: 10 })).toEqual([]);
    });

    test('replacing moves the booking, is left out of the busy intervals, and keeps a single record', async () => {
      const { ws, srv, prv } = await seed(storage);
      const original = await book(storage, aBooking(srv, prv, { status: 'PENDING', amountMinor: 1000, currency: 'EUR' }));
      const seen: BusyInterval[][] = [];
      const moved = { ...original, startTime: SLOT + 15 * MINUTE, endTime: SLOT + 45 * MINUTE, updatedAt: T0 + MINUTE, revision: 1 };
      const result = await storage.reserveBooking({
        booking: moved,
        candidates: [prv.id],
        margin: 10 * MINUTE,
        replacing: original.id,
        emit: () => [],
        fits: (_providerId, busy) => {
          seen.push(busy);
          return busy.length > 0 ? 'taken' : null;
        },
      });
      expect(seen).toEqual([[]]);
      expect(result).toEqual({ ok: true, booking: moved });
      expect(await storage.getBooking(ws.id, original.id)).toEqual(moved);
      expect(await storage.listBookings(ws.id, { limit: 10 })).toEqual([moved]);
    });

    test('replacing with another provider as candidate moves the booking to that provider and frees the old one', async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      const original = await book(storage, aBooking(srv, prv));
      const moved = { ...original, providerId: second.id, startTime: SLOT + HOUR, endTime: SLOT + 90 * MINUTE, updatedAt: T0 + MINUTE, revision: 1 };
      const result = await storage.reserveBooking({
        booking: { ...moved, providerId: prv.id },
        candidates: [second.id],
        margin: 0,
        replacing: original.id,
        emit: () => [],
        fits: (_providerId, busy) => (busy.length > 0 ? 'taken' : null),
      });
      expect(result).toEqual({ ok: true, booking: moved });
      expect(await storage.getBooking(ws.id, original.id)).toEqual(moved);
      expect(await storage.listBusy([prv.id], SLOT - DAY, SLOT + DAY)).toEqual([]);
      expect(await storage.listBusy([second.id], SLOT - DAY, SLOT + DAY)).toEqual([busyOf(moved)]);
    });

    test("replacing still sees the provider's other bookings: a move onto another booking is refused and changes nothing", async () => {
      const { ws, srv, prv } = await seed(storage);
      const original = await book(storage, aBooking(srv, prv));
      const blocker = await book(storage, aBooking(srv, prv, { startTime: SLOT + HOUR }));
      const result = await storage.reserveBooking({
        booking: { ...original, startTime: SLOT + HOUR, endTime: SLOT + 90 * MINUTE },
        candidates: [prv.id],
        margin: 0,
        replacing: original.id,
        emit: () => [],
        fits: (_providerId, busy) => (busy.some((interval) => interval.bookingId === blocker.id) ? 'taken' : null),
      });
      expect(result).toEqual({ ok: false, reason: 'taken' });
      expect(await storage.getBooking(ws.id, original.id)).toEqual(original);
    });

    test('replacing a booking that is no longer PENDING or CONFIRMED -> not ok, it is unchanged and no events are written', async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      const cancelled = await book(storage, aBooking(srv, prv, { status: 'CANCELLED', cancelReason: 'ill' }));
      const result = await storage.reserveBooking({
        booking: { ...cancelled, startTime: SLOT + HOUR, endTime: SLOT + 90 * MINUTE },
        candidates: [prv.id],
        margin: 0,
        replacing: cancelled.id,
        fits: () => null,
        emit: () => [anEvent(ws, 'booking.rescheduled')],
      });
      expect(result.ok).toBe(false);
      expect(await storage.getBooking(ws.id, cancelled.id)).toEqual(cancelled);
      expect(await storage.listBookings(ws.id, { limit: 10 })).toEqual([cancelled]);
      expect(await dueMessages(storage)).toEqual([]);
    });

    test('replacing a booking of another workspace -> not ok and that booking is unchanged', async () => {
      const mine = await seed(storage);
      const theirs = await seed(storage);
      const victim = await book(storage, aBooking(theirs.srv, theirs.prv));
      const result = await storage.reserveBooking({
        booking: { ...aBooking(mine.srv, mine.prv), id: victim.id, startTime: SLOT + HOUR, endTime: SLOT + 90 * MINUTE },
        candidates: [mine.prv.id],
        margin: 0,
        replacing: victim.id,
        fits: () => null,
        emit: () => [],
      });
      expect(result.ok).toBe(false);
      expect(await storage.getBooking(theirs.ws.id, victim.id)).toEqual(victim);
      expect(await storage.listBookings(mine.ws.id, { limit: 10 })).toEqual([]);
    });

    test("the events of a reservation go, built from the stored booking, to the workspace's active webhooks subscribed to their type or to all", async () => {
      const { ws, srv, prv } = await seed(storage);
      const second = await addProvider(storage, ws);
      const all = aWebhook(ws, { events: [] });
      const created = aWebhook(ws, { events: ['booking.created', 'booking.cancelled'] });
      const cancelledOnly = aWebhook(ws, { events: ['booking.cancelled'] });
      const inactive = aWebhook(ws, { events: [], isActive: false });
      const otherWs = await seed(storage);
      const elsewhere = aWebhook(otherWs.ws, { events: [] });
      for (const hook of [all, created, cancelledOnly, inactive, elsewhere]) await storage.createWebhook(hook);

      const emittedFor: BookingRecord[] = [];
      const body = (type: string, booking: BookingRecord) => JSON.stringify({ type, booking: booking.id, provider: booking.providerId });
      const booking = aBooking(srv, prv);
      const result = await storage.reserveBooking({
        booking,
        candidates: [prv.id, second.id],
        margin: 0,
        fits: (providerId) => (providerId === prv.id ? 'taken' : null),
        emit: (stored) => {
          emittedFor.push(stored);
          return ['booking.created', 'booking.confirmed'].map((type) => ({ workspaceId: ws.id, type, body: body(type, stored), occurredAt: T0 + SECOND }));
        },
      });
      const stored = { ...booking, providerId: second.id };
      expect(result).toEqual({ ok: true, booking: stored });
      expect(emittedFor).toEqual([stored]);

      const message = (webhookId: string, eventType: string) => ({
        id: expect.stringMatching(/^msg_/),
        webhookId,
        workspaceId: ws.id,
        eventType,
        body: body(eventType, stored),
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt: T0 + SECOND,
        createdAt: T0 + SECOND,
        deliveredAt: null,
      });
      const expected = [message(all.id, 'booking.created'), message(all.id, 'booking.confirmed'), message(created.id, 'booking.created')].sort((a, b) =>
        (a.webhookId + a.eventType).localeCompare(b.webhookId + b.eventType),
      );
      expect(await dueMessages(storage)).toEqual(expected);
    });
  });

  describe('transitionBooking', () => {
    test('transitionBooking moves a booking that is in `from`, sets updatedAt and cancelReason, and writes its events', async () => {
      const { ws, srv, prv } = await seed(storage);
      const hook = aWebhook(ws);
      await storage.createWebhook(hook);
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: T0 + HOUR }));
      const moved = await storage.transitionBooking(ws.id, booking.id, {
        from: ['PENDING', 'CONFIRMED'],
        to: 'CANCELLED',
        at: T0 + MINUTE,
        cancelReason: 'customer asked',
        emit: (b) => [
          { workspaceId: ws.id, type: 'booking.cancelled', body: JSON.stringify({ status: b.status, reason: b.cancelReason }), occurredAt: T0 + MINUTE },
        ],
      });
      const expected = { ...booking, status: 'CANCELLED' as const, updatedAt: T0 + MINUTE, cancelReason: 'customer asked', revision: 1 };
      expect(moved).toEqual(expected);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(expected);
      expect(await storage.listBusy([prv.id], SLOT - DAY, SLOT + DAY)).toEqual([]);
      expect(await dueMessages(storage)).toEqual([
        {
          id: expect.stringMatching(/^msg_/),
          webhookId: hook.id,
          workspaceId: ws.id,
          eventType: 'booking.cancelled',
          body: JSON.stringify({ status: 'CANCELLED', reason: 'customer asked' }),
          status: 'pending',
          attempts: 0,
          nextAttemptAt: T0 + MINUTE,
          createdAt: T0 + MINUTE,
          deliveredAt: null,
        },
      ]);
    });

    test("transitionBooking without cancelReason leaves the booking's cancelReason as it was", async () => {
      const { ws, srv, prv } = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv, { status: 'CONFIRMED', cancelReason: 'kept note' }));
      const moved = await storage.transitionBooking(ws.id, booking.id, { from: ['CONFIRMED'], to: 'COMPLETED', at: T0 + DAY * 2, emit: () => [] });
      expect(moved).toEqual({ ...booking, status: 'COMPLETED', updatedAt: T0 + DAY * 2, revision: 1 });
    });

    test('transitionBooking from a status the booking is not in -> null, the booking is unchanged and no events are written', async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      const booking = await book(storage, aBooking(srv, prv, { status: 'CONFIRMED' }));
      const result = await storage.transitionBooking(ws.id, booking.id, {
        from: ['PENDING'],
        to: 'CANCELLED',
        at: T0 + MINUTE,
        cancelReason: 'expired',
        emit: () => [anEvent(ws, 'booking.cancelled')],
      });
      expect(result).toBeNull();
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
      expect(await dueMessages(storage)).toEqual([]);
    });

    test("transitionBooking of another workspace's booking or an unknown id -> null and nothing changes", async () => {
      const { ws, srv, prv } = await seed(storage);
      const other = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
      const transition = { from: ['PENDING' as const], to: 'CONFIRMED' as const, at: T0 + MINUTE, emit: () => [] };
      expect(await storage.transitionBooking(other.ws.id, booking.id, transition)).toBeNull();
      expect(await storage.transitionBooking(ws.id, newId('bk'), transition)).toBeNull();
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
    });

    test(
      'of 10 concurrent transitions from PENDING exactly one moves the booking, and one set of events is written',
      async () => {
        const { ws, srv, prv } = await seed(storage);
        await storage.createWebhook(aWebhook(ws));
        const other = db.reopen();
        const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
        await warm([storage, other]);
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 ? other : storage).transitionBooking(ws.id, booking.id, {
              from: ['PENDING'],
              to: 'CONFIRMED',
              at: T0 + i,
              emit: () => [anEvent(ws, 'booking.confirmed')],
            }),
          ),
        );
        const winners = results.filter((result) => result !== null);
        expect(winners).toHaveLength(1);
        expect(await storage.getBooking(ws.id, booking.id)).toEqual(winners[0]!);
        expect(await dueMessages(storage)).toHaveLength(1);
      },
      RACE_TIMEOUT_MS,
    );
  });

  describe('scheduler reads', () => {
    test('listExpiredHolds returns PENDING bookings whose hold has expired, up to limit', async () => {
      const { srv, prv } = await seed(storage);
      const now = T0 + HOUR;
      const expired = [
        await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: now - 2 * MINUTE })),
        await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: now - 1, startTime: SLOT + HOUR })),
      ];
      await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: now + 1 }));
      await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: null }));
      await book(storage, aBooking(srv, prv, { status: 'CONFIRMED', holdExpiresAt: now - HOUR }));
      await book(storage, aBooking(srv, prv, { status: 'CANCELLED', holdExpiresAt: now - HOUR }));
      expect(sortedIds(await storage.listExpiredHolds(now, 10))).toEqual(sortedIds(expired));
      expect((await storage.listExpiredHolds(now, 10)).sort(bookingOrder)).toEqual(expired.sort(bookingOrder));
      const one = await storage.listExpiredHolds(now, 1);
      expect(one).toHaveLength(1);
      expect(sortedIds(expired)).toContain(one[0]!.id);
      expect(await storage.listExpiredHolds(now - 3 * MINUTE, 10)).toEqual([]);
    });

    test('listEndedConfirmed returns CONFIRMED bookings that ended before now, up to limit', async () => {
      const { srv, prv } = await seed(storage);
      const now = SLOT + 3 * HOUR;
      const ended = [
        await book(storage, aBooking(srv, prv, { startTime: SLOT, endTime: SLOT + 30 * MINUTE })),
        await book(storage, aBooking(srv, prv, { startTime: SLOT + HOUR, endTime: now - 1 })),
      ];
      await book(storage, aBooking(srv, prv, { startTime: SLOT + 2 * HOUR, endTime: now + 1 }));
      await book(storage, aBooking(srv, prv, { status: 'PENDING', startTime: SLOT, endTime: SLOT + 30 * MINUTE }));
      await book(storage, aBooking(srv, prv, { status: 'COMPLETED', startTime: SLOT, endTime: SLOT + 30 * MINUTE }));
      await book(storage, aBooking(srv, prv, { status: 'CANCELLED', startTime: SLOT, endTime: SLOT + 30 * MINUTE }));
      expect((await storage.listEndedConfirmed(now, 10)).sort(bookingOrder)).toEqual(ended.sort(bookingOrder));
      const one = await storage.listEndedConfirmed(now, 1);
      expect(one).toHaveLength(1);
      expect(sortedIds(ended)).toContain(one[0]!.id);
      expect(await storage.listEndedConfirmed(SLOT, 10)).toEqual([]);
    });
  });

  describe('payments', () => {
    test('createPayment stores the payment: getPaymentByReference and listPayments return it', async () => {
      const { srv, prv } = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
      const otherBooking = await book(storage, aBooking(srv, prv, { startTime: SLOT + HOUR }));
      const first = aPayment(booking);
      const second = aPayment(booking, { provider: 'stripe', status: 'expired', refundDue: true, createdAt: T0 + 1, updatedAt: T0 + 2 });
      const unrelated = aPayment(otherBooking);
      for (const payment of [first, second, unrelated]) await storage.createPayment(payment);
      expect(await storage.getPaymentByReference('test', first.reference)).toEqual(first);
      expect(await storage.getPaymentByReference('stripe', second.reference)).toEqual(second);
      expect(await storage.getPaymentByReference('stripe', first.reference)).toBeNull();
      expect((await storage.listPayments(booking.id)).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        [first, second].sort((a, b) => a.id.localeCompare(b.id)),
      );
      expect(await storage.listPayments(otherBooking.id)).toEqual([unrelated]);
      expect(await storage.listPayments(newId('bk'))).toEqual([]);
    });

    test('a second payment with the same provider and reference -> UniqueViolation; the same reference at another provider is allowed', async () => {
      const { srv, prv } = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv));
      const first = aPayment(booking, { reference: 'cs_shared' });
      await storage.createPayment(first);
      const duplicate = aPayment(booking, { reference: 'cs_shared', amountMinor: 1 });
      expect(await caught(storage.createPayment(duplicate))).toBeInstanceOf(UniqueViolation);
      expect(await storage.listPayments(booking.id)).toEqual([first]);
      const elsewhere = aPayment(booking, { reference: 'cs_shared', provider: 'stripe' });
      await storage.createPayment(elsewhere);
      expect(await storage.getPaymentByReference('stripe', 'cs_shared')).toEqual(elsewhere);
      expect(await storage.getPaymentByReference('test', 'cs_shared')).toEqual(first);
    });

    test('settlePayment moves a payment still in `from` and returns it, with booking null when no transition is given', async () => {
      const { ws, srv, prv } = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      const expected = { ...payment, status: 'failed' as const, updatedAt: T0 + MINUTE };
      expect(await storage.settlePayment(payment.id, 'pending', { status: 'failed' }, T0 + MINUTE)).toEqual({ payment: expected, booking: null });
      expect(await storage.getPaymentByReference(payment.provider, payment.reference)).toEqual(expected);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
    });

    test("settlePayment with a booking transition moves payment and booking in one step and writes the booking's events", async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING', holdExpiresAt: T0 + HOUR }));
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      const result = await storage.settlePayment(payment.id, 'pending', { status: 'paid' }, T0 + MINUTE, {
        workspaceId: ws.id,
        transition: {
          from: ['PENDING'],
          to: 'CONFIRMED',
          at: T0 + MINUTE,
          emit: (b) =>
            ['payment.received', 'booking.confirmed'].map((type) => ({ workspaceId: ws.id, type, body: `${type}:${b.status}`, occurredAt: T0 + MINUTE })),
        },
      });
      const paid = { ...payment, status: 'paid' as const, updatedAt: T0 + MINUTE };
      const confirmed = { ...booking, status: 'CONFIRMED' as const, updatedAt: T0 + MINUTE, revision: 1 };
      expect(result).toEqual({ payment: paid, booking: confirmed });
      expect(await storage.getPaymentByReference(payment.provider, payment.reference)).toEqual(paid);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(confirmed);
      expect((await dueMessages(storage)).map((message) => message.body).sort()).toEqual(['booking.confirmed:CONFIRMED', 'payment.received:CONFIRMED']);
    });

    test('a repeated settlePayment -> null, and neither payment nor booking changes again nor are events written', async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      const settle = (at: number) =>
        storage.settlePayment(payment.id, 'pending', { status: 'paid' }, at, {
          workspaceId: ws.id,
          transition: { from: ['PENDING', 'CONFIRMED'], to: 'CONFIRMED', at, emit: () => [anEvent(ws, 'payment.received', at)] },
        });
      const first = await settle(T0 + MINUTE);
      expect(first?.payment.status).toBe('paid');
      expect(await settle(T0 + 2 * MINUTE)).toBeNull();
      expect(await storage.getPaymentByReference(payment.provider, payment.reference)).toEqual(first!.payment);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(first!.booking!);
      expect(await dueMessages(storage)).toHaveLength(1);
    });

    test("settlePayment whose booking is no longer in the transition's `from` settles the payment and returns booking null", async () => {
      const { ws, srv, prv } = await seed(storage);
      await storage.createWebhook(aWebhook(ws));
      const booking = await book(storage, aBooking(srv, prv, { status: 'CANCELLED', cancelReason: 'hold expired' }));
      const payment = aPayment(booking);
      await storage.createPayment(payment);
      const result = await storage.settlePayment(payment.id, 'pending', { status: 'paid', refundDue: true }, T0 + MINUTE, {
        workspaceId: ws.id,
        transition: { from: ['PENDING'], to: 'CONFIRMED', at: T0 + MINUTE, emit: () => [anEvent(ws, 'booking.confirmed')] },
      });
      const paid = { ...payment, status: 'paid' as const, refundDue: true, updatedAt: T0 + MINUTE };
      expect(result).toEqual({ payment: paid, booking: null });
      expect(await storage.getPaymentByReference(payment.provider, payment.reference)).toEqual(paid);
      expect(await storage.getBooking(ws.id, booking.id)).toEqual(booking);
      expect(await dueMessages(storage)).toEqual([]);
    });

    test('settlePayment of a payment not in `from` or unknown -> null and nothing changes', async () => {
      const { srv, prv } = await seed(storage);
      const booking = await book(storage, aBooking(srv, prv));
      const payment = aPayment(booking, { status: 'expired' });
      await storage.createPayment(payment);
      expect(await storage.settlePayment(payment.id, 'pending', { status: 'paid' }, T0 + MINUTE)).toBeNull();
      expect(await storage.settlePayment(newId('pay'), 'pending', { status: 'paid' }, T0 + MINUTE)).toBeNull();
      expect(await storage.getPaymentByReference(payment.provider, payment.reference)).toEqual(payment);
    });

    test(
      'of 10 concurrent settlePayment calls exactly one settles and moves the booking',
      async () => {
        const { ws, srv, prv } = await seed(storage);
        await storage.createWebhook(aWebhook(ws));
        const other = db.reopen();
        const booking = await book(storage, aBooking(srv, prv, { status: 'PENDING' }));
        const payment = aPayment(booking);
        await storage.createPayment(payment);
        await warm([storage, other]);
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 ? other : storage).settlePayment(payment.id, 'pending', { status: 'paid' }, T0 + i, {
              workspaceId: ws.id,
              transition: { from: ['PENDING'], to: 'CONFIRMED', at: T0 + i, emit: () => [anEvent(ws, 'payment.received')] },
            }),
          ),
        );
        const winners = results.filter((result) => result !== null);
        expect(winners).toHaveLength(1);
        expect(winners[0]!.booking?.status).toBe('CONFIRMED');
        expect(await dueMessages(storage)).toHaveLength(1);
      },
      RACE_TIMEOUT_MS,
    );
  });

  describe('webhooks', () => {
    test("createWebhook stores the record; getWebhook returns it and listWebhooks lists the workspace's webhooks by createdAt", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const later = aWebhook(ws, { createdAt: T0 + 2, updatedAt: T0 + 2, events: ['booking.created', 'payment.received'] });
      const earlier = aWebhook(ws, { createdAt: T0 + 1, updatedAt: T0 + 1, name: null, isActive: false, failingSince: T0 - DAY });
      const theirs = aWebhook(other);
      for (const hook of [later, earlier, theirs]) await storage.createWebhook(hook);
      expect(await storage.getWebhook(ws.id, later.id)).toEqual(later);
      expect(await storage.getWebhook(ws.id, earlier.id)).toEqual(earlier);
      expect(await storage.getWebhook(ws.id, theirs.id)).toBeNull();
      expect(await storage.listWebhooks(ws.id)).toEqual([earlier, later]);
      expect(await storage.listWebhooks(other.id)).toEqual([theirs]);
    });

    test("updateWebhook applies the patch and sets updatedAt; another workspace's webhook or an unknown id -> null", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const hook = aWebhook(ws);
      await storage.createWebhook(hook);
      const patch = { name: 'Renamed', url: 'https://new.example.com/hook', events: ['booking.cancelled'], isActive: false, failingSince: T0 - HOUR };
      const expected = { ...hook, ...patch, updatedAt: T0 + MINUTE };
      expect(await storage.updateWebhook(ws.id, hook.id, patch, T0 + MINUTE)).toEqual(expected);
      expect(await storage.getWebhook(ws.id, hook.id)).toEqual(expected);
      expect(await storage.updateWebhook(other.id, hook.id, { url: 'https://evil.example.com' }, T0 + HOUR)).toBeNull();
      expect(await storage.updateWebhook(ws.id, newId('wh'), { name: 'Ghost' }, T0 + HOUR)).toBeNull();
      expect(await storage.getWebhook(ws.id, hook.id)).toEqual(expected);
    });

    test("deleteWebhook removes the webhook and its pending messages; again, or another workspace's webhook -> false", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const hook = aWebhook(ws);
      const kept = aWebhook(ws);
      await storage.createWebhook(hook);
      await storage.createWebhook(kept);
      const written = await storage.enqueueEvents([anEvent(ws, 'booking.created')]);
      expect(written).toHaveLength(2);
      expect(await storage.deleteWebhook(other.id, hook.id)).toBe(false);
      expect(await storage.deleteWebhook(ws.id, hook.id)).toBe(true);
      expect(await storage.deleteWebhook(ws.id, hook.id)).toBe(false);
      expect(await storage.getWebhook(ws.id, hook.id)).toBeNull();
      expect(await storage.listWebhooks(ws.id)).toEqual([kept]);
      for (const message of written) {
        expect((await storage.getMessage(message.id))?.id).toBe(message.webhookId === hook.id ? undefined : message.id);
      }
      expect((await dueMessages(storage)).map((message) => message.webhookId)).toEqual([kept.id]);
    });
  });

  describe('outbox', () => {
    test("enqueueEvents writes one message per active subscribed webhook of the event's workspace and returns them as stored", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const all = aWebhook(ws);
      const subscribed = aWebhook(ws, { events: ['booking.completed'] });
      const notSubscribed = aWebhook(ws, { events: ['booking.created'] });
      const inactive = aWebhook(ws, { isActive: false });
      const theirs = aWebhook(other);
      for (const hook of [all, subscribed, notSubscribed, inactive, theirs]) await storage.createWebhook(hook);
      const event = anEvent(ws, 'booking.completed', T0 + 5 * SECOND);
      const written = await storage.enqueueEvents([event]);
      expect(written.map((message) => message.webhookId).sort()).toEqual([all.id, subscribed.id].sort());
      for (const message of written) {
        expect(message).toEqual({
          id: expect.stringMatching(/^msg_/),
          webhookId: message.webhookId,
          workspaceId: ws.id,
          eventType: 'booking.completed',
          body: event.body,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: T0 + 5 * SECOND,
          createdAt: T0 + 5 * SECOND,
          deliveredAt: null,
        });
        expect(await storage.getMessage(message.id)).toEqual(message);
      }
      expect(sortedIds(await dueMessages(storage))).toEqual(sortedIds(written));
      expect(await storage.enqueueEvents([])).toEqual([]);
    });

    test('enqueueEvents with onlyWebhookId writes to that webhook alone, whatever it subscribes to', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const target = aWebhook(ws, { events: ['booking.created'] });
      const bystander = aWebhook(ws, { events: [] });
      await storage.createWebhook(target);
      await storage.createWebhook(bystander);
      const written = await storage.enqueueEvents([anEvent(ws, 'webhook.test')], target.id);
      expect(written.map((message) => [message.webhookId, message.eventType])).toEqual([[target.id, 'webhook.test']]);
      expect((await dueMessages(storage)).map((message) => message.webhookId)).toEqual([target.id]);
    });

    test("enqueueEvents with onlyWebhookId of another workspace's webhook writes nothing", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const theirs = aWebhook(other);
      await storage.createWebhook(theirs);
      await storage.createWebhook(aWebhook(ws));
      expect(await storage.enqueueEvents([anEvent(ws, 'webhook.test')], theirs.id)).toEqual([]);
      expect(await dueMessages(storage)).toEqual([]);
    });

    test('claimDueMessages returns pending messages due at now, and leaves out those not yet due, delivered or failed', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      const [toDeliver] = await storage.enqueueEvents([anEvent(ws, 'booking.created', T0 - HOUR)]);
      const [toFail] = await storage.enqueueEvents([anEvent(ws, 'booking.confirmed', T0 - HOUR)]);
      const due = [
        ...(await storage.enqueueEvents([anEvent(ws, 'booking.cancelled', T0)])),
        ...(await storage.enqueueEvents([anEvent(ws, 'booking.completed', T0 + SECOND)])),
      ];
      await storage.enqueueEvents([anEvent(ws, 'booking.rescheduled', T0 + SECOND + 1)]);
      const early = await storage.claimDueMessages('early', T0 - HOUR, T0 - HOUR + MINUTE, 10);
      expect(sortedIds(early)).toEqual(sortedIds([toDeliver!, toFail!]));
      expect(await storage.recordAttempt('early', toDeliver!.id, anOutcome(toDeliver!, { status: 'delivered', nextAttemptAt: null }))).toBe(true);
      expect(await storage.recordAttempt('early', toFail!.id, anOutcome(toFail!, { status: 'failed', nextAttemptAt: null }))).toBe(true);

      const claimed = await storage.claimDueMessages('worker', T0 + SECOND, T0 + MINUTE, 10);
      expect(claimed.sort((a, b) => a.id.localeCompare(b.id))).toEqual(due.sort((a, b) => a.id.localeCompare(b.id)));
    });

    test('a leased message is not claimed again while its lease runs, and is taken over once the lease has lapsed', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const leaseUntil = T0 + MINUTE;
      const [message] = await storage.claimDueMessages('first', T0, leaseUntil, 10);
      expect(message).toBeDefined();
      expect(await storage.claimDueMessages('second', T0, T0 + MINUTE, 10)).toEqual([]);
      expect(await storage.claimDueMessages('second', leaseUntil - 1, leaseUntil + MINUTE, 10)).toEqual([]);
      expect(ids(await storage.claimDueMessages('second', leaseUntil + 1, leaseUntil + MINUTE, 10))).toEqual([message!.id]);
      // The lapsed owner lost the message: its late report is ignored, the new owner's counts.
      expect(await storage.recordAttempt('first', message!.id, anOutcome(message!, { status: 'delivered', nextAttemptAt: null }))).toBe(false);
      expect((await storage.getMessage(message!.id))?.status).toBe('pending');
      expect(await storage.recordAttempt('second', message!.id, anOutcome(message!, { status: 'delivered', nextAttemptAt: null }))).toBe(true);
      expect((await storage.getMessage(message!.id))?.status).toBe('delivered');
    });

    test('claimDueMessages takes at most `limit`; later claims get the rest, each message once', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      const written: WebhookMessageRecord[] = [];
      for (let i = 0; i < 5; i++) written.push(...(await storage.enqueueEvents([anEvent(ws, 'booking.created', T0 + i)])));
      const first = await storage.claimDueMessages('a', T0 + 10, T0 + MINUTE, 2);
      const second = await storage.claimDueMessages('b', T0 + 10, T0 + MINUTE, 2);
      const third = await storage.claimDueMessages('c', T0 + 10, T0 + MINUTE, 2);
      expect([first.length, second.length, third.length]).toEqual([2, 2, 1]);
      expect(sortedIds([...first, ...second, ...third])).toEqual(sortedIds(written));
    });

    test('recordAttempt by the lease owner stores the attempt and the new state, and releases the lease: a retry is claimable when due', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const hook = aWebhook(ws);
      await storage.createWebhook(hook);
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const message = await claimOne(storage, 'worker');
      const outcome = anOutcome(message, { status: 'pending', nextAttemptAt: T0 + 5 * SECOND });
      expect(await storage.recordAttempt('worker', message.id, outcome)).toBe(true);
      const retried = { ...message, attempts: 1, status: 'pending' as const, nextAttemptAt: T0 + 5 * SECOND, deliveredAt: null };
      expect(await storage.getMessage(message.id)).toEqual(retried);
      expect(await storage.listAttempts(hook.id, 10)).toEqual([outcome.attempt]);
      // Not due before its retry time, then claimable by anyone although the first lease would still run.
      expect(await storage.claimDueMessages('other', T0 + 5 * SECOND - 1, T0 + 2 * MINUTE, 10)).toEqual([]);
      expect(await storage.claimDueMessages('other', T0 + 5 * SECOND, T0 + 2 * MINUTE, 10)).toEqual([retried]);
    });

    test('a delivered attempt sets status delivered, deliveredAt and attempts; the message is never claimed again', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const message = await claimOne(storage, 'worker');
      const outcome = anOutcome(message, { status: 'delivered', nextAttemptAt: null, attempt: { statusCode: 204, error: null, attemptedAt: T0 + 250 } });
      expect(await storage.recordAttempt('worker', message.id, outcome)).toBe(true);
      expect(await storage.getMessage(message.id)).toEqual({ ...message, status: 'delivered', attempts: 1, nextAttemptAt: null, deliveredAt: T0 + 250 });
      expect(await dueMessages(storage)).toEqual([]);
      expect(await storage.nextDueAt()).toBeNull();
    });

    test('a failed attempt sets status failed; the message is never claimed again', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const message = await claimOne(storage, 'worker');
      expect(await storage.recordAttempt('worker', message.id, anOutcome(message, { status: 'failed', nextAttemptAt: null }))).toBe(true);
      expect(await storage.getMessage(message.id)).toEqual({ ...message, status: 'failed', attempts: 1, nextAttemptAt: null, deliveredAt: null });
      expect(await dueMessages(storage)).toEqual([]);
    });

    test('recordAttempt by an owner that does not hold the lease -> false and writes nothing', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const hook = aWebhook(ws);
      await storage.createWebhook(hook);
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const message = await claimOne(storage, 'worker');
      const outcome = anOutcome(message, { status: 'delivered', nextAttemptAt: null, webhook: { isActive: false } });
      expect(await storage.recordAttempt('intruder', message.id, outcome)).toBe(false);
      expect(await storage.getMessage(message.id)).toEqual(message);
      expect(await storage.listAttempts(hook.id, 10)).toEqual([]);
      expect(await storage.getWebhook(ws.id, hook.id)).toEqual(hook);
      expect(await storage.recordAttempt('worker', newId('msg'), outcome)).toBe(false);
    });

    test('a second recordAttempt for one claim -> false: the first released the lease', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const hook = aWebhook(ws);
      await storage.createWebhook(hook);
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const message = await claimOne(storage, 'worker');
      const first = anOutcome(message);
      expect(await storage.recordAttempt('worker', message.id, first)).toBe(true);
      expect(await storage.recordAttempt('worker', message.id, anOutcome(message))).toBe(false);
      expect((await storage.getMessage(message.id))?.attempts).toBe(1);
      expect(await storage.listAttempts(hook.id, 10)).toEqual([first.attempt]);
    });

    test("recordAttempt applies the outcome's webhook patch", async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const hook = aWebhook(ws);
      const bystander = aWebhook(ws);
      await storage.createWebhook(hook);
      await storage.createWebhook(bystander);
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)], hook.id);
      const message = await claimOne(storage, 'worker');
      const outcome = anOutcome(message, {
        status: 'failed',
        nextAttemptAt: null,
        webhook: { isActive: false, failingSince: T0 - 5 * DAY },
        attempt: { statusCode: 410 },
      });
      expect(await storage.recordAttempt('worker', message.id, outcome)).toBe(true);
      expect(await storage.getWebhook(ws.id, hook.id)).toEqual({ ...hook, isActive: false, failingSince: T0 - 5 * DAY, updatedAt: expect.any(Number) });
      expect(await storage.getWebhook(ws.id, bystander.id)).toEqual(bystander);
    });

    test('nextDueAt is the earliest nextAttemptAt of pending messages, and null when none is pending', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      expect(await storage.nextDueAt()).toBeNull();
      const [later] = await storage.enqueueEvents([anEvent(ws, 'booking.created', T0 + 2 * HOUR)]);
      const [sooner] = await storage.enqueueEvents([anEvent(ws, 'booking.created', T0 + HOUR)]);
      expect(await storage.nextDueAt()).toBe(T0 + HOUR);
      expect(ids(await storage.claimDueMessages('worker', T0 + HOUR, T0 + HOUR + MINUTE, 10))).toEqual([sooner!.id]);
      await storage.recordAttempt('worker', sooner!.id, anOutcome(sooner!, { status: 'delivered', nextAttemptAt: null }));
      expect(await storage.nextDueAt()).toBe(T0 + 2 * HOUR);
      expect(ids(await storage.claimDueMessages('worker', T0 + 2 * HOUR, T0 + 2 * HOUR + MINUTE, 10))).toEqual([later!.id]);
      await storage.recordAttempt('worker', later!.id, anOutcome(later!, { status: 'pending', nextAttemptAt: T0 + 3 * HOUR }));
      expect(await storage.nextDueAt()).toBe(T0 + 3 * HOUR);
      await storage.claimDueMessages('worker', T0 + 3 * HOUR, T0 + 3 * HOUR + MINUTE, 10);
      await storage.recordAttempt('worker', later!.id, anOutcome(later!, { status: 'failed', nextAttemptAt: null }));
      expect(await storage.nextDueAt()).toBeNull();
    });

    test('nextDueAt leaves out delivered and failed messages, whatever nextAttemptAt they were left with', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      const written = await storage.enqueueEvents([anEvent(ws, 'booking.created', T0), anEvent(ws, 'booking.confirmed', T0)]);
      const claimed = await storage.claimDueMessages('worker', T0, T0 + MINUTE, 10);
      expect(sortedIds(claimed)).toEqual(sortedIds(written));
      const [delivered, failed] = claimed;
      await storage.recordAttempt('worker', delivered!.id, anOutcome(delivered!, { status: 'delivered', nextAttemptAt: T0 + HOUR }));
      await storage.recordAttempt('worker', failed!.id, anOutcome(failed!, { status: 'failed', nextAttemptAt: T0 + 2 * HOUR }));
      expect(await storage.nextDueAt()).toBeNull();
      expect(await dueMessages(storage)).toEqual([]);
    });

    test("listAttempts returns the webhook's attempts newest first, up to limit", async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const hook = aWebhook(ws);
      const other = aWebhook(ws);
      await storage.createWebhook(hook);
      await storage.createWebhook(other);
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0)]);
      const record = async (message: WebhookMessageRecord, at: number, nextAttemptAt: number) => {
        const outcome = anOutcome(message, { status: 'pending', nextAttemptAt, attempt: { attemptedAt: at + 1 } });
        expect(await storage.recordAttempt('worker', message.id, outcome)).toBe(true);
        return outcome.attempt;
      };
      const first = await storage.claimDueMessages('worker', T0, T0 + MINUTE, 10);
      const mine = first.find((message) => message.webhookId === hook.id)!;
      const theirs = first.find((message) => message.webhookId === other.id)!;
      const a1 = await record(mine, T0, T0 + 5 * SECOND);
      const b1 = await record(theirs, T0, T0 + DAY);
      expect(ids(await storage.claimDueMessages('worker', T0 + 5 * SECOND, T0 + MINUTE, 10))).toEqual([mine.id]);
      const a2 = await record(mine, T0 + 5 * SECOND, T0 + 10 * SECOND);
      expect(ids(await storage.claimDueMessages('worker', T0 + 10 * SECOND, T0 + MINUTE, 10))).toEqual([mine.id]);
      const a3 = await record(mine, T0 + 10 * SECOND, T0 + 20 * SECOND);
      expect(await storage.listAttempts(hook.id, 10)).toEqual([a3, a2, a1]);
      expect(await storage.listAttempts(hook.id, 2)).toEqual([a3, a2]);
      expect(await storage.listAttempts(other.id, 10)).toEqual([b1]);
    });

    test("extendMessageLeases moves only the leases the owner still holds: a renewed message is not taken over, a lapsed one is, and the loser's extension is refused", async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWebhook(aWebhook(ws));
      await storage.enqueueEvents([anEvent(ws, 'booking.created', T0), anEvent(ws, 'booking.confirmed', T0)]);
      const lease = 20 * SECOND;
      const [kept, dropped] = await storage.claimDueMessages('live', T0, T0 + lease, 10);
      // The live owner renews one of its two messages 15 s in; someone else's id and an unknown id are left out.
      expect(await storage.extendMessageLeases('live', [kept!.id, newId('msg')], T0 + 15 * SECOND + lease)).toEqual([kept!.id]);
      expect(await storage.extendMessageLeases('intruder', [dropped!.id], T0 + DAY)).toEqual([]);
      expect(await storage.extendMessageLeases('live', [], T0 + DAY)).toEqual([]);
      // Past the first lease: only the message it stopped renewing is claimable, and the taker owns it now.
      expect(ids(await storage.claimDueMessages('taker', T0 + lease + 1, T0 + HOUR, 10))).toEqual([dropped!.id]);
      expect(await storage.extendMessageLeases('live', [kept!.id, dropped!.id], T0 + 30 * SECOND + lease)).toEqual([kept!.id]);
      expect(await storage.claimDueMessages('taker', T0 + 30 * SECOND + lease, T0 + DAY, 10)).toEqual([]);
      expect(await storage.recordAttempt('live', dropped!.id, anOutcome(dropped!, { status: 'delivered', nextAttemptAt: null }))).toBe(false);
      expect(await storage.recordAttempt('live', kept!.id, anOutcome(kept!, { status: 'delivered', nextAttemptAt: null }))).toBe(true);
      // A recorded message's lease is released: nothing is left to extend.
      expect(await storage.extendMessageLeases('live', [kept!.id], T0 + DAY)).toEqual([]);
      expect(ids(await storage.claimDueMessages('late', T0 + DAY, T0 + DAY + MINUTE, 10))).toEqual([dropped!.id]);
    });
  });

  describe('mail outbox, manage links and calendar feeds', () => {
    const aMail = (booking: BookingRecord, overrides: Partial<MailEntry> = {}): MailEntry => ({
      workspaceId: booking.workspaceId,
      bookingId: booking.id,
      kind: 'confirmed',
      revision: booking.revision,
      snapshot: { status: booking.status, startTime: booking.startTime, endTime: booking.endTime, cancelReason: null },
      createdAt: T0,
      ...overrides,
    });
    async function booked(overrides: Partial<BookingRecord> = {}) {
      const { ws, srv, prv } = await seed(storage);
      const booking = aBooking(srv, prv, overrides);
      const result = await storage.reserveBooking({
        booking,
        candidates: [prv.id],
        margin: 0,
        fits: () => null,
        emit: () => [],
        mails: (saved) => [aMail(saved)],
      });
      if (!result.ok) throw new Error(result.reason);
      return { ws, srv, prv, booking: result.booking };
    }

    test('reserveBooking and transitionBooking write their mails in the same write; the revision rises with each change', async () => {
      const { ws, booking } = await booked();
      const moved = await storage.transitionBooking(ws.id, booking.id, {
        from: ['CONFIRMED'],
        to: 'CANCELLED',
        at: T0 + MINUTE,
        emit: () => [],
        mails: (saved) => [aMail(saved, { kind: 'cancelled', createdAt: T0 + MINUTE })],
      });
      expect(moved!.revision).toBe(1);
      const mails = await storage.listBookingMails(booking.id);
      expect(mails.map((mail) => [mail.kind, mail.revision, mail.status, mail.attempts])).toEqual([
        ['confirmed', 0, 'pending', 0],
        ['cancelled', 1, 'pending', 0],
      ]);
      expect(mails[0]).toEqual({
        ...aMail(booking),
        id: expect.stringMatching(/^mail_/),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: T0,
        lastError: null,
        sentAt: null,
      });
    });

    test(
      'enqueueMails writes a (booking, kind, revision) once, whoever writes it again',
      async () => {
        const { booking } = await booked();
        const other = db.reopen();
        const reminder = aMail(booking, { kind: 'reminder', dueAt: T0 + HOUR });
        const written = await Promise.all([storage.enqueueMails([reminder]), other.enqueueMails([reminder]), storage.enqueueMails([reminder])]);
        expect(written.reduce((sum, count) => sum + count, 0)).toBe(1);
        expect((await storage.listBookingMails(booking.id)).map((mail) => [mail.kind, mail.nextAttemptAt])).toEqual([
          ['confirmed', T0],
          ['reminder', T0 + HOUR],
        ]);
        expect(await storage.nextMailDueAt()).toBe(T0);
      },
      RACE_TIMEOUT_MS,
    );

    test(
      'claimDueMails leases a due mail to one claimer; recordMailAttempt counts only for the lease owner',
      async () => {
        const { booking } = await booked();
        const other = db.reopen();
        const claims = await Promise.all([storage.claimDueMails('a', T0, T0 + MINUTE, 10), other.claimDueMails('b', T0, T0 + MINUTE, 10)]);
        expect(claims.flat()).toHaveLength(1);
        const [mail] = claims.flat();
        const owner = claims[0]!.length === 1 ? 'a' : 'b';
        expect(await storage.claimDueMails('c', T0 + 1, T0 + MINUTE, 10)).toEqual([]);
        expect(await storage.recordMailAttempt('c', mail!.id, { status: 'sent', nextAttemptAt: null, error: null, at: T0 + 2 })).toBe(false);
        expect(await storage.recordMailAttempt(owner, mail!.id, { status: 'pending', nextAttemptAt: T0 + 5000, error: 'SMTP 451', at: T0 + 2 })).toBe(true);
        expect(await storage.claimDueMails('c', T0 + 4999, T0 + MINUTE, 10)).toEqual([]);
        const [again] = await storage.claimDueMails('c', T0 + 5000, T0 + MINUTE, 10);
        expect(again).toMatchObject({ id: mail!.id, attempts: 1, lastError: 'SMTP 451' });
        expect(await storage.recordMailAttempt('c', mail!.id, { status: 'sent', nextAttemptAt: null, error: null, at: T0 + 5001 })).toBe(true);
        expect(await storage.listBookingMails(booking.id)).toEqual([
          expect.objectContaining({ status: 'sent', attempts: 2, sentAt: T0 + 5001, lastError: null }),
        ]);
        expect(await storage.nextMailDueAt()).toBeNull();
        // a lapsed lease is claimable again
        await storage.enqueueMails([aMail(booking, { kind: 'reminder' })]);
        expect(await storage.claimDueMails('dead', T0, T0 + MINUTE, 10)).toHaveLength(1);
        expect(await storage.claimDueMails('alive', T0 + MINUTE + 1, T0 + 2 * MINUTE, 10)).toHaveLength(1);
      },
      RACE_TIMEOUT_MS,
    );

    test('listDueReminders: CONFIRMED, starting within the window, changed before it, without a reminder for the revision', async () => {
      const { booking } = await booked({ startTime: SLOT, endTime: SLOT + HOUR });
      const within = DAY;
      expect(await storage.listDueReminders(SLOT - DAY - 1, within, 10)).toEqual([]);
      expect((await storage.listDueReminders(SLOT - DAY, within, 10)).map((each) => each.id)).toEqual([booking.id]);
      await storage.enqueueMails([aMail(booking, { kind: 'reminder' })]);
      expect(await storage.listDueReminders(SLOT - HOUR, within, 10)).toEqual([]);
      const { booking: late } = await booked({ startTime: SLOT, endTime: SLOT + HOUR, updatedAt: SLOT - HOUR, createdAt: SLOT - HOUR });
      expect((await storage.listDueReminders(SLOT - 30 * MINUTE, within, 10)).map((each) => each.id)).not.toContain(late.id);
    });

    test('findBookingByManageToken finds the booking by its token hash only', async () => {
      const { booking } = await booked({ manageTokenHash: 'a'.repeat(64), manageTokenSealed: 'v1.x.y' });
      expect(await storage.findBookingByManageToken('a'.repeat(64))).toEqual(booking);
      expect(await storage.findBookingByManageToken('b'.repeat(64))).toBeNull();
    });

    test('putCalendarFeed replaces the provider feed; listProviderBookings lists its PENDING and CONFIRMED bookings from a time', async () => {
      const { ws, prv, booking } = await booked();
      await storage.putCalendarFeed({ providerId: prv.id, workspaceId: ws.id, tokenHash: 'old', createdAt: T0 });
      await storage.putCalendarFeed({ providerId: prv.id, workspaceId: ws.id, tokenHash: 'new', createdAt: T0 + 1 });
      expect(await storage.findCalendarFeed('old')).toBeNull();
      expect(await storage.findCalendarFeed('new')).toEqual({ providerId: prv.id, workspaceId: ws.id, tokenHash: 'new', createdAt: T0 + 1 });
      expect(await storage.listProviderBookings(ws.id, prv.id, booking.startTime, 10)).toEqual([booking]);
      expect(await storage.listProviderBookings(ws.id, prv.id, booking.startTime + 1, 10)).toEqual([]);
      await storage.transitionBooking(ws.id, booking.id, { from: ['CONFIRMED'], to: 'CANCELLED', at: T0, emit: () => [] });
      expect(await storage.listProviderBookings(ws.id, prv.id, 0, 10)).toEqual([]);
    });

    test("extendMailLeases moves only the leases the owner still holds: a renewed mail is not taken over, a lapsed one is, and the loser's extension is refused", async () => {
      const { booking } = await booked();
      await storage.enqueueMails([aMail(booking, { kind: 'reminder' })]);
      const lease = 20 * SECOND;
      const [kept, dropped] = await storage.claimDueMails('live', T0, T0 + lease, 10);
      expect(await storage.extendMailLeases('live', [kept!.id, 'mail_unknown'], T0 + 15 * SECOND + lease)).toEqual([kept!.id]);
      expect(await storage.extendMailLeases('intruder', [dropped!.id], T0 + DAY)).toEqual([]);
      expect(await storage.extendMailLeases('live', [], T0 + DAY)).toEqual([]);
      expect(ids(await storage.claimDueMails('taker', T0 + lease + 1, T0 + HOUR, 10))).toEqual([dropped!.id]);
      expect(await storage.extendMailLeases('live', [kept!.id, dropped!.id], T0 + 30 * SECOND + lease)).toEqual([kept!.id]);
      expect(await storage.claimDueMails('taker', T0 + 30 * SECOND + lease, T0 + DAY, 10)).toEqual([]);
      expect(await storage.recordMailAttempt('live', dropped!.id, { status: 'sent', nextAttemptAt: null, error: null, at: T0 + 30 * SECOND })).toBe(false);
      expect(await storage.recordMailAttempt('live', kept!.id, { status: 'sent', nextAttemptAt: null, error: null, at: T0 + 30 * SECOND })).toBe(true);
      expect(await storage.extendMailLeases('live', [kept!.id], T0 + DAY)).toEqual([]);
      expect(ids(await storage.claimDueMails('late', T0 + DAY, T0 + DAY + MINUTE, 10))).toEqual([dropped!.id]);
    });
  });

  describe('pairing codes, host credentials and panel codes', () => {
    test('consumePairingCode returns an unused, unexpired code once and marks it used; an unknown code -> null', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const code = aPairingCode(ws);
      await storage.createPairingCode(code);
      expect(await storage.consumePairingCode('pairing-unknown', T0)).toBeNull();
      expect(await storage.consumePairingCode(code.codeHash, T0 + MINUTE)).toEqual({ ...code, usedAt: T0 + MINUTE });
      expect(await storage.consumePairingCode(code.codeHash, T0 + 2 * MINUTE)).toBeNull();
    });

    test('an expired pairing code is not consumable; one used a moment before it expires is', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const expired = aPairingCode(ws);
      const live = aPairingCode(ws);
      await storage.createPairingCode(expired);
      await storage.createPairingCode(live);
      expect(await storage.consumePairingCode(expired.codeHash, expired.expiresAt + 1)).toBeNull();
      expect(await storage.consumePairingCode(live.codeHash, live.expiresAt - 1)).toEqual({ ...live, usedAt: live.expiresAt - 1 });
    });

    test('findHostCredential returns the credential with that hash; an unknown hash -> null', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const credential = aHostCredential(ws);
      await storage.putHostCredential(credential);
      expect(await storage.findHostCredential(credential.credentialHash)).toEqual(credential);
      expect(await storage.findHostCredential('cred-unknown')).toBeNull();
    });

    test('putHostCredential for the same workspace and origin replaces the old credential: the old hash is no longer found', async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const old = aHostCredential(ws, { origin: 'https://shop.example.com' });
      const otherOrigin = aHostCredential(ws, { origin: 'http://localhost:8081' });
      const otherWorkspace = aHostCredential(other, { origin: 'https://shop.example.com' });
      for (const credential of [old, otherOrigin, otherWorkspace]) await storage.putHostCredential(credential);
      const replacement = aHostCredential(ws, { origin: 'https://shop.example.com', createdAt: T0 + HOUR });
      await storage.putHostCredential(replacement);
      expect(await storage.findHostCredential(old.credentialHash)).toBeNull();
      expect(await storage.findHostCredential(replacement.credentialHash)).toEqual(replacement);
      expect(await storage.findHostCredential(otherOrigin.credentialHash)).toEqual(otherOrigin);
      expect(await storage.findHostCredential(otherWorkspace.credentialHash)).toEqual(otherWorkspace);
    });

    test('consumePanelCode returns an unused, unexpired code once, with its capabilities; an expired code -> null', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const code = aPanelCode(ws, { capabilities: ['svc_manage_settings'] });
      const expired = aPanelCode(ws);
      await storage.createPanelCode(code);
      await storage.createPanelCode(expired);
      expect(await storage.consumePanelCode('panel-unknown', T0)).toBeNull();
      expect(await storage.consumePanelCode(code.codeHash, T0 + SECOND)).toEqual({ ...code, usedAt: T0 + SECOND });
      expect(await storage.consumePanelCode(code.codeHash, T0 + 2 * SECOND)).toBeNull();
      expect(await storage.consumePanelCode(expired.codeHash, expired.expiresAt + 1)).toBeNull();
    });

    test('purgeExpiredCodes deletes pairing and panel codes that expired before now, returns how many, and keeps live codes', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const expiredPairing = aPairingCode(ws, { expiresAt: T0 - 1 });
      const livePairing = aPairingCode(ws, { expiresAt: T0 + HOUR });
      const expiredPanel = aPanelCode(ws, { expiresAt: T0 - 1 });
      const usedExpiredPanel = aPanelCode(ws, { expiresAt: T0 - MINUTE, usedAt: T0 - 2 * MINUTE });
      const livePanel = aPanelCode(ws, { expiresAt: T0 + MINUTE });
      for (const code of [expiredPairing, livePairing]) await storage.createPairingCode(code);
      for (const code of [expiredPanel, usedExpiredPanel, livePanel]) await storage.createPanelCode(code);
      expect(await storage.purgeExpiredCodes(T0)).toBe(3);
      expect(await storage.purgeExpiredCodes(T0)).toBe(0);
      // The purged hashes are free again (their rows are gone); the live codes still work.
      await storage.createPairingCode({ ...expiredPairing, id: newId('pc') });
      await storage.createPanelCode({ ...expiredPanel, id: newId('pc') });
      expect(await storage.consumePairingCode(livePairing.codeHash, T0)).toEqual({ ...livePairing, usedAt: T0 });
      expect(await storage.consumePanelCode(livePanel.codeHash, T0)).toEqual({ ...livePanel, usedAt: T0 });
    });
  });

  describe('panel sessions and linked origins', () => {
    test('findPanelSession returns a live session by token hash; an expired or unknown one -> null', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const session = aPanelSession(ws, { capabilities: ['svc_manage_operations', 'svc_manage_settings'], origin: null });
      await storage.createPanelSession(session);
      expect(await storage.findPanelSession(session.tokenHash, session.expiresAt - 1)).toEqual(session);
      expect(await storage.findPanelSession(session.tokenHash, session.expiresAt)).toBeNull();
      expect(await storage.findPanelSession('session-unknown', T0)).toBeNull();
    });

    test('rotatePanelSession replaces the live session: the old token stops, the new one works; an expired token cannot rotate', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const first = aPanelSession(ws);
      await storage.createPanelSession(first);
      const second = aPanelSession(ws, { createdAt: T0 + 10 * MINUTE, expiresAt: T0 + 40 * MINUTE });
      expect(await storage.rotatePanelSession(first.tokenHash, second, T0 + 10 * MINUTE)).toEqual(first);
      expect(await storage.findPanelSession(first.tokenHash, T0 + 10 * MINUTE)).toBeNull();
      expect(await storage.findPanelSession(second.tokenHash, T0 + 10 * MINUTE)).toEqual(second);
      const third = aPanelSession(ws);
      expect(await storage.rotatePanelSession(second.tokenHash, third, second.expiresAt)).toBeNull();
      expect(await storage.findPanelSession(third.tokenHash, T0)).toBeNull();
    });

    test("endPanelSessions ends the workspace's sessions of one origin or one subject, and no others", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const shop = aPanelSession(ws, { origin: 'https://shop.example.com' });
      const shopToo = aPanelSession(ws, { origin: 'https://shop.example.com', subject: 'someone-else' });
      const blog = aPanelSession(ws, { origin: 'https://blog.example.com' });
      const standalone = aPanelSession(ws, { origin: null, subject: 'key:key_1' });
      const otherShop = aPanelSession(other, { origin: 'https://shop.example.com' });
      for (const session of [shop, shopToo, blog, standalone, otherShop]) await storage.createPanelSession(session);
      expect(await storage.endPanelSessions(ws.id, { origin: 'https://shop.example.com' })).toBe(2);
      expect(await storage.endPanelSessions(ws.id, { subject: 'key:key_1' })).toBe(1);
      for (const gone of [shop, shopToo, standalone]) expect(await storage.findPanelSession(gone.tokenHash, T0)).toBeNull();
      for (const kept of [blog, otherShop]) expect(await storage.findPanelSession(kept.tokenHash, T0)).toEqual(kept);
    });

    test('purgeExpiredPanelSessions deletes expired sessions, returns how many, and keeps live ones', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const expired = aPanelSession(ws, { expiresAt: T0 - 1 });
      const live = aPanelSession(ws, { expiresAt: T0 + MINUTE });
      await storage.createPanelSession(expired);
      await storage.createPanelSession(live);
      expect(await storage.purgeExpiredPanelSessions(T0)).toBe(1);
      expect(await storage.purgeExpiredPanelSessions(T0)).toBe(0);
      await storage.createPanelSession(expired);
      expect(await storage.findPanelSession(live.tokenHash, T0)).toEqual(live);
    });

    test("listHostCredentials lists the workspace's linked origins oldest first; deleteHostCredential stops one at once", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const shop = aHostCredential(ws, { origin: 'https://shop.example.com', createdAt: T0 + MINUTE });
      const blog = aHostCredential(ws, { origin: 'https://blog.example.com', platform: 'hostplatform', createdAt: T0 });
      const foreign = aHostCredential(other);
      for (const credential of [shop, blog, foreign]) await storage.putHostCredential(credential);
      expect(await storage.listHostCredentials(ws.id)).toEqual([blog, shop]);
      expect(await storage.deleteHostCredential(other.id, shop.id)).toBeNull();
      expect(await storage.deleteHostCredential(ws.id, shop.id)).toEqual(shop);
      expect(await storage.findHostCredential(shop.credentialHash)).toBeNull();
      expect(await storage.deleteHostCredential(ws.id, shop.id)).toBeNull();
      expect(await storage.listHostCredentials(ws.id)).toEqual([blog]);
      expect(await storage.deleteHostCredentialByHash(blog.credentialHash)).toEqual(blog);
      expect(await storage.deleteHostCredentialByHash(blog.credentialHash)).toBeNull();
      expect(await storage.listHostCredentials(ws.id)).toEqual([]);
      expect(await storage.findHostCredential(foreign.credentialHash)).toEqual(foreign);
    });

    test('touchHostCredential records the latest use and never moves it back; a replacement starts unused', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const credential = aHostCredential(ws);
      await storage.putHostCredential(credential);
      await storage.touchHostCredential(credential.id, T0 + HOUR);
      await storage.touchHostCredential(credential.id, T0 + MINUTE);
      expect(await storage.findHostCredential(credential.credentialHash)).toEqual({ ...credential, lastUsedAt: T0 + HOUR });
      const replacement = aHostCredential(ws, { platform: 'hostplatform', createdAt: T0 + DAY });
      await storage.putHostCredential(replacement);
      expect(await storage.listHostCredentials(ws.id)).toEqual([replacement]);
    });
  });

  describe('concurrency (the guarantees written on the port)', () => {
    test(
      'of 50 concurrent reservations of a capacity-1 slot exactly one succeeds, and the database holds one booking',
      async () => {
        const { ws, srv, prv } = await seed(storage);
        const { won, lost } = await race(
          [storage],
          Array.from({ length: 50 }, () => racer(srv, [prv.id], 1)),
        );
        expect(won).toHaveLength(1);
        expect(lost).toEqual(Array(49).fill('taken'));
        expect(await storage.listBookings(ws.id, { limit: 100 })).toEqual(won);
      },
      RACE_TIMEOUT_MS,
    );

    test(
      'of 50 concurrent reservations of a capacity-5 slot exactly five succeed',
      async () => {
        const { ws, srv, prv } = await seed(storage, { capacity: 5 });
        const { won, lost } = await race(
          [storage],
          Array.from({ length: 50 }, () => racer(srv, [prv.id], 5)),
        );
        expect(won).toHaveLength(5);
        expect(lost).toHaveLength(45);
        expect(sortedIds(await storage.listBookings(ws.id, { limit: 100 }))).toEqual(sortedIds(won));
        expect(await storage.listBusy([prv.id], SLOT, SLOT + HOUR)).toHaveLength(5);
      },
      RACE_TIMEOUT_MS,
    );

    test(
      'split over two storage instances on one database, 50 racers for a capacity-1 slot: exactly one succeeds',
      async () => {
        const { ws, srv, prv } = await seed(storage);
        const { won } = await race(
          [storage, db.reopen()],
          Array.from({ length: 50 }, () => racer(srv, [prv.id], 1)),
        );
        expect(won).toHaveLength(1);
        expect(await storage.listBookings(ws.id, { limit: 100 })).toEqual(won);
      },
      RACE_TIMEOUT_MS,
    );

    test(
      'split over two storage instances on one database, 50 racers for a capacity-5 slot: exactly five succeed',
      async () => {
        const { ws, srv, prv } = await seed(storage, { capacity: 5 });
        const { won } = await race(
          [storage, db.reopen()],
          Array.from({ length: 50 }, () => racer(srv, [prv.id], 5)),
        );
        expect(won).toHaveLength(5);
        expect(sortedIds(await storage.listBookings(ws.id, { limit: 100 }))).toEqual(sortedIds(won));
      },
      RACE_TIMEOUT_MS,
    );

    test(
      'auto-assignment across two candidate providers, 10 racers for a capacity-1 slot: exactly two bookings, one per provider',
      async () => {
        const { ws, srv, prv } = await seed(storage);
        const second = await addProvider(storage, ws, { serviceIds: [srv.id] });
        const { won } = await race(
          [storage, db.reopen()],
          Array.from({ length: 10 }, () => racer(srv, [prv.id, second.id], 1)),
        );
        expect(won.map((booking) => booking.providerId).sort()).toEqual([prv.id, second.id].sort());
        expect(sortedIds(await storage.listBookings(ws.id, { limit: 100 }))).toEqual(sortedIds(won));
      },
      RACE_TIMEOUT_MS,
    );

    test(
      '10 concurrent claimDueMessages from two instances over 30 due messages: every message is claimed exactly once',
      async () => {
        const ws = aWorkspace();
        await storage.createWorkspace(ws);
        await storage.createWebhook(aWebhook(ws));
        const written = await storage.enqueueEvents(Array.from({ length: 30 }, (_, i) => anEvent(ws, 'booking.created', T0 - i)));
        expect(written).toHaveLength(30);
        const other = db.reopen();
        await warm([storage, other]);
        const claims = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 ? other : storage).claimDueMessages(`worker-${i}`, T0, T0 + MINUTE, 5).then((messages) => ({ owner: `worker-${i}`, messages })),
          ),
        );
        const claimed = claims.flatMap((claim) => claim.messages);
        expect(claimed).toHaveLength(30);
        expect(sortedIds(claimed)).toEqual(sortedIds(written));
        expect(await storage.claimDueMessages('late', T0, T0 + MINUTE, 100)).toEqual([]);
        // Each lease belongs to the claimer that received the message.
        const { owner, messages } = claims.find((claim) => claim.messages.length > 0)!;
        expect(await storage.recordAttempt(owner === 'worker-0' ? 'worker-1' : 'worker-0', messages[0]!.id, anOutcome(messages[0]!))).toBe(false);
        expect(await storage.recordAttempt(owner, messages[0]!.id, anOutcome(messages[0]!))).toBe(true);
      },
      RACE_TIMEOUT_MS,
    );

    test(
      '20 concurrent consumePairingCode calls for one code, from two instances: exactly one wins',
      async () => {
        const ws = aWorkspace();
        await storage.createWorkspace(ws);
        const code = aPairingCode(ws);
        await storage.createPairingCode(code);
        const other = db.reopen();
        await warm([storage, other]);
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : storage).consumePairingCode(code.codeHash, T0 + i)));
        const winners = results.filter((result) => result !== null);
        expect(winners).toHaveLength(1);
        expect(winners[0]).toEqual({ ...code, usedAt: winners[0]!.usedAt });
        expect(await storage.consumePairingCode(code.codeHash, T0 + 100)).toBeNull();
      },
      RACE_TIMEOUT_MS,
    );

    test(
      '20 concurrent consumePanelCode calls for one code, from two instances: exactly one wins',
      async () => {
        const ws = aWorkspace();
        await storage.createWorkspace(ws);
        const code = aPanelCode(ws);
        await storage.createPanelCode(code);
        const other = db.reopen();
        await warm([storage, other]);
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : storage).consumePanelCode(code.codeHash, T0 + i)));
        const winners = results.filter((result) => result !== null);
        expect(winners).toHaveLength(1);
        expect(winners[0]).toEqual({ ...code, usedAt: winners[0]!.usedAt });
      },
      RACE_TIMEOUT_MS,
    );

    test(
      '20 concurrent rotatePanelSession calls with one token, from two instances: exactly one renews it',
      async () => {
        const ws = aWorkspace();
        await storage.createWorkspace(ws);
        const session = aPanelSession(ws);
        await storage.createPanelSession(session);
        const other = db.reopen();
        await warm([storage, other]);
        const nexts = Array.from({ length: 20 }, () => aPanelSession(ws));
        const results = await Promise.all(nexts.map((next, i) => (i % 2 ? other : storage).rotatePanelSession(session.tokenHash, next, T0 + i)));
        const winners = results.flatMap((result, i) => (result ? [i] : []));
        expect(winners).toHaveLength(1);
        expect(results[winners[0]!]).toEqual(session);
        const live = await Promise.all(nexts.map((next) => storage.findPanelSession(next.tokenHash, T0)));
        expect(live.filter((each) => each !== null)).toEqual([nexts[winners[0]!]!]);
      },
      RACE_TIMEOUT_MS,
    );

    test(
      'single writes issued while reservations are in flight all succeed, on one instance and across two',
      async () => {
        const { ws, srv, prv } = await seed(storage);
        const other = db.reopen();
        const hook = aWebhook(ws);
        await storage.createWebhook(hook);
        const codes = Array.from({ length: 5 }, () => aPairingCode(ws));
        for (const code of codes) await storage.createPairingCode(code);
        await warm([storage, other]);
        const work: Promise<unknown>[] = [];
        for (let i = 0; i < 10; i++) {
          const on = i % 2 ? other : storage;
          work.push(on.reserveBooking({ ...racer(srv, [prv.id], 100), emit: () => [anEvent(ws, 'booking.created')] }));
          work.push(on.createWorkspace(aWorkspace()));
          work.push(on.putSettingIfAbsent(`setting-${i}`, 'value'));
          work.push(on.updateWebhook(ws.id, hook.id, { name: `name-${i}` }, T0 + i));
          if (i < codes.length) work.push(on.consumePairingCode(codes[i]!.codeHash, T0));
        }
        const settled = await Promise.allSettled(work);
        expect(settled.filter((each) => each.status === 'rejected').map((each) => String((each as PromiseRejectedResult).reason))).toEqual([]);
        expect(await storage.listBookings(ws.id, { limit: 100 })).toHaveLength(10);
      },
      RACE_TIMEOUT_MS,
    );
  });
}
