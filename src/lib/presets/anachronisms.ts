/**
 * "What does not exist in this world" as the editor writes it: one thing per line, its words separated
 * by commas, then optionally a colon and a note on why (`smartphone, mobile phone: the telephone is a
 * wall box with a crank`). Commas and colons, in either width, are what separate: a term holds neither,
 * so the list reads back the way it was written. Browser-safe, like the rest of the form.
 */

import type { Anachronism } from '../canon/terms';

export type { Anachronism } from '../canon/terms';

/** What separates the terms of a line, and the note from them. */
export const TERM_SEPARATOR = /[,、，]/;
const NOTE_SEPARATOR = /[:：]/;

/** The list as the schema reads it, from the editor's text: blank lines and empty terms are dropped. */
export function anachronismsFromText(text: string): Anachronism[] {
	const out: Anachronism[] = [];
	for (const line of text.split(/\r?\n/)) {
		const at = line.search(NOTE_SEPARATOR);
		const words = at === -1 ? line : line.slice(0, at);
		const note = at === -1 ? '' : line.slice(at + 1).trim();
		const terms = words
			.split(TERM_SEPARATOR)
			.map((t) => t.trim())
			.filter((t) => t !== '');
		if (terms.length === 0 && note === '') continue;
		out.push(note === '' ? { terms } : { terms, note });
	}
	return out;
}

/** The editor's text of a list (a stored preset's, an import's). */
export function anachronismsToText(list: readonly Anachronism[], language: 'ja' | 'en'): string {
	const comma = language === 'ja' ? '、' : ', ';
	const colon = language === 'ja' ? '：' : ': ';
	return list.map((a) => `${a.terms.join(comma)}${a.note ? `${colon}${a.note}` : ''}`).join('\n');
}
