import { createKindWorker, retryAtOf, retryWait, rowQueue, type OutboxKindOptions } from '../../platform/outbox/kind.ts';
import type { OutboxHandler, OutboxWorker } from '../../platform/outbox/worker.ts';
import type { CalendarConnector } from '../../ports/calendar.ts';
import type { BookingRecord, CalendarWriteOutcome, CalendarWriteRecord, CalendarWriteTarget } from '../../ports/storage/index.ts';
import { openWriteConnection, recordWriteFailure, writeCalendarOf } from '../calendars/index.ts';
import { calendarDocument, calendarUid } from '../mail/index.ts';

/*
 * The write-back of bookings into their provider's write calendar (docs/contract/calendars.md §7) on the outbox
 * worker (platform/outbox/worker.ts). The queue is the calendar-write outbox, one row per booking, raised by every
 * booking change in its transaction; an attempt makes the remote event match the booking as it is when attempted:
 * PENDING (tentative) or CONFIRMED → the event is put under the booking's invite UID with SEQUENCE = its revision;
 * any other status → the event is removed. Both are idempotent by UID (a put that finds the UID replaces it), so
 * an attempt made twice (a crash before the record, a lost lease) neither loses nor doubles an event. Failures are
 * retried on the webhook schedule; once it is used up, the connection shows the failure (`lastError`).
 */

/** What createCalendarWriter takes (concurrency: writes in flight at most, default 4). */
export interface CalendarWriterOptions extends OutboxKindOptions {
  calendars: CalendarConnector;
}

const DEFAULT_CONCURRENCY = 4;

const sameTarget = (a: CalendarWriteTarget, b: CalendarWriteTarget) => a.connectionId === b.connectionId && a.calendarId === b.calendarId;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createCalendarWriter(options: CalendarWriterOptions): OutboxWorker {
  const { storage, config, clock, logger } = options;
  const wait = retryWait(options);
  const deps = { storage, config, clock, logger, calendars: options.calendars };

  /** The booking's event as iCalendar: the invite's UID, SEQUENCE its revision, TENTATIVE while PENDING. */
  async function eventOf(booking: BookingRecord, at: number): Promise<string> {
    const [workspace, service] = await Promise.all([storage.getWorkspaceById(booking.workspaceId), storage.getService(booking.workspaceId, booking.serviceId)]);
    const customer = booking.customerName ?? booking.customerEmail;
    return calendarDocument(
      { publicUrl: config.SVC_PUBLIC_URL, timezone: workspace?.timezone ?? 'UTC', name: workspace?.name ?? 'svc', method: null, stamp: at },
      [
        {
          bookingId: booking.id,
          startTime: booking.startTime,
          endTime: booking.endTime,
          status: booking.status,
          revision: booking.revision,
          summary: `${service?.name ?? booking.serviceId} · ${customer}`,
          description: [booking.customerName, booking.customerEmail, booking.phone, booking.notes].filter(Boolean).join('\n'),
        },
      ],
    );
  }

  /** Makes the remote match `booking`; resolves with where its event now stands. `touching` names the connection in use, for a failure. */
  async function follow(booking: BookingRecord, written: CalendarWriteTarget | null, at: number, touching: { connectionId: string | null }) {
    const uid = calendarUid(booking.id, config.SVC_PUBLIC_URL);
    const holds = booking.status === 'PENDING' || booking.status === 'CONFIRMED';
    const write = holds ? await writeCalendarOf(deps, booking.workspaceId, booking.providerId) : null;
    let where = written;
    // The event leaves a calendar it no longer belongs in (cancelled, or the write calendar changed); a
    // disconnected calendar keeps what svc wrote there.
    if (where && !(write && sameTarget(where, write.target))) {
      touching.connectionId = where.connectionId;
      const open = await openWriteConnection(deps, booking.workspaceId, booking.providerId, where.connectionId);
      if (open) await open.source.deleteEvent(where.calendarId, uid);
      where = null;
    }
    if (write) {
      touching.connectionId = write.target.connectionId;
      const open = await openWriteConnection(deps, booking.workspaceId, booking.providerId, write.target.connectionId);
      if (open) {
        await open.source.putEvent(write.target.calendarId, uid, await eventOf(booking, at));
        where = write.target;
      }
    }
    return where;
  }

  const handler: OutboxHandler<CalendarWriteRecord, CalendarWriteOutcome> = {
    async attempt(row) {
      const at = clock.now();
      const booking = await storage.getBooking(row.workspaceId, row.bookingId);
      if (!booking) return { revision: row.revision, status: 'done', nextAttemptAt: null, error: null, written: row.written, at };
      const touching = { connectionId: null as string | null };
      try {
        const written = await follow(booking, row.written, at, touching);
        return { revision: booking.revision, status: 'done', nextAttemptAt: null, error: null, written, at };
      } catch (error) {
        const message = messageOf(error);
        const retryIn = wait(row.attempts + 1);
        if (retryIn !== null) return { revision: booking.revision, status: 'pending', nextAttemptAt: at + retryIn, error: message, written: row.written, at };
        if (touching.connectionId) await recordWriteFailure(deps, booking.workspaceId, touching.connectionId, error);
        return { revision: booking.revision, status: 'failed', nextAttemptAt: null, error: message, written: row.written, at };
      }
    },
    recorded(row, outcome) {
      if (outcome.status === 'done')
        logger.debug('calendar write', { bookingId: row.bookingId, revision: outcome.revision, written: outcome.written !== null });
      else
        logger.warn('calendar write failed', {
          bookingId: row.bookingId,
          attempt: row.attempts + 1,
          error: outcome.error,
          retryAt: retryAtOf(outcome.nextAttemptAt),
        });
    },
  };

  const queue = rowQueue<CalendarWriteRecord, CalendarWriteOutcome>('calendar write', {
    nextDueAt: () => storage.nextCalendarWriteDueAt(),
    claim: (...args) => storage.claimDueCalendarWrites(...args),
    extendLeases: (...args) => storage.extendCalendarWriteLeases(...args),
    record: (...args) => storage.recordCalendarWrite(...args),
  });
  return createKindWorker(options, DEFAULT_CONCURRENCY, queue, handler);
}
