/** A short piece of the body around the first match, so the GM sees why a section was found. */
import { stem } from './text';

const SNIPPET_CHARS = 160;
/** Context kept before the match. */
const SNIPPET_LEAD_CHARS = 40;

export function snippet(body: string, terms: readonly string[]): string {
	const flat = body.replace(/\s+/g, ' ').trim();
	const chars = [...flat];
	if (chars.length <= SNIPPET_CHARS) return flat;
	const lower = chars.map((c) => c.toLowerCase());
	const haystack = lower.join('');
	// Code-point index of the earliest match of any term (or its stem, for inflected English words).
	let best = -1;
	for (const term of terms) {
		for (const needle of new Set([term, stem(term)])) {
			const at = haystack.indexOf(needle);
			if (at >= 0) {
				const cp = [...haystack.slice(0, at)].length;
				if (best < 0 || cp < best) best = cp;
			}
		}
	}
	const start = best <= SNIPPET_LEAD_CHARS ? 0 : best - SNIPPET_LEAD_CHARS;
	const end = Math.min(chars.length, start + SNIPPET_CHARS);
	return `${start > 0 ? '…' : ''}${chars.slice(start, end).join('').trim()}${end < chars.length ? '…' : ''}`;
}
