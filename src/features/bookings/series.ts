import type { AppDeps } from '../../platform/app-deps.ts';
import { AppError, notFound, validation } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { isoTime } from '../../core/models.ts';
import { seriesStarts, type Repeat } from '../../core/series.ts';
import { mailEnabled } from '../../platform/config.ts';
import { manageUrl, newManageToken } from '../../platform/access/manage-token.ts';
import type { BookingRecord, MailSnapshot, WorkspaceRecord } from '../../ports/storage/index.ts';
import { rankProviders, slotCheck } from '../scheduling/index.ts';
import { mailEntries } from '../mail/index.ts';
import { applyBookingMove } from './booking-move.ts';
import { startCheckout } from './checkout.ts';
import { bookingEvents } from './events.ts';
import type { Booking, BookingCreate, SeriesJson } from './model.ts';
import { jsonFor, optionalText, parseInstant, prepareBooking, toBookingJson, type CreatedBooking } from './service.ts';

/*
 * Weekly series (docs/contract/series.md): createBooking with `repeat`. Every occurrence is its own booking
 * (own id, own manage link, own events) carrying the series id; they are checked and written together by
 * storage.reserveSeries, under the same per-provider lock as a single booking, so a series never overbooks and
 * is never half written. The customer gets one mail for the whole series and pays once for all of it.
 */

const MINUTE_MS = 60_000;

type Occurrences = NonNullable<MailSnapshot['occurrences']>;

/** The occurrences a series mail lists; `moved`: as they will be once the move being made has raised their revision. */
const occurrencesOf = (bookings: readonly BookingRecord[], moved = false): Occurrences =>
  bookings.map((booking) => ({ bookingId: booking.id, startTime: booking.startTime, endTime: booking.endTime, revision: booking.revision + (moved ? 1 : 0) }));

/**
 * createBooking with `repeat`: the occurrences' starts (core/series.ts, the first one's local time kept across
 * DST), one record each, all reserved on one provider (fair assignment ranks the candidates on the first day) in
 * one transaction. Any occurrence not bookable: 409 SLOT_UNAVAILABLE listing every conflicting start, nothing
 * written. With a payment due, one checkout for the sum of every occurrence; the first occurrence carries it.
 */
export async function createSeriesBooking(
  deps: AppDeps,
  workspace: WorkspaceRecord,
  body: BookingCreate & { repeat: Repeat },
): Promise<CreatedBooking & { series: SeriesJson }> {
  const starts = seriesStarts(parseInstant('date', body.date), workspace.timezone, body.repeat);
  if (!starts.ok) throw validation(starts.message, [{ path: starts.path, message: starts.message }]);
  const { offering, record: first, manage, awaitingPayment, duration, now } = await prepareBooking(deps, workspace, body);
  const seriesId = newId('ser', now);
  const ids = starts.starts.slice(1).map(() => newId('bk', now));
  // Every occurrence has a manage link of its own; sealing them side by side keeps a year's series fast.
  const minted = await Promise.all(ids.map((id) => newManageToken(id, deps.config.SVC_SECRET)));
  const tokens = [manage.token, ...minted.map((token) => token.token)];
  const bookings: BookingRecord[] = [
    { ...first, seriesId },
    ...starts.starts.slice(1).map((start, index) => ({
      ...first,
      id: ids[index]!,
      seriesId,
      startTime: start,
      endTime: start + duration * MINUTE_MS,
      manageTokenHash: minted[index]!.hash,
      manageTokenSealed: minted[index]!.sealed,
    })),
  ];

  const checks = bookings.map((booking) => slotCheck(workspace, offering, booking.startTime, duration, now));
  const json = jsonFor(offering);
  const owner = { notify: workspace.notificationEmail !== null, byCustomer: false };
  const result = await deps.storage.reserveSeries({
    bookings,
    candidates: await rankProviders(deps, workspace, offering.providers, first.startTime),
    margin: offering.margin,
    fits: (providerId, busy, index) => checks[index]!.fits(providerId, busy),
    emit: (saved) => saved.flatMap((booking) => bookingEvents(['booking.created'], workspace, json(booking), now)),
    // One mail for the series, on its first occurrence, listing every one (and its .ics inviting to every one).
    mails: (saved) =>
      mailEnabled(deps.config)
        ? mailEntries(['booking.created'], saved[0]!, saved[0]!, now, owner).map((entry) => ({
            ...entry,
            snapshot: { ...entry.snapshot, occurrences: occurrencesOf(saved) },
          }))
        : [],
  });
  if (!result.ok) {
    const refusal = checks[result.conflicts[0] ?? 0]!.refusal();
    const error = new AppError(
      'SLOT_UNAVAILABLE',
      `${result.conflicts.length} of the ${bookings.length} occurrences cannot be booked, so none was: ${refusal.message}`,
    );
    error.conflicts = result.conflicts.map((index) => isoTime(bookings[index]!.startTime));
    throw error;
  }

  const saved = result.bookings;
  const series: SeriesJson = { id: seriesId, bookings: saved.map(json) };
  const link = manageUrl(deps.config.SVC_PUBLIC_URL, tokens[0]!);
  const head = saved[0]!;
  if (!awaitingPayment || head.amountMinor === null) return { booking: json(head), checkoutUrl: null, manageUrl: link, series };
  let checkoutUrl: string;
  try {
    checkoutUrl = await startCheckout(deps, {
      workspace,
      service: { ...offering.service, name: `${offering.service.name} ×${saved.length}` },
      booking: { ...head, amountMinor: head.amountMinor * saved.length },
      json,
    });
  } catch (error) {
    // startCheckout released the first occurrence; the others go with it.
    await moveRest(deps, workspace, saved.slice(1), 'expire', json);
    throw error;
  }
  return { booking: json(head), checkoutUrl, manageUrl: link, series };
}

/** Moves occurrences other than the one that carries the series' mail: their events, no mail. */
async function moveRest(
  deps: AppDeps,
  workspace: WorkspaceRecord,
  bookings: readonly BookingRecord[],
  action: 'confirm' | 'cancel' | 'expire',
  json: (booking: BookingRecord) => Booking,
  reason?: string | null,
  byCustomer = false,
): Promise<void> {
  for (const booking of bookings) {
    const at = deps.clock.now();
    await applyBookingMove(
      deps,
      { workspace, booking, json, at, silent: true },
      action === 'confirm' ? { action } : { action, reason: reason ?? null, byCustomer },
    );
  }
}

async function jsonOfWorkspace(deps: AppDeps, workspace: WorkspaceRecord): Promise<(booking: BookingRecord) => Booking> {
  const [services, providers] = await Promise.all([deps.storage.listServices(workspace.id, { activeOnly: false }), deps.storage.listProviders(workspace.id)]);
  const serviceNames = new Map(services.map((service) => [service.id, service.name]));
  const providerNames = new Map(providers.map((provider) => [provider.id, provider.name]));
  return (booking) =>
    toBookingJson(booking, { serviceName: serviceNames.get(booking.serviceId) ?? null, providerName: providerNames.get(booking.providerId) ?? null });
}

/**
 * The series' other occurrences still awaiting the payment `booking` (the first occurrence) carries, and the
 * occurrences its one mail lists: what a payment of a series moves besides its first occurrence.
 */
export async function seriesAwaitingPayment(
  deps: Pick<AppDeps, 'storage'>,
  workspace: WorkspaceRecord,
  booking: BookingRecord,
): Promise<{ occurrences: Occurrences; rest: BookingRecord[] } | null> {
  if (!booking.seriesId) return null;
  const waiting = (await deps.storage.listSeries(workspace.id, booking.seriesId)).filter(
    (occurrence) => occurrence.status === 'PENDING' && occurrence.holdExpiresAt !== null,
  );
  const rest = waiting.filter((occurrence) => occurrence.id !== booking.id);
  return { occurrences: occurrencesOf([booking, ...rest], true), rest };
}

/** After the series' payment was received (confirm) or closed unpaid (expire): the other occurrences follow. */
export async function settleSeriesRest(
  deps: AppDeps,
  workspace: WorkspaceRecord,
  rest: readonly BookingRecord[],
  action: 'confirm' | 'expire',
  reason?: string,
): Promise<void> {
  if (rest.length === 0) return;
  await moveRest(deps, workspace, rest, action, await jsonOfWorkspace(deps, workspace), reason);
}

export interface SeriesCancel {
  reason?: string;
  /** a date-time: only occurrences starting at or after it */
  from?: string;
  /** the customer cancelled through a manage link (the owner is told) */
  byCustomer?: boolean;
}

/**
 * Cancels the occurrences of a series not yet started (and starting at or after `from`), PENDING or CONFIRMED;
 * the others stay as they are. One mail tells the customer, listing every cancelled date. Unknown series: 404.
 */
export async function cancelSeries(deps: AppDeps, workspace: WorkspaceRecord, seriesId: string, body: SeriesCancel = {}): Promise<SeriesJson> {
  const from = body.from === undefined ? undefined : parseInstant('from', body.from);
  const all = await deps.storage.listSeries(workspace.id, seriesId);
  if (all.length === 0) throw notFound(`series ${seriesId}`);
  const json = await jsonOfWorkspace(deps, workspace);
  const now = deps.clock.now();
  const cancelling = all.filter(
    (booking) =>
      (booking.status === 'PENDING' || booking.status === 'CONFIRMED') && booking.startTime > now && (from === undefined || booking.startTime >= from),
  );
  const [head, ...rest] = cancelling;
  if (head) {
    const reason = optionalText(body.reason);
    await applyBookingMove(
      deps,
      { workspace, booking: head, json, at: now, occurrences: occurrencesOf(cancelling, true) },
      { action: 'cancel', reason, byCustomer: body.byCustomer === true },
    );
    await moveRest(deps, workspace, rest, 'cancel', json, reason, body.byCustomer === true);
  }
  return { id: seriesId, bookings: (await deps.storage.listSeries(workspace.id, seriesId)).map(json) };
}
