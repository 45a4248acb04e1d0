import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// Instants are epoch milliseconds; money is integer minor units. The Postgres schema mirrors this one
// column for column, so both adapters share one query layer (adapters/storage/sql).
const bool = (name: string) => integer(name, { mode: 'boolean' });
const json = <T>(name: string) => text(name, { mode: 'json' }).$type<T>();

export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const workspaces = sqliteTable('workspaces', {
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
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    hash: text('hash').notNull().unique(),
    createdAt: integer('created_at').notNull(),
    revokedAt: integer('revoked_at'),
    lastUsedAt: integer('last_used_at'),
  },
  (table) => [index('api_keys_workspace_idx').on(table.workspaceId)],
);

export const services = sqliteTable(
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
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [index('services_workspace_idx').on(table.workspaceId, table.order)],
);

export const providers = sqliteTable(
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
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [index('providers_workspace_idx').on(table.workspaceId)],
);

export const serviceProviders = sqliteTable(
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

export const customFields = sqliteTable(
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
    createdAt: integer('created_at').notNull(),
  },
  (table) => [uniqueIndex('custom_fields_key_idx').on(table.workspaceId, table.key)],
);

export const bookings = sqliteTable(
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
    startTime: integer('start_time').notNull(),
    endTime: integer('end_time').notNull(),
    bufferTime: integer('buffer_time').notNull(),
    customerName: text('customer_name'),
    customerEmail: text('customer_email').notNull(),
    phone: text('phone'),
    notes: text('notes'),
    customFields: json<Record<string, unknown>>('custom_fields').notNull(),
    amountMinor: integer('amount_minor'),
    currency: text('currency'),
    cancelReason: text('cancel_reason'),
    holdExpiresAt: integer('hold_expires_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
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

export const payments = sqliteTable(
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
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [uniqueIndex('payments_reference_idx').on(table.provider, table.reference), index('payments_booking_idx').on(table.bookingId)],
);

export const webhooks = sqliteTable(
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
    failingSince: integer('failing_since'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [index('webhooks_workspace_idx').on(table.workspaceId)],
);

export const webhookMessages = sqliteTable(
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
    nextAttemptAt: integer('next_attempt_at'),
    leaseUntil: integer('lease_until'),
    leaseOwner: text('lease_owner'),
    createdAt: integer('created_at').notNull(),
    deliveredAt: integer('delivered_at'),
  },
  (table) => [index('webhook_messages_due_idx').on(table.status, table.nextAttemptAt), index('webhook_messages_webhook_idx').on(table.webhookId)],
);

export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    attemptedAt: integer('attempted_at').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    nextRetryAt: integer('next_retry_at'),
  },
  (table) => [index('webhook_attempts_webhook_idx').on(table.webhookId, table.attemptedAt)],
);

export const pairingCodes = sqliteTable('pairing_codes', {
  id: text('id').primaryKey(),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull().unique(),
  expiresAt: integer('expires_at').notNull(),
  usedAt: integer('used_at'),
  createdAt: integer('created_at').notNull(),
});

export const hostCredentials = sqliteTable(
  'host_credentials',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    credentialHash: text('credential_hash').notNull().unique(),
    platform: text('platform').notNull().default('hostplatform'),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
  },
  (table) => [uniqueIndex('host_credentials_origin_idx').on(table.workspaceId, table.origin)],
);

export const panelCodes = sqliteTable('panel_codes', {
  id: text('id').primaryKey(),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull().unique(),
  origin: text('origin').notNull(),
  subject: text('subject').notNull(),
  capabilities: json<string[]>('capabilities').notNull(),
  expiresAt: integer('expires_at').notNull(),
  usedAt: integer('used_at'),
  createdAt: integer('created_at').notNull(),
});

export const panelSessions = sqliteTable(
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
    signedInAt: integer('signed_in_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (table) => [index('panel_sessions_workspace_idx').on(table.workspaceId, table.origin), index('panel_sessions_expiry_idx').on(table.expiresAt)],
);

export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: integer('window_start').notNull(),
  count: integer('count').notNull(),
});

/**
 * The customer's mails (decisions section 14), written with the booking change that causes them and sent by
 * the mail loop. One row per (booking, kind, revision): the unique index makes a second write of the same mail
 * a no-op, whichever instance or retry makes it.
 */
export const mailMessages = sqliteTable(
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
    nextAttemptAt: integer('next_attempt_at'),
    leaseUntil: integer('lease_until'),
    leaseOwner: text('lease_owner'),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    sentAt: integer('sent_at'),
  },
  (table) => [
    uniqueIndex('mail_messages_once_idx').on(table.bookingId, table.kind, table.revision),
    index('mail_messages_due_idx').on(table.status, table.nextAttemptAt),
  ],
);

/** A provider's calendar feed: whoever has the token reads the feed, so only its hash is kept. */
export const calendarFeeds = sqliteTable('calendar_feeds', {
  providerId: text('provider_id')
    .primaryKey()
    .references(() => providers.id, { onDelete: 'cascade' }),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: integer('created_at').notNull(),
});

/**
 * A provider's other calendars (docs/contract/calendars.md): a CalDAV account or an iCalendar URL, the
 * calendars found behind it with the owner's choices (JSON), and its credentials sealed under SVC_SECRET.
 */
export const calendarConnections = sqliteTable(
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
    lastSyncedAt: integer('last_synced_at'),
    lastError: text('last_error'),
    failures: integer('failures').notNull(),
    calendars: json<unknown>('calendars').notNull(),
    syncState: json<unknown>('sync_state').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [index('calendar_connections_provider_idx').on(table.providerId)],
);

/** The busy times a sync read; `blocks` mirrors the calendar's choice so that a PATCH of it acts at once. */
export const calendarBusyTimes = sqliteTable(
  'calendar_busy_times',
  {
    connectionId: text('connection_id')
      .notNull()
      .references(() => calendarConnections.id, { onDelete: 'cascade' }),
    providerId: text('provider_id').notNull(),
    calendarId: text('calendar_id').notNull(),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    uid: text('uid').notNull(),
    blocks: bool('blocks').notNull(),
  },
  (table) => [
    index('calendar_busy_times_provider_idx').on(table.providerId, table.start),
    index('calendar_busy_times_connection_idx').on(table.connectionId, table.calendarId),
  ],
);
