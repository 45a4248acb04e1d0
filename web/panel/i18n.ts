/**
 * The panel's words in the two languages it ships (the workspace's `language`); anything else falls back to
 * English. The tables live with every other catalogue in src/core/i18n/<language>/panel.ts.
 */
import { panel as de } from '../../src/core/i18n/de/panel.ts';
import { panel as en, type PanelMessages } from '../../src/core/i18n/en/panel.ts';

export type Strings = PanelMessages;

/** The strings for a BCP 47 language: `de`, `de-AT` … → German, anything else → English. */
export function stringsFor(language: string): Strings {
  return language.toLowerCase().split('-')[0] === 'de' ? de : en;
}
