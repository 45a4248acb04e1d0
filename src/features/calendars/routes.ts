import { Elysia, t } from 'elysia';
import { keyedErrors, keyedWriteErrors } from '../../core/models.ts';
import { accessDeclarations } from '../../platform/access/macro.ts';
import { keyOrSession } from '../../platform/access/policy.ts';
import type { AppDeps } from '../../platform/app-deps.ts';
import { refuseUnknownFields } from '../../platform/http/unknown-fields.ts';
import { ProviderParams } from '../services/index.ts';
import {
  CalendarConnectionCreate,
  CalendarConnectionCreated,
  CalendarConnectionParams,
  CalendarConnectionPatch,
  CalendarConnectionResponse,
  CalendarConnectionsResponse,
} from './model.ts';
import {
  chooseCalendars,
  createConnection,
  createOAuthConnection,
  deleteConnection,
  getConnection,
  listConnections,
  syncNow,
  toConnectionJson,
} from './service.ts';

const tags = ['Calendars'];

const FETCH_RULES =
  'Calendar URLs must be on public hosts (loopback, private and link-local addresses are refused, also when a name resolves to one, '
  + 'unless the server sets SVC_CALENDAR_ALLOW_PRIVATE; every redirect is checked again); each request may take 10 s and return 10 MiB.';

/** v1 routes of a provider's other calendars (docs/contract/calendars.md). */
export function calendarRoutes(deps: AppDeps) {
  const base = '/:slug/providers/:providerId/calendars';
  return new Elysia({ name: 'calendars', prefix: '/workspaces' })
    .use(accessDeclarations)
    .get(
      base,
      async ({ principal, params }) => ({
        success: true,
        connections: (await listConnections(deps, principal.workspace, params.providerId)).map(toConnectionJson),
      }),
      {
        access: keyOrSession('read'),
        params: ProviderParams,
        response: { 200: CalendarConnectionsResponse, ...keyedErrors },
        detail: {
          operationId: 'listCalendarConnections',
          summary: "List a provider's calendar connections, oldest first",
          description: 'Without credentials: passwords are never returned. 404 NOT_FOUND for a provider not in the workspace.',
          tags,
        },
      },
    )
    .post(
      base,
      async ({ principal, params, body }) => {
        if (body.kind === 'google' || body.kind === 'microsoft') {
          const { connection, authorizeUrl } = await createOAuthConnection(deps, principal.workspace, params.providerId, body.kind);
          return { success: true as const, connection: toConnectionJson(connection), authorizeUrl };
        }
        return { success: true as const, connection: toConnectionJson(await createConnection(deps, principal.workspace, params.providerId, body)) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: ProviderParams,
        body: CalendarConnectionCreate,
        response: { 200: CalendarConnectionCreated, ...keyedWriteErrors },
        detail: {
          operationId: 'createCalendarConnection',
          summary: 'Connect a calendar of the provider: a CalDAV account, an iCalendar URL, Google Calendar or Microsoft 365',
          description:
            '`{ kind: "caldav", url, username?, password? }`: a CalDAV server, principal or calendar URL; svc finds the calendars. '
            + '`{ kind: "ics", url }`: a read-only iCalendar URL (http(s):// or webcal://). The connection is tried and synced once before '
            + 'the answer: refused credentials → 400 CALENDAR_AUTH_FAILED; unreachable, or not a calendar → 400 CALENDAR_UNREACHABLE; '
            + '`{ kind: "google" }`, `{ kind: "microsoft" }`: a pending connection and `authorizeUrl`, the provider\'s consent page (OAuth 2.0 '
            + 'with PKCE; its state works once, for 10 minutes), which returns to {app_url}/oauth/{kind}/callback and completes the connection; '
            + '400 NOT_CONFIGURED on a server without their client id and secret. The password and the tokens are stored '
            + `encrypted and never returned. Discovered calendars start with blocks: true, writes: false. ${FETCH_RULES}`,
          tags,
        },
      },
    )
    .get(
      `${base}/:connectionId`,
      async ({ principal, params }) => ({
        success: true,
        connection: toConnectionJson(await getConnection(deps, principal.workspace, params.providerId, params.connectionId)),
      }),
      {
        access: keyOrSession('read'),
        params: CalendarConnectionParams,
        response: { 200: CalendarConnectionResponse, ...keyedErrors },
        detail: {
          operationId: 'getCalendarConnection',
          summary: 'Get a calendar connection',
          description: 'Its status, last sync and calendars. 404 NOT_FOUND for an id not of this provider.',
          tags,
        },
      },
    )
    .patch(
      `${base}/:connectionId`,
      async ({ principal, params, body }) => ({
        success: true,
        connection: toConnectionJson(await chooseCalendars(deps, principal.workspace, params.providerId, params.connectionId, body)),
      }),
      {
        access: keyOrSession('svc_manage_operations'),
        params: CalendarConnectionParams,
        transform: refuseUnknownFields(CalendarConnectionPatch),
        body: CalendarConnectionPatch,
        response: { 200: CalendarConnectionResponse, ...keyedWriteErrors },
        detail: {
          operationId: 'updateCalendarConnection',
          summary: 'Choose which calendars block the provider and which one receives their bookings',
          description:
            '`{ calendars: [{ id, blocks?, writes? }] }`. `blocks` takes effect at once. `writes: true` makes that calendar the '
            + "provider's one write calendar, clearing it on their other calendars; on a read-only calendar → 400 VALIDATION_ERROR.",
          tags,
        },
      },
    )
    .delete(
      `${base}/:connectionId`,
      async ({ principal, params, set }) => {
        await deleteConnection(deps, principal.workspace, params.providerId, params.connectionId);
        set.status = 204;
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: CalendarConnectionParams,
        response: { 204: t.Void({ description: 'Disconnected' }), ...keyedErrors },
        detail: {
          operationId: 'deleteCalendarConnection',
          summary: 'Disconnect a calendar',
          description: '204. Its busy times stop blocking at once; events svc wrote there stay.',
          tags,
        },
      },
    )
    .post(
      `${base}/:connectionId/sync`,
      async ({ principal, params }) => ({
        success: true,
        connection: toConnectionJson(await syncNow(deps, principal.workspace, params.providerId, params.connectionId)),
      }),
      {
        access: keyOrSession('svc_manage_operations'),
        params: CalendarConnectionParams,
        response: { 200: CalendarConnectionResponse, ...keyedErrors },
        detail: {
          operationId: 'syncCalendarConnection',
          summary: 'Sync a calendar connection now',
          description:
            'Waits for the sync at most 20 s and answers the connection as it then stands. A sync that fails still answers 200, with '
            + '`lastError` set (and `status: "error"` after a refused password or three failures in a row).',
          tags,
        },
      },
    );
}
