/**
 * The rule every piece of text from outside obeys (titles, turn input, documents, names…): no
 * control characters except TAB, LF and CR. SQLite's C interface ends a string at NUL, so such text
 * would be stored cut short without a word; the others are invisible and mean nothing in prose.
 */
import * as v from 'valibot';

/** C0 controls other than TAB (09), LF (0A) and CR (0D); DEL; the C1 controls. */
const CONTROL_CHARACTER = /(?![\t\n\r])\p{Cc}/u;

export function hasControlCharacter(text: string): boolean {
	return CONTROL_CHARACTER.test(text);
}

/** The message for `what` ("The title", "text"…), for forms and API errors alike. */
export function controlCharacterMessage(what: string): string {
	return `${what} contains a control character (such as NUL); only tabs and line breaks are allowed.`;
}

/** A valibot check for a string pipe: refuses control characters other than TAB, LF and CR. */
export function withoutControlCharacters(what: string) {
	return v.check((text: string) => !hasControlCharacter(text), controlCharacterMessage(what));
}

/** Whether any key or string value inside a JSON value holds a control character. */
export function jsonHasControlCharacter(value: unknown): boolean {
	if (typeof value === 'string') return hasControlCharacter(value);
	if (Array.isArray(value)) return value.some(jsonHasControlCharacter);
	if (typeof value === 'object' && value !== null)
		return Object.entries(value).some(([key, inner]) => hasControlCharacter(key) || jsonHasControlCharacter(inner));
	return false;
}
