import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type * as pg from '../postgres/schema.ts';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import type {
  ApiKeyRecord, AttemptOutcome, BookingFilter, BookingRecord, BookingTransition, BusyInterval, CustomFieldPatch,
  CustomFieldRecord, DeliveryAttemptRecord, HostCredentialRecord, OutboxEvent, PairingCodeRecord, PanelCodeRecord,
  PaymentRecord, PaymentStatus, ProviderPatch, ProviderRecord, ReserveRequest, ReserveResult, ServicePatch, ServiceRecord,
  Storage, WebhookMessageRecord, WebhookPatch, WebhookRecord, WorkspacePatch, WorkspaceRecord,
} from '../../../src/storage/port.ts';
import { MAX_BOOKING_MS, UniqueViolation } from '../../../src/storage/port.ts';
import type { WorkingHours } from '../../../src/scheduling/slot-engine.ts';
import { newId } from '../../../src/shared/ids.ts';
import type { PanelSessionRecord } from '../../../src/storage/panel-session-store.ts';
import { PanelSessionQueries } from './panel-session-queries.ts';

/*
 * The query layer both SQL adapters share. The libSQL and Postgres schemas are column-for-column mirrors with
 * the same JavaScript types, and drizzle's query builder has the same surface on both, so the queries are
 * written once against the Postgres types; what really differs between the databases (how a write
 * transaction is taken, how a provider is locked, how messages are claimed, how errors look) is the Dialect.
 */

export type Tables = typeof pg;
// The libSQL adapter passes its own db and tables; their runtime surface matches these types.
export type Db = PgDatabase<any, any, any>;
export type Tx = Db;

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
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

type Row<K extends keyof Tables> = Tables[K] extends { $inferSelect: infer R } ? R : never;

const HOLDING = ['PENDING', 'CONFIRMED'] as const;

export function toWorkspace(row: Row<'workspaces'>): WorkspaceRecord {
  const { weekly, exceptions, ...rest } = row;
  return { ...rest, timeFormat: row.timeFormat as WorkspaceRecord['timeFormat'], hours: { weekly, exceptions } as WorkingHours };
}

function toProvider(row: Row<'providers'>, serviceIds: string[]): ProviderRecord {
  const { weekly, exceptions, ...rest } = row;
  return { ...rest, hours: weekly ? ({ weekly, exceptions: exceptions ?? [] } as WorkingHours) : null, serviceIds };
}

const toBooking = (row: Row<'bookings'>): BookingRecord => row as BookingRecord;
const toCustomField = (row: Row<'customFields'>): CustomFieldRecord => row as CustomFieldRecord;
const toMessage = (row: Row<'webhookMessages'>): WebhookMessageRecord => {
  const { payload, leaseOwner: _owner, leaseUntil: _until, ...rest } = row;
  return { ...rest, body: payload, status: row.status as WebhookMessageRecord['status'] };
};
const toPayment = (row: Row<'payments'>): PaymentRecord => row as PaymentRecord;

/** Whether a patch sets anything: drizzle refuses an UPDATE with nothing to set ("No values to set"). */
const setsAnything = (patch: object) => Object.values(patch).some((value) => value !== undefined);

function hoursColumns(hours: WorkingHours | null | undefined) {
  if (hours === undefined) return {};
  return { weekly: hours?.weekly ?? null, exceptions: hours?.exceptions ?? null };
}

/** The events' messages: one per active webhook of the workspace subscribed to the event's type. */
export async function writeOutbox(tx: Tx, tables: Tables, events: OutboxEvent[], onlyWebhookId?: string): Promise<WebhookMessageRecord[]> {
  if (events.length === 0) return [];
  const workspaceIds = [...new Set(events.map((event) => event.workspaceId))];
  const hooks = await tx.select().from(tables.webhooks).where(and(
    inArray(tables.webhooks.workspaceId, workspaceIds),
    onlyWebhookId ? eq(tables.webhooks.id, onlyWebhookId) : eq(tables.webhooks.isActive, true),
  ));
  const rows: Row<'webhookMessages'>[] = [];
  for (const event of events) {
    for (const hook of hooks) {
      if (hook.workspaceId !== event.workspaceId) continue;
      if (!onlyWebhookId && hook.events.length > 0 && !hook.events.includes(event.type)) continue;
      rows.push({
        id: newId('msg', event.occurredAt), webhookId: hook.id, workspaceId: event.workspaceId, eventType: event.type,
        payload: event.body, status: 'pending', attempts: 0, nextAttemptAt: event.occurredAt, leaseUntil: null,
        leaseOwner: null, createdAt: event.occurredAt, deliveredAt: null,
      });
    }
  }
  if (rows.length > 0) await tx.insert(tables.webhookMessages).values(rows);
  return rows.map(toMessage);
}

export class DrizzleStorage implements Storage {
  private readonly db: Db;
  private readonly t: Tables;

  private readonly panel: PanelSessionQueries;

  constructor(private readonly dialect: Dialect) {
    this.db = dialect.db;
    this.t = dialect.tables;
    this.panel = new PanelSessionQueries(dialect);
  }

  migrate() { return this.dialect.migrate(); }
  ping() { return this.dialect.ping(); }
  close() { return this.dialect.close(); }

  private async unique<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (this.dialect.isUniqueViolation(error)) throw new UniqueViolation(what);
      throw error;
    }
  }

  // settings

  async getSetting(key: string) {
    const [row] = await this.db.select().from(this.t.settings).where(eq(this.t.settings.key, key));
    return row?.value ?? null;
  }

  async putSettingIfAbsent(key: string, value: string) {
    await this.db.insert(this.t.settings).values({ key, value }).onConflictDoNothing();
    return (await this.getSetting(key)) ?? value;
  }

  // workspaces

  async createWorkspace(workspace: WorkspaceRecord) {
    const { hours, ...rest } = workspace;
    await this.unique('workspace', () => this.db.insert(this.t.workspaces).values({ ...rest, ...hours }));
  }

  async getWorkspaceBySlug(slug: string) {
    const [row] = await this.db.select().from(this.t.workspaces).where(eq(this.t.workspaces.slug, slug));
    return row ? toWorkspace(row) : null;
  }

  async getWorkspaceById(id: string) {
    const [row] = await this.db.select().from(this.t.workspaces).where(eq(this.t.workspaces.id, id));
    return row ? toWorkspace(row) : null;
  }

  async updateWorkspace(id: string, patch: WorkspacePatch, at: number) {
    const { hours, ...rest } = patch;
    const [row] = await this.db.update(this.t.workspaces)
      .set({ ...rest, ...(hours ? { weekly: hours.weekly, exceptions: hours.exceptions } : {}), updatedAt: at })
      .where(eq(this.t.workspaces.id, id)).returning();
    return row ? toWorkspace(row) : null;
  }

  async deleteWorkspace(id: string) {
    const t = this.t;
    await this.dialect.write(async (tx) => {
      // Children first: bookings reference services and providers without cascading.
      await tx.delete(t.bookings).where(eq(t.bookings.workspaceId, id));
      await tx.delete(t.workspaces).where(eq(t.workspaces.id, id));
    });
  }

  // API keys

  async createApiKey(key: ApiKeyRecord) {
    await this.db.insert(this.t.apiKeys).values(key);
  }

  async findApiKeyByHash(hash: string) {
    const [row] = await this.db.select().from(this.t.apiKeys).where(and(eq(this.t.apiKeys.hash, hash), isNull(this.t.apiKeys.revokedAt)));
    return row ?? null;
  }

  // services

  private async serviceProviderIds(serviceIds: string[]): Promise<Map<string, string[]>> {
    const byService = new Map<string, string[]>(serviceIds.map((id) => [id, []]));
    if (serviceIds.length === 0) return byService;
    const links = await this.db.select().from(this.t.serviceProviders)
      .where(inArray(this.t.serviceProviders.serviceId, serviceIds)).orderBy(asc(this.t.serviceProviders.providerId));
    for (const link of links) byService.get(link.serviceId)?.push(link.providerId);
    return byService;
  }

  private async replaceLinks(tx: Tx, by: 'service' | 'provider', id: string, others: string[]) {
    const link = this.t.serviceProviders;
    await tx.delete(link).where(eq(by === 'service' ? link.serviceId : link.providerId, id));
    if (others.length === 0) return;
    await tx.insert(link).values([...new Set(others)].map((other) =>
      by === 'service' ? { serviceId: id, providerId: other } : { serviceId: other, providerId: id }));
  }

  async createService(service: ServiceRecord) {
    const { providerIds, ...row } = service;
    await this.dialect.write(async (tx) => {
      await tx.insert(this.t.services).values(row);
      await this.replaceLinks(tx, 'service', service.id, providerIds);
    });
  }

  async getService(workspaceId: string, id: string) {
    const [row] = await this.db.select().from(this.t.services)
      .where(and(eq(this.t.services.workspaceId, workspaceId), eq(this.t.services.id, id)));
    if (!row) return null;
    const links = await this.serviceProviderIds([id]);
    return { ...row, providerIds: links.get(id) ?? [] };
  }

  async listServices(workspaceId: string, options: { activeOnly: boolean }) {
    const s = this.t.services;
    const rows = await this.db.select().from(s)
      .where(options.activeOnly ? and(eq(s.workspaceId, workspaceId), eq(s.active, true)) : eq(s.workspaceId, workspaceId))
      .orderBy(asc(s.order), asc(s.name), asc(s.id));
    const links = await this.serviceProviderIds(rows.map((row) => row.id));
    return rows.map((row) => ({ ...row, providerIds: links.get(row.id) ?? [] }));
  }

  async updateService(workspaceId: string, id: string, patch: ServicePatch) {
    const { providerIds, ...rest } = patch;
    const s = this.t.services;
    const updated = await this.dialect.write(async (tx) => {
      const where = and(eq(s.workspaceId, workspaceId), eq(s.id, id));
      // A patch of providerIds alone changes only the links; the row must still exist in this workspace.
      const rows = setsAnything(rest)
        ? await tx.update(s).set(rest).where(where).returning({ id: s.id })
        : await tx.select({ id: s.id }).from(s).where(where);
      if (rows.length === 0) return false;
      if (providerIds) await this.replaceLinks(tx, 'service', id, providerIds);
      return true;
    });
    return updated ? this.getService(workspaceId, id) : null;
  }

  // providers

  private async providerServiceIds(providerIds: string[]): Promise<Map<string, string[]>> {
    const byProvider = new Map<string, string[]>(providerIds.map((id) => [id, []]));
    if (providerIds.length === 0) return byProvider;
    const links = await this.db.select().from(this.t.serviceProviders)
      .where(inArray(this.t.serviceProviders.providerId, providerIds)).orderBy(asc(this.t.serviceProviders.serviceId));
    for (const link of links) byProvider.get(link.providerId)?.push(link.serviceId);
    return byProvider;
  }

  async createProvider(provider: ProviderRecord) {
    const { serviceIds, hours, ...row } = provider;
    await this.dialect.write(async (tx) => {
      await tx.insert(this.t.providers).values({ ...row, ...hoursColumns(hours) });
      await this.replaceLinks(tx, 'provider', provider.id, serviceIds);
    });
  }

  async getProvider(workspaceId: string, id: string) {
    const [row] = await this.db.select().from(this.t.providers)
      .where(and(eq(this.t.providers.workspaceId, workspaceId), eq(this.t.providers.id, id)));
    if (!row) return null;
    const links = await this.providerServiceIds([id]);
    return toProvider(row, links.get(id) ?? []);
  }

  async listProviders(workspaceId: string) {
    const p = this.t.providers;
    const rows = await this.db.select().from(p).where(eq(p.workspaceId, workspaceId)).orderBy(asc(p.name), asc(p.id));
    const links = await this.providerServiceIds(rows.map((row) => row.id));
    return rows.map((row) => toProvider(row, links.get(row.id) ?? []));
  }

  async updateProvider(workspaceId: string, id: string, patch: ProviderPatch) {
    const { serviceIds, hours, ...rest } = patch;
    const p = this.t.providers;
    const values = { ...rest, ...hoursColumns(hours) };
    const updated = await this.dialect.write(async (tx) => {
      const where = and(eq(p.workspaceId, workspaceId), eq(p.id, id));
      // A patch of serviceIds alone changes only the links; the row must still exist in this workspace.
      const rows = setsAnything(values)
        ? await tx.update(p).set(values).where(where).returning({ id: p.id })
        : await tx.select({ id: p.id }).from(p).where(where);
      if (rows.length === 0) return false;
      if (serviceIds) await this.replaceLinks(tx, 'provider', id, serviceIds);
      return true;
    });
    return updated ? this.getProvider(workspaceId, id) : null;
  }

  // custom fields

  async createCustomField(field: CustomFieldRecord) {
    await this.unique('custom field', () => this.db.insert(this.t.customFields).values(field));
  }

  async listCustomFields(workspaceId: string) {
    const f = this.t.customFields;
    const rows = await this.db.select().from(f).where(eq(f.workspaceId, workspaceId)).orderBy(asc(f.order), asc(f.key));
    return rows.map(toCustomField);
  }

  async updateCustomField(workspaceId: string, id: string, patch: CustomFieldPatch) {
    const f = this.t.customFields;
    const where = and(eq(f.workspaceId, workspaceId), eq(f.id, id));
    const [row] = setsAnything(patch)
      ? await this.unique('custom field', () => this.db.update(f).set(patch).where(where).returning())
      : await this.db.select().from(f).where(where);
    return row ? toCustomField(row) : null;
  }

  async deleteCustomField(workspaceId: string, id: string) {
    const f = this.t.customFields;
    const rows = await this.db.delete(f).where(and(eq(f.workspaceId, workspaceId), eq(f.id, id))).returning({ id: f.id });
    return rows.length > 0;
  }

  // bookings

  async getBooking(workspaceId: string, id: string) {
    const b = this.t.bookings;
    const [row] = await this.db.select().from(b).where(and(eq(b.workspaceId, workspaceId), eq(b.id, id)));
    return row ? toBooking(row) : null;
  }

  async listBookings(workspaceId: string, filter: BookingFilter) {
    const b = this.t.bookings;
    const conditions: (SQL | undefined)[] = [eq(b.workspaceId, workspaceId)];
    if (filter.status) conditions.push(eq(b.status, filter.status));
    if (filter.from !== undefined) conditions.push(gte(b.startTime, filter.from));
    if (filter.to !== undefined) conditions.push(lt(b.startTime, filter.to));
    if (filter.serviceId) conditions.push(eq(b.serviceId, filter.serviceId));
    if (filter.after) {
      conditions.push(or(gt(b.startTime, filter.after.startTime), and(eq(b.startTime, filter.after.startTime), gt(b.id, filter.after.id))));
    }
    const rows = await this.db.select().from(b).where(and(...conditions)).orderBy(asc(b.startTime), asc(b.id)).limit(filter.limit);
    return rows.map(toBooking);
  }

  private busyQuery(db: Tx, providerIds: string[], from: number, to: number, excluding?: string) {
    const b = this.t.bookings;
    return db.select({
      bookingId: b.id, providerId: b.providerId, serviceId: b.serviceId, startTime: b.startTime, endTime: b.endTime, bufferTime: b.bufferTime,
    }).from(b).where(and(
      inArray(b.providerId, providerIds),
      inArray(b.status, [...HOLDING]),
      lt(b.startTime, to),
      // A booking lasts at most a day (port: MAX_BOOKING_MS), so this bound lets the (provider, start) index
      // skip the provider's whole history instead of reading it.
      gt(b.startTime, from - MAX_BOOKING_MS),
      gt(b.endTime, from),
      excluding ? ne(b.id, excluding) : undefined,
    )).orderBy(asc(b.startTime));
  }

  async listBusy(providerIds: string[], from: number, to: number): Promise<BusyInterval[]> {
    if (providerIds.length === 0) return [];
    return this.busyQuery(this.db, providerIds, from, to);
  }

  async reserveBooking(request: ReserveRequest): Promise<ReserveResult> {
    const { booking, margin } = request;
    const candidates = [...new Set(request.candidates)];
    if (candidates.length === 0) return { ok: false, reason: 'no provider offers this service' };
    return this.dialect.write(async (tx) => {
      await this.dialect.lockProviders(tx, candidates);
      const busy = await this.busyQuery(tx, candidates, booking.startTime - margin, booking.endTime + margin, request.replacing);
      let reason = 'no provider is free at this time';
      for (const providerId of candidates) {
        const misfit = request.fits(providerId, busy.filter((interval) => interval.providerId === providerId));
        if (misfit) {
          reason = misfit;
          continue;
        }
        const placed = { ...booking, providerId };
        let saved: BookingRecord;
        if (request.replacing) {
          const b = this.t.bookings;
          const [row] = await tx.update(b).set({
            providerId, startTime: placed.startTime, endTime: placed.endTime, updatedAt: placed.updatedAt,
          }).where(and(eq(b.id, request.replacing), eq(b.workspaceId, booking.workspaceId), inArray(b.status, [...HOLDING]))).returning();
          if (!row) return { ok: false, reason: 'the booking can no longer be moved' };
          saved = toBooking(row);
        } else {
          await tx.insert(this.t.bookings).values(placed);
          saved = placed;
        }
        await writeOutbox(tx, this.t, request.emit(saved));
        return { ok: true, booking: saved };
      }
      return { ok: false, reason };
    });
  }

  async transitionBooking(workspaceId: string, id: string, transition: BookingTransition) {
    return this.dialect.write((tx) => this.transitionIn(tx, workspaceId, id, transition));
  }

  private async transitionIn(tx: Tx, workspaceId: string, id: string, transition: BookingTransition) {
    const b = this.t.bookings;
    const [row] = await tx.update(b).set({
      status: transition.to,
      updatedAt: transition.at,
      ...(transition.cancelReason !== undefined ? { cancelReason: transition.cancelReason } : {}),
    }).where(and(eq(b.workspaceId, workspaceId), eq(b.id, id), inArray(b.status, transition.from))).returning();
    if (!row) return null;
    const booking = toBooking(row);
    await writeOutbox(tx, this.t, transition.emit(booking));
    return booking;
  }

  async listExpiredHolds(now: number, limit: number) {
    const b = this.t.bookings;
    const rows = await this.db.select().from(b).where(and(eq(b.status, 'PENDING'), lte(b.holdExpiresAt, now)))
      .orderBy(asc(b.holdExpiresAt)).limit(limit);
    return rows.map(toBooking);
  }

  async listEndedConfirmed(now: number, limit: number) {
    const b = this.t.bookings;
    const rows = await this.db.select().from(b).where(and(eq(b.status, 'CONFIRMED'), lte(b.endTime, now)))
      .orderBy(asc(b.endTime)).limit(limit);
    return rows.map(toBooking);
  }

  // payments

  async createPayment(payment: PaymentRecord) {
    await this.unique('payment', () => this.db.insert(this.t.payments).values(payment));
  }

  async getPaymentByReference(provider: string, reference: string) {
    const p = this.t.payments;
    const [row] = await this.db.select().from(p).where(and(eq(p.provider, provider), eq(p.reference, reference)));
    return row ? toPayment(row) : null;
  }

  async listPayments(bookingId: string) {
    const p = this.t.payments;
    const rows = await this.db.select().from(p).where(eq(p.bookingId, bookingId)).orderBy(asc(p.createdAt));
    return rows.map(toPayment);
  }

  async settlePayment(paymentId: string, from: PaymentStatus, to: Partial<Pick<PaymentRecord, 'status' | 'refundDue'>>, at: number,
    booking?: { workspaceId: string; transition: BookingTransition }) {
    const p = this.t.payments;
    return this.dialect.write(async (tx) => {
      const [row] = await tx.update(p).set({ ...to, updatedAt: at }).where(and(eq(p.id, paymentId), eq(p.status, from))).returning();
      if (!row) return null;
      const moved = booking ? await this.transitionIn(tx, booking.workspaceId, row.bookingId, booking.transition) : null;
      return { payment: toPayment(row), booking: moved };
    });
  }

  // webhooks

  async createWebhook(webhook: WebhookRecord) {
    await this.db.insert(this.t.webhooks).values(webhook);
  }

  async getWebhook(workspaceId: string, id: string) {
    const w = this.t.webhooks;
    const [row] = await this.db.select().from(w).where(and(eq(w.workspaceId, workspaceId), eq(w.id, id)));
    return row ?? null;
  }

  async listWebhooks(workspaceId: string) {
    const w = this.t.webhooks;
    return this.db.select().from(w).where(eq(w.workspaceId, workspaceId)).orderBy(asc(w.createdAt), asc(w.id));
  }

  async updateWebhook(workspaceId: string, id: string, patch: WebhookPatch, at: number) {
    const w = this.t.webhooks;
    const [row] = await this.db.update(w).set({ ...patch, updatedAt: at }).where(and(eq(w.workspaceId, workspaceId), eq(w.id, id))).returning();
    return row ?? null;
  }

  async deleteWebhook(workspaceId: string, id: string) {
    const w = this.t.webhooks;
    const rows = await this.db.delete(w).where(and(eq(w.workspaceId, workspaceId), eq(w.id, id))).returning({ id: w.id });
    return rows.length > 0;
  }

  async enqueueEvents(events: OutboxEvent[], onlyWebhookId?: string) {
    return this.dialect.write((tx) => writeOutbox(tx, this.t, events, onlyWebhookId));
  }

  claimDueMessages(owner: string, now: number, leaseUntil: number, limit: number) {
    return this.dialect.claimDueMessages(owner, now, leaseUntil, limit);
  }

  async recordAttempt(owner: string, messageId: string, outcome: AttemptOutcome) {
    const m = this.t.webhookMessages;
    return this.dialect.write(async (tx) => {
      const [row] = await tx.update(m).set({
        status: outcome.status,
        attempts: sql`${m.attempts} + 1`,
        nextAttemptAt: outcome.nextAttemptAt,
        leaseOwner: null,
        leaseUntil: null,
        deliveredAt: outcome.status === 'delivered' ? outcome.attempt.attemptedAt : null,
      }).where(and(eq(m.id, messageId), eq(m.leaseOwner, owner))).returning({ webhookId: m.webhookId, workspaceId: m.workspaceId });
      if (!row) return false;
      await tx.insert(this.t.webhookAttempts).values(outcome.attempt);
      if (outcome.webhook) {
        await tx.update(this.t.webhooks).set({ ...outcome.webhook, updatedAt: outcome.attempt.attemptedAt })
          .where(eq(this.t.webhooks.id, row.webhookId));
      }
      return true;
    });
  }

  async nextDueAt() {
    const m = this.t.webhookMessages;
    const [row] = await this.db.select({ at: sql<number | string | null>`min(${m.nextAttemptAt})` }).from(m).where(eq(m.status, 'pending'));
    return row?.at == null ? null : Number(row.at);
  }

  async getMessage(id: string) {
    const [row] = await this.db.select().from(this.t.webhookMessages).where(eq(this.t.webhookMessages.id, id));
    return row ? toMessage(row) : null;
  }

  async listAttempts(webhookId: string, limit: number): Promise<DeliveryAttemptRecord[]> {
    const a = this.t.webhookAttempts;
    return this.db.select().from(a).where(eq(a.webhookId, webhookId)).orderBy(desc(a.attemptedAt), desc(a.id)).limit(limit);
  }

  // panel records

  async createPairingCode(code: PairingCodeRecord) {
    await this.db.insert(this.t.pairingCodes).values(code);
  }

  async consumePairingCode(codeHash: string, now: number) {
    const c = this.t.pairingCodes;
    const [row] = await this.db.update(c).set({ usedAt: now })
      .where(and(eq(c.codeHash, codeHash), isNull(c.usedAt), gt(c.expiresAt, now))).returning();
    return row ?? null;
  }

  async putHostCredential(credential: HostCredentialRecord) {
    const h = this.t.hostCredentials;
    await this.db.insert(h).values(credential).onConflictDoUpdate({
      target: [h.workspaceId, h.origin],
      set: { id: credential.id, credentialHash: credential.credentialHash, platform: credential.platform, createdAt: credential.createdAt, lastUsedAt: credential.lastUsedAt },
    });
  }

  async findHostCredential(credentialHash: string) {
    const [row] = await this.db.select().from(this.t.hostCredentials).where(eq(this.t.hostCredentials.credentialHash, credentialHash));
    return row ?? null;
  }

  async createPanelCode(code: PanelCodeRecord) {
    await this.db.insert(this.t.panelCodes).values(code);
  }

  async consumePanelCode(codeHash: string, now: number) {
    const c = this.t.panelCodes;
    const [row] = await this.db.update(c).set({ usedAt: now })
      .where(and(eq(c.codeHash, codeHash), isNull(c.usedAt), gt(c.expiresAt, now))).returning();
    return row ?? null;
  }

  async purgeExpiredCodes(now: number) {
    const pairing = await this.db.delete(this.t.pairingCodes).where(lte(this.t.pairingCodes.expiresAt, now)).returning({ id: this.t.pairingCodes.id });
    const panel = await this.db.delete(this.t.panelCodes).where(lte(this.t.panelCodes.expiresAt, now)).returning({ id: this.t.panelCodes.id });
    return pairing.length + panel.length;
  }

  // panel sessions, linked origins, API-key administration (panel-session-queries.ts)

  createPanelSession(session: PanelSessionRecord) { return this.panel.createPanelSession(session); }
  findPanelSession(tokenHash: string, now: number) { return this.panel.findPanelSession(tokenHash, now); }
  rotatePanelSession(tokenHash: string, next: PanelSessionRecord, now: number) { return this.panel.rotatePanelSession(tokenHash, next, now); }
  endPanelSessions(workspaceId: string, match: { origin: string } | { subject: string }) { return this.panel.endPanelSessions(workspaceId, match); }
  purgeExpiredPanelSessions(now: number) { return this.panel.purgeExpiredPanelSessions(now); }
  listHostCredentials(workspaceId: string) { return this.panel.listHostCredentials(workspaceId); }
  deleteHostCredential(workspaceId: string, id: string) { return this.panel.deleteHostCredential(workspaceId, id); }
  deleteHostCredentialByHash(credentialHash: string) { return this.panel.deleteHostCredentialByHash(credentialHash); }
  touchHostCredential(id: string, at: number) { return this.panel.touchHostCredential(id, at); }
  listApiKeys(workspaceId: string) { return this.panel.listApiKeys(workspaceId); }
  revokeApiKey(workspaceId: string, id: string, at: number) { return this.panel.revokeApiKey(workspaceId, id, at); }
  touchApiKey(id: string, at: number) { return this.panel.touchApiKey(id, at); }
}

/** The claim query both dialects start from: pending, due, and not leased by a live claimer. */
export function dueMessagesCondition(tables: Tables, now: number) {
  const m = tables.webhookMessages;
  return and(eq(m.status, 'pending'), lte(m.nextAttemptAt, now), or(isNull(m.leaseUntil), lt(m.leaseUntil, now)));
}

export { toMessage };
