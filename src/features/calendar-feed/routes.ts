import { Elysia, t } from 'elysia';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { keyOrSession, openRoute } from '../../platform/access/policy.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { ProviderParams } from '../services/index.ts';
import { keyedErrors } from '../../core/models.ts';
import { calendarFeedDocument, FEED_DAYS_BACK, newCalendarFeed } from './service.ts';

const CalendarFeedResponse = t.Object(
  {
    success: t.Boolean(),
    url: t.String({ description: '`{app_url}/ics/{token}.ics`: the feed address, a secret of whoever holds it' }),
  },
  { $id: 'CalendarFeedResponse' },
);

const FeedParams = t.Object({ file: t.String({ minLength: 1, maxLength: 200 }) });

/** v1: a provider's calendar feed address (docs/contract/notifications.md). */
export function calendarFeedRoutes(deps: AppDeps) {
  return new Elysia({ name: 'calendar-feed', prefix: '/workspaces' })
    .use(accessDeclarations)
    .post(
      '/:slug/providers/:providerId/calendar-feed',
      async ({ principal, params }) => ({ success: true, url: await newCalendarFeed(deps, principal.workspace, params.providerId) }),
      {
        access: keyOrSession('svc_manage_operations'),
        params: ProviderParams,
        response: { 200: CalendarFeedResponse, ...keyedErrors },
        detail: {
          operationId: 'createCalendarFeed',
          summary: "Make a provider's calendar feed address",
          description:
            `An iCalendar feed of the provider's PENDING (tentative) and CONFIRMED bookings from ${FEED_DAYS_BACK} days back, for any calendar app to `
            + "subscribe to; each entry has the UID of the booking in the customer's invites. A new call replaces the address: the old one answers 404 "
            + 'from then on. The address is the only credential, so share it like a password.',
          tags: ['Providers'],
        },
      },
    );
}

/** `{app_url}/ics/{token}.ics`: the feed itself, for calendar apps (no credential but the address). */
export function calendarFeedDocumentRoutes(deps: AppDeps) {
  return new Elysia({ name: 'calendar-feed-document' }).use(accessDeclarations).get(
    '/ics/:file',
    async ({ params }) => {
      const token = params.file.endsWith('.ics') ? params.file.slice(0, -'.ics'.length) : '';
      const document = token ? await calendarFeedDocument(deps, token) : null;
      if (document === null) {
        return new Response('Not found: this calendar address is unknown or was replaced.\n', {
          status: 404,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        });
      }
      return new Response(document, {
        headers: {
          'content-type': 'text/calendar; charset=utf-8',
          'content-disposition': 'inline; filename="bookings.ics"',
          // Calendar apps poll the feed; a shared cache must not keep a copy of someone's appointments.
          'cache-control': 'private, max-age=300',
          'x-content-type-options': 'nosniff',
        },
      });
    },
    // The token in the path is the credential: guesses count against the client address (docs/contract/limits.md).
    { params: FeedParams, openAccess: openRoute('v1'), detail: { hide: true } },
  );
}
