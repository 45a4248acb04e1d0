import ICAL from 'ical.js';
import { findIana } from 'windows-iana';
import type { CalendarEvent, EventTime } from '../../src/core/busy-times.ts';
import { isValidTimeZone } from '../../src/core/time.ts';

/*
 * iCalendar text (RFC 5545) → the events svc's busy-time expansion takes (src/core/busy-times.ts). ical.js parses;
 * this file only decides which IANA zone a TZID names, since calendars name zones in several ways:
 * - an IANA name (`Europe/Berlin`), as Google, Apple and most servers write;
 * - a Windows name (`W. Europe Standard Time`), as Outlook and Exchange write, mapped by the CLDR table
 *   (windows-iana);
 * - a path ending in an IANA name (`/mozilla.org/20050126_1/Europe/Berlin`, `/citadel.org/…/Europe/Berlin`);
 * - any other name defined by a VTIMEZONE block with an `X-LIC-LOCATION` (an IANA name);
 * otherwise the calendar's `X-WR-TIMEZONE` (Google's export), and failing that the value is read as floating (in
 * the workspace zone). VTIMEZONE rules themselves are not interpreted: the IANA database has the real history.
 */

export interface ParsedCalendar {
  /** X-WR-CALNAME, when the calendar names itself */
  name: string | null;
  events: CalendarEvent[];
}

/** Thrown for text that is not iCalendar. */
export class NotICalendarError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotICalendarError';
  }
}

/** The IANA zone a TZID names, or null when none can be told. */
export function ianaZoneOf(tzid: string, locations: Map<string, string> = new Map()): string | null {
  const name = tzid.trim().replace(/^"(.*)"$/, '$1');
  if (isValidTimeZone(name) && name.includes('/')) return name;
  const windows = findIana(name)[0];
  if (windows && isValidTimeZone(windows)) return windows;
  const parts = name.split('/').filter(Boolean);
  for (let index = 1; index < parts.length; index++) {
    const tail = parts.slice(index).join('/');
    if (tail.includes('/') && isValidTimeZone(tail)) return tail;
  }
  const location = locations.get(name);
  if (location && isValidTimeZone(location)) return location;
  if (isValidTimeZone(name)) return name;
  return null;
}

const valuesOf = (property: ICAL.Property) => property.getValues() as unknown[];

/** One value of a date or date-time property, as an EventTime in a resolved zone. */
function eventTime(value: unknown, tzid: string | null, zoneFor: (tzid: string | null) => string | null): EventTime | null {
  const time = value instanceof ICAL.Period ? value.start : value;
  if (!(time instanceof ICAL.Time)) return null;
  const text = time.toString();
  if (time.isDate) return { date: text.slice(0, 10) };
  const local = text.slice(0, 19);
  if (time.zone === ICAL.Timezone.utcTimezone || text.endsWith('Z')) return { local, zone: 'UTC' };
  return { local, zone: tzid ? zoneFor(tzid) : null };
}

function timesOf(component: ICAL.Component, name: string, zoneFor: (tzid: string | null) => string | null): EventTime[] {
  const times: EventTime[] = [];
  for (const property of component.getAllProperties(name)) {
    const tzid = (property.getParameter('tzid') as string | undefined) ?? null;
    for (const value of valuesOf(property)) {
      const time = eventTime(value, tzid, zoneFor);
      if (time) times.push(time);
    }
  }
  return times;
}

function firstTime(component: ICAL.Component, name: string, zoneFor: (tzid: string | null) => string | null): EventTime | null {
  return timesOf(component, name, zoneFor)[0] ?? null;
}

/** Parses iCalendar text; throws NotICalendarError when it is not a VCALENDAR. */
export function parseICalendar(text: string): ParsedCalendar {
  if (!/^\s*BEGIN:VCALENDAR/i.test(text)) throw new NotICalendarError('the answer is not an iCalendar file (no BEGIN:VCALENDAR)');
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch (error) {
    throw new NotICalendarError(`the iCalendar file could not be read (${error instanceof Error ? error.message : String(error)})`);
  }
  const locations = new Map<string, string>();
  for (const zone of root.getAllSubcomponents('vtimezone')) {
    const tzid = zone.getFirstPropertyValue('tzid');
    const location = zone.getFirstPropertyValue('x-lic-location');
    if (typeof tzid === 'string' && typeof location === 'string') locations.set(tzid, location);
  }
  const calendarZoneName = root.getFirstPropertyValue('x-wr-timezone');
  const calendarZone = typeof calendarZoneName === 'string' ? ianaZoneOf(calendarZoneName, locations) : null;
  const zoneFor = (tzid: string | null) => (tzid ? (ianaZoneOf(tzid, locations) ?? calendarZone) : null);

  const events: CalendarEvent[] = [];
  for (const vevent of root.getAllSubcomponents('vevent')) {
    const start = firstTime(vevent, 'dtstart', zoneFor);
    const uid = vevent.getFirstPropertyValue('uid');
    if (!start) continue;
    const duration = vevent.getFirstPropertyValue('duration');
    const rrule = vevent.getFirstPropertyValue('rrule');
    const transp = String(vevent.getFirstPropertyValue('transp') ?? '').toUpperCase();
    const status = String(vevent.getFirstPropertyValue('status') ?? '').toUpperCase();
    events.push({
      uid: typeof uid === 'string' && uid ? uid : `no-uid-${events.length}`,
      start,
      end: firstTime(vevent, 'dtend', zoneFor),
      duration: duration instanceof ICAL.Duration ? duration.toString() : null,
      rrule: rrule instanceof ICAL.Recur ? rrule.toString() : null,
      rdates: timesOf(vevent, 'rdate', zoneFor),
      exdates: timesOf(vevent, 'exdate', zoneFor),
      recurrenceId: firstTime(vevent, 'recurrence-id', zoneFor),
      transparent: transp === 'TRANSPARENT',
      cancelled: status === 'CANCELLED',
    });
  }
  const name = root.getFirstPropertyValue('x-wr-calname');
  return { name: typeof name === 'string' && name.trim() ? name.trim() : null, events };
}
