import type { AppDeps } from '../../platform/app-deps.ts';
import { startCheckout, paymentHoldMinutes } from './checkout.ts';
import { toMajor } from '../../core/money.ts';
import { slotCheck, rankProviders, resolveOffering, busyMargin, type Offering } from '../scheduling/index.ts';
import { AppError, notFound, validation } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { isoTime } from '../../core/models.ts';
import {
  OWNER_MAIL_KINDS,
  type BookingRecord,
  type ListedBooking,
  type BookingStore,
  type CatalogueStore,
  type CustomerMailKind,
  type MailKind,
  type PaymentRecord,
  type ServiceRecord,
  type WaitlistEntryRecord,
  type WorkspaceRecord,
} from '../../ports/storage/index.ts';
import { entryByToken } from './waitlist.ts';
import { manageUrl, newManageToken } from '../../platform/access/manage-token.ts';
import { checkAnswers, fieldsFor } from './custom-field-answers.ts';
import { applyBookingMove } from './booking-move.ts';
import { initialStatus, move, type LifecycleAction } from '../../core/lifecycle.ts';
import { DEFAULT_PAGE, type Booking, type BookingCreate, type BookingPayment, type ListBookingsQuery, type SeriesJson } from './model.ts';
import { bookingPayment } from '../../core/booking-payment.ts';

const MINUTE_MS = 60_000;

/** How many times a lifecycle move is retried when the booking changed status between read and write. */
const TRANSITION_ATTEMPTS = 3;

/** The names a Booking shows next to its service and provider ids. */
export interface BookingNames {
  serviceName: string | null;
  providerName: string | null;
}

/** A booking record as the API returns it (docs/contract/routes.md); nothing internal leaks. */
export function toBookingJson(booking: ListedBooking, names: BookingNames): Booking {
  return {
    id: booking.id,
    startTime: isoTime(booking.startTime),
    endTime: isoTime(booking.endTime),
    status: booking.status,
    awaitingPayment: booking.status === 'PENDING' && booking.holdExpiresAt !== null,
    customerName: booking.customerName,
    customerEmail: booking.customerEmail,
    serviceName: names.serviceName,
    providerName: names.providerName,
    amount: booking.amountMinor === null || booking.currency === null ? null : toMajor(booking.amountMinor, booking.currency),
    payment: paymentJson(booking),
    serviceId: booking.serviceId,
    providerId: booking.providerId,
    phone: booking.phone,
    notes: booking.notes,
    customFields: booking.customFields,
    cancelReason: booking.cancelReason,
    createdAt: isoTime(booking.createdAt),
    seriesId: booking.seriesId ?? null,
  };
}

/** The booking's `payment` (docs/contract/payments.md §9), in decimal major units. */
export function paymentJson(booking: ListedBooking): BookingPayment | null {
  const view = bookingPayment(booking);
  if (!view) return null;
  const major = (minor: number) => toMajor(minor, view.currency);
  return {
    currency: view.currency,
    total: major(view.totalMinor),
    paid: major(view.paidMinor),
    due: major(view.dueMinor),
    status: view.status,
    refunded: major(view.refundedMinor),
  };
}

/** The sum due at booking, minor units: the deposit when the service has one, else the price; null when 0. */
export function amountDue(service: Pick<ServiceRecord, 'priceMinor' | 'depositMinor'>): number | null {
  const due = service.depositMinor ?? service.priceMinor;
  return due > 0 ? due : null;
}

/** An instant the API received (already checked to carry an offset), epoch ms; a 400 naming `field` otherwise. */
export function parseInstant(field: string, value: string): number {
  const instant = Date.parse(value);
  if (!Number.isFinite(instant)) throw validation(`${field} must be a date-time with an offset, such as 2026-12-01T09:00:00Z, got ${value}`);
  return instant;
}

/** Empty or blank optional text is stored as null. */
export const optionalText = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value);

async function namesOf(deps: { storage: CatalogueStore }, booking: BookingRecord): Promise<BookingNames> {
  const [service, provider] = await Promise.all([
    deps.storage.getService(booking.workspaceId, booking.serviceId),
    deps.storage.getProvider(booking.workspaceId, booking.providerId),
  ]);
  return { serviceName: service?.name ?? null, providerName: provider?.name ?? null };
}

async function findBooking(deps: { storage: BookingStore }, workspace: WorkspaceRecord, bookingId: string): Promise<BookingRecord> {
  const booking = await deps.storage.getBooking(workspace.id, bookingId);
  if (!booking) throw notFound(`booking ${bookingId}`);
  return booking;
}

export interface CreatedBooking {
  booking: Booking;
  /** createBooking with `repeat`: the series and every occurrence (the first is `booking`) */
  series?: SeriesJson;
  /** the hosted payment page when a payment is due and a provider is configured (SVC_PAYMENTS), else null */
  checkoutUrl: string | null;
  /** the customer's manage page ({app_url}/manage/{token}); its token is only in this answer and the mails */
  manageUrl: string;
}

/** A booking about to be reserved: what createBooking (and a series, see series.ts) checks before reserving. */
export interface PreparedBooking {
  offering: Offering;
  /** the record to insert, on no provider yet */
  record: BookingRecord;
  manage: { token: string; hash: string; sealed: string | null };
  awaitingPayment: boolean;
  /** minutes */
  duration: number;
  now: number;
}

/** Checks createBooking's body against the catalogue and the custom fields and builds the record to reserve. */
export async function prepareBooking(
  deps: AppDeps,
  workspace: WorkspaceRecord,
  body: BookingCreate,
  options: { claiming?: WaitlistEntryRecord } = {},
): Promise<PreparedBooking> {
  const start = parseInstant('date', body.date);
  const resolved = await resolveOffering(deps, workspace, body.serviceId, body.providerId);
  // A claimed offer was bookable when it was made: the notice and advance limits do not take it back.
  const offering = options.claiming ? { ...resolved, service: { ...resolved.service, minNotice: 0, maxAdvance: null } } : resolved;
  const { service } = offering;
  const customFields = checkAnswers(fieldsFor(await deps.storage.listCustomFields(workspace.id), service.id), body.customFields);
  if (offering.providers.length === 0) {
    throw new AppError('SLOT_UNAVAILABLE', `no active provider offers ${service.name}: link a provider to serviceId ${service.id}`);
  }

  const now = deps.clock.now();
  const duration = body.duration ?? service.duration;
  const amountMinor = amountDue(service);
  const { status, awaitingPayment } = initialStatus({
    paymentDue: amountMinor !== null,
    paymentsEnabled: deps.payments.name !== 'none',
    requiresConfirmation: workspace.requiresConfirmation,
  });
  const id = newId('bk', now);
  const manage = await newManageToken(id, deps.config.SVC_SECRET);
  const record: BookingRecord = {
    id,
    workspaceId: workspace.id,
    serviceId: service.id,
    providerId: '',
    status,
    startTime: start,
    endTime: start + duration * MINUTE_MS,
    bufferTime: service.bufferTime,
    customerName: optionalText(body.name),
    customerEmail: body.email,
    phone: optionalText(body.phone),
    notes: optionalText(body.notes),
    customFields,
    amountMinor,
    currency: service.currency,
    cancelReason: null,
    holdExpiresAt: awaitingPayment ? now + paymentHoldMinutes(deps) * MINUTE_MS : null,
    createdAt: now,
    updatedAt: now,
    revision: 0,
    manageTokenHash: manage.hash,
    manageTokenSealed: manage.sealed,
    priceMinor: service.priceMinor,
    paidMinor: 0,
    refundedMinor: 0,
  };
  return { offering, record, manage, awaitingPayment, duration, now };
}

/**
 * createBooking: checks the body against the catalogue and the custom fields, then reserves the time through
 * applyBookingMove (storage.reserveBooking runs the engine's check under its lock and writes `booking.created`
 * in the same transaction). Without `providerId` the least busy active provider offering the service that is free
 * gets the booking. A time that is not bookable is a 409 SLOT_UNAVAILABLE saying why.
 *
 * With a sum due and a payment provider configured, the booking starts PENDING, holds its slot until
 * `holdExpiresAt` (now + SVC_PAYMENT_HOLD_MINUTES, within the provider's range) and the answer carries the
 * provider's `checkoutUrl`; if the provider cannot open a checkout the booking is released and the request
 * fails with 502 PAYMENT_PROVIDER_ERROR (src/features/bookings/checkout.ts).
 */
export async function createBooking(
  deps: AppDeps,
  workspace: WorkspaceRecord,
  body: BookingCreate,
  options: { claiming?: WaitlistEntryRecord } = {},
): Promise<CreatedBooking> {
  const { offering, record, manage, awaitingPayment, duration, now } = await prepareBooking(deps, workspace, body, options);
  const { service } = offering;
  const start = record.startTime;
  const check = slotCheck(workspace, offering, start, duration, now);
  const json = jsonFor(offering);
  const result = await applyBookingMove(
    deps,
    { workspace, booking: record, json, at: now },
    {
      action: 'create',
      reservation: {
        candidates: options.claiming ? [body.providerId!] : await rankProviders(deps, workspace, offering.providers, start),
        margin: offering.margin,
        fits: check.fits,
        ...(options.claiming ? { claiming: { entryId: options.claiming.id, at: now } } : {}),
      },
    },
  );
  if (!result.ok) {
    if (options.claiming && result.kind === 'unavailable' && (result.reason.includes('offer') || !(await stillOffered(deps, options.claiming, now)))) {
      // a claim that lost to another claim of the same offer (or to its expiry) finds the seat taken: the offer is what changed
      throw new AppError('INVALID_TRANSITION', `the waiting-list offer ${options.claiming.id} has lapsed, was taken back or was already claimed`);
    }
    throw check.refusal();
  }
  const link = manageUrl(deps.config.SVC_PUBLIC_URL, manage.token);
  if (!awaitingPayment) return { booking: json(result.booking), checkoutUrl: null, manageUrl: link };
  const checkoutUrl = await startCheckout(deps, { workspace, service, booking: result.booking, json });
  return { booking: json(result.booking), checkoutUrl, manageUrl: link };
}

/** Whether the entry's offer is still open, read again (after its claim was refused). */
async function stillOffered(deps: Pick<AppDeps, 'storage'>, entry: WaitlistEntryRecord, now: number): Promise<boolean> {
  const current = await deps.storage.getWaitlistEntry(entry.workspaceId, entry.id);
  return current?.status === 'OFFERED' && (current.offerExpiresAt ?? 0) > now;
}

/** The Booking JSON of bookings of the offering's service on one of its providers. */
export function jsonFor(offering: Offering): (booking: BookingRecord) => Booking {
  const providerNames = new Map(offering.providers.map((provider) => [provider.id, provider.name]));
  return (booking) => toBookingJson(booking, { serviceName: offering.service.name, providerName: providerNames.get(booking.providerId) ?? null });
}

export async function getBooking(deps: { storage: BookingStore & CatalogueStore }, workspace: WorkspaceRecord, bookingId: string): Promise<Booking> {
  const booking = await findBooking(deps, workspace, bookingId);
  return toBookingJson(booking, await namesOf(deps, booking));
}

const isCustomerMail = <M extends { kind: MailKind }>(mail: M): mail is M & { kind: CustomerMailKind } =>
  !(OWNER_MAIL_KINDS as readonly MailKind[]).includes(mail.kind);

/** The booking's customer mails and their state, oldest first. */
export async function bookingMails(deps: Pick<AppDeps, 'storage'>, workspace: WorkspaceRecord, bookingId: string) {
  const booking = await findBooking(deps, workspace, bookingId);
  const mails = await deps.storage.listBookingMails(booking.id);
  // the owner's mails about it are not the customer's
  return mails
    .flatMap((mail) => (isCustomerMail(mail) ? [mail] : []))
    .map((mail) => ({
      id: mail.id,
      kind: mail.kind,
      status: mail.status,
      attempts: mail.attempts,
      lastError: mail.lastError,
      nextAttemptAt: mail.status === 'pending' && mail.nextAttemptAt !== null ? isoTime(mail.nextAttemptAt) : null,
      createdAt: isoTime(mail.createdAt),
      sentAt: mail.sentAt === null ? null : isoTime(mail.sentAt),
    }));
}

/** The keyset position a cursor carries: the last booking of the previous page. */
interface Position {
  startTime: number;
  id: string;
}

/** Opaque to clients: base64url of `[startTime, id]` of the last booking of a page. */
export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.startTime, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): Position {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(decoded) && decoded.length === 2 && Number.isSafeInteger(decoded[0]) && typeof decoded[1] === 'string' && decoded[1] !== '') {
      return { startTime: decoded[0], id: decoded[1] };
    }
  } catch {
    // not base64url JSON: answered below
  }
  throw validation('cursor is not valid: pass the nextCursor of the previous page unchanged');
}

/**
 * listBookings: ordered by startTime, then id; keyset pagination, so a page never repeats or skips a booking
 * that existed when the first page was read, however many bookings are added meanwhile.
 */
export async function listBookings(
  deps: { storage: BookingStore & CatalogueStore },
  workspace: WorkspaceRecord,
  query: ListBookingsQuery,
): Promise<{ bookings: Booking[]; nextCursor: string | null }> {
  const limit = query.limit ?? DEFAULT_PAGE;
  const from = query.from === undefined ? undefined : parseInstant('from', query.from);
  const to = query.to === undefined ? undefined : parseInstant('to', query.to);
  if (from !== undefined && to !== undefined && from > to) throw validation(`from must not be after to (got from ${query.from}, to ${query.to})`);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = await deps.storage.listBookings(workspace.id, {
    status: query.status,
    from,
    to,
    serviceId: query.serviceId,
    providerId: query.providerId,
    after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const [services, providers] = await Promise.all([
    page.length > 0 ? deps.storage.listServices(workspace.id, { activeOnly: false }) : [],
    page.length > 0 ? deps.storage.listProviders(workspace.id) : [],
  ]);
  const serviceNames = new Map(services.map((service) => [service.id, service.name]));
  const providerNames = new Map(providers.map((provider) => [provider.id, provider.name]));
  return {
    bookings: page.map((booking) =>
      toBookingJson(booking, {
        serviceName: serviceNames.get(booking.serviceId) ?? null,
        providerName: providerNames.get(booking.providerId) ?? null,
      }),
    ),
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
  };
}

const invalidTransition = (reason: string) => new AppError('INVALID_TRANSITION', reason);

/**
 * confirm, cancel and complete through applyBookingMove: the lifecycle decides, the status moves compare-and-set
 * with the move's events. When the booking changed status in between, it is read again and the move decided anew.
 */
export async function changeStatus(
  deps: AppDeps,
  workspace: WorkspaceRecord,
  bookingId: string,
  action: Extract<LifecycleAction, 'confirm' | 'cancel' | 'complete'>,
  options: { reason?: string; byCustomer?: boolean } = {},
): Promise<Booking> {
  for (let attempt = 0; attempt < TRANSITION_ATTEMPTS; attempt++) {
    const booking = await findBooking(deps, workspace, bookingId);
    const names = await namesOf(deps, booking);
    const input = { workspace, booking, json: (record: BookingRecord) => toBookingJson(record, names), at: deps.clock.now() };
    const result = await applyBookingMove(
      deps,
      input,
      action === 'cancel' ? { action, reason: optionalText(options.reason), byCustomer: options.byCustomer === true } : { action },
    );
    if (result.ok) return input.json(result.booking);
    if (result.kind === 'refused') throw invalidTransition(result.reason);
  }
  throw invalidTransition(
    `booking ${bookingId} kept changing status while it was being ${action === 'cancel' ? 'cancelled' : `${action}d`}; read it and try again`,
  );
}

/** The `provider` of a payment the workspace recorded by hand (markBookingPaid). */
export const MANUAL_PAYMENT_PROVIDER = 'manual';

/**
 * markBookingPaid: the owner took the money another way (cash, a bank transfer) for a booking awaiting its
 * payment. A payment of provider `manual` is recorded as paid and the booking confirmed, as a provider's payment
 * would do it (`payment.received`, `booking.confirmed`). Only a PENDING booking awaiting payment; anything else is
 * 409 INVALID_TRANSITION. The checkout opened for it stays as it is at the provider.
 */
export async function markBookingPaid(deps: AppDeps, workspace: WorkspaceRecord, bookingId: string): Promise<Booking> {
  const booking = await findBooking(deps, workspace, bookingId);
  if (booking.status !== 'PENDING' || booking.holdExpiresAt === null || booking.amountMinor === null || booking.currency === null) {
    throw invalidTransition(
      booking.status === 'PENDING'
        ? `booking ${bookingId} is not awaiting a payment: confirm it instead`
        : `a ${booking.status} booking cannot be marked as paid: only a PENDING booking awaiting its payment can`,
    );
  }
  const names = await namesOf(deps, booking);
  const now = deps.clock.now();
  const id = newId('pay', now);
  const payment: PaymentRecord = {
    id,
    workspaceId: workspace.id,
    bookingId: booking.id,
    provider: MANUAL_PAYMENT_PROVIDER,
    reference: id,
    amountMinor: booking.amountMinor,
    currency: booking.currency,
    status: 'pending',
    refundDue: false,
    checkoutUrlSealed: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.createPayment(payment);
  const json = (record: BookingRecord) => toBookingJson(record, names);
  const result = await applyBookingMove(
    deps,
    { workspace, booking, json, at: now },
    { action: 'pay', payment: { payment, from: 'pending', to: { status: 'paid' } } },
  );
  if (result.ok) return json(result.booking);
  if (result.kind === 'refused') throw invalidTransition(result.reason);
  throw invalidTransition(`booking ${bookingId} changed while it was being marked as paid; read it and try again`);
}

/**
 * reschedule: from PENDING or CONFIRMED only, to a bookable time of the same provider; the status, the
 * length and everything else stay. The check and the move happen in one reservation (applyBookingMove), with
 * `booking.rescheduled` written in the same transaction.
 */
export async function rescheduleBooking(
  deps: AppDeps,
  workspace: WorkspaceRecord,
  bookingId: string,
  date: string,
  options: { byCustomer?: boolean } = {},
): Promise<Booking> {
  const start = parseInstant('date', date);
  const booking = await findBooking(deps, workspace, bookingId);
  const now = deps.clock.now();
  const decided = move(booking, 'reschedule', now);
  if (!decided.ok) throw invalidTransition(decided.reason);

  const [services, provider] = await Promise.all([
    deps.storage.listServices(workspace.id, { activeOnly: false }),
    deps.storage.getProvider(workspace.id, booking.providerId),
  ]);
  const service = services.find((candidate) => candidate.id === booking.serviceId);
  if (!service || !provider) throw new AppError('SLOT_UNAVAILABLE', `booking ${bookingId} can no longer be moved: its service or provider was removed`);
  const offering: Offering = { service, providers: [provider], margin: busyMargin(services) };
  const length = booking.endTime - booking.startTime;
  const check = slotCheck(workspace, offering, start, length / MINUTE_MS, now);
  const json = jsonFor(offering);
  const result = await applyBookingMove(
    deps,
    { workspace, booking, json, at: now },
    {
      action: 'reschedule',
      startTime: start,
      endTime: start + length,
      reservation: { candidates: [provider.id], margin: offering.margin, fits: check.fits },
      byCustomer: options.byCustomer === true,
    },
  );
  if (result.ok) return json(result.booking);
  // Refused: because the time is not bookable, or because the booking left PENDING/CONFIRMED meanwhile.
  const current = await findBooking(deps, workspace, bookingId);
  const again = move(current, 'reschedule', now);
  if (!again.ok) throw invalidTransition(again.reason);
  throw check.refusal();
}

/**
 * POST {app_url}/api/waitlist/{token}/claim: books the seat an offer holds, as createBooking would (payment when
 * due), for the entry's customer, with the answers to the service's custom fields the claim gives (checked as
 * createBooking checks them: a missing required answer is a 400 naming the field); the entry becomes BOOKED in the
 * reservation's transaction. An entry no longer OFFERED, or whose hold lapsed, is 409 INVALID_TRANSITION; an
 * unknown token 404.
 */
export async function claimWaitlistOffer(
  deps: AppDeps,
  token: string,
  answers: { customFields?: Record<string, unknown> } = {},
): Promise<CreatedBooking & { workspace: WorkspaceRecord }> {
  const entry = await entryByToken(deps, token);
  const workspace = await deps.storage.getWorkspaceById(entry.workspaceId);
  if (!workspace) throw notFound('waiting-list offer');
  const now = deps.clock.now();
  if (entry.status !== 'OFFERED' || entry.heldProviderId === null || (entry.offerExpiresAt ?? 0) <= now) {
    throw new AppError(
      'INVALID_TRANSITION',
      entry.status === 'BOOKED'
        ? 'this offer was already claimed: see the booking mail'
        : `this offer is ${entry.status === 'OFFERED' ? 'lapsed' : entry.status.toLowerCase()} and can no longer be claimed`,
    );
  }
  const created = await createBooking(
    deps,
    workspace,
    {
      serviceId: entry.serviceId,
      providerId: entry.heldProviderId,
      date: new Date(entry.startTime).toISOString(),
      email: entry.customerEmail,
      ...(entry.customerName ? { name: entry.customerName } : {}),
      ...(entry.phone ? { phone: entry.phone } : {}),
      duration: Math.round((entry.endTime - entry.startTime) / MINUTE_MS),
      ...(answers.customFields ? { customFields: answers.customFields } : {}),
    },
    { claiming: entry },
  );
  return { ...created, workspace };
}
