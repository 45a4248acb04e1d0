import { Elysia, ValidationError } from 'elysia';
import { AppError, errorBody } from '../../core/errors.ts';
import type { Logger } from '../logger.ts';
import { loggableError } from '../../core/loggable-error.ts';
import { requestIdOf } from './request-log.ts';
import { describeValueError } from './validation-messages.ts';

/** Turns whatever a handler or Elysia throws into the contract's error body (docs/contract/errors.md). */
export function toAppError(error: unknown, code: string | number): AppError | null {
  if (error instanceof AppError) return error;
  // Elysia wraps whatever a parser throws (our body-size limit included) in a ParseError.
  if (code === 'PARSE' && error instanceof Error && error.cause instanceof AppError) return error.cause;
  if (error instanceof ValidationError) {
    if (error.type === 'response') return null;
    const details = error.all.map((valueError) => describeValueError(valueError, error.type));
    const unique = details.filter((detail, index) => details.findIndex((other) => other.path === detail.path) === index);
    return new AppError('VALIDATION_ERROR', unique[0]?.message ?? 'invalid request', unique);
  }
  switch (code) {
    case 'NOT_FOUND':
      return new AppError('NOT_FOUND', 'route not found');
    case 'PARSE':
      return new AppError('VALIDATION_ERROR', 'request body is not valid JSON');
    case 'INVALID_FILE_TYPE':
      return new AppError('VALIDATION_ERROR', 'unsupported content');
    default:
      return null;
  }
}

export function errorsPlugin(logger: Logger) {
  return new Elysia({ name: 'errors' }).error({ AppError }).onError({ as: 'global' }, ({ error, code, set, request }) => {
    const known = toAppError(error, code);
    if (known) {
      set.status = known.status;
      if (known.headers) Object.assign(set.headers, known.headers);
      return errorBody(known);
    }
    const requestId = requestIdOf(request);
    logger.error('unhandled error', { requestId, ...loggableError(error) });
    set.status = 500;
    return errorBody(new AppError('INTERNAL_ERROR', `internal error (request ${requestId})`));
  });
}
