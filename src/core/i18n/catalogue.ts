import { mail as deMail } from './de/mail.ts';
import { pages as dePages } from './de/pages.ts';
import { panel as dePanel } from './de/panel.ts';
import { widget as deWidget } from './de/widget.ts';
import { mail as enMail } from './en/mail.ts';
import { pages as enPages } from './en/pages.ts';
import { panel as enPanel } from './en/panel.ts';
import { widget as enWidget } from './en/widget.ts';

/*
 * svc's one source of words: a catalogue per language, one file per namespace under src/core/i18n/<language>/
 * (`pages`, `mail`, `widget`, `panel`). The server's pages and mails read them here; the widget and the panel
 * bundle their own namespace's files (web/widget/i18n.ts, web/panel/i18n.ts), so a bundle carries nothing else.
 * Each German file is typed by its English twin: a key missing in German does not compile.
 * A message is plain text or a function of its parameters returning plain text; escaping is the page kit's job.
 */

const en = { pages: enPages, mail: enMail, widget: enWidget, panel: enPanel };

/** Every namespace of one language. */
export type Catalogue = typeof en;

const de: Catalogue = { pages: dePages, mail: deMail, widget: deWidget, panel: dePanel };

/** The languages svc speaks; every other language gets English. */
export type Locale = 'en' | 'de';

const CATALOGUES: Record<Locale, Catalogue> = { en, de };

/** The locale of a BCP 47 language tag: `de`, `de-AT`, `de-CH` → `de`; anything else → `en`. */
export function localeOf(language: string): Locale {
  return language.toLowerCase().split('-')[0] === 'de' ? 'de' : 'en';
}

/** The whole catalogue of a language (for code that hands a namespace on, as the mail composer does). */
export function messagesFor(language: string): Catalogue {
  return CATALOGUES[localeOf(language)];
}

// biome-ignore lint/suspicious/noExplicitAny: a message function's parameters are whatever it declares
type Message = string | ((...params: any[]) => unknown);

/** Every dotted key of a catalogue that names one message: `pages.checkout.open.title`, `widget.minutes`, … */
export type MessageKey<T = Catalogue> = {
  [K in keyof T & string]: T[K] extends Message ? K : `${K}.${MessageKey<T[K]>}`;
}[keyof T & string];

/** The message at a dotted key. */
type MessageAt<T, K extends string> = K extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? MessageAt<T[Head], Rest>
    : never
  : K extends keyof T
    ? T[K]
    : never;

type ParamsOf<M> = M extends (...params: infer P) => unknown ? P : [];
type ResultOf<M> = M extends (...params: never[]) => infer R ? R : string;

/** The message at a dotted key, called with `params` when it is a function. */
function lookup(language: string, key: string, params: unknown[]): unknown {
  let message: unknown = messagesFor(language);
  for (const part of key.split('.')) message = (message as Record<string, unknown>)[part];
  if (message === undefined) throw new Error(`no message ${key}`);
  return typeof message === 'function' ? message(...params) : message;
}

/**
 * The message `key` in `language` (see localeOf), with its parameters filled in:
 * `translate('de', 'pages.checkout.pay', { amount: '35,50 €' })` → `35,50 € bezahlen`.
 */
export function translate<K extends MessageKey>(language: string, key: K, ...params: ParamsOf<MessageAt<Catalogue, K>>): ResultOf<MessageAt<Catalogue, K>> {
  return lookup(language, key, params) as ResultOf<MessageAt<Catalogue, K>>;
}

/** `translate` bound to one language and one group of keys: `const t = translator('de', 'pages.manage'); t('title')`. */
export function translator<P extends Prefix>(language: string, prefix: P) {
  type Group = MessageAt<Catalogue, P>;
  return <K extends MessageKey<Group>>(key: K, ...params: ParamsOf<MessageAt<Group, K>>) =>
    lookup(language, `${prefix}.${key}`, params) as ResultOf<MessageAt<Group, K>>;
}

/** Every dotted key that names a group of messages (a namespace, or a group inside one). */
type Prefix<T = Catalogue> = {
  [K in keyof T & string]: T[K] extends Message ? never : K | `${K}.${Prefix<T[K]>}`;
}[keyof T & string];
