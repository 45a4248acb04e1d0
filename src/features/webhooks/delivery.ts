import { backoffMs } from '../../platform/outbox/backoff.ts';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup } from '../../platform/destination.ts';
import type { Webhook as Signer } from 'standardwebhooks';
import type { MessageStatus, WebhookMessageRecord, WebhookPatch, WebhookRecord } from '../../ports/storage/index.ts';

/*
 * One delivery attempt (docs/contract/events.md, the Standard Webhooks form) and what it means for the message
 * and its endpoint. `sendAttempt` does the HTTP; `planOutcome` is pure: the dispatcher records its answer.
 */

/** A 2xx within this long is success, ms. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** An endpoint whose every delivery failed for this long is disabled, ms. */
export const FAILING_DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;
/** The longest wait a Retry-After may ask for; beyond it the header is read as this, ms. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

export const USER_AGENT = 'svc-webhooks/1';

/** What one attempt gave. */
export interface AttemptResult {
  /** the HTTP status of the answer; null when there was none */
  statusCode: number | null;
  /** why the attempt failed when the status alone does not say; null on success */
  error: string | null;
  durationMs: number;
  /** the wait a 429 or 503 asked for (Retry-After), ms */
  retryAfterMs: number | null;
}

export const isSuccess = (result: AttemptResult) => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

/** Retry-After as seconds or as an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(trimmed);
  if (!Number.isFinite(at)) return null;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

export interface SendOptions {
  url: string;
  signer: Signer;
  /** the instant the attempt is made, epoch ms: the `webhook-timestamp` */
  now: number;
  timeoutMs?: number;
  /**
   * The address the destination check approved: the connection goes there and the host name is not resolved
   * again, so a DNS answer that changes between the check and the connection (rebinding) cannot redirect the
   * attempt. The URL's host still names the server (Host header, TLS server name and certificate check).
   */
  pinnedAddress?: string;
}

interface PostAnswer {
  status: number;
  header(name: string): string | null;
}

/** One POST with node:http(s) (which, unlike fetch, takes a lookup), the answer's body read and dropped. */
function post(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal, pinnedAddress?: string): Promise<PostAnswer> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal,
        ...(pinnedAddress ? { lookup: pinnedLookup(pinnedAddress) } : {}),
      },
      (answer: IncomingMessage) => {
        // Read (and drop) the answer so the connection can be reused; the timeout covers the body too.
        answer.on('data', () => {});
        answer.on('error', reject);
        answer.on('end', () =>
          resolve({
            status: answer.statusCode ?? 0,
            header: (name) => {
              const value = answer.headers[name.toLowerCase()];
              return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
            },
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * A redirect's target without its query and fragment, which may carry a token or a customer's data: the error
 * is logged (docs/contract/operations.md §10). Null when there is none.
 */
function withoutQuery(location: string | null): string | null {
  return location ? (location.split(/[?#]/)[0] ?? '') : null;
}

/**
 * POSTs the message body exactly as stored, signed: `webhook-id` is the message id (the same on every retry),
 * `webhook-signature` is `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`. Redirects are not followed
 * (a 3xx is a failure). Never throws.
 */
export async function sendAttempt(message: Pick<WebhookMessageRecord, 'id' | 'body'>, options: SendOptions): Promise<AttemptResult> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timestamp = new Date(options.now);
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(options.now / 1000)),
    'webhook-signature': options.signer.sign(message.id, timestamp, message.body),
  };
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    // node:http never follows redirects: a 3xx comes back as the answer.
    const response = await post(new URL(options.url), headers, message.body, signal, options.pinnedAddress);
    const status = response.status;
    const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(response.header('retry-after'), options.now) : null;
    let error: string | null = null;
    if (status >= 300 && status < 400) {
      const location = withoutQuery(response.header('location'));
      error = `redirects are not followed${location ? ` (Location: ${location.slice(0, 200)})` : ''}: set the webhook url to the final address`;
    } else if (status === 410) {
      error = 'the endpoint answered 410 Gone: it was disabled';
    }
    return { statusCode: status, error, durationMs: elapsed(), retryAfterMs };
  } catch (error) {
    const timedOut = signal.aborted;
    const reason = timedOut ? `no response within ${timeoutMs / 1000} s` : `request failed: ${error instanceof Error ? error.message : String(error)}`;
    return { statusCode: null, error: reason, durationMs: elapsed(), retryAfterMs: null };
  }
}

export interface PlannedOutcome {
  status: MessageStatus;
  nextAttemptAt: number | null;
  webhook?: WebhookPatch;
}

export interface PlanInput {
  /** which attempt this was, 1 for the first */
  attempt: number;
  /** seconds to wait after each failed attempt, in order (retrySchedule(config)) */
  schedule: readonly number[];
  result: AttemptResult;
  attemptedAt: number;
  webhook: Pick<WebhookRecord, 'failingSince'>;
  /** uniform in [0, 1); the jitter's source */
  random: () => number;
}

/**
 * Pure: the message's next state and the endpoint's change after an attempt.
 * - 2xx: delivered; clears the endpoint's failing run.
 * - 410: failed, and the endpoint is disabled at once.
 * - otherwise: a failure. The endpoint's failing run starts (if it had not); once it has lasted 5 days the
 *   endpoint is disabled and the message failed. Else the message waits the schedule's next delay ±10%,
 *   or the Retry-After of a 429/503 when that is longer; after the last delay of the schedule it is failed.
 */
export function planOutcome(input: PlanInput): PlannedOutcome {
  const { result, attemptedAt, webhook } = input;
  if (isSuccess(result)) {
    return { status: 'delivered', nextAttemptAt: null, ...(webhook.failingSince !== null ? { webhook: { failingSince: null } } : {}) };
  }
  const failingSince = webhook.failingSince ?? attemptedAt;
  const startsRun = webhook.failingSince === null ? { failingSince } : {};
  if (result.statusCode === 410 || attemptedAt - failingSince >= FAILING_DISABLE_AFTER_MS) {
    return { status: 'failed', nextAttemptAt: null, webhook: { ...startsRun, isActive: false } };
  }
  const patch = Object.keys(startsRun).length > 0 ? { webhook: startsRun } : {};
  const backoff = backoffMs(input.schedule, input.attempt, input.random);
  if (backoff === null) return { status: 'failed', nextAttemptAt: null, ...patch };
  const wait = Math.max(backoff, result.retryAfterMs ?? 0);
  return { status: 'pending', nextAttemptAt: attemptedAt + wait, ...patch };
}
