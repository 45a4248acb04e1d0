import { t } from 'elysia';

/** A calendar behind a connection, with the owner's choices. */
export const ConnectedCalendar = t.Object(
  {
    id: t.String({ description: "the calendar's id within the connection (its URL for CalDAV and iCalendar)" }),
    name: t.String(),
    blocks: t.Boolean({ description: "its events block the provider's time" }),
    writes: t.Boolean({ description: "the provider's bookings are written here (one calendar per provider at most)" }),
    readOnly: t.Boolean({ description: 'svc cannot write here (an iCalendar URL, a read-only calendar)' }),
  },
  { $id: 'ConnectedCalendar' },
);

export const CalendarConnection = t.Object(
  {
    id: t.String({ description: 'cal_…' }),
    providerId: t.String(),
    kind: t.Union([t.Literal('caldav'), t.Literal('ics'), t.Literal('google'), t.Literal('microsoft')]),
    name: t.String(),
    url: t.Union([t.String(), t.Null()], { description: 'without credentials; null for google and microsoft' }),
    account: t.Union([t.String(), t.Null()]),
    status: t.Union([t.Literal('pending'), t.Literal('ok'), t.Literal('error')]),
    lastSyncedAt: t.Union([t.String({ format: 'date-time' }), t.Null()]),
    lastError: t.Union([t.String(), t.Null()], {
      description: "why the last sync (or a booking's write) failed: a sentence without secrets, in the workspace's language (en, de)",
    }),
    calendars: t.Array(ConnectedCalendar),
    createdAt: t.String({ format: 'date-time' }),
  },
  { $id: 'CalendarConnection' },
);
export type CalendarConnectionJson = typeof CalendarConnection.static;

const url = t.String({ minLength: 1, maxLength: 2048, description: 'http(s)://, or webcal:// for an iCalendar URL' });

export const CalendarConnectionCreate = t.Union(
  [
    t.Object(
      {
        kind: t.Literal('caldav'),
        url,
        username: t.Optional(t.String({ maxLength: 256 })),
        password: t.Optional(t.String({ maxLength: 1024, description: 'stored encrypted; never returned' })),
      },
      { additionalProperties: false },
    ),
    t.Object({ kind: t.Literal('ics'), url }, { additionalProperties: false }),
    t.Object({ kind: t.Union([t.Literal('google'), t.Literal('microsoft')]) }, { additionalProperties: false }),
  ],
  { $id: 'CalendarConnectionCreate' },
);
export type CalendarConnectionCreate = typeof CalendarConnectionCreate.static;

export const CalendarConnectionPatch = t.Object(
  {
    calendars: t.Array(
      t.Object({ id: t.String({ minLength: 1 }), blocks: t.Optional(t.Boolean()), writes: t.Optional(t.Boolean()) }, { additionalProperties: false }),
      { maxItems: 100 },
    ),
  },
  { $id: 'CalendarConnectionPatch', additionalProperties: false },
);
export type CalendarConnectionPatch = typeof CalendarConnectionPatch.static;

export const CalendarConnectionParams = t.Object({
  slug: t.String({ description: 'workspace slug' }),
  providerId: t.String({ description: 'provider id (prv_…)' }),
  connectionId: t.String({ description: 'calendar connection id (cal_…)' }),
});

export const CalendarConnectionResponse = t.Object({ success: t.Literal(true), connection: CalendarConnection }, { $id: 'CalendarConnectionResponse' });
export const CalendarConnectionsResponse = t.Object(
  { success: t.Literal(true), connections: t.Array(CalendarConnection) },
  { $id: 'CalendarConnectionsResponse' },
);

export const CalendarConnectionCreated = t.Object(
  {
    success: t.Literal(true),
    connection: CalendarConnection,
    authorizeUrl: t.Optional(t.String({ description: "google, microsoft: the provider's consent page, which completes the connection" })),
  },
  { $id: 'CalendarConnectionCreated' },
);
