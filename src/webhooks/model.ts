import { Type } from '@sinclair/typebox';
import { t } from 'elysia';
import { WEBHOOK_EVENT_TYPES } from './events.ts';

/*
 * Integers use TypeBox's plain `Type.Integer` (see src/workspaces/model.ts): Elysia's `t.Integer` documents as
 * `anyOf` and its errors read `expected union value`.
 */

const EVENTS_DESCRIPTION = `event types subscribed to: ${WEBHOOK_EVENT_TYPES.join(', ')}; empty means all of them`;

/** The spec's Webhook (section 2), without `secret`: every route but create answers this. */
export const WebhookJson = t.Object({
  id: t.String({ description: 'wh_…' }),
  name: t.Optional(t.String({ description: 'absent when none was given' })),
  url: t.String({ format: 'uri' }),
  isActive: t.Boolean({ description: 'false: nothing is delivered; set by PATCH, or by the server after a 410 answer or 5 days of failed deliveries' }),
  createdAt: t.String({ format: 'date-time' }),
  events: t.Array(t.String(), { description: EVENTS_DESCRIPTION }),
}, { description: 'Webhook' });
export type WebhookJson = typeof WebhookJson.static;

/** The answer of create: the webhook with its signing secret, shown this once. */
export const CreatedWebhookJson = t.Object({
  ...WebhookJson.properties,
  secret: t.String({
    description: 'signing secret, `whsec_` + base64 of 32 random bytes; returned only here. Verify deliveries with any Standard Webhooks library.',
  }),
}, { description: 'Webhook with its secret' });

export const WebhookResponse = t.Object({ success: t.Boolean(), webhook: WebhookJson });
export const CreatedWebhookResponse = t.Object({ success: t.Boolean(), webhook: CreatedWebhookJson });
export const WebhooksResponse = t.Object({ success: t.Boolean(), webhooks: t.Array(WebhookJson) });
export const DeletedResponse = t.Object({ success: t.Boolean() });

const webhookFields = {
  url: t.String({ format: 'uri', maxLength: 2048, description: 'an http or https URL on a public host' }),
  name: t.String({ maxLength: 200 }),
  events: t.Array(t.String({ maxLength: 64 }), { maxItems: 50, description: EVENTS_DESCRIPTION }),
};

export const WebhookCreate = t.Object({
  url: webhookFields.url,
  name: t.Optional(webhookFields.name),
  events: t.Optional(webhookFields.events),
}, { description: 'WebhookCreate' });
export type WebhookCreate = typeof WebhookCreate.static;

export const WebhookPatchBody = t.Object({
  name: t.Optional(t.Union([webhookFields.name, t.Null()], { description: 'null or empty removes the name' })),
  url: t.Optional(webhookFields.url),
  events: t.Optional(webhookFields.events),
  isActive: t.Optional(t.Boolean({ description: 'true re-enables an endpoint (its failure history starts afresh); false stops deliveries' })),
}, { description: 'WebhookPatch' });
export type WebhookPatchBody = typeof WebhookPatchBody.static;

export const WebhookParams = t.Object({
  slug: t.String({ description: 'workspace slug' }),
  webhookId: t.String({ description: 'webhook id (wh_…)' }),
});

export const MAX_DELIVERIES_PAGE = 100;
export const DEFAULT_DELIVERIES_PAGE = 50;

export const DeliveriesQuery = t.Object({
  limit: t.Optional(Type.Integer({ minimum: 1, maximum: MAX_DELIVERIES_PAGE, description: `attempts to return, newest first; default ${DEFAULT_DELIVERIES_PAGE}` })),
});

export const DeliveryJson = t.Object({
  id: t.String({ description: 'att_…' }),
  messageId: t.String({ description: 'msg_…, the webhook-id header of the request; the same on every attempt of a message' }),
  eventType: t.String(),
  attemptedAt: t.String({ format: 'date-time' }),
  statusCode: t.Union([Type.Integer(), t.Null()], { description: 'the HTTP status answered; null when there was no answer' }),
  error: t.Union([t.String(), t.Null()], { description: 'why the attempt failed when the status does not say (timeout, refused address, redirect)' }),
  durationMs: Type.Integer({ description: 'milliseconds' }),
  nextRetryAt: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'when the message is tried again; null when it was delivered or has failed for good' }),
}, { description: 'WebhookDelivery' });
export type DeliveryJson = typeof DeliveryJson.static;

export const DeliveriesResponse = t.Object({ success: t.Boolean(), deliveries: t.Array(DeliveryJson) });

export const TestResponse = t.Object({
  success: t.Boolean(),
  messageId: t.String({ description: 'msg_…: the webhook-id of the test delivery; follow it in the deliveries' }),
});
