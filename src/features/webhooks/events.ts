import { isoTime } from '../../core/models.ts';
import type { OutboxEvent, WebhookRecord, WorkspaceRecord } from '../../ports/storage/index.ts';

/** The event types a webhook may subscribe to (docs/contract/events.md); `events: []` means all of them. */
export const WEBHOOK_EVENT_TYPES = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.rescheduled',
  'booking.completed',
  'payment.received',
  'payment.refunded',
  'calendar.connection.failed',
  'calendar.connection.restored',
  'waitlist.joined',
  'waitlist.offered',
  'waitlist.expired',
] as const;

/** Sent by POST …/webhooks/{webhookId}/test to that webhook only, whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The body of a `webhook.test` message. */
export interface TestEventBody {
  type: typeof WEBHOOK_TEST_EVENT;
  /** RFC 3339, UTC */
  timestamp: string;
  data: { workspace: string; webhook: { id: string; url: string } };
}

/** The `webhook.test` event for one webhook at `at` (epoch ms); its body is serialised once, here. */
export function testEvent(workspace: Pick<WorkspaceRecord, 'id' | 'slug'>, webhook: Pick<WebhookRecord, 'id' | 'url'>, at: number): OutboxEvent {
  const body: TestEventBody = {
    type: WEBHOOK_TEST_EVENT,
    timestamp: isoTime(at),
    data: { workspace: workspace.slug, webhook: { id: webhook.id, url: webhook.url } },
  };
  return { workspaceId: workspace.id, type: WEBHOOK_TEST_EVENT, body: JSON.stringify(body), occurredAt: at };
}
