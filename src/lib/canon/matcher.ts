/**
 * Finding canon terms in text: the markers of secrets not yet revealed and the things a world does
 * not have. Matching is on folded text (fold.ts: case, width, accents, kana). A term that begins or
 * ends with a letter of a spaced script (Latin, Greek, Cyrillic) or a digit must stand as a word on
 * that side — "gun" is not in "begun" — and may take a plural ("guns", "torches", "batteries"); a
 * Japanese term matches anywhere, as Japanese has no spaces to find words by.
 *
 * Browser-safe: the preset editor shows what would fire on a world's own texts with the very matcher
 * the server's guard runs on the GM's words.
 */
import { fold, FoldedText } from './fold';

export const TERM_KINDS = ['secret', 'anachronism'] as const;
export type TermKind = (typeof TERM_KINDS)[number];

export interface CanonTerm {
	/** The words as the author wrote them. */
	readonly text: string;
	readonly kind: TermKind;
	/** The secret's key, or the anachronism's first term (what the GM and the author are told it stands for). */
	readonly source: string;
	/** Why it does not exist here (an anachronism's note). */
	readonly note?: string | undefined;
}

/** A term found: where, in the original text's indices. */
export interface CanonHit {
	readonly term: CanonTerm;
	readonly start: number;
	readonly end: number;
}

/** A letter or digit of a script that separates its words with spaces: a term edge that is one must be a word edge. */
const WORD = '[\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}\\p{Nd}]';
const WORD_CHAR = new RegExp(WORD, 'u');

export function isWordChar(ch: string | undefined): boolean {
	return ch !== undefined && WORD_CHAR.test(ch);
}

function escapeRegExp(s: string): string {
	return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The English plural forms a word-final term also matches. */
function pluralsOf(folded: string): string[] {
	if (!/[a-z]$/.test(folded)) return [];
	const forms = [`${folded}s`, `${folded}es`];
	if (/[^aeiou]y$/.test(folded)) forms.push(`${folded.slice(0, -1)}ies`);
	return forms;
}

interface Compiled {
	term: CanonTerm;
	/** The folded forms that match, longest first. */
	forms: string[];
	/** Whether a match must end at a word edge (an ending the text has not reached yet is not decided). */
	wordEnd: boolean;
}

/** Where a check of a growing text stands: a certain hit, or how much of the original is safe to show. */
export type StreamVerdict = { hit: CanonHit } | { safe: number };

export class TermMatcher {
	private readonly compiled: Compiled[];
	private readonly pattern: RegExp | null;
	/** Every proper prefix of every form: a text ending in one may be about to spell a term. */
	private readonly prefixes = new Set<string>();
	/** The longest folded form, in code units: the most a stream is ever held back. */
	readonly longest: number;

	constructor(terms: readonly CanonTerm[]) {
		const seen = new Set<string>();
		this.compiled = [];
		for (const term of terms) {
			const folded = fold(term.text);
			if (folded === '' || seen.has(folded)) continue;
			seen.add(folded);
			const forms = [folded, ...pluralsOf(folded)].sort((a, b) => b.length - a.length);
			this.compiled.push({ term, forms, wordEnd: isWordChar(folded.at(-1)) });
			for (const form of forms) for (let n = 1; n < form.length; n++) this.prefixes.add(form.slice(0, n));
		}
		// Longer terms first: at one position the first alternative that matches wins.
		this.compiled.sort((a, b) => (b.forms[0]?.length ?? 0) - (a.forms[0]?.length ?? 0));
		this.longest = Math.max(0, ...this.compiled.map((c) => c.forms[0]?.length ?? 0));
		const alternatives = this.compiled.map((c) => {
			const first = c.forms[0] ?? '';
			const start = isWordChar(first[0]) ? `(?<!${WORD})` : '';
			const end = c.wordEnd ? `(?!${WORD})` : '';
			return `(${start}(?:${c.forms.map(escapeRegExp).join('|')})${end})`;
		});
		this.pattern = alternatives.length > 0 ? new RegExp(alternatives.join('|'), 'gu') : null;
	}

	get size(): number {
		return this.compiled.length;
	}

	/** Every term in a whole text (its end is the end: nothing more is coming). */
	findAll(text: string): CanonHit[] {
		const folded = new FoldedText();
		folded.append(text);
		const hits: CanonHit[] = [];
		let from = 0;
		for (;;) {
			const found = this.scan(folded, from, true);
			if (!found || found.tentative) return hits;
			hits.push(found.hit);
			from = found.foldedEnd;
		}
	}

	/** The first term in a whole text, if any. */
	first(text: string): CanonHit | undefined {
		const folded = new FoldedText();
		folded.append(text);
		const found = this.scan(folded, 0, true);
		return found && !found.tentative ? found.hit : undefined;
	}

	/**
	 * Checks a growing text from folded index `from` (where the last check released it): a term found
	 * whole is a hit; otherwise the text is safe up to where a term might still be forming — a match
	 * whose word edge is not written yet, or an ending that begins a term. `done`: the text is complete.
	 */
	check(folded: FoldedText, from: number, done: boolean): StreamVerdict & { heldFrom: number } {
		const found = this.scan(folded, from, done);
		if (found && !found.tentative) return { hit: found.hit, heldFrom: from };
		let held = found ? found.foldedStart : folded.text.length;
		if (!done) {
			const text = folded.text;
			for (let p = Math.max(from, text.length - this.longest); p < held; p++) {
				if (!this.prefixes.has(text.slice(p))) continue;
				// A term that begins with a letter begins a word: "xa" does not begin "ab".
				if (isWordChar(text[p]) && isWordChar(text[p - 1])) continue;
				held = p;
				break;
			}
		}
		return { safe: folded.rawIndexOf(held), heldFrom: held };
	}

	private scan(
		folded: FoldedText,
		from: number,
		done: boolean
	): { hit: CanonHit; tentative: boolean; foldedStart: number; foldedEnd: number } | undefined {
		const pattern = this.pattern;
		if (!pattern) return undefined;
		pattern.lastIndex = from;
		const m = pattern.exec(folded.text);
		if (!m) return undefined;
		// An alternative that did not take part is undefined, whatever the array's type says.
		const group = m.findIndex((g: string | undefined, i) => i > 0 && g !== undefined);
		const compiled = this.compiled[group - 1];
		if (!compiled) return undefined;
		const foldedStart = m.index;
		const foldedEnd = m.index + m[0].length;
		// At the end of a text still coming, a word-final match is not decided ("gun" may become "gunwale").
		const tentative = !done && compiled.wordEnd && foldedEnd === folded.text.length;
		const hit = { term: compiled.term, start: folded.rawIndexOf(foldedStart), end: folded.rawIndexOf(foldedEnd) };
		return { hit, tentative, foldedStart, foldedEnd };
	}
}
