import type { AppDeps } from '../../platform/app-deps.ts';
import { AppError, notFound, validation } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { isoTime } from '../../core/models.ts';
import type { DeliveryAttemptRecord, WebhookPatch, WebhookRecord, WorkspaceRecord } from '../../ports/storage/index.ts';
import { checkDestination, type Resolver } from '../../platform/destination.ts';
import { testEvent, WEBHOOK_EVENT_TYPES } from './events.ts';
import { DEFAULT_DELIVERIES_PAGE, type DeliveryJson, type WebhookCreate, type WebhookJson, type WebhookPatchBody } from './model.ts';
import { newSigningSecret, sealSigningSecret } from '../../platform/sealed-secrets.ts';

type Deps = Pick<AppDeps, 'storage' | 'clock' | 'config'>;

export interface WebhookServiceOptions {
  /** resolves host names for the private-address check; default node:dns lookup */
  resolve?: Resolver;
}

/** A webhook as the API returns it: never its secret. */
export function toWebhookJson(webhook: WebhookRecord): WebhookJson {
  return {
    id: webhook.id,
    ...(webhook.name !== null ? { name: webhook.name } : {}),
    url: webhook.url,
    isActive: webhook.isActive,
    createdAt: isoTime(webhook.createdAt),
    events: webhook.events,
  };
}

export function toDeliveryJson(attempt: DeliveryAttemptRecord, eventType: string): DeliveryJson {
  return {
    id: attempt.id,
    messageId: attempt.messageId,
    eventType,
    attemptedAt: isoTime(attempt.attemptedAt),
    statusCode: attempt.statusCode,
    error: attempt.error,
    durationMs: attempt.durationMs,
    nextRetryAt: attempt.nextRetryAt === null ? null : isoTime(attempt.nextRetryAt),
  };
}

/**
 * The URL as stored: http(s) only, and (unless SVC_WEBHOOK_ALLOW_PRIVATE) not on a loopback, private,
 * link-local, carrier-grade NAT, unique-local or unspecified address, by IP or by what the name resolves to.
 * A name that does not resolve yet is accepted: every delivery checks again.
 */
export async function checkWebhookUrl(deps: Pick<AppDeps, 'config'>, input: string, options: WebhookServiceOptions = {}): Promise<string> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw validation(`url must be an absolute http or https URL, such as https://example.com/webhooks (got ${input.slice(0, 200)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw validation(`url must be an http or https URL (got ${url.protocol.replace(/:$/, '')})`);
  }
  if (!deps.config.SVC_WEBHOOK_ALLOW_PRIVATE) {
    const destination = await checkDestination(url, options.resolve);
    if (!destination.ok && !destination.unresolved) {
      throw validation(`url must point to a public host: ${destination.reason} (private networks are allowed only with SVC_WEBHOOK_ALLOW_PRIVATE=true)`);
    }
  }
  return url.href;
}

/** One webhook per address in a workspace: the same address twice would get every event twice. */
async function refuseRepeatedUrl(deps: Pick<AppDeps, 'storage'>, workspace: WorkspaceRecord, url: string, except?: string) {
  const same = (await deps.storage.listWebhooks(workspace.id)).find((webhook) => webhook.url === url && webhook.id !== except);
  if (!same) return;
  const message = `url ${url} is already the address of webhook ${same.id}: change that webhook's events instead of adding the address again`;
  throw validation(message, [{ path: '/url', message }]);
}

/** The subscription as stored: known types only, each once, in the order given. */
export function checkEvents(events: readonly string[]): string[] {
  const known: readonly string[] = WEBHOOK_EVENT_TYPES;
  for (const [index, event] of events.entries()) {
    if (!known.includes(event)) {
      throw new AppError(
        'VALIDATION_ERROR',
        `events contains an unknown event type "${event.slice(0, 64)}": use ${WEBHOOK_EVENT_TYPES.join(', ')} (or [] for all)`,
        [{ path: `/events/${index}`, message: `events.${index} must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }],
      );
    }
  }
  return [...new Set(events)];
}

const optionalName = (name: string | null | undefined) => (name === undefined || name === null || name.trim() === '' ? null : name.trim());

export async function findWebhook(deps: Pick<AppDeps, 'storage'>, workspace: WorkspaceRecord, webhookId: string): Promise<WebhookRecord> {
  const webhook = await deps.storage.getWebhook(workspace.id, webhookId);
  if (!webhook) throw notFound(`webhook ${webhookId}`);
  return webhook;
}

/** Creates an active webhook; returns it with its signing secret, which is stored only sealed and never shown again. */
export async function createWebhook(
  deps: Deps,
  workspace: WorkspaceRecord,
  body: WebhookCreate,
  options: WebhookServiceOptions = {},
): Promise<{ webhook: WebhookRecord; secret: string }> {
  const events = checkEvents(body.events ?? []);
  const url = await checkWebhookUrl(deps, body.url, options);
  await refuseRepeatedUrl(deps, workspace, url);
  if (!deps.config.SVC_SECRET) throw new AppError('INTERNAL_ERROR', 'SVC_SECRET is not set: signing secrets cannot be stored');
  const now = deps.clock.now();
  const id = newId('wh', now);
  const secret = newSigningSecret();
  const webhook: WebhookRecord = {
    id,
    workspaceId: workspace.id,
    name: optionalName(body.name),
    url,
    secret: await sealSigningSecret(secret, deps.config.SVC_SECRET, id),
    events,
    isActive: true,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.createWebhook(webhook);
  return { webhook, secret };
}

/** PATCH: the fields sent, the others kept. Re-activating clears the endpoint's run of failures. */
export async function updateWebhook(
  deps: Deps,
  workspace: WorkspaceRecord,
  webhookId: string,
  body: WebhookPatchBody,
  options: WebhookServiceOptions = {},
): Promise<WebhookRecord> {
  const patch: WebhookPatch = {};
  if (body.events !== undefined) patch.events = checkEvents(body.events);
  if (body.url !== undefined) patch.url = await checkWebhookUrl(deps, body.url, options);
  if (patch.url !== undefined) await refuseRepeatedUrl(deps, workspace, patch.url, webhookId);
  if (body.name !== undefined) patch.name = optionalName(body.name);
  const current = await findWebhook(deps, workspace, webhookId);
  if (body.isActive !== undefined) {
    patch.isActive = body.isActive;
    if (body.isActive && !current.isActive) patch.failingSince = null;
  }
  if (Object.keys(patch).length === 0) return current;
  const updated = await deps.storage.updateWebhook(workspace.id, webhookId, patch, deps.clock.now());
  if (!updated) throw notFound(`webhook ${webhookId}`);
  return updated;
}

/** Removes the webhook with its undelivered messages and its delivery log. */
export async function deleteWebhook(deps: Pick<AppDeps, 'storage'>, workspace: WorkspaceRecord, webhookId: string): Promise<void> {
  if (!(await deps.storage.deleteWebhook(workspace.id, webhookId))) throw notFound(`webhook ${webhookId}`);
}

/** Writes a `webhook.test` message for this webhook only (active or not, whatever it subscribes to). */
export async function sendTestEvent(deps: Pick<AppDeps, 'storage' | 'clock'>, workspace: WorkspaceRecord, webhookId: string): Promise<string> {
  const webhook = await findWebhook(deps, workspace, webhookId);
  const [message] = await deps.storage.enqueueEvents([testEvent(workspace, webhook, deps.clock.now())], webhook.id);
  // The webhook was deleted between the read and the write.
  if (!message) throw notFound(`webhook ${webhookId}`);
  return message.id;
}

/** The webhook's delivery attempts, newest first. */
export async function listDeliveries(
  deps: Pick<AppDeps, 'storage'>,
  workspace: WorkspaceRecord,
  webhookId: string,
  limit = DEFAULT_DELIVERIES_PAGE,
): Promise<DeliveryJson[]> {
  const webhook = await findWebhook(deps, workspace, webhookId);
  const attempts = await deps.storage.listAttempts(webhook.id, limit);
  const messageIds = [...new Set(attempts.map((attempt) => attempt.messageId))];
  const messages = await Promise.all(messageIds.map((id) => deps.storage.getMessage(id)));
  const eventTypes = new Map(messages.flatMap((message) => (message ? [[message.id, message.eventType] as const] : [])));
  return attempts.map((attempt) => toDeliveryJson(attempt, eventTypes.get(attempt.messageId) ?? 'unknown'));
}
