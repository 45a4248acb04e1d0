import type { ErrorDetail } from '../../core/errors.ts';

interface SchemaLike {
  type?: string | string[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  const?: unknown;
  anyOf?: SchemaLike[];
  enum?: unknown[];
  description?: string;
  [key: string]: unknown;
}

interface ValueErrorLike {
  path: string;
  value: unknown;
  message: string;
  schema: SchemaLike;
}

const FORMAT_PHRASES: Record<string, string> = {
  email: 'an email address',
  'date-time': 'a date-time with an offset, such as 2026-12-01T09:00:00Z',
  date: 'a date as YYYY-MM-DD',
  uri: 'a URL',
};

/** `/weekly/mon/0/start` → `weekly.mon[0].start`. */
function fieldName(path: string, part: string): string {
  const name = path
    .split('/')
    .filter(Boolean)
    .map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join('');
  return name || (part === 'body' ? 'request body' : part);
}

const TYPE_NOUNS: Record<string, string> = { string: 'strings', integer: 'integers', number: 'numbers', boolean: 'booleans', object: 'objects' };

function literalChoices(schema: SchemaLike): unknown[] | null {
  if (schema.enum) return schema.enum;
  if (schema.anyOf?.every((option) => option.const !== undefined)) return schema.anyOf.map((option) => option.const);
  return null;
}

function range(low: number | undefined, high: number | undefined, unit = ''): string {
  if (low !== undefined && high !== undefined) return `between ${low} and ${high}${unit}`;
  if (low !== undefined) return `at least ${low}${unit}`;
  return `at most ${high}${unit}`;
}

/** One human sentence for a schema violation, naming the field: `email must be an email address`. */
export function describeValueError(error: ValueErrorLike, part: string): ErrorDetail {
  const field = fieldName(error.path, part);
  const { schema, value } = error;
  const say = (message: string): ErrorDetail => ({ path: error.path || '/', message: `${field} ${message}` });
  if (value === undefined) return say('is required');
  const choices = literalChoices(schema);
  if (choices) return say(`must be one of ${choices.join(', ')}`);
  if (schema.anyOf) {
    // Nullable fields (T | null), and Elysia's numeric types (a number, or a string of digits).
    const nullable = schema.anyOf.some((option) => option.type === 'null');
    const inner = schema.anyOf.find((option) => option.type === 'integer' || option.type === 'number') ?? schema.anyOf.find((option) => option.type !== 'null');
    if (inner) {
      const described = describeValueError({ ...error, schema: inner }, part);
      if (!nullable) return described;
      const requirement = described.message.slice(field.length + 1).replace(/^must not be empty$/, 'must be a non-empty string');
      return say(`${requirement} or null`);
    }
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (typeof value !== 'string') return say('must be a string');
      if (schema.format && FORMAT_PHRASES[schema.format]) return say(`must be ${FORMAT_PHRASES[schema.format]}`);
      if (schema.minLength !== undefined && value.length < schema.minLength && schema.minLength === 1) return say('must not be empty');
      if ((schema.minLength !== undefined && value.length < schema.minLength) || (schema.maxLength !== undefined && value.length > schema.maxLength)) {
        return say(`must be ${range(schema.minLength, schema.maxLength, ' characters long')}`);
      }
      if (schema.pattern) return say(schema.description ? `must be ${schema.description}` : `must match ${schema.pattern}`);
      return say('is not valid');
    case 'integer':
    case 'number': {
      // Query and path values arrive as text; in a JSON body a number must be a JSON number.
      const fromText = part === 'query' || part === 'params';
      const numeric = fromText && typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof numeric !== 'number' || Number.isNaN(numeric)) return say(`must be ${type === 'integer' ? 'an integer' : 'a number'}`);
      if (type === 'integer' && !Number.isInteger(numeric)) return say('must be an integer');
      return say(`must be ${type === 'integer' ? 'an integer ' : ''}${range(schema.minimum, schema.maximum)}`);
    }
    case 'boolean':
      return say('must be true or false');
    case 'array':
      if (!Array.isArray(value)) return say('must be an array');
      if ((schema.minItems !== undefined && value.length < schema.minItems) || (schema.maxItems !== undefined && value.length > schema.maxItems)) {
        return say(`must have ${range(schema.minItems, schema.maxItems, ' items')}`);
      }
      return say(`must be a list of ${TYPE_NOUNS[String((schema.items as SchemaLike | undefined)?.type)] ?? 'valid items'}`);
    case 'object':
      return say('must be an object');
    default:
      return say(error.message.toLowerCase());
  }
}
