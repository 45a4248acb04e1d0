import { Type } from '@sinclair/typebox';
import { t } from 'elysia';
import { ERROR_STATUS, type ErrorCode } from './errors.ts';

/** The contract's error body (docs/contract/errors.md). */
export const ErrorResponse = t.Object(
  {
    success: t.Literal(false),
    error: t.String({ description: 'what went wrong and what to fix' }),
    code: t.Union(
      (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => t.Literal(code)),
      { description: 'a stable error code from the closed list of the API description' },
    ),
    details: t.Optional(t.Array(t.Object({ path: t.String(), message: t.String() }))),
    conflicts: t.Optional(
      t.Array(t.String({ format: 'date-time' }), {
        description: 'SLOT_UNAVAILABLE of a series (createBooking with `repeat`): the start of every occurrence that is not bookable',
      }),
    ),
  },
  { $id: 'Error', description: 'The error body of every failure' },
);

/** The errors every keyed route can answer (docs/contract/errors.md: unknown slug, then key). */
export const keyedErrors = { 401: ErrorResponse, 404: ErrorResponse };
/** The errors of a keyed route that takes a body. */
export const keyedWriteErrors = { 400: ErrorResponse, ...keyedErrors };

export const SlugParams = t.Object({
  slug: t.String({ minLength: 1, maxLength: 64, description: 'workspace slug' }),
});

/** An RFC 3339 date-time that must carry an offset (docs/contract/limits.md). */
export const DateTimeWithOffset = t.String({
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|z|[+-]\\d{2}:\\d{2})$',
  description: 'a date-time with an offset, such as 2026-12-01T09:00:00Z',
});

/** Epoch milliseconds to the contract's date-time form: RFC 3339 in UTC with Z. */
export const isoTime = (epochMs: number) => new Date(epochMs).toISOString();

/** Shortest booking, minutes (docs/contract/limits.md). */
export const MIN_DURATION = 5;
/** Longest booking, minutes: a slot never outlasts the working interval of one day. */
export const MAX_DURATION = 1440;

export const Duration = Type.Integer({ minimum: MIN_DURATION, maximum: MAX_DURATION, description: 'minutes; default the service duration' });
