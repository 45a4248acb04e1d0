import type { WorkingHours } from '../scheduling/slot-engine.ts';
import type { BookingStatus } from '../bookings/lifecycle.ts';
import type { PanelSessionStore } from './panel-session-store.ts';

/*
 * The storage port: everything svc keeps, as one interface. Adapters live in adapters/storage/<backend>/ and
 * pass the shared contract suite (tests/storage/contract.ts) unchanged. Instants are epoch milliseconds (UTC);
 * money is integer minor units of `currency`. Records are plain values: no adapter type leaks out.
 */

export interface WorkspaceRecord {
  id: string;
  slug: string;
  name: string;
  primaryColor: string | null;
  /** shown in the panel and the widget; null = none */
  logoUrl: string | null;
  plan: string;
  industry: string;
  /** IANA time zone name */
  timezone: string;
  /** BCP 47 */
  language: string;
  timeFormat: '24h' | '12h';
  /** hours before the start within which a customer may no longer cancel */
  cancellationHours: number;
  /** new bookings start PENDING until confirmed */
  requiresConfirmation: boolean;
  /** the workspace's working hours; providers without their own use these */
  hours: WorkingHours;
  /** allowed widget domains: `example.com`, `*.example.org` */
  domains: string[];
  createdAt: number;
  updatedAt: number;
}

export type WorkspacePatch = Partial<Pick<WorkspaceRecord,
  'name' | 'primaryColor' | 'logoUrl' | 'industry' | 'timezone' | 'language' | 'timeFormat' | 'cancellationHours' | 'requiresConfirmation' | 'hours' | 'domains'>>;

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  /** the first characters of the key, for recognising it in lists; never enough to use it */
  prefix: string;
  /** hex SHA-256 of the whole key; the key itself is never stored */
  hash: string;
  createdAt: number;
  revokedAt: number | null;
  /** last request it authenticated, to the minute; null = never used */
  lastUsedAt: number | null;
}

export interface ServiceRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  /** minutes */
  duration: number;
  priceMinor: number;
  /** ISO 4217, upper case */
  currency: string;
  active: boolean;
  category: string | null;
  capacity: number;
  /** minutes kept free before and after each booking */
  bufferTime: number;
  /** minutes */
  minNotice: number;
  /** days; null = unlimited */
  maxAdvance: number | null;
  depositMinor: number | null;
  order: number;
  /** minutes between slot starts; null = duration */
  slotInterval: number | null;
  providerIds: string[];
  createdAt: number;
  updatedAt: number;
}

export type ServicePatch = Partial<Omit<ServiceRecord, 'id' | 'workspaceId' | 'createdAt'>>;

export interface ProviderRecord {
  id: string;
  workspaceId: string;
  name: string;
  email: string | null;
  active: boolean;
  /** null: the provider works the workspace's hours */
  hours: WorkingHours | null;
  serviceIds: string[];
  createdAt: number;
  updatedAt: number;
}

export type ProviderPatch = Partial<Omit<ProviderRecord, 'id' | 'workspaceId' | 'createdAt'>>;

export const CUSTOM_FIELD_TYPES = ['text', 'textarea', 'number', 'select', 'checkbox', 'phone', 'email', 'date'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export interface CustomFieldRecord {
  id: string;
  workspaceId: string;
  /** [a-z0-9_], unique in the workspace */
  key: string;
  label: string;
  type: CustomFieldType;
  required: boolean;
  /** select only */
  options: string[] | null;
  placeholder: string | null;
  order: number;
  /** empty: every service */
  serviceIds: string[];
  createdAt: number;
}

export type CustomFieldPatch = Partial<Omit<CustomFieldRecord, 'id' | 'workspaceId' | 'createdAt'>>;

/** The longest a booking may last (a day), which bounds how far back a busy-interval query must look. */
export const MAX_BOOKING_MS = 24 * 60 * 60 * 1000;

export interface BookingRecord {
  id: string;
  workspaceId: string;
  serviceId: string;
  providerId: string;
  status: BookingStatus;
  startTime: number;
  endTime: number;
  /** the service's buffer (minutes) when booked; later service edits do not move existing bookings */
  bufferTime: number;
  customerName: string | null;
  customerEmail: string;
  phone: string | null;
  notes: string | null;
  customFields: Record<string, unknown>;
  /** the sum due, null when free */
  amountMinor: number | null;
  currency: string | null;
  cancelReason: string | null;
  /** an unpaid PENDING hold is cancelled after this instant */
  holdExpiresAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** An event for the outbox; the adapter writes one message per subscribed active webhook of the workspace. */
export interface OutboxEvent {
  workspaceId: string;
  type: string;
  /** the JSON body delivered, already serialised, so every attempt sends the same bytes */
  body: string;
  occurredAt: number;
}

/** A booking that holds provider time (PENDING or CONFIRMED), as availability checks need it. */
export interface BusyInterval {
  bookingId: string;
  providerId: string;
  serviceId: string;
  startTime: number;
  endTime: number;
  bufferTime: number;
}

export interface ReserveRequest {
  /** the booking to insert; its `providerId` is replaced by the provider chosen */
  booking: BookingRecord;
  /** providers to try, in order of preference; the first that `fits` gets the booking */
  candidates: string[];
  /** how far around the booking other bookings matter (the longest buffer), ms */
  margin: number;
  /**
   * Pure check run inside the reservation with the provider's current busy intervals overlapping
   * [startTime - margin, endTime + margin]. Returns null when the booking fits, else the reason it does not.
   */
  fits: (providerId: string, busy: BusyInterval[]) => string | null;
  /** events to write in the same transaction, built from the booking as inserted */
  emit: (booking: BookingRecord) => OutboxEvent[];
  /**
   * booking being moved (reschedule): excluded from the busy intervals and updated instead of inserted; it must
   * belong to `booking.workspaceId` and still be PENDING or CONFIRMED, else the result is not ok
   */
  replacing?: string;
}

export type ReserveResult = { ok: true; booking: BookingRecord } | { ok: false; reason: string };

export interface BookingFilter {
  status?: BookingStatus;
  /** startTime >= from */
  from?: number;
  /** startTime < to */
  to?: number;
  serviceId?: string;
  /** keyset: only bookings after this (startTime, id) */
  after?: { startTime: number; id: string };
  limit: number;
}

export interface BookingTransition {
  /** the move happens only if the booking is still in one of these statuses */
  from: BookingStatus[];
  to: BookingStatus;
  at: number;
  cancelReason?: string | null;
  emit: (booking: BookingRecord) => OutboxEvent[];
}

export interface WebhookRecord {
  id: string;
  workspaceId: string;
  name: string | null;
  url: string;
  /** the signing secret, encrypted by the caller; adapters store it as given */
  secret: string;
  /** event types subscribed to; empty = all */
  events: string[];
  isActive: boolean;
  /** first failure of the current run of failed deliveries; null when the last delivery succeeded */
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

export type WebhookPatch = Partial<Pick<WebhookRecord, 'name' | 'url' | 'events' | 'isActive' | 'failingSince'>>;

export type MessageStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookMessageRecord {
  id: string;
  webhookId: string;
  workspaceId: string;
  eventType: string;
  body: string;
  status: MessageStatus;
  attempts: number;
  nextAttemptAt: number | null;
  createdAt: number;
  deliveredAt: number | null;
}

export interface DeliveryAttemptRecord {
  id: string;
  messageId: string;
  webhookId: string;
  attemptedAt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  nextRetryAt: number | null;
}

export interface AttemptOutcome {
  attempt: DeliveryAttemptRecord;
  /** the message's new state after this attempt */
  status: MessageStatus;
  nextAttemptAt: number | null;
  /** change to the endpoint caused by this attempt (410, or 5 days of failures) */
  webhook?: WebhookPatch;
}

export interface PairingCodeRecord {
  id: string;
  workspaceId: string;
  codeHash: string;
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

export interface HostCredentialRecord {
  id: string;
  workspaceId: string;
  /** scheme://host[:port] */
  origin: string;
  credentialHash: string;
  /** the path segment it was linked through: hostplatform or wordpress */
  platform: string;
  createdAt: number;
  /** last bootstrap it authorised, to the minute; null = never used */
  lastUsedAt: number | null;
}

export interface PanelCodeRecord {
  id: string;
  workspaceId: string;
  codeHash: string;
  origin: string;
  subject: string;
  capabilities: string[];
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'expired';

export interface PaymentRecord {
  id: string;
  workspaceId: string;
  bookingId: string;
  /** payment provider name: test, stripe */
  provider: string;
  /** the provider's id for the checkout (unique per provider) */
  reference: string;
  amountMinor: number;
  currency: string;
  status: PaymentStatus;
  /** paid for a booking that was already cancelled: money to give back */
  refundDue: boolean;
  createdAt: number;
  updatedAt: number;
}

/** Thrown by adapters when a unique value (slug, custom-field key) is taken. */
export class UniqueViolation extends Error {
  constructor(readonly what: string) {
    super(`${what} already exists`);
    this.name = 'UniqueViolation';
  }
}

export interface Storage extends PanelSessionStore {
  /** Applies pending migrations; safe to call on every start and from several processes at once. */
  migrate(): Promise<void>;
  /** Resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;

  getSetting(key: string): Promise<string | null>;
  /** Stores `value` unless `key` has one; returns the value that is stored (first writer wins). */
  putSettingIfAbsent(key: string, value: string): Promise<string>;

  /** @throws UniqueViolation('workspace') when the slug is taken */
  createWorkspace(workspace: WorkspaceRecord): Promise<void>;
  getWorkspaceBySlug(slug: string): Promise<WorkspaceRecord | null>;
  getWorkspaceById(id: string): Promise<WorkspaceRecord | null>;
  updateWorkspace(id: string, patch: WorkspacePatch, at: number): Promise<WorkspaceRecord | null>;
  /** Removes a workspace and everything it owns. */
  deleteWorkspace(id: string): Promise<void>;

  createApiKey(key: ApiKeyRecord): Promise<void>;
  /** The live (not revoked) key with this hash. */
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;

  createService(service: ServiceRecord): Promise<void>;
  getService(workspaceId: string, id: string): Promise<ServiceRecord | null>;
  /** Ordered by `order`, then `name`. */
  listServices(workspaceId: string, options: { activeOnly: boolean }): Promise<ServiceRecord[]>;
  updateService(workspaceId: string, id: string, patch: ServicePatch): Promise<ServiceRecord | null>;

  createProvider(provider: ProviderRecord): Promise<void>;
  getProvider(workspaceId: string, id: string): Promise<ProviderRecord | null>;
  /** Ordered by name. */
  listProviders(workspaceId: string): Promise<ProviderRecord[]>;
  updateProvider(workspaceId: string, id: string, patch: ProviderPatch): Promise<ProviderRecord | null>;

  /** @throws UniqueViolation('custom field') when the key is taken in the workspace */
  createCustomField(field: CustomFieldRecord): Promise<void>;
  /** Ordered by `order`, then key. */
  listCustomFields(workspaceId: string): Promise<CustomFieldRecord[]>;
  updateCustomField(workspaceId: string, id: string, patch: CustomFieldPatch): Promise<CustomFieldRecord | null>;
  deleteCustomField(workspaceId: string, id: string): Promise<boolean>;

  getBooking(workspaceId: string, id: string): Promise<BookingRecord | null>;
  /** Ordered by startTime, then id. */
  listBookings(workspaceId: string, filter: BookingFilter): Promise<BookingRecord[]>;
  /** PENDING and CONFIRMED bookings of these providers overlapping [from, to). */
  listBusy(providerIds: string[], from: number, to: number): Promise<BusyInterval[]>;
  /**
   * Checks and reserves in one atomic step: for each candidate in order, with every other writer for that
   * provider excluded, reads its busy intervals, asks `fits`, and inserts (or, with `replacing`, moves) the
   * booking on the first provider that fits, writing `emit`'s events in the same transaction.
   * Guarantee: of N concurrent calls whose bookings cannot all fit, no more succeed than fit — for a
   * capacity-1 slot exactly one — across connections, processes and server instances.
   */
  reserveBooking(request: ReserveRequest): Promise<ReserveResult>;
  /**
   * Moves a booking's status if it is still in `from` (compare-and-set), writing the events in the same
   * transaction. Returns the updated booking, or null when the booking is missing or was in another status.
   */
  transitionBooking(workspaceId: string, id: string, transition: BookingTransition): Promise<BookingRecord | null>;
  /** PENDING bookings whose hold expired at `now` (holdExpiresAt <= now), oldest hold first. */
  listExpiredHolds(now: number, limit: number): Promise<BookingRecord[]>;
  /** CONFIRMED bookings that ended by `now` (endTime <= now), earliest end first. */
  listEndedConfirmed(now: number, limit: number): Promise<BookingRecord[]>;

  /** @throws UniqueViolation('payment') when the provider's reference is taken */
  createPayment(payment: PaymentRecord): Promise<void>;
  getPaymentByReference(provider: string, reference: string): Promise<PaymentRecord | null>;
  listPayments(bookingId: string): Promise<PaymentRecord[]>;
  /**
   * Sets the payment's status if it is still `from` (compare-and-set), and in the same transaction moves its
   * booking with `booking` when given. Returns null when the payment was not in `from` (a repeated event). The
   * payment is settled even when the booking's move does not apply (it is in another status): `booking` is null.
   */
  settlePayment(paymentId: string, from: PaymentStatus, to: Partial<Pick<PaymentRecord, 'status' | 'refundDue'>>, at: number,
    booking?: { workspaceId: string; transition: BookingTransition }): Promise<{ payment: PaymentRecord; booking: BookingRecord | null } | null>;

  createWebhook(webhook: WebhookRecord): Promise<void>;
  getWebhook(workspaceId: string, id: string): Promise<WebhookRecord | null>;
  /** Ordered by createdAt. */
  listWebhooks(workspaceId: string): Promise<WebhookRecord[]>;
  updateWebhook(workspaceId: string, id: string, patch: WebhookPatch, at: number): Promise<WebhookRecord | null>;
  /** Removes the webhook with its messages and attempts. */
  deleteWebhook(workspaceId: string, id: string): Promise<boolean>;
  /** Writes events outside of a booking change (webhook.test); with `onlyWebhookId`, to that webhook alone, whatever it subscribes to. */
  enqueueEvents(events: OutboxEvent[], onlyWebhookId?: string): Promise<WebhookMessageRecord[]>;
  /**
   * Claims up to `limit` pending messages due at `now` whose lease is free or lapsed, leasing them to `owner`
   * until `leaseUntil`. Guarantee: concurrent claimers (any process or instance) never receive the same
   * message while its lease runs.
   */
  claimDueMessages(owner: string, now: number, leaseUntil: number, limit: number): Promise<WebhookMessageRecord[]>;
  /**
   * Records an attempt and the message's new state, applies the webhook patch (its updatedAt = attemptedAt)
   * and releases the lease, in one transaction. Ignored (false) unless `owner` holds the lease.
   */
  recordAttempt(owner: string, messageId: string, outcome: AttemptOutcome): Promise<boolean>;
  /** Earliest nextAttemptAt of pending messages, for the scheduler's sleep. */
  nextDueAt(): Promise<number | null>;
  getMessage(id: string): Promise<WebhookMessageRecord | null>;
  /** Newest first. */
  listAttempts(webhookId: string, limit: number): Promise<DeliveryAttemptRecord[]>;

  createPairingCode(code: PairingCodeRecord): Promise<void>;
  /** Marks the code used and returns it when it exists, is unused and unexpired (expiresAt > now); exactly one concurrent caller wins. */
  consumePairingCode(codeHash: string, now: number): Promise<PairingCodeRecord | null>;
  /** Stores the credential, replacing any earlier one for the same workspace and origin. */
  putHostCredential(credential: HostCredentialRecord): Promise<void>;
  findHostCredential(credentialHash: string): Promise<HostCredentialRecord | null>;
  createPanelCode(code: PanelCodeRecord): Promise<void>;
  /** As consumePairingCode, for panel codes. */
  consumePanelCode(codeHash: string, now: number): Promise<PanelCodeRecord | null>;
  /** Deletes pairing and panel codes that expired by `now` (expiresAt <= now); returns how many. */
  purgeExpiredCodes(now: number): Promise<number>;
}
