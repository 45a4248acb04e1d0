import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { tzlib_get_ical_block } from 'timezones-ical-library';

/** A booking as a calendar entry. */
export interface CalendarEntry {
  bookingId: string;
  startTime: number;
  endTime: number;
  /** CANCELLED makes a cancelled entry; PENDING a tentative one */
  status: 'PENDING' | 'CONFIRMED' | 'CANCELLED' | 'COMPLETED';
  /** the booking's revision: the entry's SEQUENCE, so calendars replace an older version of it */
  revision: number;
  summary: string;
  description: string;
  /** the manage page, when known */
  url?: string | null;
  attendee?: { email: string; name: string | null };
}

export interface CalendarOptions {
  /** svc's public address: its host makes the UIDs (`{bookingId}@{host}`), the same in mails and feeds */
  publicUrl: string;
  /** IANA zone of DTSTART/DTEND (with its VTIMEZONE) */
  timezone: string;
  name: string;
  /** REQUEST (an invite), CANCEL (a cancellation), or none (a subscribed feed) */
  method: 'REQUEST' | 'CANCEL' | null;
  /** who the invite is from (the mail's From) */
  organizer?: { name: string; email: string };
  /** epoch ms: DTSTAMP, when this document was made */
  stamp: number;
}

const zoned = (epochMs: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone);

/** The UID of a booking's calendar entry: stable for the booking's whole life, in every mail and feed. */
export const calendarUid = (bookingId: string, publicUrl: string) => `${bookingId}@${new URL(publicUrl).host}`;

function vtimezone(zone: string): string | null {
  const block = tzlib_get_ical_block(zone);
  return Array.isArray(block) && block[0] ? block[0] : null;
}

/**
 * A person's name as the CN parameter of ORGANIZER or ATTENDEE. The parameter is a quoted string; a name that
 * carries quotes, `;`, `:` or line ends could end it early or add parameters in a reader that does not decode
 * RFC 6868 fully (a customer named `Eve":mailto:evil@attacker.test;X="` must not rewrite the address), so those
 * characters become spaces: a display name needs none of them.
 */
export const calendarName = (name: string) =>
  name
    .replace(/["\\;:\p{Cc}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const STATUS = {
  PENDING: ICalEventStatus.TENTATIVE,
  CONFIRMED: ICalEventStatus.CONFIRMED,
  COMPLETED: ICalEventStatus.CONFIRMED,
  CANCELLED: ICalEventStatus.CANCELLED,
} as const;

/** An iCalendar document (RFC 5545) of `entries`, through ical-generator. */
export function calendarDocument(options: CalendarOptions, entries: CalendarEntry[]): string {
  const calendar = ical({
    name: options.name,
    prodId: { company: 'svc', product: 'bookings', language: 'EN' },
    method: options.method === null ? null : options.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    // No calendar-wide zone (ical-generator would write DTSTAMP in it); the events name theirs, and the generator
    // adds each one's VTIMEZONE.
    timezone: { name: null, generator: vtimezone },
  });
  for (const entry of entries) {
    calendar.createEvent({
      id: calendarUid(entry.bookingId, options.publicUrl),
      sequence: entry.revision,
      // Zoned instants: DTSTART/DTEND in the workspace zone with its TZID (a Date would be written as UTC digits).
      start: zoned(entry.startTime, options.timezone),
      end: zoned(entry.endTime, options.timezone),
      stamp: new Date(options.stamp),
      timezone: options.timezone,
      summary: entry.summary,
      description: entry.description,
      url: entry.url ?? null,
      status: options.method === 'CANCEL' ? ICalEventStatus.CANCELLED : STATUS[entry.status],
      organizer: options.organizer ? { ...options.organizer, name: calendarName(options.organizer.name) } : null,
      attendees:
        entry.attendee && options.method
          ? [
              {
                email: entry.attendee.email,
                name: entry.attendee.name === null ? null : calendarName(entry.attendee.name),
                role: ICalAttendeeRole.REQ,
                status: options.method === 'CANCEL' ? ICalAttendeeStatus.DECLINED : ICalAttendeeStatus.ACCEPTED,
              },
            ]
          : [],
    });
  }
  return calendar.toString();
}
