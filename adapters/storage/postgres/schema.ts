import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { defineSchema } from '../sql/schema.ts';

// svc's tables on Postgres: the description in adapters/storage/sql/schema.ts, made with pg-core's builders.
export const {
  settings,
  workspaces,
  apiKeys,
  services,
  providers,
  serviceProviders,
  customFields,
  bookings,
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
} = defineSchema({
  table: pgTable,
  text: (name) => text(name),
  integer: (name) => integer(name),
  epoch: (name) => bigint(name, { mode: 'number' }),
  boolean: (name) => boolean(name),
  json: (name) => jsonb(name),
  index,
  uniqueIndex,
  primaryKey,
});
