/**
 * What a committed write changed, as a storage announces it to the listeners of this process (the catalogue
 * read cache, the availability cache, the outbox's wake-up). A closed list: a listener decides about every
 * kind, and an adapter declares for every write which of them it causes. On Postgres the changes of the other
 * instances are announced too, as they hear of them (adapters/storage/postgres/change-channel.ts); writes the
 * storage does not hear of (a remote libSQL server's other clients, the CLI beside a server) show within the
 * caches' time to live.
 */
export type StorageChange =
  /** a workspace was created, changed (settings, working hours, domains) or deleted with everything it owns */
  | { kind: 'workspace'; workspaceId: string }
  /** an API key of the workspace was created or revoked */
  | { kind: 'api-keys'; workspaceId: string }
  /** a service of the workspace was created or changed (its provider links included) */
  | { kind: 'services'; workspaceId: string }
  /** a provider of the workspace was created or changed (hours and service links included) */
  | { kind: 'providers'; workspaceId: string }
  /** a custom field of the workspace was created, changed or deleted */
  | { kind: 'custom-fields'; workspaceId: string }
  /** a booking of the workspace may have been added, moved or changed status */
  | { kind: 'bookings'; workspaceId: string }
  /** a provider's calendar connections, the calendars that block, or the busy times read from them changed */
  | { kind: 'calendars'; workspaceId: string; providerId: string }
  /** webhook messages or mails may have been written to the outbox (every booking change says so) and wait to be sent */
  | { kind: 'outbox' }
  /**
   * changes made elsewhere may have gone unheard (the channel that relays other instances' changes closed or
   * opened again): anything of any workspace may have changed
   */
  | { kind: 'missed' };

export type StorageChangeKind = StorageChange['kind'];

/** Called with each change; it must not throw (a listener that does is skipped: the write stays committed). */
export type StorageChangeListener = (change: StorageChange) => void;

export interface StorageChanges {
  /**
   * Calls `listener` with every change a write through this storage object made, once the write has committed
   * and before its promise resolves to the caller. A write that fails announces nothing. Returns a function
   * that removes the listener.
   */
  onChange(listener: StorageChangeListener): () => void;
  /**
   * Whether, right now, every committed write of a booking (or of a seat a waiting list holds) by any process is
   * announced to onChange: a libSQL file (one server writes its bookings; docs/decisions/0012), Postgres while
   * its change channel listens. A cache of bookings may then keep them until told, instead of for a moment.
   */
  hearsEveryBookingWrite(): boolean;
}
