/**
 * The widget's words in the two languages it ships; anything else falls back to English. The
 * tables live with every other catalogue in src/core/i18n/<language>/widget.ts; only those two files are bundled.
 */
import { widget as de } from '../../src/core/i18n/de/widget.ts';
import { widget as en, type WidgetMessages } from '../../src/core/i18n/en/widget.ts';

export type Strings = WidgetMessages;

/** `de`, `de-AT` → German; anything else → English. */
export function stringsFor(language: string): Strings {
  return language.toLowerCase().split('-')[0] === 'de' ? de : en;
}

/**
 * The locale for numbers and dates: the workspace's `locale` (en-GB writes 24 March 2026, en-US March 24, 2026)
 * when it is of the language the widget speaks, else that language, else English.
 */
export function widgetLocale(language: string, workspaceLocale: string | null | undefined): string {
  const speaks = localeFor(language);
  const primary = (tag: string) => tag.toLowerCase().split('-')[0];
  return workspaceLocale && primary(workspaceLocale) === primary(speaks) ? workspaceLocale : speaks;
}

/** The locale for numbers and dates: the language asked for when the widget speaks it, else English. */
export function localeFor(language: string): string {
  return stringsFor(language) === de ? language : language.toLowerCase().startsWith('en') ? language : 'en';
}
