import type { AppDeps } from '../../platform/app-deps.ts';
import { mailEnabled, type Config } from '../../platform/config.ts';
import { AppError, notFound, validation } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { isoTime } from '../../core/models.ts';
import { isCapabilityToken, sha256Hex } from '../../core/secrets.ts';
import { seatsAt } from '../../core/slot-engine.ts';
import { newOfferToken, openOfferToken } from '../../platform/access/manage-token.ts';
import type {
  BookingRecord,
  CatalogueStore,
  OutboxEvent,
  ServiceRecord,
  WaitlistEntryRecord,
  WaitlistStore,
  WorkspaceRecord,
  WorkspaceStore,
} from '../../ports/storage/index.ts';
import { busyMargin, parseCalendarDate, providerDay, resolveOffering, slotCheck, slotRules } from '../scheduling/index.ts';
import type { WaitlistEntry, WaitlistJoin } from './waitlist-model.ts';

/*
 * Waiting lists of full times (docs/contract/classes.md §2–3). An entry WAITs in order of arrival; when a seat
 * frees (a cancel, a reschedule away, an expired hold, a lapsed offer) the oldest WAITING entry of the time is
 * OFFERED: storage.offerSeats counts the seats under the provider lock reserveBooking takes, and the offer then
 * holds its seat (counted as taken everywhere) until the customer claims it (a booking made through
 * createBooking, which turns the entry BOOKED in the reservation's transaction) or the hold lapses (EXPIRED, and
 * the next one is offered). The scheduler's housekeeping (offerWaitedTimes, expireLapsedOffers) makes up for an
 * offer a crash or a failed write missed, within a minute.
 */

const MINUTE_MS = 60_000;

type WaitlistEventType = 'waitlist.joined' | 'waitlist.offered' | 'waitlist.expired';

type Store = WaitlistStore & CatalogueStore & WorkspaceStore;
type OfferDeps = { storage: Store; config: Pick<Config, 'SVC_WAITLIST_HOLD_MINUTES' | 'SVC_SECRET' | 'SVC_SMTP_URL' | 'SVC_MAIL_FROM'> };

export function toWaitlistJson(entry: WaitlistEntryRecord): WaitlistEntry {
  return {
    id: entry.id,
    status: entry.status,
    serviceId: entry.serviceId,
    providerId: entry.heldProviderId ?? entry.providerId,
    date: isoTime(entry.startTime),
    customerEmail: entry.customerEmail,
    customerName: entry.customerName,
    offerExpiresAt: entry.status === 'OFFERED' && entry.offerExpiresAt !== null ? isoTime(entry.offerExpiresAt) : null,
    bookingId: entry.bookingId,
    createdAt: isoTime(entry.createdAt),
  };
}

/** The body of a `waitlist.*` webhook: `{ type, timestamp, data: { workspace, entry } }`. */
export function waitlistEvent(type: WaitlistEventType, workspace: Pick<WorkspaceRecord, 'id' | 'slug'>, entry: WaitlistEntryRecord, at: number): OutboxEvent {
  const body = { type, timestamp: isoTime(at), data: { workspace: workspace.slug, entry: toWaitlistJson(entry) } };
  return { workspaceId: workspace.id, type, body: JSON.stringify(body), occurredAt: at };
}

// ---- Offer links: the manage-link rules (src/platform/access/manage-token.ts) ----

/** The link token of a sealed offer, or null (no secret, another secret). */
export const openWaitlistToken = (entry: WaitlistEntryRecord, svcSecret: string | undefined) => openOfferToken(entry.offerTokenSealed, svcSecret, entry.id);

/** The entry an offer link names, or 404 (malformed tokens are not looked up). */
export async function entryByToken(deps: { storage: WaitlistStore }, token: string): Promise<WaitlistEntryRecord> {
  const entry = isCapabilityToken(token) ? await deps.storage.findWaitlistEntryByToken(sha256Hex(token)) : null;
  if (!entry) throw notFound('waiting-list offer');
  return entry;
}

// ---- Joining, listing, removing ----

/**
 * POST …/waitlist: only for a service with `waitlist: true` and a time that is full on every provider asked
 * for. A free seat → 409 SLOT_AVAILABLE (book it instead); a time that is not a start of the service, or past,
 * too soon or too far ahead → 409 SLOT_UNAVAILABLE.
 */
export async function joinWaitlist(deps: AppDeps, workspace: WorkspaceRecord, body: WaitlistJoin): Promise<WaitlistEntryRecord> {
  const start = Date.parse(body.date);
  if (!Number.isFinite(start)) throw validation(`date must be a date-time with an offset, got ${body.date}`);
  const offering = await resolveOffering(deps, workspace, body.serviceId, body.providerId);
  const { service } = offering;
  if (!service.waitlist) throw validation(`${service.name} (serviceId ${service.id}) keeps no waiting list: book a free time instead`);
  const now = deps.clock.now();
  const check = slotCheck(workspace, offering, start, service.duration, now);
  const busy = await deps.storage.listBusy(
    offering.providers.map((provider) => provider.id),
    start - offering.margin,
    start + service.duration * MINUTE_MS + offering.margin,
  );
  let free = false;
  for (const provider of offering.providers) {
    if (
      check.fits(
        provider.id,
        busy.filter((interval) => interval.providerId === provider.id),
      ) === null
    )
      free = true;
  }
  if (free) throw new AppError('SLOT_AVAILABLE', `date ${body.date} has a free seat for ${service.name}: book it instead of joining the waiting list`);
  const refusal = check.refusal();
  if (!refusal.message.includes('already taken')) throw refusal;
  const entry: WaitlistEntryRecord = {
    id: newId('wl', now),
    workspaceId: workspace.id,
    serviceId: service.id,
    providerId: body.providerId ?? null,
    status: 'WAITING',
    startTime: start,
    endTime: start + service.duration * MINUTE_MS,
    bufferTime: service.bufferTime,
    customerEmail: body.email,
    customerName: body.name?.trim() ? body.name : null,
    phone: body.phone?.trim() ? body.phone : null,
    heldProviderId: null,
    offerExpiresAt: null,
    offerTokenHash: null,
    offerTokenSealed: null,
    mailDueAt: null,
    bookingId: null,
    createdAt: now,
    updatedAt: now,
  };
  const saved = await deps.storage.addWaitlistEntry(entry, [waitlistEvent('waitlist.joined', workspace, entry, now)]);
  // A seat may have freed between the check and the insert: offer it now rather than at the next sweep.
  await offerTime(deps, workspace, saved.serviceId, saved.startTime, now);
  return (await deps.storage.getWaitlistEntry(workspace.id, saved.id)) ?? saved;
}

export async function listWaitlist(deps: Pick<AppDeps, 'storage'>, workspace: WorkspaceRecord, query: { serviceId?: string; date?: string }) {
  let from: number | undefined;
  let to: number | undefined;
  if (query.date !== undefined) {
    const day = parseCalendarDate('date', query.date);
    from = day.toZonedDateTime(workspace.timezone).epochMilliseconds;
    to = day.add({ days: 1 }).toZonedDateTime(workspace.timezone).epochMilliseconds;
  }
  const entries = await deps.storage.listWaitlistEntries(workspace.id, { serviceId: query.serviceId, from, to, limit: 1000 });
  return entries.map(toWaitlistJson);
}

/** DELETE …/waitlist/{id}: an OFFERED entry's held seat goes to the next in line. */
export async function removeWaitlistEntry(deps: AppDeps, workspace: WorkspaceRecord, id: string): Promise<void> {
  const entry = await deps.storage.getWaitlistEntry(workspace.id, id);
  if (!entry || !(await deps.storage.deleteWaitlistEntry(workspace.id, id))) throw notFound(`waiting-list entry ${id}`);
  if (entry.status === 'OFFERED') await offerTime(deps, workspace, entry.serviceId, entry.startTime, deps.clock.now());
}

// ---- Offers ----

/** The service if it keeps a waiting list and is active, else null. */
async function waitlistService(deps: { storage: CatalogueStore }, workspaceId: string, serviceId: string): Promise<ServiceRecord | null> {
  const service = await deps.storage.getService(workspaceId, serviceId);
  return service?.active && service.waitlist ? service : null;
}

/**
 * Offers the free seats of one time of a service to its oldest WAITING entries, provider by provider, each under
 * that provider's lock (storage.offerSeats). Returns the entries offered.
 */
export async function offerTime(
  deps: OfferDeps,
  workspace: WorkspaceRecord,
  serviceId: string,
  startTime: number,
  now: number,
): Promise<WaitlistEntryRecord[]> {
  const service = await waitlistService(deps, workspace.id, serviceId);
  if (!service || startTime <= now) return [];
  const [services, providers] = await Promise.all([deps.storage.listServices(workspace.id, { activeOnly: false }), deps.storage.listProviders(workspace.id)]);
  const offering = providers.filter((provider) => provider.active && service.providerIds.includes(provider.id));
  const rules = slotRules(service);
  const margin = busyMargin(services);
  const holdMs = deps.config.SVC_WAITLIST_HOLD_MINUTES * MINUTE_MS;
  const mails = mailEnabled(deps.config);
  const offered: WaitlistEntryRecord[] = [];
  for (const provider of offering) {
    offered.push(
      ...(await deps.storage.offerSeats({
        workspaceId: workspace.id,
        serviceId,
        startTime,
        providerId: provider.id,
        margin,
        // An offer is made whatever the minimum notice and the advance limit: the time was bookable when joined.
        seats: (busy) => seatsAt(providerDay(workspace, provider, busy), { ...rules, minNotice: 0, maxAdvance: null }, startTime, now),
        async offer(entry) {
          const token = await newOfferToken(entry.id, deps.config.SVC_SECRET);
          return {
            offerExpiresAt: Math.min(now + holdMs, startTime),
            offerTokenHash: token.hash,
            offerTokenSealed: token.sealed,
            // Without a secret the link cannot be mailed later: no mail is due (the owner sees the offer in the panel).
            mailDueAt: mails && token.sealed ? now : null,
          };
        },
        emit: (entry) => [waitlistEvent('waitlist.offered', workspace, entry, now)],
        at: now,
      })),
    );
  }
  return offered;
}

/**
 * After a move that may have freed a seat (cancel, expiry, reschedule away): offers the old time to its waiting
 * list. Never fails the move, which has committed: the scheduler's sweep offers what this missed.
 */
export async function offerFreedSeat(deps: OfferDeps, workspace: WorkspaceRecord, before: BookingRecord, at: number): Promise<void> {
  try {
    await offerTime(deps, workspace, before.serviceId, before.startTime, at);
  } catch {
    // left to offerWaitedTimes
  }
}

/** Scheduler: every lapsed offer → EXPIRED (`waitlist.expired`), and its time offered to the next in line. */
export async function expireLapsedOffers(deps: OfferDeps, now: number): Promise<number> {
  let expired = 0;
  for (const lapsed of await deps.storage.listLapsedOffers(now, 100)) {
    const workspace = await deps.storage.getWorkspaceById(lapsed.workspaceId);
    if (!workspace) continue;
    const entry = await deps.storage.expireOffer(lapsed.id, now, (saved) => [waitlistEvent('waitlist.expired', workspace, saved, now)]);
    if (!entry) continue;
    expired++;
    await offerTime(deps, workspace, entry.serviceId, entry.startTime, now);
  }
  return expired;
}

/** Scheduler: offers the free seats of every time somebody waits for (what an immediate offer missed). */
export async function offerWaitedTimes(deps: OfferDeps, now: number): Promise<number> {
  let offered = 0;
  const seen = new Set<string>();
  for (const time of await deps.storage.listWaitedTimes(now, 500)) {
    const key = `${time.workspaceId}:${time.serviceId}:${time.startTime}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const workspace = await deps.storage.getWorkspaceById(time.workspaceId);
    if (workspace) offered += (await offerTime(deps, workspace, time.serviceId, time.startTime, now)).length;
  }
  return offered;
}
