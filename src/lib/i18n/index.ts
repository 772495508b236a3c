/**
 * UI strings in Japanese and English. One flat dictionary per language, keys shared: `Messages`
 * is derived from the English table, so a key missing in Japanese is a type error.
 * Browser-safe (no server imports). The language is chosen per request on the server (cookie
 * `kantera_lang`, else the browser's Accept-Language) and passed to pages; see `pickLanguage`.
 */
import { en } from './en';
import { ja } from './ja';
import { isLanguage, type Language } from '../types/settings';

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

/** A table for every story language: the UI speaks the same languages the stories are written in. */
const TABLES: Record<Language, Messages> = { en, ja };

export const LANGUAGE_COOKIE = 'kantera_lang';

/** The locale dates and numbers are written in for each UI language, one for all pages: a new language needs one. */
const LOCALES: Record<Language, string> = { en: 'en-US', ja: 'ja-JP' };

/** The BCP 47 locale for `toLocaleString` and `Intl` in `language`. */
export function localeOf(language: Language): string {
	return LOCALES[language];
}

/** `{name}` placeholders are replaced from `params`; unknown placeholders stay visible (a bug to fix, not to hide). */
export function translate(language: Language, key: MessageKey, params: Record<string, string | number> = {}): string {
	const template = TABLES[language][key];
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
