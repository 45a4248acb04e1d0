import type { translator } from '../../core/i18n/catalogue.ts';
import { html, type Html } from '../../platform/pages/html.ts';
import type { CustomFieldRecord } from '../../ports/storage/index.ts';

/*
 * The questions of the offer page's "Book this place" form (docs/contract/classes.md §3): the custom fields of
 * the entry's service, as inputs a browser sends without any script (`cf_<key>`), and the answers a posted form
 * gives, in the shape createBooking's `customFields` has, so the one check of createBooking judges them.
 */

type Words = ReturnType<typeof translator<'pages.waitlist'>>;

/** A posted form as Elysia parsed it: field name → value (a checkbox that is not ticked is not sent). */
export type PostedForm = Record<string, unknown>;

const inputName = (field: CustomFieldRecord) => `cf_${field.key}`;

/** The answers a posted form gives to `fields`: numbers as numbers, a ticked box true, a box not ticked false; blanks left out. */
export function answersFromForm(fields: readonly CustomFieldRecord[], form: PostedForm): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const field of fields) {
    const value = form[inputName(field)];
    if (field.type === 'checkbox') {
      answers[field.key] = value !== undefined && value !== '';
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '') continue;
    // a number that does not read as one is passed on as typed, for the check to name it
    answers[field.key] = field.type === 'number' && Number.isFinite(Number(value)) ? Number(value) : value;
  }
  return answers;
}

/** What the form shows again after a refusal: the values as typed and the problem of each field, by key. */
export interface FormState {
  values: PostedForm;
  problems: Record<string, string>;
}

/**
 * The problems of a VALIDATION_ERROR by field key (`/customFields/allergies` → `allergies`), in the customer's
 * words: an answer left out is asked for (a box to tick, a question to answer), any other is "not valid".
 */
export function problemsByField(
  details: readonly { path: string; message: string }[] | undefined,
  fields: readonly CustomFieldRecord[],
  answers: Record<string, unknown>,
  t: Words,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const detail of details ?? []) {
    const key = /^\/customFields\/([^/]+)$/.exec(detail.path)?.[1];
    const field = fields.find((each) => each.key === key);
    if (!field || problems[field.key]) continue;
    const answer = answers[field.key];
    if (field.type === 'checkbox') problems[field.key] = answer === true ? t('answerInvalid') : t('answerTick');
    else problems[field.key] = answer === undefined ? t('answerRequired') : t('answerInvalid');
  }
  return problems;
}

/** The inputs of the custom fields, each labelled, with what was typed and its problem (aria-invalid, described by it). */
export function answerInputs(fields: readonly CustomFieldRecord[], t: Words, state: FormState | null): Html[] {
  return fields.map((field) => {
    const name = inputName(field);
    const id = `field-${field.key}`;
    const typed = state?.values[name];
    const value = typeof typed === 'string' ? typed : '';
    const problem = state?.problems[field.key];
    const invalid = problem ? html` aria-invalid="true" aria-describedby="${id}-problem"` : '';
    const required = field.required ? html` required` : '';
    const placeholder = field.placeholder ? html` placeholder="${field.placeholder}"` : '';
    const label = html`${field.label}${field.required ? '' : html` <span class="optional">${t('optional')}</span>`}`;
    const note = problem ? html`<p class="field-problem" id="${id}-problem">${problem}</p>` : '';
    if (field.type === 'checkbox') {
      const checked = typed !== undefined && typed !== '' ? html` checked` : '';
      return html`<div class="field check"><input type="checkbox" id="${id}" name="${name}" value="true"${checked}${required}${invalid}><label for="${id}">${label}</label>${note}</div>`;
    }
    let control: Html;
    if (field.type === 'textarea') {
      control = html`<textarea id="${id}" name="${name}" rows="3" maxlength="10000"${required}${placeholder}${invalid}>${value}</textarea>`;
    } else if (field.type === 'select') {
      const options = (field.options ?? []).map((option) => html`<option value="${option}"${option === value ? html` selected` : ''}>${option}</option>`);
      control = html`<select id="${id}" name="${name}"${required}${invalid}><option value="">${t('choose')}</option>${options}</select>`;
    } else {
      const type = { text: 'text', number: 'number', email: 'email', phone: 'tel', date: 'date' }[field.type];
      const extra = field.type === 'number' ? html` step="any"` : field.type === 'text' ? html` maxlength="1000"` : '';
      control = html`<input type="${type}" id="${id}" name="${name}" value="${value}"${extra}${required}${placeholder}${invalid}>`;
    }
    return html`<div class="field"><label for="${id}">${label}</label>${control}${note}</div>`;
  });
}
