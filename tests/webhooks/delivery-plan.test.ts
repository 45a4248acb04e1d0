import { describe, expect, test } from 'bun:test';
import { FAILING_DISABLE_AFTER_MS, parseRetryAfter, planOutcome, type AttemptResult, type PlanInput } from '../../src/features/webhooks/delivery.ts';

const AT = Date.parse('2026-11-23T08:00:00.000Z');
const SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];
const ok: AttemptResult = { statusCode: 200, error: null, durationMs: 12, retryAfterMs: null };
const failed = (statusCode: number | null, retryAfterMs: number | null = null): AttemptResult => ({ statusCode, error: null, durationMs: 12, retryAfterMs });

const plan = (overrides: Partial<PlanInput>) =>
  planOutcome({
    attempt: 1,
    schedule: SCHEDULE,
    result: ok,
    attemptedAt: AT,
    webhook: { failingSince: null },
    random: () => 0.5,
    ...overrides,
  });

describe('planOutcome (pure)', () => {
  test('any 2xx delivers; a 2xx after failures clears the failing run', () => {
    expect(plan({ result: { ...ok, statusCode: 204 } })).toEqual({ status: 'delivered', nextAttemptAt: null });
    expect(plan({ webhook: { failingSince: AT - 1000 } })).toEqual({ status: 'delivered', nextAttemptAt: null, webhook: { failingSince: null } });
  });

  test('the default schedule: retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then failed (8 attempts in all)', () => {
    const waits = SCHEDULE.map((_, index) => plan({ attempt: index + 1, result: failed(500), webhook: { failingSince: AT } }).nextAttemptAt! - AT);
    expect(waits).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(plan({ attempt: 8, result: failed(500), webhook: { failingSince: AT } })).toEqual({ status: 'failed', nextAttemptAt: null });
  });

  test('jitter stays within ±10% of the scheduled delay', () => {
    expect(plan({ result: failed(500), random: () => 0 }).nextAttemptAt! - AT).toBe(4_500);
    expect(plan({ result: failed(500), random: () => 0.999999 }).nextAttemptAt! - AT).toBe(5_500);
  });

  test('the first failure starts the failing run; later ones keep its start', () => {
    expect(plan({ result: failed(null) })).toEqual({ status: 'pending', nextAttemptAt: AT + 5_000, webhook: { failingSince: AT } });
    expect(plan({ result: failed(500), webhook: { failingSince: AT - 60_000 } })).toEqual({ status: 'pending', nextAttemptAt: AT + 5_000 });
  });

  test('410 fails the message and disables the endpoint at once', () => {
    expect(plan({ result: failed(410) })).toEqual({ status: 'failed', nextAttemptAt: null, webhook: { failingSince: AT, isActive: false } });
    expect(plan({ result: failed(410), webhook: { failingSince: AT - 1 } })).toEqual({ status: 'failed', nextAttemptAt: null, webhook: { isActive: false } });
  });

  test('a failure 5 days into the failing run disables the endpoint; one just before does not', () => {
    expect(plan({ result: failed(500), webhook: { failingSince: AT - FAILING_DISABLE_AFTER_MS } })).toEqual({
      status: 'failed',
      nextAttemptAt: null,
      webhook: { isActive: false },
    });
    expect(plan({ result: failed(500), webhook: { failingSince: AT - FAILING_DISABLE_AFTER_MS + 1 } }).status).toBe('pending');
  });

  test('a longer Retry-After wins over the schedule; a shorter one does not', () => {
    expect(plan({ result: failed(503, 60_000) }).nextAttemptAt).toBe(AT + 60_000);
    expect(plan({ result: failed(429, 1_000) }).nextAttemptAt).toBe(AT + 5_000);
  });
});

describe('parseRetryAfter', () => {
  test('seconds, an HTTP date, garbage, and the 24 h ceiling', () => {
    expect(parseRetryAfter('120', AT)).toBe(120_000);
    expect(parseRetryAfter(new Date(AT + 90_000).toUTCString(), AT)).toBe(90_000);
    expect(parseRetryAfter(new Date(AT - 90_000).toUTCString(), AT)).toBe(0);
    expect(parseRetryAfter('soon', AT)).toBeNull();
    expect(parseRetryAfter(null, AT)).toBeNull();
    expect(parseRetryAfter('9999999', AT)).toBe(24 * 60 * 60 * 1000);
  });
});
