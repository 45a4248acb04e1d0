import type { Storage, StorageChange, StorageChangeListener, StorageChanges } from '../../../src/ports/storage/index.ts';

/*
 * What every method of the Storage port announces once it has committed (src/ports/storage/changes.ts). The
 * record names every method, reads included, so a method added to the port does not compile until it says
 * here whether it reads or what it changes: no write can leave a cache stale by being forgotten.
 */

type Method = Exclude<keyof Storage, keyof StorageChanges>;

/** The changes a committed call made, from its arguments and its result. */
type Announcement<M extends Method> = (args: Parameters<Storage[M]>, result: Awaited<ReturnType<Storage[M]>>) => StorageChange[];

/** Reads change nothing. */
const read = 'read';
/** A write no listener in the process depends on (leases, attempts, sessions, codes, usage stamps). */
const none = (): StorageChange[] => [];

const booked = (workspaceId: string): StorageChange[] => [{ kind: 'bookings', workspaceId }, { kind: 'outbox' }];
const calendarsOf = (connection: { workspaceId: string; providerId: string }): StorageChange => ({
  kind: 'calendars',
  workspaceId: connection.workspaceId,
  providerId: connection.providerId,
});

const STORAGE_CHANGES: { [M in Method]: typeof read | Announcement<M> } = {
  // The database and server-wide settings.
  migrate: none,
  ping: read,
  close: none,
  getSetting: read,
  putSettingIfAbsent: none,
  deleteSetting: none,
  analyze: none,
  operationsSnapshot: read,

  // Workspaces and API keys.
  createWorkspace: ([workspace, firstKey]) => [
    { kind: 'workspace', workspaceId: workspace.id },
    ...(firstKey ? [{ kind: 'api-keys', workspaceId: workspace.id } as const] : []),
  ],
  getWorkspaceBySlug: read,
  getWorkspaceById: read,
  updateWorkspace: ([id], updated) => (updated ? [{ kind: 'workspace', workspaceId: id }] : []),
  deleteWorkspace: ([id]) => [{ kind: 'workspace', workspaceId: id }],
  createApiKey: ([key]) => [{ kind: 'api-keys', workspaceId: key.workspaceId }],
  findApiKeyByHash: read,

  // The catalogue.
  createService: ([service]) => [{ kind: 'services', workspaceId: service.workspaceId }],
  getService: read,
  listServices: read,
  updateService: ([workspaceId], updated) => (updated ? [{ kind: 'services', workspaceId }] : []),
  createProvider: ([provider]) => [{ kind: 'providers', workspaceId: provider.workspaceId }],
  getProvider: read,
  listProviders: read,
  updateProvider: ([workspaceId], updated) => (updated ? [{ kind: 'providers', workspaceId }] : []),
  createCustomField: ([field]) => [{ kind: 'custom-fields', workspaceId: field.workspaceId }],
  listCustomFields: read,
  updateCustomField: ([workspaceId], updated) => (updated ? [{ kind: 'custom-fields', workspaceId }] : []),
  deleteCustomField: ([workspaceId], deleted) => (deleted ? [{ kind: 'custom-fields', workspaceId }] : []),

  // Bookings: a booking change writes its webhook messages and mails in the same transaction.
  getBooking: read,
  listBookings: read,
  listBusy: read,
  reserveBooking: ([request], result) => (result.ok ? booked(request.booking.workspaceId) : []),
  reserveSeries: ([request], result) => (result.ok && request.bookings[0] ? booked(request.bookings[0].workspaceId) : []),
  listSeries: read,
  lastBookedAt: read,
  transitionBooking: ([workspaceId], moved) => (moved ? booked(workspaceId) : []),
  listExpiredHolds: read,
  listEndedConfirmed: read,

  // Waiting lists: an offered entry holds a seat, so offers, expiries and removals move availability.
  addWaitlistEntry: ([entry]) => [{ kind: 'bookings', workspaceId: entry.workspaceId }, { kind: 'outbox' }],
  getWaitlistEntry: read,
  findWaitlistEntryByToken: read,
  listWaitlistEntries: read,
  deleteWaitlistEntry: ([workspaceId], deleted) => (deleted ? [{ kind: 'bookings', workspaceId }] : []),
  offerSeats: ([request], offered) => (offered.length > 0 ? booked(request.workspaceId) : []),
  expireOffer: (_args, expired) => (expired ? booked(expired.workspaceId) : []),
  listLapsedOffers: read,
  listWaitedTimes: read,
  listDueWaitlistMails: read,
  moveWaitlistMail: none,

  // Payments: settling one may move its booking (with its messages) in the same transaction.
  createPayment: none,
  getPaymentByReference: read,
  listPayments: read,
  settlePayment: ([, , , , booking], settled) => (settled?.booking && booking ? booked(booking.workspaceId) : []),
  reserveRefund: ([refund], reserved) => (reserved.ok ? [{ kind: 'bookings', workspaceId: refund.workspaceId }] : []),
  settleRefund: (_args, settled) => (settled ? booked(settled.refund.workspaceId) : []),
  listRefunds: read,

  // Webhooks and their outbox.
  createWebhook: none,
  getWebhook: read,
  listWebhooks: read,
  updateWebhook: none,
  deleteWebhook: none,
  enqueueEvents: (_args, messages) => (messages.length > 0 ? [{ kind: 'outbox' }] : []),
  claimDueMessages: none,
  extendMessageLeases: none,
  recordAttempt: none,
  nextDueAt: read,
  getMessage: read,
  listAttempts: read,

  // Mails, manage links and calendar feeds.
  enqueueMails: (_args, written) => (written > 0 ? [{ kind: 'outbox' }] : []),
  claimDueMails: none,
  extendMailLeases: none,
  recordMailAttempt: none,
  nextMailDueAt: read,
  listBookingMails: read,
  listDueReminders: read,
  findBookingByManageToken: read,
  putCalendarFeed: none,
  findCalendarFeed: read,
  listProviderBookings: read,

  // A provider's calendar connections and their busy times: they move availability.
  createCalendarConnection: ([connection]) => [calendarsOf(connection)],
  getCalendarConnection: read,
  listCalendarConnections: read,
  listAllCalendarConnections: read,
  updateCalendarConnection: (_args, updated) => (updated ? [calendarsOf(updated), { kind: 'outbox' }] : []),
  chooseCalendars: (_args, updated) => (updated ? [calendarsOf(updated)] : []),
  deleteCalendarConnection: ([workspaceId, providerId], removed) => (removed ? [{ kind: 'calendars', workspaceId, providerId }] : []),
  // A status move may write webhook messages: the outbox is told too.
  storeCalendarSync: (_args, stored) => (stored ? [calendarsOf(stored), { kind: 'outbox' }] : []),
  busyTimesFor: read,
  listCalendarBusy: read,
  // Leases and the mail mark move no availability.
  claimCalendarSyncs: none,
  releaseCalendarSync: none,
  listCalendarFailureNotices: read,
  claimCalendarFailureNotice: none,

  // The calendar-write outbox: its rows are written by the booking changes (announced there).
  claimDueCalendarWrites: none,
  extendCalendarWriteLeases: none,
  recordCalendarWrite: none,
  nextCalendarWriteDueAt: read,
  getCalendarWrite: read,

  // The panel: pairing, sessions, linked origins, key listing.
  createPairingCode: none,
  consumePairingCode: none,
  putHostCredential: none,
  findHostCredential: read,
  createPanelCode: none,
  consumePanelCode: none,
  voidPanelCodes: none,
  purgeExpiredCodes: none,
  createPanelSession: none,
  findPanelSession: read,
  rotatePanelSession: none,
  endPanelSessions: none,
  purgeExpiredPanelSessions: none,
  listHostCredentials: read,
  deleteHostCredential: none,
  deleteHostCredentialByHash: none,
  touchHostCredential: none,
  listApiKeys: read,
  revokeApiKey: ([workspaceId], revoked) => (revoked ? [{ kind: 'api-keys', workspaceId }] : []),
  touchApiKey: none,
};

/**
 * `queries` as a Storage whose writes announce their STORAGE_CHANGES to the listeners added with onChange,
 * after the write resolved (committed) and before its caller goes on. The result is a plain object: a test may
 * replace one of its methods by assignment.
 */
export function announcingChanges(queries: Omit<Storage, keyof StorageChanges>, hearsEveryBookingWrite: () => boolean): Storage {
  const listeners = new Set<StorageChangeListener>();
  const announce = (changes: StorageChange[]) => {
    for (const change of changes) {
      for (const listener of [...listeners]) {
        try {
          listener(change);
        } catch {
          // The write is committed and its caller must learn so; a listener's own failure is its own.
        }
      }
    }
  };
  const storage: Storage = {
    ...queries,
    hearsEveryBookingWrite,
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
  const methods = storage as unknown as Record<Method, (...args: unknown[]) => Promise<unknown>>;
  for (const name of Object.keys(STORAGE_CHANGES) as Method[]) {
    const changesOf = STORAGE_CHANGES[name] as typeof read | ((args: unknown[], result: unknown) => StorageChange[]);
    if (changesOf === read) continue;
    const write = methods[name];
    methods[name] = async (...args) => {
      const result = await write(...args);
      announce(changesOf(args, result));
      return result;
    };
  }
  return storage;
}
