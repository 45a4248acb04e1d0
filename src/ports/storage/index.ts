import type { BookingStore } from './booking-store.ts';
import type { CalendarStore } from './calendar-store.ts';
import type { CalendarWriteStore } from './calendar-write-store.ts';
import type { CatalogueStore } from './catalogue-store.ts';
import type { StorageChanges } from './changes.ts';
import type { MailStore } from './mail-store.ts';
import type { OperationsStore } from './operations-store.ts';
import type { OutboxStore } from './outbox-store.ts';
import type { PanelStore } from './panel-store.ts';
import type { PanelSessionStore } from './panel-session-store.ts';
import type { PaymentStore } from './payment-store.ts';
import type { SettingsStore } from './settings-store.ts';
import type { WaitlistStore } from './waitlist-store.ts';
import type { WorkspaceStore } from './workspace-store.ts';

/*
 * The storage port: everything svc keeps, as one interface composed of one port per aggregate. A feature
 * depends on the narrowest of them it uses (`Pick<AppDeps, 'storage'>` narrowed to `{ storage: BookingStore }`);
 * the server and the tests hand every feature the same whole Storage. Adapters live in
 * adapters/storage/<backend>/ and pass the shared contract suite (tests/storage/contract/) unchanged.
 * Instants are epoch milliseconds (UTC); money is integer minor units of `currency`. Records are plain values:
 * no adapter type leaks out. Every write announces what it changed (StorageChanges, ./changes.ts) once it has
 * committed: caches and the outbox's wake-up subscribe instead of each knowing which writes matter to them.
 */

export * from './booking-store.ts';
export * from './calendar-store.ts';
export * from './calendar-write-store.ts';
export * from './catalogue-store.ts';
export * from './changes.ts';
export * from './mail-entry.ts';
export * from './mail-store.ts';
export * from './operations-store.ts';
export * from './outbox-store.ts';
export * from './panel-store.ts';
export * from './panel-session-store.ts';
export * from './payment-store.ts';
export * from './settings-store.ts';
export * from './waitlist-store.ts';
export * from './workspace-store.ts';

/** Thrown by adapters when a unique value (slug, custom-field key, payment reference) is taken. */
export class UniqueViolation extends Error {
  constructor(readonly what: string) {
    super(`${what} already exists`);
    this.name = 'UniqueViolation';
  }
}

export interface Storage
  extends SettingsStore,
    WorkspaceStore,
    CatalogueStore,
    BookingStore,
    WaitlistStore,
    PaymentStore,
    OutboxStore,
    MailStore,
    PanelStore,
    PanelSessionStore,
    CalendarStore,
    OperationsStore,
    CalendarWriteStore,
    StorageChanges {}
