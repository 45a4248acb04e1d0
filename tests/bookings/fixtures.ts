import { newId } from '../../src/core/ids.ts';
import type {
  BookingRecord,
  CustomFieldRecord,
  ProviderRecord,
  ServiceRecord,
  WebhookMessageRecord,
  WebhookRecord,
  WorkspaceRecord,
} from '../../src/ports/storage/index.ts';
import type { TestApp } from '../support/app.ts';

/*
 * Catalogue set-up straight through deps.storage (the catalogue routes are another feature), and read-backs
 * of what the database holds. Times: TEST_NOW is Monday 2026-11-23 09:00 in Europe/Berlin (08:00Z);
 * the workspace works Mon–Fri 09:00–17:00.
 */

/** Tuesday 2026-11-24 at `time` (HH:mm) in Europe/Berlin (UTC+1 in November), as an ISO date-time with Z. */
export const tuesday = (time: string) => berlin('2026-11-24', time);

/** `date` at `time` in Europe/Berlin as an ISO date-time with Z. */
export function berlin(date: string, time: string): string {
  return new Date(Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime('Europe/Berlin').epochMilliseconds).toISOString();
}

export async function addProvider(app: TestApp, fields: Partial<ProviderRecord> = {}): Promise<ProviderRecord> {
  const now = app.clock.now();
  const provider: ProviderRecord = {
    id: newId('prv', now),
    workspaceId: app.workspace.id,
    name: 'Alex Hoffmann',
    email: null,
    active: true,
    hours: null,
    serviceIds: [],
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
  await app.deps.storage.createProvider(provider);
  return provider;
}

export async function addService(app: TestApp, providers: ProviderRecord[], fields: Partial<ServiceRecord> = {}): Promise<ServiceRecord> {
  const now = app.clock.now();
  const service: ServiceRecord = {
    id: newId('srv', now),
    workspaceId: app.workspace.id,
    name: 'Haircut',
    description: null,
    duration: 60,
    priceMinor: 3550,
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
    repeatable: false,
    providerIds: providers.map((provider) => provider.id),
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
  await app.deps.storage.createService(service);
  return service;
}

/** One provider offering one service (60 minutes, 35.50 EUR, capacity 1), unless told otherwise. */
export async function catalogue(app: TestApp, service: Partial<ServiceRecord> = {}, provider: Partial<ProviderRecord> = {}) {
  const alex = await addProvider(app, provider);
  const haircut = await addService(app, [alex], service);
  return { provider: alex, service: haircut };
}

export async function addCustomField(app: TestApp, fields: Partial<CustomFieldRecord> & Pick<CustomFieldRecord, 'key' | 'type'>): Promise<CustomFieldRecord> {
  const field: CustomFieldRecord = {
    id: newId('cf', app.clock.now()),
    workspaceId: app.workspace.id,
    label: fields.key,
    required: false,
    options: null,
    placeholder: null,
    order: 0,
    serviceIds: [],
    createdAt: app.clock.now(),
    ...fields,
  };
  await app.deps.storage.createCustomField(field);
  return field;
}

export async function setWorkspace(app: TestApp, patch: Partial<Pick<WorkspaceRecord, 'domains' | 'requiresConfirmation' | 'hours' | 'timezone'>>) {
  const updated = await app.deps.storage.updateWorkspace(app.workspace.id, patch, app.clock.now());
  app.workspace = updated!;
}

/** Every booking of the workspace, as stored (with the manage link's secrets, which a listing leaves out). */
export async function storedBookings(app: TestApp, workspaceId = app.workspace.id): Promise<BookingRecord[]> {
  const listed = await app.deps.storage.listBookings(workspaceId, { limit: 10_000 });
  return Promise.all(listed.map(async (booking) => (await app.deps.storage.getBooking(workspaceId, booking.id))!));
}

/** A webhook subscribed to `events` (empty = all), to see the outbox. */
export async function addWebhook(app: TestApp, events: string[] = []): Promise<WebhookRecord> {
  const now = app.clock.now();
  const webhook: WebhookRecord = {
    id: newId('wh', now),
    workspaceId: app.workspace.id,
    name: null,
    url: 'https://hooks.example.com/svc',
    secret: 'encrypted',
    events,
    isActive: true,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  await app.deps.storage.createWebhook(webhook);
  return webhook;
}

/** Every message waiting in the outbox, oldest first (by createdAt: move the clock between events), with its parsed body. */
export async function outbox(app: TestApp): Promise<(WebhookMessageRecord & { parsed: any })[]> {
  const claimed = await app.deps.storage.claimDueMessages('test', Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER, 1000);
  const messages = await Promise.all(claimed.map((message) => app.deps.storage.getMessage(message.id)));
  return messages
    .filter((message): message is WebhookMessageRecord => message !== null)
    .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
    .map((message) => ({ ...message, parsed: JSON.parse(message.body) }));
}

/** A booking body for `service` at `date`; `overrides` win. */
export function bookingBody(service: ServiceRecord, date: string, overrides: Record<string, unknown> = {}) {
  return { serviceId: service.id, email: 'mia@example.com', name: 'Mia Schneider', date, ...overrides };
}

/** The Booking JSON the API returns for a booking of `service` on `provider`, for whole-body assertions. */
export function expectedBooking(fields: {
  id: string;
  service: ServiceRecord;
  provider: ProviderRecord;
  start: string;
  minutes?: number;
  status?: string;
  /** a PENDING booking waiting for its payment (default false) */
  awaitingPayment?: boolean;
  customerName?: string | null;
  customerEmail?: string;
  amount?: number | null;
  phone?: string | null;
  notes?: string | null;
  customFields?: Record<string, unknown>;
  cancelReason?: string | null;
  createdAt?: string;
  seriesId?: string | null;
  /** the booking's `payment`; default: none paid yet (pending while awaiting payment), null for a free booking */
  payment?: unknown;
}) {
  const start = Date.parse(fields.start);
  const amount = fields.amount === undefined ? 35.5 : fields.amount;
  const total = fields.service.priceMinor / 100;
  const pending = fields.awaitingPayment === true && (fields.status ?? 'CONFIRMED') === 'PENDING';
  const payment =
    fields.payment !== undefined
      ? fields.payment
      : amount === null && total === 0
        ? null
        : {
            currency: fields.service.currency,
            total,
            paid: 0,
            due: Math.round((total - (pending ? (amount ?? 0) : 0)) * 100) / 100,
            status: pending ? 'pending' : 'none',
            refunded: 0,
          };
  return {
    id: fields.id,
    startTime: new Date(start).toISOString(),
    endTime: new Date(start + (fields.minutes ?? fields.service.duration) * 60_000).toISOString(),
    status: fields.status ?? 'CONFIRMED',
    awaitingPayment: fields.awaitingPayment ?? false,
    customerName: fields.customerName === undefined ? 'Mia Schneider' : fields.customerName,
    customerEmail: fields.customerEmail ?? 'mia@example.com',
    serviceName: fields.service.name,
    providerName: fields.provider.name,
    amount,
    payment,
    serviceId: fields.service.id,
    providerId: fields.provider.id,
    phone: fields.phone ?? null,
    notes: fields.notes ?? null,
    customFields: fields.customFields ?? {},
    cancelReason: fields.cancelReason ?? null,
    createdAt: fields.createdAt ?? '2026-11-23T08:00:00.000Z',
    seriesId: fields.seriesId ?? null,
  };
}
