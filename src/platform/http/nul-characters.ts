import { AppError } from '../../core/errors.ts';

const NUL = '\u0000';

const pointerSegment = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll(NUL, '\\u0000');

/** JSON Pointer (RFC 6901) of the first string or property name in `value` holding a NUL character, or null. */
export function findNulCharacter(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const at = `${path}/${pointerSegment(key)}`;
    if (key.includes(NUL)) return at;
    const found = findNulCharacter(item, at);
    if (found !== null) return found;
  }
  return null;
}

/** `/weekly/mon/0/start` → `weekly.mon[0].start` (as validation messages name fields). */
function fieldName(path: string, part: string): string {
  const segments = path.split('/').filter(Boolean);
  return segments.map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('') || part;
}

/**
 * Refuses input holding a NUL character (U+0000) with the contract's 400 naming the field. No svc field needs
 * one, PostgreSQL text cannot store one (the write would fail with a 500), and a value that is refused early
 * never reaches a query whose failure could be logged.
 * @param part where the value came from: `body`, `query` or `params`
 */
export function rejectNulCharacters(value: unknown, part: 'body' | 'query' | 'params'): void {
  const path = findNulCharacter(value);
  if (path === null) return;
  const message = `${fieldName(path, part === 'body' ? 'request body' : part)} must not contain a NUL character (\\u0000)`;
  throw new AppError('VALIDATION_ERROR', message, [{ path: path || '/', message }]);
}
