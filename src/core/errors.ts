/** The closed list of error codes of the public contract (docs/contract/errors.md), with their HTTP status. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  CAPTCHA_FAILED: 400,
  SERVICE_NOT_FOUND: 400,
  /** a calendar server refused the credentials (docs/contract/calendars.md §2) */
  CALENDAR_AUTH_FAILED: 400,
  /** a calendar URL could not be reached, or is not a calendar (docs/contract/calendars.md §2) */
  CALENDAR_UNREACHABLE: 400,
  /** a feature this server has not been set up for (a calendar kind without its client id and secret) */
  NOT_CONFIGURED: 400,
  UNAUTHORIZED: 401,
  DOMAIN_NOT_ALLOWED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  SLOT_UNAVAILABLE: 409,
  INVALID_TRANSITION: 409,
  /** a customer's cancel or reschedule through the manage link inside cancellationHours (docs/contract/notifications.md) */
  TOO_LATE_TO_CHANGE: 409,
  /** joining a waiting list for a time that still has a free seat: book it instead (docs/contract/classes.md §2) */
  SLOT_AVAILABLE: 409,
  /** a refund of a booking with nothing paid, or nothing left to give back (docs/contract/payments.md §10) */
  NOTHING_TO_REFUND: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  /** the payment provider could not open a checkout; the booking was released (docs/contract/lifecycle.md) */
  PAYMENT_PROVIDER_ERROR: 502,
  /** the database does not answer (down, restarting, overloaded): try again after `Retry-After` (docs/contract/operations.md §13) */
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The one error type services throw; the global error handler turns it into the contract's error body. */
export class AppError extends Error {
  readonly status: number;
  /** SLOT_UNAVAILABLE of a series: the start (RFC 3339, UTC) of every occurrence that is not bookable */
  conflicts?: string[];

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const unauthorized = (message = 'missing or invalid API key') => new AppError('UNAUTHORIZED', message);
export const validation = (message: string, details?: ErrorDetail[]) => new AppError('VALIDATION_ERROR', message, details);

export interface ErrorBody {
  success: false;
  error: string;
  code: ErrorCode;
  details?: ErrorDetail[];
  conflicts?: string[];
}

export function errorBody(error: AppError): ErrorBody {
  return {
    success: false,
    error: error.message,
    code: error.code,
    ...(error.details ? { details: error.details } : {}),
    ...(error.conflicts ? { conflicts: error.conflicts } : {}),
  };
}
