/*
 * The one way svc writes HTML: the `html` tag escapes every interpolated value for HTML content and quoted
 * attribute values; a fragment built by `html` (or vouched for with `raw`) goes in as it is. An array
 * interpolates each item the same way; null, undefined and false write nothing.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const escapeText = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** A piece of markup that is safe to write as it is. */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** What an `html` template takes between `${}`. */
export type Interpolation = Html | string | number | null | undefined | false | readonly Interpolation[];

function write(value: Interpolation): string {
  if (value instanceof Html) return value.markup;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(write).join('');
  return escapeText(String(value));
}

/** Markup with every interpolation escaped: html`<p>${name}</p>`. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let markup = strings[0]!;
  for (let i = 0; i < values.length; i++) markup += write(values[i]!) + strings[i + 1]!;
  return new Html(markup);
}

/** Markup written as it is: only for fragments svc itself made (never for anything a user or a record holds). */
export const raw = (trusted: string) => new Html(trusted);
