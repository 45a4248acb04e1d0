import type { $Type, BuildColumns, ColumnBuilderBase, HasDefault, IsPrimaryKey, NotNull } from 'drizzle-orm';
import type {
  PgBigInt53BuilderInitial,
  PgBooleanBuilderInitial,
  PgIntegerBuilderInitial,
  PgJsonbBuilderInitial,
  PgTableWithColumns,
  PgTextBuilderInitial,
  index as pgIndex,
  pgTable,
  primaryKey as pgPrimaryKey,
  uniqueIndex as pgUniqueIndex,
} from 'drizzle-orm/pg-core';
import type {
  SQLiteBooleanBuilderInitial,
  SQLiteIntegerBuilderInitial,
  SQLiteTableWithColumns,
  SQLiteTextBuilderInitial,
  SQLiteTextJsonBuilderInitial,
  index as sqliteIndex,
  primaryKey as sqlitePrimaryKey,
  sqliteTable,
  uniqueIndex as sqliteUniqueIndex,
} from 'drizzle-orm/sqlite-core';

/*
 * The one description of svc's tables, for both databases. `defineSchema` runs it with a dialect's drizzle
 * builders (adapters/storage/libsql/schema.ts passes sqlite-core's, adapters/storage/postgres/schema.ts pg-core's),
 * so each schema.ts holds real drizzle tables that drizzle-kit reads for its migrations, and the two cannot
 * drift apart. Instants are epoch milliseconds (`epoch`: integer on SQLite, bigint on Postgres); money is integer
 * minor units; `boolean` is integer 0/1 on SQLite; `json` is JSON text on SQLite and jsonb on Postgres.
 *
 * While it runs, the description sees the builders through the small types below (the same chain as drizzle's:
 * notNull, primaryKey, unique, default, references, $type), which record what the chain set; `Schema<D>` turns
 * that record into the drizzle table types the dialect's builders make (db:check proves the runtime side: the
 * tables made produce exactly the committed migrations).
 */

type Kind = 'text' | 'integer' | 'epoch' | 'boolean' | 'json';

interface Shape {
  name: string;
  kind: Kind;
  data: unknown;
  typed: boolean;
  notNull: boolean;
  hasDefault: boolean;
  primaryKey: boolean;
}

type With<S extends Shape, Change extends Partial<Shape>> = { [P in keyof S]: P extends keyof Change ? Change[P] : S[P] };

type Initial<N extends string, K extends Kind, T> = { name: N; kind: K; data: T; typed: false; notNull: false; hasDefault: false; primaryKey: false };

declare const shape: unique symbol;
declare const tableShape: unique symbol;
declare const columnOf: unique symbol;
declare const constraint: unique symbol;

/** A column as the description builds it. */
interface Column<S extends Shape> {
  readonly [shape]: S;
  notNull(): Column<With<S, { notNull: true }>>;
  primaryKey(): Column<With<S, { notNull: true; primaryKey: true }>>;
  unique(): Column<S>;
  default(value: S['data']): Column<With<S, { hasDefault: true }>>;
  references(ref: () => TableColumn, actions?: { onDelete?: 'cascade' }): Column<S>;
  $type<T>(): Column<With<S, { data: T; typed: true }>>;
}

/** A column of a described table, as references and indexes name it. */
interface TableColumn {
  readonly [columnOf]: true;
}

/** An index, unique index or composite primary key of a table. */
interface Constraint {
  readonly [constraint]: true;
}

type Columns = Record<string, Column<Shape>>;

type Table<N extends string, C extends Columns> = { readonly [tableShape]: { name: N; columns: C } } & { readonly [K in keyof C]: TableColumn };

interface IndexOn {
  on(...columns: [TableColumn, ...TableColumn[]]): Constraint;
}

interface Builders {
  table<N extends string, C extends Columns>(name: N, columns: C, constraints?: (table: { [K in keyof C]: TableColumn }) => Constraint[]): Table<N, C>;
  text<N extends string>(name: N): Column<Initial<N, 'text', string>>;
  integer<N extends string>(name: N): Column<Initial<N, 'integer', number>>;
  epoch<N extends string>(name: N): Column<Initial<N, 'epoch', number>>;
  boolean<N extends string>(name: N): Column<Initial<N, 'boolean', boolean>>;
  json<N extends string>(name: N): Column<Initial<N, 'json', unknown>>;
  index(name: string): IndexOn;
  uniqueIndex(name: string): IndexOn;
  primaryKey(config: { columns: [TableColumn, ...TableColumn[]] }): Constraint;
}

function describe({ table, text, integer, epoch, boolean, json, index, uniqueIndex, primaryKey }: Builders) {
  const settings = table('settings', {
    key: text('key').primaryKey(),
    value: text('value').notNull(),
  });

  const workspaces = table('workspaces', {
    id: text('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    primaryColor: text('primary_color'),
    logoUrl: text('logo_url'),
    notificationEmail: text('notification_email'),
    plan: text('plan').notNull(),
    industry: text('industry').notNull(),
    timezone: text('timezone').notNull(),
    language: text('language').notNull(),
    locale: text('locale'),
    contactEmail: text('contact_email'),
    contactPhone: text('contact_phone'),
    timeFormat: text('time_format').notNull(),
    cancellationHours: integer('cancellation_hours').notNull(),
    requiresConfirmation: boolean('requires_confirmation').notNull(),
    /** a customer's own cancel through the manage link, in time, refunds what was paid */
    refundOnCancel: boolean('refund_on_cancel').notNull().default(false),
    weekly: json('weekly').$type<unknown>().notNull(),
    exceptions: json('exceptions').$type<unknown>().notNull(),
    domains: json('domains').$type<string[]>().notNull(),
    createdAt: epoch('created_at').notNull(),
    updatedAt: epoch('updated_at').notNull(),
  });

  const apiKeys = table(
    'api_keys',
    {
      id: text('id').primaryKey(),
      workspaceId: text('workspace_id')
        .notNull()
        .references(() => workspaces.id, { onDelete: 'cascade' }),
      name: text('name').notNull(),
      prefix: text('prefix').notNull(),
      hash: text('hash').notNull().unique(),
      createdAt: epoch('created_at').notNull(),
      revokedAt: epoch('revoked_at'),
      lastUsedAt: epoch('last_used_at'),
    },
    (table) => [index('api_keys_workspace_idx').on(table.workspaceId)],
  );

  const services = table(
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
      active: boolean('active').notNull(),
      category: text('category'),
      capacity: integer('capacity').notNull(),
      bufferTime: integer('buffer_time').notNull(),
      minNotice: integer('min_notice').notNull(),
      maxAdvance: integer('max_advance'),
      depositMinor: integer('deposit_minor'),
      order: integer('sort_order').notNull(),
      slotInterval: integer('slot_interval'),
      /** full times are shown, and a customer may join a waiting list for them (docs/contract/classes.md) */
      waitlist: boolean('waitlist').notNull().default(false),
      /** the widget offers to repeat a booking of it weekly (a series can be booked through the API for any service) */
      repeatable: boolean('repeatable').notNull().default(false),
      createdAt: epoch('created_at').notNull(),
      updatedAt: epoch('updated_at').notNull(),
    },
    (table) => [index('services_workspace_idx').on(table.workspaceId, table.order)],
  );

  const providers = table(
    'providers',
    {
      id: text('id').primaryKey(),
      workspaceId: text('workspace_id')
        .notNull()
        .references(() => workspaces.id, { onDelete: 'cascade' }),
      name: text('name').notNull(),
      email: text('email'),
      active: boolean('active').notNull(),
      weekly: json('weekly').$type<unknown>(),
      exceptions: json('exceptions').$type<unknown>(),
      createdAt: epoch('created_at').notNull(),
      updatedAt: epoch('updated_at').notNull(),
    },
    (table) => [index('providers_workspace_idx').on(table.workspaceId)],
  );

  const serviceProviders = table(
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

  const customFields = table(
    'custom_fields',
    {
      id: text('id').primaryKey(),
      workspaceId: text('workspace_id')
        .notNull()
        .references(() => workspaces.id, { onDelete: 'cascade' }),
      key: text('key').notNull(),
      label: text('label').notNull(),
      type: text('type').notNull(),
      required: boolean('required').notNull(),
      options: json('options').$type<string[]>(),
      placeholder: text('placeholder'),
      order: integer('sort_order').notNull(),
      serviceIds: json('service_ids').$type<string[]>().notNull(),
      createdAt: epoch('created_at').notNull(),
    },
    (table) => [uniqueIndex('custom_fields_key_idx').on(table.workspaceId, table.key)],
  );

  const bookings = table(
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
      startTime: epoch('start_time').notNull(),
      endTime: epoch('end_time').notNull(),
      bufferTime: integer('buffer_time').notNull(),
      customerName: text('customer_name'),
      customerEmail: text('customer_email').notNull(),
      phone: text('phone'),
      notes: text('notes'),
      customFields: json('custom_fields').$type<Record<string, unknown>>().notNull(),
      amountMinor: integer('amount_minor'),
      currency: text('currency'),
      /** the service price when booked (null for bookings made before it was kept): the payment's `total` */
      priceMinor: integer('price_minor'),
      /** what payments took for it, minor units; raised in the transaction that settles a payment as paid */
      paidMinor: integer('paid_minor').notNull().default(0),
      /** what refunds gave back (pending or succeeded), minor units; never above paidMinor */
      refundedMinor: integer('refunded_minor').notNull().default(0),
      cancelReason: text('cancel_reason'),
      holdExpiresAt: epoch('hold_expires_at'),
      createdAt: epoch('created_at').notNull(),
      updatedAt: epoch('updated_at').notNull(),
      /** rises by one with every change of time or status (the calendar invite's SEQUENCE) */
      revision: integer('revision').notNull().default(0),
      /** hex SHA-256 of the manage-link token */
      manageTokenHash: text('manage_token_hash'),
      /** the manage-link token sealed with SVC_SECRET, for the mails sent later (the reminder) */
      manageTokenSealed: text('manage_token_sealed'),
      /** the weekly series (ser_…) the booking is an occurrence of; null for a booking on its own */
      seriesId: text('series_id'),
    },
    (table) => [
      index('bookings_series_idx').on(table.seriesId, table.startTime),
      // fair assignment reads each provider's most recent booking
      index('bookings_provider_created_idx').on(table.providerId, table.createdAt),
      index('bookings_provider_time_idx').on(table.providerId, table.startTime, table.id),
      index('bookings_workspace_time_idx').on(table.workspaceId, table.startTime, table.id),
      index('bookings_status_idx').on(table.status, table.endTime),
      uniqueIndex('bookings_manage_token_idx').on(table.manageTokenHash),
      index('bookings_status_start_idx').on(table.status, table.startTime),
      // Availability and the reservation read the busy bookings of a few providers over a window (listBusy) from
      // this index alone: provider and status narrow it to a range of start times, and it holds every column the
      // read returns, so no booking row is visited (docs/decisions/0026-busy-read-from-one-covering-index.md).
      index('bookings_busy_idx').on(table.providerId, table.status, table.startTime, table.endTime, table.bufferTime, table.serviceId, table.id),
    ],
  );

  /**
   * A class's waiting list (docs/contract/classes.md): who waits for a full time, in order of arrival. An OFFERED
   * entry holds a seat on `held_provider_id` until `offer_expires_at`: availability and the reservation count it
   * as taken, like a booking. Its link token is kept hashed, and sealed for the offer mail.
   */
  const waitlistEntries = table(
    'waitlist_entries',
    {
      id: text('id').primaryKey(),
      workspaceId: text('workspace_id')
        .notNull()
        .references(() => workspaces.id, { onDelete: 'cascade' }),
      serviceId: text('service_id')
        .notNull()
        .references(() => services.id, { onDelete: 'cascade' }),
      /** the provider asked for; null: any provider of the service */
      providerId: text('provider_id').references(() => providers.id, { onDelete: 'cascade' }),
      status: text('status').notNull(),
      startTime: epoch('start_time').notNull(),
      endTime: epoch('end_time').notNull(),
      bufferTime: integer('buffer_time').notNull(),
      customerEmail: text('customer_email').notNull(),
      customerName: text('customer_name'),
      phone: text('phone'),
      /** the provider whose seat an offer holds */
      heldProviderId: text('held_provider_id'),
      offerExpiresAt: epoch('offer_expires_at'),
      offerTokenHash: text('offer_token_hash'),
      offerTokenSealed: text('offer_token_sealed'),
      /** the offer mail is due from this instant; null once sent (or without mail) */
      mailDueAt: epoch('mail_due_at'),
      bookingId: text('booking_id'),
      createdAt: epoch('created_at').notNull(),
      updatedAt: epoch('updated_at').notNull(),
    },
    (table) => [
      index('waitlist_queue_idx').on(table.serviceId, table.startTime, table.status, table.createdAt),
      index('waitlist_held_idx').on(table.heldProviderId, table.status, table.startTime),
      index('waitlist_status_idx').on(table.status, table.offerExpiresAt),
      index('waitlist_workspace_idx').on(table.workspaceId, table.startTime),
      uniqueIndex('waitlist_token_idx').on(table.offerTokenHash),
    ],
  );

  const payments = table(
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
      refundDue: boolean('refund_due').notNull(),
      /** the provider's page where the customer pays (the awaiting-payment mail links it) */
      checkoutUrlSealed: text('checkout_url'),
      createdAt: epoch('created_at').notNull(),
      updatedAt: epoch('updated_at').notNull(),
    },
    (table) => [uniqueIndex('payments_reference_idx').on(table.provider, table.reference), index('payments_booking_idx').on(table.bookingId)],
  );

  const refunds = table(
    'refunds',
    {
      id: text('id').primaryKey(),
      workspaceId: text('workspace_id')
        .notNull()
        .references(() => workspaces.id, { onDelete: 'cascade' }),
      bookingId: text('booking_id')
        .notNull()
        .references(() => bookings.id, { onDelete: 'cascade' }),
      paymentId: text('payment_id')
        .notNull()
        .references(() => payments.id, { onDelete: 'cascade' }),
      provider: text('provider').notNull(),
      /** the provider's id of the refund (Stripe re_…, Mollie re_…); null until the provider answered */
      reference: text('reference'),
      amountMinor: integer('amount_minor').notNull(),
      currency: text('currency').notNull(),
      /** pending (asked, not yet confirmed by the provider), succeeded, failed */
      status: text('status').notNull(),
      createdAt: epoch('created_at').notNull(),
      updatedAt: epoch('updated_at').notNull(),
    },
    (table) => [index('refunds_booking_idx').on(table.bookingId)],
  );

  const webhooks = table(
    'webhooks',
    {
      id: text('id').primaryKey(),
      workspaceId: text('workspace_id')
        .notNull()
        .references(() => workspaces.id, { onDelete: 'cascade' }),
      name: text('name'),
      url: text('url').notNull(),
      secret: text('secret').notNull(),
      events: json('events').$type<string[]>().notNull(),
      isActive: boolean('is_active').notNull(),
      failingSince: epoch('failing_since'),
      createdAt: epoch('created_at').notNull(),
      updatedAt: epoch('updated_at').notNull(),
    },
    (table) => [index('webhooks_workspace_idx').on(table.workspaceId)],
  );

  const webhookMessages = table(
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
      nextAttemptAt: epoch('next_attempt_at'),
      leaseUntil: epoch('lease_until'),
      leaseOwner: text('lease_owner'),
      createdAt: epoch('created_at').notNull(),
      deliveredAt: epoch('delivered_at'),
    },
    (table) => [index('webhook_messages_due_idx').on(table.status, table.nextAttemptAt), index('webhook_messages_webhook_idx').on(table.webhookId)],
  );

  const webhookAttempts = table(
    'webhook_attempts',
    {
      id: text('id').primaryKey(),
      messageId: text('message_id')
        .notNull()
        .references(() => webhookMessages.id, { onDelete: 'cascade' }),
      webhookId: text('webhook_id')
        .notNull()
        .references(() => webhooks.id, { onDelete: 'cascade' }),
      attemptedAt: epoch('attempted_at').notNull(),
      statusCode: integer('status_code'),
      error: text('error'),
      durationMs: integer('duration_ms').notNull(),
      nextRetryAt: epoch('next_retry_at'),
    },
    (table) => [index('webhook_attempts_webhook_idx').on(table.webhookId, table.attemptedAt)],
  );

  const pairingCodes = table('pairing_codes', {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull().unique(),
    expiresAt: epoch('expires_at').notNull(),
    usedAt: epoch('used_at'),
    createdAt: epoch('created_at').notNull(),
  });

  const hostCredentials = table(
    'host_credentials',
    {
      id: text('id').primaryKey(),
      workspaceId: text('workspace_id')
        .notNull()
        .references(() => workspaces.id, { onDelete: 'cascade' }),
      origin: text('origin').notNull(),
      credentialHash: text('credential_hash').notNull().unique(),
      platform: text('platform').notNull().default('hostplatform'),
      createdAt: epoch('created_at').notNull(),
      lastUsedAt: epoch('last_used_at'),
    },
    (table) => [uniqueIndex('host_credentials_origin_idx').on(table.workspaceId, table.origin)],
  );

  const panelCodes = table('panel_codes', {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull().unique(),
    origin: text('origin').notNull(),
    subject: text('subject').notNull(),
    capabilities: json('capabilities').$type<string[]>().notNull(),
    expiresAt: epoch('expires_at').notNull(),
    usedAt: epoch('used_at'),
    createdAt: epoch('created_at').notNull(),
  });

  const panelSessions = table(
    'panel_sessions',
    {
      id: text('id').primaryKey(),
      workspaceId: text('workspace_id')
        .notNull()
        .references(() => workspaces.id, { onDelete: 'cascade' }),
      tokenHash: text('token_hash').notNull().unique(),
      subject: text('subject').notNull(),
      capabilities: json('capabilities').$type<string[]>().notNull(),
      origin: text('origin'),
      signedInAt: epoch('signed_in_at').notNull(),
      expiresAt: epoch('expires_at').notNull(),
      createdAt: epoch('created_at').notNull(),
    },
    (table) => [index('panel_sessions_workspace_idx').on(table.workspaceId, table.origin), index('panel_sessions_expiry_idx').on(table.expiresAt)],
  );

  const rateLimits = table('rate_limits', {
    key: text('key').primaryKey(),
    windowStart: epoch('window_start').notNull(),
    count: integer('count').notNull(),
  });

  /**
   * The customer's mails, written with the booking change that causes them and sent by the mail loop. One row
   * per (booking, kind, revision): the unique index makes a second write of the same mail a no-op, whichever
   * instance or retry makes it.
   */
  const mailMessages = table(
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
      nextAttemptAt: epoch('next_attempt_at'),
      leaseUntil: epoch('lease_until'),
      leaseOwner: text('lease_owner'),
      lastError: text('last_error'),
      createdAt: epoch('created_at').notNull(),
      sentAt: epoch('sent_at'),
    },
    (table) => [
      uniqueIndex('mail_messages_once_idx').on(table.bookingId, table.kind, table.revision),
      index('mail_messages_due_idx').on(table.status, table.nextAttemptAt),
    ],
  );

  /** A provider's calendar feed: whoever has the token reads the feed, so only its hash is kept. */
  const calendarFeeds = table('calendar_feeds', {
    providerId: text('provider_id')
      .primaryKey()
      .references(() => providers.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: epoch('created_at').notNull(),
  });

  /**
   * A provider's other calendars (docs/contract/calendars.md): a CalDAV account or an iCalendar URL, the
   * calendars found behind it with the owner's choices (JSON), and its credentials sealed under SVC_SECRET.
   */
  const calendarConnections = table(
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
      lastSyncedAt: epoch('last_synced_at'),
      lastError: text('last_error'),
      failures: integer('failures').notNull(),
      calendars: json('calendars').$type<unknown>().notNull(),
      syncState: json('sync_state').$type<unknown>().notNull(),
      /** when the scheduler syncs it next (null: at once); moved forward when an instance claims it */
      syncDueAt: epoch('sync_due_at'),
      /** the instance syncing it and until when (a lapsed lease may be taken over) */
      syncLeaseOwner: text('sync_lease_owner'),
      syncLeaseUntil: epoch('sync_lease_until'),
      /** the owner's mail about its failure is still to be sent (set when it turns `error`) */
      failureNoticePending: boolean('failure_notice_pending').notNull().default(false),
      createdAt: epoch('created_at').notNull(),
      updatedAt: epoch('updated_at').notNull(),
    },
    (table) => [index('calendar_connections_provider_idx').on(table.providerId)],
  );

  /** The busy times a sync read; `blocks` mirrors the calendar's choice so that a PATCH of it acts at once. */
  const calendarBusyTimes = table(
    'calendar_busy_times',
    {
      connectionId: text('connection_id')
        .notNull()
        .references(() => calendarConnections.id, { onDelete: 'cascade' }),
      providerId: text('provider_id').notNull(),
      calendarId: text('calendar_id').notNull(),
      start: epoch('start').notNull(),
      end: epoch('end').notNull(),
      uid: text('uid').notNull(),
      blocks: boolean('blocks').notNull(),
    },
    (table) => [
      index('calendar_busy_times_provider_idx').on(table.providerId, table.start),
      index('calendar_busy_times_connection_idx').on(table.connectionId, table.calendarId),
    ],
  );

  /**
   * The calendar-write outbox: one row per booking whose event svc keeps in its provider's write calendar
   * (src/ports/storage/calendar-write-store.ts), written with the booking change that moves it.
   */
  const calendarWrites = table(
    'calendar_writes',
    {
      id: text('id').primaryKey(),
      workspaceId: text('workspace_id')
        .notNull()
        .references(() => workspaces.id, { onDelete: 'cascade' }),
      bookingId: text('booking_id')
        .notNull()
        .unique()
        .references(() => bookings.id, { onDelete: 'cascade' }),
      revision: integer('revision').notNull(),
      status: text('status').notNull(),
      attempts: integer('attempts').notNull(),
      nextAttemptAt: epoch('next_attempt_at'),
      leaseUntil: epoch('lease_until'),
      leaseOwner: text('lease_owner'),
      lastError: text('last_error'),
      /** where the event was last written (no foreign key: the connection may go, the row stays) */
      writtenConnectionId: text('written_connection_id'),
      writtenCalendarId: text('written_calendar_id'),
      createdAt: epoch('created_at').notNull(),
      updatedAt: epoch('updated_at').notNull(),
    },
    (table) => [index('calendar_writes_due_idx').on(table.status, table.nextAttemptAt)],
  );

  return {
    settings,
    workspaces,
    apiKeys,
    services,
    providers,
    serviceProviders,
    customFields,
    bookings,
    waitlistEntries,
    payments,
    refunds,
    webhooks,
    webhookMessages,
    webhookAttempts,
    pairingCodes,
    hostCredentials,
    panelCodes,
    panelSessions,
    rateLimits,
    mailMessages,
    calendarFeeds,
    calendarConnections,
    calendarBusyTimes,
    calendarWrites,
  };
}

// ---- From the description's types to the dialect's drizzle types ----

type DialectName = 'sqlite' | 'pg';

interface SqliteColumns<N extends string> {
  text: SQLiteTextBuilderInitial<N, [string, ...string[]], number | undefined>;
  integer: SQLiteIntegerBuilderInitial<N>;
  epoch: SQLiteIntegerBuilderInitial<N>;
  boolean: SQLiteBooleanBuilderInitial<N>;
  json: SQLiteTextJsonBuilderInitial<N>;
}

interface PgColumns<N extends string> {
  text: PgTextBuilderInitial<N, [string, ...string[]]>;
  integer: PgIntegerBuilderInitial<N>;
  epoch: PgBigInt53BuilderInitial<N>;
  boolean: PgBooleanBuilderInitial<N>;
  json: PgJsonbBuilderInitial<N>;
}

type DialectColumns<D extends DialectName, N extends string> = D extends 'sqlite' ? SqliteColumns<N> : PgColumns<N>;

type TypedIf<B extends ColumnBuilderBase, S extends Shape> = S['typed'] extends true ? $Type<B, S['data']> : B;
type NotNullIf<B extends ColumnBuilderBase, S extends Shape> = S['notNull'] extends true ? NotNull<B> : B;
type DefaultIf<B extends ColumnBuilderBase, S extends Shape> = S['hasDefault'] extends true ? HasDefault<B> : B;
type PrimaryKeyIf<B extends ColumnBuilderBase, S extends Shape> = S['primaryKey'] extends true ? IsPrimaryKey<B> : B;

/** The drizzle column builder type the dialect's builders make for a described column. */
type ColumnBuilder<D extends DialectName, S extends Shape> = PrimaryKeyIf<DefaultIf<NotNullIf<TypedIf<DialectColumns<D, S['name']>[S['kind']], S>, S>, S>, S>;

type ColumnBuilders<D extends DialectName, C extends Columns> = { [K in keyof C]: ColumnBuilder<D, C[K][typeof shape]> };

type DialectTable<D extends DialectName, T> = T extends { readonly [tableShape]: { name: infer N extends string; columns: infer C extends Columns } }
  ? D extends 'sqlite'
    ? SQLiteTableWithColumns<{ name: N; schema: undefined; columns: BuildColumns<N, ColumnBuilders<'sqlite', C>, 'sqlite'>; dialect: 'sqlite' }>
    : PgTableWithColumns<{ name: N; schema: undefined; columns: BuildColumns<N, ColumnBuilders<'pg', C>, 'pg'>; dialect: 'pg' }>
  : never;

type Description = ReturnType<typeof describe>;

/** svc's tables as drizzle tables of the dialect. */
export type Schema<D extends DialectName> = { [K in keyof Description]: DialectTable<D, Description[K]> };

/** What a dialect passes to defineSchema: its table function, its column builder for each kind, its index builders. */
type DialectBuilders<D extends DialectName> = { [K in Kind]: (name: string) => DialectColumns<D, string>[K] } & (D extends 'sqlite'
  ? { table: typeof sqliteTable; index: typeof sqliteIndex; uniqueIndex: typeof sqliteUniqueIndex; primaryKey: typeof sqlitePrimaryKey }
  : { table: typeof pgTable; index: typeof pgIndex; uniqueIndex: typeof pgUniqueIndex; primaryKey: typeof pgPrimaryKey });

/** svc's tables, made with a dialect's builders. */
export function defineSchema(builders: DialectBuilders<'sqlite'>): Schema<'sqlite'>;
export function defineSchema(builders: DialectBuilders<'pg'>): Schema<'pg'>;
export function defineSchema(builders: DialectBuilders<'sqlite'> | DialectBuilders<'pg'>): unknown {
  // The description's types stand in for the builders' own (see the note at the top).
  return describe(builders as unknown as Builders);
}
