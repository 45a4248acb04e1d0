import { type ObjectOptions, type TObject, type TOptional, type TProperties, type TSchema, Type } from '@sinclair/typebox';
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

/** `schema`, or null. */
export const nullable = <T extends TSchema>(schema: T, options: { description?: string } = {}) => t.Union([schema, t.Null()], options);

/**
 * The create body of a resource from its `fields`: the `required` ones first, in that order, then every other
 * one, optional, in the order of `fields` (its PATCH body is `t.Partial` of it).
 */
export function createBody<F extends TProperties, const R extends readonly (keyof F & string)[]>(fields: F, required: R, options: ObjectOptions) {
  const properties: TProperties = {};
  for (const key of required) properties[key] = fields[key]!;
  for (const [key, schema] of Object.entries(fields)) if (!(required as readonly string[]).includes(key)) properties[key] = t.Optional(schema);
  return t.Object(properties, options) as TObject<{ [K in keyof F]: K extends R[number] ? F[K] : TOptional<F[K]> }>;
}

/** The errors every keyed route can answer (docs/contract/errors.md: unknown slug, then key). */
export const keyedErrors = { 401: ErrorResponse, 404: ErrorResponse };
/** The errors of a keyed route that takes a body. */
export const keyedWriteErrors = { 400: ErrorResponse, ...keyedErrors };
/** The errors of a keyed write that may reach the payment provider: refused (403), in conflict (409), or refused there (502). */
export const keyedPaymentWriteErrors = { ...keyedWriteErrors, 403: ErrorResponse, 409: ErrorResponse, 502: ErrorResponse };

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
