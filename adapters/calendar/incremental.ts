import type { CalendarEvent } from '../../src/core/busy-times.ts';
import type { CalendarRead } from '../../src/ports/calendar.ts';

/*
 * Incremental reads of the Google and Microsoft APIs: after a full read, the provider hands out a token (Google's
 * nextSyncToken, Graph's deltaLink) and later answers only what changed since. The port's caller wants every event
 * of the calendar, so the adapter keeps the events it knows in the opaque state, keyed by the provider's event id,
 * and applies the changes to them.
 */

/** What the state string holds. */
interface IncrementalState {
  token: string;
  events: Record<string, CalendarEvent>;
}

/** A 410 answer: the provider no longer knows the token; the caller reads everything again. */
export class StaleStateError extends Error {
  constructor() {
    super('the incremental sync token is no longer valid');
    this.name = 'StaleStateError';
  }
}

export function readState(state: string | null): IncrementalState | null {
  if (!state) return null;
  try {
    const parsed = JSON.parse(state) as IncrementalState;
    return typeof parsed.token === 'string' && parsed.events && typeof parsed.events === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The calendar after `changes` (an event, or null for one removed) on top of `before` (null: a full read).
 * Without changes since `before`, `changed: false`.
 */
export function mergeChanges(before: IncrementalState | null, changes: { id: string; event: CalendarEvent | null }[], token: string | null): CalendarRead {
  if (before && changes.length === 0) return { changed: false, state: JSON.stringify({ ...before, token: token ?? before.token }) };
  const events: Record<string, CalendarEvent> = before ? { ...before.events } : {};
  for (const change of changes) {
    if (change.event) events[change.id] = change.event;
    else delete events[change.id];
  }
  return { changed: true, events: Object.values(events), state: token ? JSON.stringify({ token, events } satisfies IncrementalState) : null };
}
