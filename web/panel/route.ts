/*
 * Where the panel is: a section, and in Bookings perhaps one booking. Standalone, the address says it
 * (`/admin`, `/admin/services`, `/admin/bookings/{id}`; docs/contract/first-day.md §5), so a reload, Back and a
 * bookmark land where the owner was. Embedded, the iframe's address stays as the host made it and only the
 * `section` query value (and the host's `navigate` message) choose the section.
 */
import { sectionOf, type Section } from '../protocol/panel-protocol.ts';

export interface Route {
  section: Section;
  /** the booking open in Bookings */
  bookingId: string | null;
}

export const ADMIN_PATH = '/admin';

/** The route an /admin address names; anything unknown is the dashboard. */
export function routeOfPath(pathname: string): Route {
  const [section, id] = pathname
    .slice(ADMIN_PATH.length)
    .split('/')
    .filter(Boolean)
    .map((part) => decodeURIComponent(part));
  const known = sectionOf(section);
  return { section: known, bookingId: known === 'bookings' && id ? id : null };
}

/** The /admin address of a route. */
export function pathOfRoute(route: Route): string {
  if (route.section === 'dashboard') return ADMIN_PATH;
  return `${ADMIN_PATH}/${route.section}${route.bookingId ? `/${encodeURIComponent(route.bookingId)}` : ''}`;
}
