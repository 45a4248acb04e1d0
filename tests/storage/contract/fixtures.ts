import { expect } from 'bun:test';
import type { WorkingHours } from '../../../src/core/slot-engine.ts';
import { newId } from '../../../src/core/ids.ts';
import type {
  ApiKeyRecord,
  AttemptOutcome,
  BookingRecord,
  ListedBooking,
  BusyInterval,
  CustomFieldRecord,
  DeliveryAttemptRecord,
  HostCredentialRecord,
  OutboxEvent,
  PairingCodeRecord,
  PanelCodeRecord,
  PaymentRecord,
  ProviderRecord,
  ReserveRequest,
  ServiceRecord,
  Storage,
  WebhookMessageRecord,
  WebhookRecord,
  WorkspaceRecord,
} from '../../../src/ports/storage/index.ts';
import type { PanelSessionRecord } from '../../../src/ports/storage/panel-session-store.ts';

/*
 * What every part of the storage contract builds on: fixed instants, factories of complete records with fresh
 * ids, and helpers that seed, book, read the outbox and race. All instants are fixed.
 */

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Monday 2030-03-04 09:00 UTC: "now" for the whole suite */
export const T0 = Date.parse('2030-03-04T09:00:00.000Z');
/** the start of the slot most bookings take: Tuesday 10:00 UTC */
export const SLOT = T0 + DAY + HOUR;
/** for tests that race many calls (bun's default is 5 s) */
export const RACE_TIMEOUT_MS = 30_000;
/** for creating and dropping a test database */
export const DATABASE_TIMEOUT_MS = 30_000;

const NINE_TO_FIVE = [{ start: '09:00', end: '17:00' }];
export const WEEKDAY_HOURS: WorkingHours = {
  weekly: { mon: NINE_TO_FIVE, tue: NINE_TO_FIVE, wed: NINE_TO_FIVE, thu: NINE_TO_FIVE, fri: NINE_TO_FIVE, sat: [], sun: [] },
  exceptions: [],
};
export const WEEKEND_HOURS: WorkingHours = {
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
    notificationEmail: null,
    locale: null,
    contactEmail: null,
    contactPhone: null,
    plan: 'self-hosted',
    industry: 'other',
    timezone: 'Europe/Berlin',
    language: 'en',
    timeFormat: '24h',
    cancellationHours: 24,
    requiresConfirmation: false,
    refundOnCancel: false,
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
    waitlist: false,
    repeatable: false,
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

/** Bookings as listBookings answers them: without the manage link's secrets (ListedBooking). */
export function listed(bookings: readonly (BookingRecord | ListedBooking)[]): ListedBooking[] {
  return bookings.map((booking) => {
    const { manageTokenHash: _hash, manageTokenSealed: _sealed, ...rest } = booking as BookingRecord;
    return rest;
  });
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
    seriesId: null,
    priceMinor: null,
    paidMinor: 0,
    refundedMinor: 0,
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
    checkoutUrlSealed: null,
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
export async function seed(storage: Storage, overrides: { capacity?: number } = {}) {
  const ws = aWorkspace();
  await storage.createWorkspace(ws);
  const prv = aProvider(ws);
  await storage.createProvider(prv);
  const srv = aService(ws, { providerIds: [prv.id], capacity: overrides.capacity ?? 1 });
  await storage.createService(srv);
  return { ws, srv, prv };
}

export async function addProvider(storage: Storage, ws: WorkspaceRecord, overrides: Partial<ProviderRecord> = {}) {
  const prv = aProvider(ws, overrides);
  await storage.createProvider(prv);
  return prv;
}

/** Stores a booking as given (nothing refuses it) and returns what reserveBooking returned. */
export async function book(storage: Storage, booking: BookingRecord, events: OutboxEvent[] = []): Promise<BookingRecord> {
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
export async function dueMessages(storage: Storage, now = T0 + 365 * DAY): Promise<WebhookMessageRecord[]> {
  const messages = await storage.claimDueMessages(`inspector-${tag()}`, now, now + MINUTE, 1000);
  return messages.sort((a, b) => (a.webhookId + a.eventType).localeCompare(b.webhookId + b.eventType));
}

/** Claims the only due message of the database for `owner`. */
export async function claimOne(storage: Storage, owner: string, now = T0): Promise<WebhookMessageRecord> {
  const claimed = await storage.claimDueMessages(owner, now, now + MINUTE, 10);
  expect(claimed).toHaveLength(1);
  return claimed[0]!;
}

export const ids = (records: { id: string }[]) => records.map((record) => record.id);
export const sortedIds = (records: { id: string }[]) => ids(records).sort();
export const withSortedProviders = (service: ServiceRecord | null) => service && { ...service, providerIds: [...service.providerIds].sort() };
export const withSortedServices = (provider: ProviderRecord | null) => provider && { ...provider, serviceIds: [...provider.serviceIds].sort() };
export const byBookingId = (a: BusyInterval, b: BusyInterval) => (a.bookingId ?? '').localeCompare(b.bookingId ?? '');
export const busyOf = (booking: BookingRecord): BusyInterval => ({
  bookingId: booking.id,
  providerId: booking.providerId,
  serviceId: booking.serviceId,
  startTime: booking.startTime,
  endTime: booking.endTime,
  bufferTime: booking.bufferTime,
});
/** (startTime, id) order, as listBookings promises */
export const bookingOrder = (a: BookingRecord, b: BookingRecord) => a.startTime - b.startTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export async function caught(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  return null;
}

/** A racer for one slot: refuses when `capacity` bookings already overlap it on the provider. */
export function racer(srv: ServiceRecord, providerIds: string[], capacity: number): ReserveRequest {
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
export async function warm(storages: Storage[]) {
  await Promise.all(storages.flatMap((each) => Array.from({ length: 20 }, () => each.ping())));
}

/** Runs every request at once, alternating between `storages`; every call must settle with a result. */
export async function race(storages: Storage[], requests: ReserveRequest[]) {
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
