import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';

// Mirrors adapters/storage/libsql/schema.ts column for column (see the note there); instants are bigint
// epoch milliseconds, JSON is jsonb.
const bool = (name: string) => boolean(name);
const json = <T>(name: string) => jsonb(name).$type<T>();

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const workspaces = pgTable('workspaces', {
  id: text('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  primaryColor: text('primary_color'),
  logoUrl: text('logo_url'),
  plan: text('plan').notNull(),
  industry: text('industry').notNull(),
  timezone: text('timezone').notNull(),
  language: text('language').notNull(),
  timeFormat: text('time_format').notNull(),
  cancellationHours: integer('cancellation_hours').notNull(),
  requiresConfirmation: bool('requires_confirmation').notNull(),
  weekly: json<unknown>('weekly').notNull(),
  exceptions: json<unknown>('exceptions').notNull(),
  domains: json<string[]>('domains').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    hash: text('hash').notNull().unique(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    revokedAt: bigint('revoked_at', { mode: 'number' }),
    lastUsedAt: bigint('last_used_at', { mode: 'number' }),
  },
  (table) => [index('api_keys_workspace_idx').on(table.workspaceId)],
);

export const services = pgTable(
  'services',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    duration: integer('duration').notNull(),
    priceMinor: integer('price_minor').notNull(),
    currency: text('currency').notNull(),
    active: bool('active').notNull(),
    category: text('category'),
    capacity: integer('capacity').notNull(),
    bufferTime: integer('buffer_time').notNull(),
    minNotice: integer('min_notice').notNull(),
    maxAdvance: integer('max_advance'),
    depositMinor: integer('deposit_minor'),
    order: integer('sort_order').notNull(),
    slotInterval: integer('slot_interval'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (table) => [index('services_workspace_idx').on(table.workspaceId, table.order)],
);

export const providers = pgTable(
  'providers',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email'),
    active: bool('active').notNull(),
    weekly: json<unknown>('weekly'),
    exceptions: json<unknown>('exceptions'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (table) => [index('providers_workspace_idx').on(table.workspaceId)],
);

export const serviceProviders = pgTable(
  'service_providers',
  {
    serviceId: text('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    providerId: text('provider_id')
      .notNull()
      .references(() => providers.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.serviceId, table.providerId] }), index('service_providers_provider_idx').on(table.providerId)],
);

export const customFields = pgTable(
  'custom_fields',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    label: text('label').notNull(),
    type: text('type').notNull(),
    required: bool('required').notNull(),
    options: json<string[]>('options'),
    placeholder: text('placeholder'),
    order: integer('sort_order').notNull(),
    serviceIds: json<string[]>('service_ids').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (table) => [uniqueIndex('custom_fields_key_idx').on(table.workspaceId, table.key)],
);

export const bookings = pgTable(
  'bookings',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    serviceId: text('service_id')
      .notNull()
      .references(() => services.id),
    providerId: text('provider_id')
      .notNull()
      .references(() => providers.id),
    status: text('status').notNull(),
    startTime: bigint('start_time', { mode: 'number' }).notNull(),
    endTime: bigint('end_time', { mode: 'number' }).notNull(),
    bufferTime: integer('buffer_time').notNull(),
    customerName: text('customer_name'),
    customerEmail: text('customer_email').notNull(),
    phone: text('phone'),
    notes: text('notes'),
    customFields: json<Record<string, unknown>>('custom_fields').notNull(),
    amountMinor: integer('amount_minor'),
    currency: text('currency'),
    cancelReason: text('cancel_reason'),
    holdExpiresAt: bigint('hold_expires_at', { mode: 'number' }),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
    /** rises by one with every change of time or status (the calendar invite's SEQUENCE) */
    revision: integer('revision').notNull().default(0),
    /** hex SHA-256 of the manage-link token */
    manageTokenHash: text('manage_token_hash'),
    /** the manage-link token sealed with SVC_SECRET, for the mails sent later (the reminder) */
    manageTokenSealed: text('manage_token_sealed'),
  },
  (table) => [
    index('bookings_provider_time_idx').on(table.providerId, table.startTime),
    index('bookings_workspace_time_idx').on(table.workspaceId, table.startTime, table.id),
    index('bookings_status_idx').on(table.status, table.endTime),
    uniqueIndex('bookings_manage_token_idx').on(table.manageTokenHash),
    index('bookings_status_start_idx').on(table.status, table.startTime),
  ],
);

export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    reference: text('reference').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    refundDue: bool('refund_due').notNull(),
    /** the provider's page where the customer pays (the awaiting-payment mail links it) */
    checkoutUrl: text('checkout_url'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (table) => [uniqueIndex('payments_reference_idx').on(table.provider, table.reference), index('payments_booking_idx').on(table.bookingId)],
);

export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name'),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    events: json<string[]>('events').notNull(),
    isActive: bool('is_active').notNull(),
    failingSince: bigint('failing_since', { mode: 'number' }),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (table) => [index('webhooks_workspace_idx').on(table.workspaceId)],
);

export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: text('payload').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull(),
    nextAttemptAt: bigint('next_attempt_at', { mode: 'number' }),
    leaseUntil: bigint('lease_until', { mode: 'number' }),
    leaseOwner: text('lease_owner'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    deliveredAt: bigint('delivered_at', { mode: 'number' }),
  },
  (table) => [index('webhook_messages_due_idx').on(table.status, table.nextAttemptAt), index('webhook_messages_webhook_idx').on(table.webhookId)],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    attemptedAt: bigint('attempted_at', { mode: 'number' }).notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    nextRetryAt: bigint('next_retry_at', { mode: 'number' }),
  },
  (table) => [index('webhook_attempts_webhook_idx').on(table.webhookId, table.attemptedAt)],
);

export const pairingCodes = pgTable('pairing_codes', {
  id: text('id').primaryKey(),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull().unique(),
  expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
  usedAt: bigint('used_at', { mode: 'number' }),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
});

export const hostCredentials = pgTable(
  'host_credentials',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    credentialHash: text('credential_hash').notNull().unique(),
    platform: text('platform').notNull().default('hostplatform'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    lastUsedAt: bigint('last_used_at', { mode: 'number' }),
  },
  (table) => [uniqueIndex('host_credentials_origin_idx').on(table.workspaceId, table.origin)],
);

export const panelCodes = pgTable('panel_codes', {
  id: text('id').primaryKey(),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull().unique(),
  origin: text('origin').notNull(),
  subject: text('subject').notNull(),
  capabilities: json<string[]>('capabilities').notNull(),
  expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
  usedAt: bigint('used_at', { mode: 'number' }),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
});

export const panelSessions = pgTable(
  'panel_sessions',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    subject: text('subject').notNull(),
    capabilities: json<string[]>('capabilities').notNull(),
    origin: text('origin'),
    signedInAt: bigint('signed_in_at', { mode: 'number' }).notNull(),
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (table) => [index('panel_sessions_workspace_idx').on(table.workspaceId, table.origin), index('panel_sessions_expiry_idx').on(table.expiresAt)],
);

export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: bigint('window_start', { mode: 'number' }).notNull(),
  count: integer('count').notNull(),
});

/**
 * The customer's mails (decisions section 14), written with the booking change that causes them and sent by
 * the mail loop. One row per (booking, kind, revision): the unique index makes a second write of the same mail
 * a no-op, whichever instance or retry makes it.
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    revision: integer('revision').notNull(),
    /** the booking's times and status as the mail describes them (JSON) */
    snapshot: text('snapshot').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull(),
    nextAttemptAt: bigint('next_attempt_at', { mode: 'number' }),
    leaseUntil: bigint('lease_until', { mode: 'number' }),
    leaseOwner: text('lease_owner'),
    lastError: text('last_error'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    sentAt: bigint('sent_at', { mode: 'number' }),
  },
  (table) => [
    uniqueIndex('mail_messages_once_idx').on(table.bookingId, table.kind, table.revision),
    index('mail_messages_due_idx').on(table.status, table.nextAttemptAt),
  ],
);

/** A provider's calendar feed: whoever has the token reads the feed, so only its hash is kept. */
export const calendarFeeds = pgTable('calendar_feeds', {
  providerId: text('provider_id')
    .primaryKey()
    .references(() => providers.id, { onDelete: 'cascade' }),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
});

/**
 * A provider's other calendars (docs/contract/calendars.md): a CalDAV account or an iCalendar URL, the
 * calendars found behind it with the owner's choices (JSON), and its credentials sealed under SVC_SECRET.
 */
export const calendarConnections = pgTable(
  'calendar_connections',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    providerId: text('provider_id')
      .notNull()
      .references(() => providers.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    url: text('url'),
    account: text('account'),
    username: text('username'),
    sealedSecret: text('sealed_secret'),
    status: text('status').notNull(),
    lastSyncedAt: bigint('last_synced_at', { mode: 'number' }),
    lastError: text('last_error'),
    failures: integer('failures').notNull(),
    calendars: json<unknown>('calendars').notNull(),
    syncState: json<unknown>('sync_state').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (table) => [index('calendar_connections_provider_idx').on(table.providerId)],
);

/** The busy times a sync read; `blocks` mirrors the calendar's choice so that a PATCH of it acts at once. */
export const calendarBusyTimes = pgTable(
  'calendar_busy_times',
  {
    connectionId: text('connection_id')
      .notNull()
      .references(() => calendarConnections.id, { onDelete: 'cascade' }),
    providerId: text('provider_id').notNull(),
    calendarId: text('calendar_id').notNull(),
    start: bigint('start', { mode: 'number' }).notNull(),
    end: bigint('end', { mode: 'number' }).notNull(),
    uid: text('uid').notNull(),
    blocks: bool('blocks').notNull(),
  },
  (table) => [
    index('calendar_busy_times_provider_idx').on(table.providerId, table.start),
    index('calendar_busy_times_connection_idx').on(table.connectionId, table.calendarId),
  ],
);
