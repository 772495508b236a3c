/**
 * The terms a world's canon holds the GM's words to: the markers of every secret the story has not
 * revealed yet, and the words for everything the world does not have. Browser-safe: the editor lists
 * them as the server's guard does.
 */
import type { CanonTerm } from './matcher';

/** One thing the world does not have: the words that name it, and why it is absent. */
export interface Anachronism {
	readonly terms: readonly string[];
	readonly note?: string | undefined;
}

/** A secret as the canon knows it: its story-DB key and the phrases that give it away. */
export interface CanonSecret {
	readonly key: string;
	readonly markers: readonly string[];
}

export interface CanonSource {
	readonly secrets: readonly CanonSecret[];
	readonly anachronisms: readonly Anachronism[];
}

/** The terms to check: every marker of a secret whose key is not in `revealed`, then every anachronism's words. */
export function canonTerms(source: CanonSource, revealed: ReadonlySet<string> = new Set()): CanonTerm[] {
	const terms: CanonTerm[] = [];
	for (const secret of source.secrets) {
		if (revealed.has(secret.key)) continue;
		for (const marker of secret.markers) terms.push({ text: marker, kind: 'secret', source: secret.key });
	}
	for (const thing of source.anachronisms) {
		const [first = ''] = thing.terms;
		for (const text of thing.terms) terms.push({ text, kind: 'anachronism', source: first, note: thing.note });
	}
	return terms.filter((t) => t.text.trim() !== '');
}
