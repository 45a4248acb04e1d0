import type { WidgetBooking } from '../../src/core/widget-protocol.ts';

/** 2026-03-30T07:00:00.000Z → 20260330T070000Z */
const icsTime = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** RFC 5545 text: backslash, semicolon, comma and line ends (CRLF, a lone CR or LF) escaped. */
const icsText = (text: string) =>
  text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');

/** Lines longer than 75 octets are folded (RFC 5545 section 3.1). */
function fold(line: string): string {
  const bytes = new TextEncoder().encode(line);
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const length = new TextEncoder().encode(char).length;
    if (size + length > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += length;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

interface IcsDetails {
  workspaceName: string;
  serviceName: string;
  providerName: string | null;
  /** the host of svc's address: with the booking id it makes the UID the mails' invites carry (`{bookingId}@{host}`) */
  svcHost: string;
  now: Date;
}

/**
 * A calendar file with the booking as one event, times in UTC. UID and summary are the confirmation mail's, so a
 * calendar that gets both keeps one entry.
 */
export function bookingIcs(booking: WidgetBooking, details: IcsDetails): string {
  const summary = `${details.serviceName} · ${details.workspaceName}`;
  const description = [details.serviceName, details.providerName, `Booking ${booking.id}`].filter(Boolean).join('\n');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//svc//booking widget//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${booking.id}@${details.svcHost}`,
    `DTSTAMP:${icsTime(details.now.toISOString())}`,
    `DTSTART:${icsTime(booking.startTime)}`,
    `DTEND:${icsTime(booking.endTime)}`,
    `SUMMARY:${icsText(summary)}`,
    `DESCRIPTION:${icsText(description)}`,
    `STATUS:${booking.status === 'CONFIRMED' ? 'CONFIRMED' : 'TENTATIVE'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(fold).join('\r\n') + '\r\n';
}
