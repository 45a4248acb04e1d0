import { mailEnabled, type Config } from '../../platform/config.ts';
import type { MailEntry, Storage } from '../../ports/storage/index.ts';

const HOUR_MS = 3_600_000;
const BATCH = 100;
const MAX_BATCHES = 50;

/**
 * The reminder job: a reminder mail for every CONFIRMED booking starting within SVC_REMINDER_HOURS that has
 * none for its current time yet (a rescheduled booking is reminded of its new time). Booked or moved inside
 * that window, the confirmation or move mail already said it all, so no reminder follows. Safe on several
 * instances at once: each (booking, reminder, revision) is written once. Returns how many were written.
 */
export async function queueReminders(deps: { storage: Storage; config: Config }, now: number): Promise<number> {
  if (!mailEnabled(deps.config)) return 0;
  const within = deps.config.SVC_REMINDER_HOURS * HOUR_MS;
  let written = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const bookings = await deps.storage.listDueReminders(now, within, BATCH);
    if (bookings.length === 0) break;
    const entries: MailEntry[] = bookings.map((booking) => ({
      workspaceId: booking.workspaceId,
      bookingId: booking.id,
      kind: 'reminder',
      revision: booking.revision ?? 0,
      snapshot: { status: booking.status, startTime: booking.startTime, endTime: booking.endTime, cancelReason: booking.cancelReason },
      createdAt: now,
    }));
    const added = await deps.storage.enqueueMails(entries);
    written += added;
    if (bookings.length < BATCH || added === 0) break;
  }
  return written;
}
