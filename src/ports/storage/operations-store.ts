/** The kinds of outbox svc delivers from: webhook messages and customer mails (src/platform/outbox/worker.ts). */
export const OUTBOX_KINDS = ['webhook', 'mail'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/** One outbox kind's backlog: entries still to deliver (pending, retries included) and when the oldest was written. */
export interface OutboxBacklog {
  kind: OutboxKind;
  pending: number;
  /** createdAt of the oldest pending entry; null when none is pending */
  oldestCreatedAt: number | null;
}

/** Counts across every workspace, for the operator's metrics (docs/contract/operations.md §14). */
export interface OperationsSnapshot {
  /** bookings per status (only statuses that occur) */
  bookingsByStatus: Record<string, number>;
  /** one entry per OUTBOX_KINDS, in that order */
  outbox: OutboxBacklog[];
  /** calendar connections per status (only statuses that occur) */
  calendarConnectionsByStatus: Record<string, number>;
}

export interface OperationsStore {
  /**
   * The counts of the snapshot, read in a few grouped queries over indexed columns (status), so a scrape every
   * few seconds stays cheap; a read, consistent per query, not across them.
   */
  operationsSnapshot(): Promise<OperationsSnapshot>;
}
