import { accessDeclarations } from '../../platform/access/macro.ts';
import { keyOrSession } from '../../platform/access/policy.ts';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../platform/app-deps.ts';
import { refuseUnknownFields } from '../../platform/http/unknown-fields.ts';
import { integerQuery } from '../../platform/http/query.ts';
import { keyedErrors, keyedWriteErrors, SlugParams } from '../../core/models.ts';
import {
  CreatedWebhookResponse,
  DeletedResponse,
  DeliveriesQuery,
  DeliveriesResponse,
  TestResponse,
  WebhookCreate,
  WebhookParams,
  WebhookPatchBody,
  WebhookResponse,
  WebhooksResponse,
} from './model.ts';
import { createWebhook, deleteWebhook, findWebhook, listDeliveries, sendTestEvent, toWebhookJson, updateWebhook } from './service.ts';

const tags = ['Webhooks'];

const DELIVERY_NOTES =
  'Deliveries follow the Standard Webhooks specification: a POST of the event JSON with the headers '
  + '`webhook-id` (the message id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` '
  + '(`v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the base64-decoded part of the secret after `whsec_`). '
  + 'A 2xx within 15 s is success; redirects are not followed. Failures are retried after about 5 s, 5 min, 30 min, 2 h, 5 h, '
  + '10 h and 10 h (±10%; a longer Retry-After on 429/503 is honoured), then the message is failed. A 410 answer, or 5 days '
  + 'in which every delivery failed, sets `isActive: false`.';

/** v1 routes of a workspace's webhooks (docs/contract/routes.md); every one needs the workspace's API key. */
export function webhookRoutes(deps: AppDeps) {
  return (
    new Elysia({ name: 'webhooks', prefix: '/workspaces' })
      // No keyless reads here, not even on the demo workspace: webhook URLs are the integrator's.
      .use(accessDeclarations)
      .get(
        '/:slug/webhooks',
        async ({ principal }) => {
          const webhooks = await deps.storage.listWebhooks(principal.workspace.id);
          return { success: true, webhooks: webhooks.map(toWebhookJson) };
        },
        {
          access: keyOrSession('read'),
          params: SlugParams,
          response: { 200: WebhooksResponse, ...keyedErrors },
          detail: {
            operationId: 'listWebhooks',
            summary: 'List the webhooks of a workspace, oldest first',
            description: 'Without their secrets. Never readable without the key, not even on the demo workspace.',
            tags,
          },
        },
      )
      .post(
        '/:slug/webhooks',
        async ({ principal, body }) => {
          const { webhook, secret } = await createWebhook(deps, principal.workspace, body);
          return { success: true, webhook: { ...toWebhookJson(webhook), secret } };
        },
        {
          access: keyOrSession('svc_manage_settings'),
          params: SlugParams,
          body: WebhookCreate,
          response: { 200: CreatedWebhookResponse, ...keyedWriteErrors },
          detail: {
            operationId: 'createWebhook',
            summary: 'Add a webhook endpoint; the answer carries its signing secret, shown this once',
            description: `\`url\` must be http(s) on a public host (loopback, private, link-local, carrier-grade NAT, unique-local and unspecified addresses are refused, also when a name resolves to one, unless the server sets SVC_WEBHOOK_ALLOW_PRIVATE). \`events\` empty or absent means every event type. ${DELIVERY_NOTES}`,
            tags,
          },
        },
      )
      .get(
        '/:slug/webhooks/:webhookId',
        async ({ principal, params }) => ({
          success: true,
          webhook: toWebhookJson(await findWebhook(deps, principal.workspace, params.webhookId)),
        }),
        {
          access: keyOrSession('read'),
          params: WebhookParams,
          response: { 200: WebhookResponse, ...keyedErrors },
          detail: {
            operationId: 'getWebhook',
            summary: 'Get a webhook (without its secret)',
            description: 'The secret is shown only by createWebhook. 404 NOT_FOUND for an id not in the workspace.',
            tags,
          },
        },
      )
      .patch(
        '/:slug/webhooks/:webhookId',
        async ({ principal, params, body }) => ({
          success: true,
          webhook: toWebhookJson(await updateWebhook(deps, principal.workspace, params.webhookId, body)),
        }),
        {
          access: keyOrSession('svc_manage_settings'),
          params: WebhookParams,
          transform: refuseUnknownFields(WebhookPatchBody),
          body: WebhookPatchBody,
          response: { 200: WebhookResponse, ...keyedWriteErrors },
          detail: {
            operationId: 'updateWebhook',
            summary: 'Change a webhook: name, url, events, isActive',
            description:
              'Sets the fields sent and keeps the others. `isActive: true` re-enables an endpoint the server disabled; its failure history starts afresh. The secret never changes.',
            tags,
          },
        },
      )
      .delete(
        '/:slug/webhooks/:webhookId',
        async ({ principal, params }) => {
          await deleteWebhook(deps, principal.workspace, params.webhookId);
          return { success: true };
        },
        {
          access: keyOrSession('svc_manage_settings'),
          params: WebhookParams,
          response: { 200: DeletedResponse, ...keyedErrors },
          detail: {
            operationId: 'deleteWebhook',
            summary: 'Remove a webhook, its undelivered messages and its delivery log',
            description: 'Nothing more is sent to it, retries included. 404 NOT_FOUND for an id not in the workspace.',
            tags,
          },
        },
      )
      .post(
        '/:slug/webhooks/:webhookId/test',
        async ({ principal, params }) => ({
          success: true,
          messageId: await sendTestEvent(deps, principal.workspace, params.webhookId),
        }),
        {
          access: keyOrSession('svc_manage_settings'),
          params: WebhookParams,
          response: { 200: TestResponse, ...keyedErrors },
          detail: {
            operationId: 'testWebhook',
            summary: 'Send a webhook.test event to this webhook',
            description:
              'Queues `{ "type": "webhook.test", "timestamp", "data": { "workspace", "webhook": { "id", "url" } } }` for this webhook only, whatever its `events` and even while inactive; it is delivered and retried like any event.',
            tags,
          },
        },
      )
      .get(
        '/:slug/webhooks/:webhookId/deliveries',
        async ({ principal, params, query }) => ({
          success: true,
          deliveries: await listDeliveries(deps, principal.workspace, params.webhookId, query.limit),
        }),
        {
          access: keyOrSession('read'),
          params: WebhookParams,
          query: DeliveriesQuery,
          transform: integerQuery('limit'),
          response: { 200: DeliveriesResponse, ...keyedWriteErrors },
          detail: {
            operationId: 'listWebhookDeliveries',
            summary: 'The delivery attempts of a webhook, newest first',
            description:
              'Each attempt with its HTTP status (null when there was no answer), error, duration and the time of the next retry (null once delivered or failed). `limit` 1 to 100, default 50.',
            tags,
          },
        },
      )
  );
}
