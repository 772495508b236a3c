/**
 * The keyword side of recall: ranked lists of section ids.
 * - substrings (trigram FTS5, BM25): exact substrings in any script, no morphology needed;
 *   1-2 character terms are widened to the indexed trigrams that start with them, and found at the
 *   very end of a path or body (which no trigram starts with) through the column-tail indexes;
 * - words (Porter FTS5, BM25): English-style ranking with stemming.
 */
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { SessionExec } from '../db';
import { filterSql, type SectionFilter } from './filter';
import { ftsAny } from './query';

/** BM25 column weights (path, body): a term in the heading path says more than one in the body. */
export const BM25_PATH_WEIGHT = 2;
export const BM25_BODY_WEIGHT = 1;
/**
 * Trigrams a 1-2 character term is widened to, most frequent first. A common single kanji can start
 * hundreds of distinct trigrams; the most frequent cover nearly all its occurrences.
 */
export const MAX_SHORT_EXPANSIONS = 64;
/** Above U+10FFFF nothing sorts: `term < prefix + LAST_CHAR` bounds a prefix range. */
const LAST_CHAR = '\u{10FFFF}';

const IdRow = v.object({ id: v.number() });
const TermRow = v.object({ term: v.string() });
const TailRow = v.object({ id: v.number(), pathTail: v.string() });

/** The indexed trigrams that start with `term` (1-2 characters). */
export async function expandShortTerm(exec: SessionExec, term: string): Promise<string[]> {
	const rows = v.parse(
		v.array(TermRow),
		await exec.all(
			sql`SELECT term FROM sections_trigram_vocab WHERE term >= ${term} AND term < ${term + LAST_CHAR} ORDER BY doc DESC LIMIT ${MAX_SHORT_EXPANSIONS}`
		)
	);
	return rows.map((r) => r.term);
}

export async function substringSearch(exec: SessionExec, terms: readonly string[], filter: SectionFilter, limit: number): Promise<number[]> {
	const match = ftsAny(terms);
	if (!match) return [];
	const rows = await exec.all(
		sql`SELECT s.id AS id FROM sections_trigram t JOIN sections s ON s.id = t.rowid
			WHERE sections_trigram MATCH ${match}${filterSql(filter)}
			ORDER BY bm25(sections_trigram, ${BM25_PATH_WEIGHT}, ${BM25_BODY_WEIGHT}) LIMIT ${limit}`
	);
	return v.parse(v.array(IdRow), rows).map((r) => r.id);
}

export async function wordSearch(exec: SessionExec, words: readonly string[], filter: SectionFilter, limit: number): Promise<number[]> {
	const match = ftsAny(words);
	if (!match) return [];
	const rows = await exec.all(
		sql`SELECT s.id AS id FROM sections_words w JOIN sections s ON s.id = w.rowid
			WHERE sections_words MATCH ${match}${filterSql(filter)}
			ORDER BY bm25(sections_words, ${BM25_PATH_WEIGHT}, ${BM25_BODY_WEIGHT}) LIMIT ${limit}`
	);
	return v.parse(v.array(IdRow), rows).map((r) => r.id);
}

export interface TailHits {
	/** The heading path ends in the term: the section is titled by it (地理 › 北門). */
	path: number[];
	/** Only the body ends in it. */
	body: number[];
}

/** Sections whose path or body ends in a 1-2 character term (served by the column-tail indexes of migration 0002). */
export async function tailSearch(exec: SessionExec, short: readonly string[], filter: SectionFilter, limit: number): Promise<TailHits> {
	if (short.length === 0) return { path: [], body: [] };
	const conditions = short.map((term) => {
		const chars = [...term];
		if (chars.length === 2)
			return sql`lower(substr(s.path, -2)) = ${term} OR lower(substr(s.body, -2)) = ${term}`;
		// One character at the end, or second to last (the tail pair starts with it).
		return sql`lower(substr(s.path, -1)) = ${term} OR lower(substr(s.body, -1)) = ${term}
			OR (lower(substr(s.path, -2)) >= ${term} AND lower(substr(s.path, -2)) < ${term + LAST_CHAR})
			OR (lower(substr(s.body, -2)) >= ${term} AND lower(substr(s.body, -2)) < ${term + LAST_CHAR})`;
	});
	const rows = v.parse(
		v.array(TailRow),
		await exec.all(
			sql`SELECT s.id AS id, lower(substr(s.path, -2)) AS pathTail FROM sections s
				WHERE (${sql.join(conditions, sql` OR `)})${filterSql(filter)} ORDER BY s.id LIMIT ${limit}`
		)
	);
	const inPath = (tail: string) => short.some((term) => tail.includes(term));
	return { path: rows.filter((r) => inPath(r.pathTail)).map((r) => r.id), body: rows.filter((r) => !inPath(r.pathTail)).map((r) => r.id) };
}
