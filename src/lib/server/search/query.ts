/**
 * Turning free text into search terms and safe FTS5 syntax. User text never reaches FTS5 as syntax:
 * it is split into letter/digit tokens and every term is quoted, so quotes, AND/OR/NOT/NEAR, `*`,
 * `^`, `:` and parentheses are plain text or separators, never operators.
 */
import { ENGLISH_STOP_WORDS, JAPANESE_STOP_WORDS, isCjk, normalise, scriptRuns, tokens } from './text';

/** Queries are cut to this length: recall is for short questions, not documents. */
const MAX_QUERY_CHARS = 500;
/** The trigram index answers terms of this many characters and more. */
export const TRIGRAM_MIN_CHARS = 3;
/** Terms per side, to bound the cost of one MATCH. */
const MAX_TERMS = 16;
/** Short (1-2 character) terms per query: each costs a vocabulary lookup and widens the MATCH. */
const MAX_SHORT_TERMS = 6;

export interface QueryTerms {
	/** Normalised query text, for the embedder. */
	text: string;
	/**
	 * `latin` when no token is written in a CJK script: words are delimited and word BM25 can lead.
	 * `cjk` otherwise: words are not delimited and the substring side carries them.
	 */
	script: 'latin' | 'cjk';
	/** Substrings of 3+ characters for the trigram index. */
	substrings: string[];
	/** Substrings of 1-2 characters: answered through the trigram vocabulary and column tails. */
	short: string[];
	/** English-style words for the word index (Porter-stemmed by FTS5). */
	words: string[];
}

const length = (s: string) => [...s].length;

export function analyseQuery(query: string): QueryTerms {
	const text = normalise(query).slice(0, MAX_QUERY_CHARS).trim();
	const substrings = new Set<string>();
	const short = new Set<string>();
	const words = new Set<string>();
	const addSubstring = (term: string) => (length(term) >= TRIGRAM_MIN_CHARS ? substrings : short).add(term);
	let cjk = false;

	for (const token of tokens(text)) {
		if (!isCjk(token)) {
			if (ENGLISH_STOP_WORDS.has(token) || length(token) < 2) continue;
			words.add(token);
			addSubstring(token);
			continue;
		}
		cjk = true;
		const runs = scriptRuns(token);
		const wholeHiragana = runs.length === 1 && runs[0]?.script === 'hiragana';
		if (wholeHiragana && JAPANESE_STOP_WORDS.has(token)) continue;
		// The token as typed finds the exact phrase; its script runs find the words in it
		// (北門の衛兵 → 北門, 衛兵), since Japanese is written without spaces.
		addSubstring(token);
		if (runs.length < 2) continue;
		for (const run of runs) {
			if (run.script === 'hiragana') continue; // particles and inflection
			if (run.script === 'latin') {
				if (!ENGLISH_STOP_WORDS.has(run.text) && length(run.text) >= 2) words.add(run.text);
				else continue;
			}
			addSubstring(run.text);
		}
	}
	// Longer short terms are more specific: keep those when there are too many.
	const shortTerms = [...short].sort((a, b) => length(b) - length(a));
	return {
		text,
		script: cjk ? 'cjk' : 'latin',
		substrings: [...substrings].slice(0, MAX_TERMS),
		short: shortTerms.slice(0, MAX_SHORT_TERMS),
		words: [...words].slice(0, MAX_TERMS)
	};
}

/** One FTS5 string literal: the term as a quoted phrase, inner quotes doubled. */
export function ftsQuote(term: string): string {
	return `"${term.replaceAll('"', '""')}"`;
}
