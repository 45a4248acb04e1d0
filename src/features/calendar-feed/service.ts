import type { AppDeps } from '../../platform/app-deps.ts';
import { calendarDocument, type CalendarEntry } from '../mail/index.ts';
import { findProvider } from '../services/index.ts';
import { CAPABILITY_TOKEN_BYTES, isCapabilityToken, randomToken, sha256Hex } from '../../core/secrets.ts';
import type { WorkspaceRecord } from '../../ports/storage/index.ts';

/*
 * A provider's calendar feed (docs/contract/notifications.md): `{app_url}/ics/{token}.ics`, subscribed to by any calendar
 * app. The token is the only credential (256 random bits, stored as its SHA-256, redacted from the request log);
 * a new feed replaces the provider's old one, whose address then stops working.
 */

const DAY_MS = 86_400_000;
/** How far back the feed reaches: a calendar keeps showing last month's appointments. */
export const FEED_DAYS_BACK = 30;
/** The most entries one feed carries: a calendar app polls it, so it stays small enough to answer at once. */
const FEED_MAX_ENTRIES = 5000;

export const calendarFeedUrl = (publicUrl: string, token: string) => `${publicUrl}/ics/${token}.ics`;

/** A new feed address for the provider (404 NOT_FOUND for a provider not in the workspace); the old one stops. */
export async function newCalendarFeed(deps: Pick<AppDeps, 'storage' | 'clock' | 'config'>, workspace: WorkspaceRecord, providerId: string): Promise<string> {
  const provider = await findProvider(deps, workspace, providerId);
  const token = randomToken('', CAPABILITY_TOKEN_BYTES);
  await deps.storage.putCalendarFeed({ providerId: provider.id, workspaceId: workspace.id, tokenHash: sha256Hex(token), createdAt: deps.clock.now() });
  return calendarFeedUrl(deps.config.SVC_PUBLIC_URL, token);
}

/**
 * The iCalendar document of the feed `token` opens, or null: the provider's PENDING (tentative) and CONFIRMED
 * bookings from FEED_DAYS_BACK days ago on, with the UIDs and SEQUENCEs of the customer's invites, so an
 * entry is one and the same booking everywhere.
 */
export async function calendarFeedDocument(deps: Pick<AppDeps, 'storage' | 'clock' | 'config'>, token: string): Promise<string | null> {
  if (!isCapabilityToken(token)) return null;
  const feed = await deps.storage.findCalendarFeed(sha256Hex(token));
  const workspace = feed ? await deps.storage.getWorkspaceById(feed.workspaceId) : null;
  const provider = feed && workspace ? await deps.storage.getProvider(workspace.id, feed.providerId) : null;
  if (!feed || !workspace || !provider) return null;
  const now = deps.clock.now();
  const [bookings, services] = await Promise.all([
    deps.storage.listProviderBookings(workspace.id, provider.id, now - FEED_DAYS_BACK * DAY_MS, FEED_MAX_ENTRIES),
    deps.storage.listServices(workspace.id, { activeOnly: false }),
  ]);
  const serviceNames = new Map(services.map((service) => [service.id, service.name]));
  const entries: CalendarEntry[] = bookings.map((booking) => {
    const customer = booking.customerName ?? booking.customerEmail;
    return {
      bookingId: booking.id,
      startTime: booking.startTime,
      endTime: booking.endTime,
      status: booking.status,
      revision: booking.revision,
      summary: `${serviceNames.get(booking.serviceId) ?? booking.serviceId} · ${customer}`,
      description: [booking.customerName, booking.customerEmail, booking.phone, booking.notes].filter(Boolean).join('\n'),
    };
  });
  return calendarDocument(
    { publicUrl: deps.config.SVC_PUBLIC_URL, timezone: workspace.timezone, name: `${provider.name} · ${workspace.name}`, method: null, stamp: now },
    entries,
  );
}
