import { type AnyColumn, and, gt, lt, or, type SQL, sql } from 'drizzle-orm';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import { MAX_BOOKING_MS, MAX_BUFFER_MS, UniqueViolation, type WebhookMessageRecord } from '../../../src/ports/storage/index.ts';
import type { Schema } from './schema.ts';

/*
 * What the per-aggregate query files (workspaces.ts, catalogue.ts, bookings.ts, …) share. The libSQL and
 * Postgres tables come from one description (schema.ts) with the same JavaScript types, and drizzle's query
 * builder has the same surface on both, so the queries are written once against the Postgres types; what really
 * differs between the databases (how a write transaction is taken, how a provider is locked, how messages are
 * claimed, how errors look) is the Dialect.
 */

export type Tables = Schema<'pg'>;
// The libSQL adapter passes its own db and tables, seen through these types (libsql/index.ts says why that holds).
export type Db = PgDatabase<any, any, any>;
export type Tx = Db;

/**
 * What a busy read takes (busyQuery, heldSeatsJsonQuery, busyAndHeldQuery): where it runs, the tables, the
 * dialect's JSON aggregate, the providers and window, a booking or entry left out, and the asking service's buffer.
 */
export type BusyReadArgs = [
  on: Tx,
  t: Tables,
  jsonRows: Dialect['jsonRows'],
  providerIds: string[],
  from: number,
  to: number,
  excluding?: string,
  buffer?: number,
];

export interface Dialect {
  db: Db;
  tables: Tables;
  /** Runs `work` in a transaction that holds the write lock from its first statement. */
  write<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Inside a write transaction: excludes every other writer for these providers until it ends. */
  lockProviders(tx: Tx, providerIds: string[]): Promise<void>;
  /** Selects and leases due messages so that no concurrent claimer gets the same ones. */
  claimDueMessages(owner: string, now: number, leaseUntil: number, limit: number): Promise<WebhookMessageRecord[]>;
  isUniqueViolation(error: unknown): boolean;
  /** An aggregate: the group's rows as one JSON array holding an array of `columns` per row. */
  jsonRows(columns: (SQL | AnyColumn)[]): SQL;
  migrate(): Promise<void>;
  /** SettingsStore.analyze */
  analyze(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** StorageChanges.hearsEveryBookingWrite of the storage over this dialect (before any relay of other instances' changes) */
  hearsEveryBookingWrite(): boolean;
}

export type Row<K extends keyof Tables> = Tables[K] extends { $inferSelect: infer R } ? R : never;

/** Statuses of a booking that holds provider time. */
export const HOLDING = ['PENDING', 'CONFIRMED'] as const;

/**
 * The rows of a table of time holders (bookings, held waiting-list seats) that overlap [from, to) (BookingStore.
 * listBusy's rule): with `buffer` (ms), each widened by the larger of that buffer and its own `buffer_time`. The
 * outer bounds come first and keep it a range of a (…, start) index: a holder keeps at most MAX_BUFFER_MS and
 * lasts at most MAX_BOOKING_MS, so the provider's whole history is skipped; the exact test follows.
 */
export function busyWindow(columns: { startTime: AnyColumn; endTime: AnyColumn; bufferTime: AnyColumn }, from: number, to: number, buffer?: number): SQL {
  const { startTime, endTime, bufferTime } = columns;
  const reach = buffer === undefined ? 0 : Math.max(buffer, MAX_BUFFER_MS);
  return and(
    lt(startTime, to + reach),
    gt(startTime, from - reach - MAX_BOOKING_MS),
    buffer === undefined
      ? gt(endTime, from)
      : and(
          or(lt(startTime, to + buffer), sql`${startTime} - ${bufferTime} * 60000 < ${to}`),
          or(gt(endTime, from - buffer), sql`${endTime} + ${bufferTime} * 60000 > ${from}`),
        ),
  )!;
}

/** Whether a patch sets anything: drizzle refuses an UPDATE with nothing to set ("No values to set"). */
export const setsAnything = (patch: object) => Object.values(patch).some((value) => value !== undefined);

/** `work`, with the dialect's unique-constraint error turned into UniqueViolation(what). */
export async function unique<T>(dialect: Dialect, what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (dialect.isUniqueViolation(error)) throw new UniqueViolation(what);
    throw error;
  }
}
