import { CalendarAccessError, type CalendarSource, problemSentence } from '../../ports/calendar.ts';
import type { CalendarConnectionRecord, CalendarWriteTarget } from '../../ports/storage/index.ts';
import { accountOf, type CalendarDeps, withoutSecrets } from './service.ts';

/*
 * What the booking write-back (src/features/bookings/calendar-writer.ts) needs of the calendars: where the
 * provider's bookings go, an open connection to write there, and the connection's health when writing keeps
 * failing (docs/contract/calendars.md §7, §8).
 */

/** The provider's write calendar now (the one calendar with `writes`), with its connection; null when none. */
export async function writeCalendarOf(
  deps: Pick<CalendarDeps, 'storage'>,
  workspaceId: string,
  providerId: string,
): Promise<{ connection: CalendarConnectionRecord; target: CalendarWriteTarget; name: string } | null> {
  for (const connection of await deps.storage.listCalendarConnections(workspaceId, providerId)) {
    const calendar = connection.calendars.find((candidate) => candidate.writes && !candidate.readOnly);
    if (calendar) return { connection, target: { connectionId: connection.id, calendarId: calendar.id }, name: calendar.name };
  }
  return null;
}

/** The connection `id` of the provider, open for writing; null when it was disconnected. */
export async function openWriteConnection(
  deps: CalendarDeps,
  workspaceId: string,
  providerId: string,
  connectionId: string,
): Promise<{ connection: CalendarConnectionRecord; source: CalendarSource } | null> {
  const connection = await deps.storage.getCalendarConnection(workspaceId, providerId, connectionId);
  if (!connection) return null;
  return { connection, source: deps.calendars.open(await accountOf(deps, connection)) };
}

/**
 * A booking's event could not be written for good (its retries used up): the connection shows it, as a failed
 * sync does, until the next good sync, in the workspace's language.
 */
export async function recordWriteFailure(
  deps: Pick<CalendarDeps, 'storage' | 'clock'>,
  workspaceId: string,
  connectionId: string,
  error: unknown,
): Promise<void> {
  const language = (await deps.storage.getWorkspaceById(workspaceId))?.language ?? 'en';
  const problem = error instanceof CalendarAccessError ? error.sentence(language) : error instanceof Error ? error.message : String(error);
  const lastError = withoutSecrets(problemSentence(language, { code: 'writeFailed', values: { problem } }));
  await deps.storage.updateCalendarConnection(connectionId, { status: 'error', lastError }, deps.clock.now());
}
