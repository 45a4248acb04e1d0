import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { defineSchema } from '../sql/schema.ts';

// svc's tables on SQLite: the description in adapters/storage/sql/schema.ts, made with sqlite-core's builders.
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
  table: sqliteTable,
  text: (name) => text(name),
  integer: (name) => integer(name),
  epoch: (name) => integer(name),
  boolean: (name) => integer(name, { mode: 'boolean' }),
  json: (name) => text(name, { mode: 'json' }),
  index,
  uniqueIndex,
  primaryKey,
});
