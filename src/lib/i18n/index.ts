/**
 * UI strings in Japanese and English. One flat dictionary per language, keys shared: `Messages`
 * is derived from the English table, so a key missing in Japanese is a type error.
 * Browser-safe (no server imports). The language is chosen per request on the server (cookie
 * `kantera_lang`, else the browser's Accept-Language) and passed to pages; see `pickLanguage`.
 *
 * This module holds no dictionary: each one is a third of the play page's JavaScript, and a reader
 * needs one. The browser loads the reader's with `loadMessages` (the root `+layout.ts`, before any page
 * renders); the server, the CLI and tests, which answer in any language at any moment, import
 * `$lib/i18n/all-languages`, which registers every table when it loads.
 */
import type { en } from './en';
import { isLanguage, type Language } from '../types/settings';

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

/** The tables loaded so far in this process or page, by language. */
const TABLES: Partial<Record<Language, Messages>> = {};

/** Every story language has a table: the UI speaks the same languages the stories are written in. */
const LOADERS: Record<Language, () => Promise<Messages>> = {
	en: async () => (await import('./en')).en,
	ja: async () => (await import('./ja')).ja
};

/** Each language's name in itself, for language switches and badges: they show every language, whatever table is loaded. */
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ja: '日本語' };

export const LANGUAGE_COOKIE = 'kantera_lang';

/** The locale dates and numbers are written in for each UI language, one for all pages: a new language needs one. */
const LOCALES: Record<Language, string> = { en: 'en-US', ja: 'ja-JP' };

/** Makes `table` the strings `translate` uses for `language`. */
export function useMessages(language: Language, table: Messages): void {
	TABLES[language] = table;
}

/** Fetches `language`'s table once (a chunk of its own in the browser); `translate` can use it when this resolves. */
export async function loadMessages(language: Language): Promise<void> {
	TABLES[language] ??= await LOADERS[language]();
}

/** The language's own name ("日本語"), whichever tables are loaded. */
export function languageName(language: Language): string {
	return LANGUAGE_NAMES[language];
}

/** The BCP 47 locale for `toLocaleString` and `Intl` in `language`. */
export function localeOf(language: Language): string {
	return LOCALES[language];
}

/** `{name}` placeholders are replaced from `params`; unknown placeholders stay visible (a bug to fix, not to hide). */
export function translate(language: Language, key: MessageKey, params: Record<string, string | number> = {}): string {
	const table = TABLES[language];
	// A page that renders before its language is loaded is a bug in how it loads, not something to paper over with English.
	if (table === undefined) throw new Error(`The ${language} UI strings are not loaded (loadMessages, or import $lib/i18n/all-languages)`);
	const template = table[key];
	return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** A `t` bound to one language, for components. */
export function translator(language: Language): (key: MessageKey, params?: Record<string, string | number>) => string {
	return (key, params) => translate(language, key, params);
}

/** The cookie's choice, else the first of the browser's languages we have, else English. */
export function pickLanguage(cookie: string | undefined, acceptLanguage: string | null): Language {
	if (isLanguage(cookie)) return cookie;
	const wanted = (acceptLanguage ?? '')
		.split(',')
		.map((part) => {
			const [tag = '', ...params] = part.trim().split(';');
			const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())?.[1]).find((x) => x !== undefined);
			return { lang: tag.toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q) };
		})
		.filter((x) => x.lang && x.q > 0)
		.sort((a, b) => b.q - a.q);
	return wanted.map((w) => w.lang).find(isLanguage) ?? 'en';
}
