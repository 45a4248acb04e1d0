import { validation, type ErrorDetail } from '../../core/errors.ts';
import type { CustomFieldRecord } from '../../ports/storage/index.ts';

/** Longest answer of a one-line field, characters. */
const MAX_TEXT = 1000;
/** Longest answer of a textarea, characters. */
const MAX_TEXTAREA = 10_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Digits with the usual separators, an optional leading +; at least 3 digits. */
const PHONE = /^\+?[0-9 ()./-]{3,40}$/;

/** The custom fields a booking of `serviceId` answers: those with no services listed, or listing it. */
export function fieldsFor(fields: readonly CustomFieldRecord[], serviceId: string): CustomFieldRecord[] {
  return fields.filter((field) => field.serviceIds.length === 0 || field.serviceIds.includes(serviceId));
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Why `value` is not an answer to `field`, as the end of a sentence starting with the field name; null when it is. */
function problem(field: CustomFieldRecord, value: unknown): string | null {
  switch (field.type) {
    case 'text':
    case 'textarea': {
      const max = field.type === 'text' ? MAX_TEXT : MAX_TEXTAREA;
      if (typeof value !== 'string') return 'must be a string';
      return value.length > max ? `must be at most ${max} characters long` : null;
    }
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'checkbox':
      if (typeof value !== 'boolean') return 'must be true or false';
      return field.required && value !== true ? 'must be checked (true)' : null;
    case 'select':
      return typeof value === 'string' && (field.options ?? []).includes(value) ? null : `must be one of ${(field.options ?? []).join(', ')}`;
    case 'email':
      return typeof value === 'string' && value.length <= 254 && EMAIL.test(value) ? null : 'must be an email address';
    case 'phone':
      return typeof value === 'string' && PHONE.test(value) && (value.match(/\d/g)?.length ?? 0) >= 3 ? null : 'must be a phone number';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? null : 'must be a date as YYYY-MM-DD';
  }
}

function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  try {
    Temporal.PlainDate.from(value, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
}

/**
 * `customFields` as sent, before schema validation: the validator would turn an array or a string into an
 * object with numeric keys, so a value that is not a JSON object is refused here.
 */
export function requireAnswersObject(value: unknown): void {
  if (value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value))) return;
  const message = 'customFields must be an object of answers by field key';
  throw validation(message, [{ path: '/customFields', message }]);
}

/**
 * Checks the answers of a booking against the workspace's custom fields applicable to its service and keeps
 * only theirs: a missing required field, a value of the wrong type or a select value not in `options` is a
 * 400 naming the field (`customFields.allergies is required`), listing every problem in `details`. Keys of no
 * applicable field are dropped; an optional field left blank is left out. A required checkbox must be true.
 */
export function checkAnswers(fields: readonly CustomFieldRecord[], answers: Record<string, unknown> | undefined): Record<string, unknown> {
  const given = answers ?? {};
  const kept: Record<string, unknown> = {};
  const problems: ErrorDetail[] = [];
  for (const field of fields) {
    const value = Object.hasOwn(given, field.key) ? given[field.key] : undefined;
    const say = (message: string) => problems.push({ path: `/customFields/${field.key}`, message: `customFields.${field.key} ${message}` });
    if (isBlank(value)) {
      if (field.required) say(`is required (${field.label})`);
      continue;
    }
    const wrong = problem(field, value);
    if (wrong) say(wrong);
    else kept[field.key] = value;
  }
  if (problems.length > 0) throw validation(problems[0]!.message, problems);
  return kept;
}
