import { type ObjectOptions, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import { t } from 'elysia';
import { createBody } from '../../core/models.ts';
import { Booking, WaitlistEntry } from '../bookings/index.ts';
import { CalendarConnection } from '../calendars/index.ts';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from './events.ts';

/*
 * Integers use TypeBox's plain `Type.Integer` (see src/features/workspaces/model.ts): Elysia's `t.Integer` documents as
 * `anyOf` and its errors read `expected union value`.
 */

const EVENTS_DESCRIPTION = `event types subscribed to: ${WEBHOOK_EVENT_TYPES.join(', ')}; empty means all of them`;

/** The Webhook of docs/contract/resources.md, without `secret`: every route but create answers this. */
export const WebhookJson = t.Object(
  {
    id: t.String({ description: 'wh_…' }),
    name: t.Optional(t.String({ description: 'absent when none was given' })),
    url: t.String({ format: 'uri' }),
    isActive: t.Boolean({ description: 'false: nothing is delivered; set by PATCH, or by the server after a 410 answer or 5 days of failed deliveries' }),
    createdAt: t.String({ format: 'date-time' }),
    events: t.Array(t.String(), { description: EVENTS_DESCRIPTION }),
  },
  { $id: 'Webhook' },
);
export type WebhookJson = typeof WebhookJson.static;

/** The answer of create: the webhook with its signing secret, shown this once. */
export const CreatedWebhookJson = t.Object(
  {
    ...WebhookJson.properties,
    secret: t.String({
      description: 'signing secret, `whsec_` + base64 of 32 random bytes; returned only here. Verify deliveries with any Standard Webhooks library.',
    }),
  },
  { $id: 'WebhookWithSecret', description: 'A webhook with its signing secret, shown once at creation' },
);

export const WebhookResponse = t.Object({ success: t.Boolean(), webhook: WebhookJson }, { $id: 'WebhookResponse', description: 'The webhook' });
export const CreatedWebhookResponse = t.Object(
  { success: t.Boolean(), webhook: CreatedWebhookJson },
  { $id: 'CreatedWebhookResponse', description: 'The new webhook with its secret' },
);
export const WebhooksResponse = t.Object({ success: t.Boolean(), webhooks: t.Array(WebhookJson) }, { $id: 'WebhooksResponse', description: 'The webhooks' });
export { DeletedResponse } from '../workspaces/index.ts';

const webhookFields = {
  url: t.String({ format: 'uri', maxLength: 2048, description: 'an http or https URL on a public host' }),
  name: t.String({ maxLength: 200 }),
  events: t.Array(t.String({ maxLength: 64 }), { maxItems: 50, description: EVENTS_DESCRIPTION }),
};

export const WebhookCreate = createBody(webhookFields, ['url'], { $id: 'WebhookCreate' });
export type WebhookCreate = typeof WebhookCreate.static;

export const WebhookPatchBody = t.Object(
  {
    name: t.Optional(t.Union([webhookFields.name, t.Null()], { description: 'null or empty removes the name' })),
    url: t.Optional(webhookFields.url),
    events: t.Optional(webhookFields.events),
    isActive: t.Optional(t.Boolean({ description: 'true re-enables an endpoint (its failure history starts afresh); false stops deliveries' })),
  },
  { $id: 'WebhookPatch' },
);
export type WebhookPatchBody = typeof WebhookPatchBody.static;

export const WebhookParams = t.Object({
  slug: t.String({ description: 'workspace slug' }),
  webhookId: t.String({ description: 'webhook id (wh_…)' }),
});

export const MAX_DELIVERIES_PAGE = 100;
export const DEFAULT_DELIVERIES_PAGE = 50;

export const DeliveriesQuery = t.Object({
  limit: t.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_DELIVERIES_PAGE, description: `attempts to return, newest first; default ${DEFAULT_DELIVERIES_PAGE}` }),
  ),
});

export const DeliveryJson = t.Object(
  {
    id: t.String({ description: 'att_…' }),
    messageId: t.String({ description: 'msg_…, the webhook-id header of the request; the same on every attempt of a message' }),
    eventType: t.String(),
    attemptedAt: t.String({ format: 'date-time' }),
    statusCode: t.Union([Type.Integer(), t.Null()], { description: 'the HTTP status answered; null when there was no answer' }),
    error: t.Union([t.String(), t.Null()], { description: 'why the attempt failed when the status does not say (timeout, refused address, redirect)' }),
    durationMs: Type.Integer({ description: 'milliseconds' }),
    nextRetryAt: t.Union([t.String({ format: 'date-time' }), t.Null()], {
      description: 'when the message is tried again; null when it was delivered or has failed for good',
    }),
  },
  { $id: 'WebhookDelivery' },
);
export type DeliveryJson = typeof DeliveryJson.static;

export const DeliveriesResponse = t.Object(
  { success: t.Boolean(), deliveries: t.Array(DeliveryJson) },
  { $id: 'WebhookDeliveriesResponse', description: 'The delivery attempts' },
);

export const TestResponse = t.Object(
  {
    success: t.Boolean(),
    messageId: t.String({ description: 'msg_…: the webhook-id of the test delivery; follow it in the deliveries' }),
  },
  { $id: 'WebhookTestResponse', description: 'The test message, queued' },
);

/*
 * What svc POSTs to a webhook endpoint (docs/contract/events.md), documented under the OpenAPI `webhooks` section.
 * The bodies are built in src/features/bookings/events.ts, src/features/payments/service.ts, src/features/calendars/service.ts
 * and ./events.ts; a test checks that
 * the bodies they build match these schemas.
 */

const eventTypes = (prefix: string) => WEBHOOK_EVENT_TYPES.filter((type) => type.startsWith(prefix)).map((type) => t.Literal(type));
const EventTimestamp = t.String({ format: 'date-time', description: 'when the change happened, RFC 3339 in UTC' });
const EventWorkspace = t.String({ description: 'the workspace slug' });

/** An event body: its `type`, when it happened, and `data`: the workspace slug and what the event is about. */
const eventBody = <T extends TSchema, D extends TProperties>(type: T, data: D, options: ObjectOptions) =>
  t.Object({ type, timestamp: EventTimestamp, data: t.Object({ workspace: EventWorkspace, ...data }) }, options);

export const BookingEvent = eventBody(
  t.Union(eventTypes('booking.')),
  { booking: Booking },
  { $id: 'BookingEvent', description: 'A booking changed; `booking` is the booking after the change, as the API returns it' },
);

export const EventPayment = t.Object(
  {
    amount: t.Number({ description: 'decimal major units' }),
    currency: t.String({ description: 'ISO 4217, upper case' }),
    provider: t.String({ description: 'the payment provider, such as stripe or test; manual for a payment the workspace recorded by hand (markBookingPaid)' }),
    reference: t.String({ description: "the provider's id of the checkout" }),
  },
  { $id: 'EventPayment' },
);

export const PaymentEvent = eventBody(
  t.Union(eventTypes('payment.')),
  { booking: Booking, payment: EventPayment },
  { $id: 'PaymentEvent', description: 'A payment was received for a booking' },
);

export const CalendarConnectionEvent = eventBody(
  t.Union(eventTypes('calendar.')),
  { connection: CalendarConnection },
  { $id: 'CalendarConnectionEvent', description: "A provider's calendar connection failed or works again; `connection` as the API returns it" },
);

export const WaitlistEvent = eventBody(
  t.Union(eventTypes('waitlist.')),
  { entry: WaitlistEntry },
  { $id: 'WaitlistEvent', description: 'A waiting-list entry changed; `entry` is the entry after the change, as the API returns it' },
);

export const TestEvent = eventBody(
  t.Literal(WEBHOOK_TEST_EVENT),
  { webhook: t.Object({ id: t.String({ description: 'wh_…' }), url: t.String({ format: 'uri' }) }) },
  { $id: 'WebhookTestEvent', description: 'Sent on request by POST /workspaces/{slug}/webhooks/{webhookId}/test' },
);

/** The body schema and a sentence for each event an endpoint can receive. */
export const WEBHOOK_EVENTS: Record<(typeof WEBHOOK_EVENT_TYPES)[number] | typeof WEBHOOK_TEST_EVENT, { schema: TSchema; description: string }> = {
  'booking.created': {
    schema: BookingEvent,
    description: 'A booking was made (any status: PENDING while a payment or a confirmation is due, else CONFIRMED).',
  },
  'booking.confirmed': { schema: BookingEvent, description: 'A PENDING booking became CONFIRMED: confirmed by the API or the panel, or paid.' },
  'booking.cancelled': { schema: BookingEvent, description: 'A booking was cancelled, or its unpaid hold expired; its time is free again.' },
  'booking.rescheduled': { schema: BookingEvent, description: 'A booking moved to another time; `booking` carries the new times.' },
  'booking.completed': { schema: BookingEvent, description: 'A CONFIRMED booking took place: completed by the API, or automatically after its end.' },
  'payment.received': {
    schema: PaymentEvent,
    description: 'The payment provider reported a booking paid; `booking.confirmed` follows when the booking was PENDING.',
  },
  'payment.refunded': {
    schema: PaymentEvent,
    description: 'Money paid for a booking was given back; `payment.amount` is the sum of this refund, `booking.payment.refunded` the total so far.',
  },
  'calendar.connection.failed': {
    schema: CalendarConnectionEvent,
    description:
      'A calendar connection turned `error`: its credentials were refused, or 3 syncs in a row failed. Its busy times stay as last read; `lastError` says why.',
  },
  'calendar.connection.restored': { schema: CalendarConnectionEvent, description: 'A calendar connection in `error` synced again: it is `ok`.' },
  'waitlist.joined': { schema: WaitlistEvent, description: 'Somebody joined the waiting list of a full time.' },
  'waitlist.offered': {
    schema: WaitlistEvent,
    description: 'A seat freed and is held for the oldest waiting entry (mailed a link to claim it until `offerExpiresAt`).',
  },
  'waitlist.expired': { schema: WaitlistEvent, description: 'An offer lapsed unclaimed; the seat goes to the next in line.' },
  [WEBHOOK_TEST_EVENT]: { schema: TestEvent, description: 'A test message, sent to one webhook on request whatever its `events`.' },
};
