/**
 * The two names every layer of a session speaks: the language its story (and the UI) is written in,
 * and the LLM provider its GM runs on. Spelled once here, for the database enum, the config and
 * request schemas, the server's types and the browser's panels alike.
 */
import * as v from 'valibot';

export const LANGUAGES = ['ja', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LanguageSchema = v.picklist(LANGUAGES, 'language must be ja or en');

export function isLanguage(value: unknown): value is Language {
	return LANGUAGES.some((l) => l === value);
}

export const PROVIDER_NAMES = ['openai', 'anthropic', 'google'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];
export const ProviderNameSchema = v.picklist(PROVIDER_NAMES, 'provider must be openai, anthropic or google');

export function isProviderName(value: unknown): value is ProviderName {
	return PROVIDER_NAMES.some((p) => p === value);
}
