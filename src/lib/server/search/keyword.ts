/**
 * The keyword side of recall: ranked lists of section ids.
 * - substrings (trigram FTS5): exact substrings in any script, no morphology needed; 1-2 character
 *   terms are widened to the indexed trigrams that start with them, and found at the very end of a
 *   path or body (which no trigram starts with) through the column-tail indexes of migration 0002;
 * - words (Porter FTS5): English-style ranking with stemming, over path, body and the context column
 *   of the words_context migration (text of the neighbouring log or journal sections). A section is scored
 *   twice, by its own words and by its words with their context, and the two are added: its own words
 *   lead, and a line of dialogue whose answer or question lies next to it is still found.
 *
 * Cost control: BM25 has to score every section a term matches, so a term found in thousands of
 * sections (a common word, a frequent name) would cost tens of milliseconds at 50,000 sections.
 * Such common terms are not ranked: the sections holding ALL the query's terms come first (newest
 * first: FTS5 streams rowid order and stops at the limit), then the BM25 ranking of the rarer terms.
 */
import { sql, type SQL } from 'drizzle-orm';
import * as v from 'valibot';
import type { SessionExec } from '../db';
import { filterSql, type SectionFilter } from './filter';
import { ftsQuote } from './query';

/** BM25 column weights (path, body): a term in the heading path says more than one in the body. */
const BM25_PATH_WEIGHT = 2;
const BM25_BODY_WEIGHT = 1;
/**
 * Weight of the context column in the second word score. Equal to the body, as in the lexical
 * baseline it was measured against (LoCoMo, docs/performance.md): body + context is read as one text.
 */
const BM25_CONTEXT_WEIGHT = 1;
/**
 * A term in more sections than this is "common": ranking it with BM25 would cost more than the
 * latency budget (about 1 µs per matching section and term on the bench machine).
 */
export const RANK_MAX_DOCS = 2_000;
/**
 * Trigrams a 1-2 character term is widened to, most frequent first. A common single kanji can start
 * hundreds of distinct trigrams; the most frequent cover nearly all its occurrences.
 */
const MAX_SHORT_EXPANSIONS = 64;
/** GM-only and kind filters are applied after ranking, from this many times the wanted candidates. */
const FILTER_OVERFETCH = 3;
/** Above U+10FFFF nothing sorts: `term < prefix + LAST_CHAR` bounds a prefix range. */
const LAST_CHAR = '\u{10FFFF}';

/** A section and how well it matched: higher is better; only comparable within one list. */
export interface Scored {
	id: number;
	score: number;
	/** The part of `score` the section earned with its own words (word side; absent when unscored). */
	own?: number;
}

/** One query term as an FTS5 expression, with the number of sections it can match (an upper bound). */
export interface Term {
	expr: string;
	docs: number;
}

const IdRow = v.object({ id: v.number() });
const ScoredRow = v.object({ id: v.number(), own: v.number(), total: v.number() });
const VocabRow = v.object({ term: v.string(), doc: v.number() });
const CountRow = v.object({ n: v.number() });
const TailRow = v.object({ id: v.number(), pathTail: v.string() });

function trigramsOf(term: string): string[] {
	const chars = [...term];
	const out: string[] = [];
	for (let i = 0; i + 3 <= chars.length; i++) out.push(chars.slice(i, i + 3).join(''));
	return out;
}

/**
 * Substring terms for the trigram index. A 3+ character term can match at most as many sections as
 * its rarest trigram (and none if a trigram is missing); a 1-2 character term becomes the OR of the
 * trigrams that start with it.
 */
export async function substringTerms(exec: SessionExec, substrings: readonly string[], short: readonly string[]): Promise<Term[]> {
	const terms: Term[] = [];
	const trigrams = [...new Set(substrings.flatMap(trigramsOf))];
	if (trigrams.length > 0) {
		const rows = v.parse(
			v.array(VocabRow),
			await exec.all(sql`SELECT term, doc FROM sections_trigram_vocab WHERE term IN (${sql.join(trigrams, sql`, `)})`)
		);
		const docs = new Map(rows.map((r) => [r.term, r.doc]));
		for (const s of substrings) {
			const counts = trigramsOf(s).map((t) => docs.get(t) ?? 0);
			const min = Math.min(...counts);
			if (min > 0) terms.push({ expr: ftsQuote(s), docs: min });
		}
	}
	for (const s of short) {
		const rows = v.parse(
			v.array(VocabRow),
			await exec.all(
				sql`SELECT term, doc FROM sections_trigram_vocab WHERE term >= ${s} AND term < ${s + LAST_CHAR} ORDER BY doc DESC LIMIT ${MAX_SHORT_EXPANSIONS}`
			)
		);
		if (rows.length > 0)
			terms.push({ expr: `(${rows.map((r) => ftsQuote(r.term)).join(' OR ')})`, docs: rows.reduce((n, r) => n + r.doc, 0) });
	}
	return terms;
}

/**
 * Word terms for the Porter index, with their section counts up to RANK_MAX_DOCS + 1: beyond that a
 * term is common and its exact count does not matter. Stopping there keeps a frequent word cheap
 * (its rows include the neighbours that hold it as context: several times its own sections).
 */
export async function wordTerms(exec: SessionExec, words: readonly string[]): Promise<Term[]> {
	const terms: Term[] = [];
	for (const w of words) {
		const expr = ftsQuote(w);
		const [row] = v.parse(
			v.array(CountRow),
			await exec.all(
				sql`SELECT count(*) AS n FROM (SELECT 1 FROM sections_words WHERE sections_words MATCH ${expr} LIMIT ${RANK_MAX_DOCS + 1})`
			)
		);
		if (row && row.n > 0) terms.push({ expr, docs: row.n });
	}
	return terms;
}

type FtsTable = 'sections_trigram' | 'sections_words';

/**
 * The BM25 scores of a matching row as SQL expressions (FTS5's bm25() is negative, lower is better):
 * `own` for the section's own words, `total` for the ranking. Words: own words (context weight 0; the
 * context still counts in the row length, which keeps a line with long neighbours from outscoring a
 * line with short ones) plus own words with context.
 */
function bm25Sql(table: FtsTable): { own: SQL; total: SQL } {
	const t = sql.raw(table);
	if (table === 'sections_trigram') {
		const own = sql`bm25(${t}, ${BM25_PATH_WEIGHT}, ${BM25_BODY_WEIGHT})`;
		return { own, total: own };
	}
	const own = sql`bm25(${t}, ${BM25_PATH_WEIGHT}, ${BM25_BODY_WEIGHT}, 0)`;
	return { own, total: sql`${own} + bm25(${t}, ${BM25_PATH_WEIGHT}, ${BM25_BODY_WEIGHT}, ${BM25_CONTEXT_WEIGHT})` };
}

/**
 * Ranks sections of `table` for `terms` within the cost budget (see the module comment). Sections
 * holding every term but not scored (a term was too common to rank) come first with the best score
 * of the list and no own score, so a score fusion keeps them on top.
 */
export async function rankedSearch(
	exec: SessionExec,
	table: FtsTable,
	terms: readonly Term[],
	filter: SectionFilter,
	limit: number
): Promise<Scored[]> {
	if (terms.length === 0) return [];
	const fetch = limit * FILTER_OVERFETCH;
	const t = sql.raw(table);
	const rare = terms.filter((term) => term.docs <= RANK_MAX_DOCS);
	const unscored: number[] = [];
	let scored: Scored[] = [];
	if (rare.length < terms.length) {
		// Some term is common: sections with every term first, newest first, without scoring.
		const all = terms.map((term) => term.expr).join(' AND ');
		unscored.push(...(await matchIds(exec, sql`SELECT rowid AS id FROM ${t} WHERE ${t} MATCH ${all} ORDER BY rowid DESC LIMIT ${fetch}`)));
	}
	if (rare.length > 0) {
		const any = rare.map((term) => term.expr).join(' OR ');
		const { own, total } = bm25Sql(table);
		scored = v
			.parse(
				v.array(ScoredRow),
				await exec.all(
					sql`SELECT rowid AS id, ${own} AS own, ${total} AS total FROM ${t} WHERE ${t} MATCH ${any} ORDER BY total LIMIT ${fetch}`
				)
			)
			.map((r) => ({ id: r.id, score: -r.total, own: -r.own }));
	} else if (unscored.length === 0) {
		// Only common terms and no section has them all: any of them, newest first.
		const any = terms.map((term) => term.expr).join(' OR ');
		unscored.push(...(await matchIds(exec, sql`SELECT rowid AS id FROM ${t} WHERE ${t} MATCH ${any} ORDER BY rowid DESC LIMIT ${fetch}`)));
	}
	const top = Math.max(1, scored[0]?.score ?? 0);
	const seen = new Set<number>();
	const hits: Scored[] = [];
	for (const hit of [...unscored.map((id) => ({ id, score: top })), ...scored]) {
		if (seen.has(hit.id)) continue;
		seen.add(hit.id);
		hits.push(hit);
	}
	const keep = new Set(
		await applyFilter(
			exec,
			hits.map((h) => h.id),
			filter
		)
	);
	return hits.filter((h) => keep.has(h.id)).slice(0, limit);
}

async function matchIds(exec: SessionExec, query: ReturnType<typeof sql>): Promise<number[]> {
	return v.parse(v.array(IdRow), await exec.all(query)).map((r) => r.id);
}

/**
 * Keeps the ids (in their order) that pass the GM-only and kind filter. Filtering after ranking
 * keeps the join out of the ranked query, where it would run once per matching section.
 */
export async function applyFilter(exec: SessionExec, ids: number[], filter: SectionFilter): Promise<number[]> {
	if (ids.length === 0 || (filter.includeGmOnly && !filter.kinds)) return ids;
	const rows = await matchIds(exec, sql`SELECT s.id AS id FROM sections s WHERE s.id IN (${sql.join(ids, sql`, `)})${filterSql(filter)}`);
	const keep = new Set(rows);
	return ids.filter((id) => keep.has(id));
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
		if (chars.length === 2) return sql`lower(substr(s.path, -2)) = ${term} OR lower(substr(s.body, -2)) = ${term}`;
		// One character at the end, or second to last (the tail pair starts with it).
		return sql`lower(substr(s.path, -1)) = ${term} OR lower(substr(s.body, -1)) = ${term}
			OR (lower(substr(s.path, -2)) >= ${term} AND lower(substr(s.path, -2)) < ${term + LAST_CHAR})
			OR (lower(substr(s.body, -2)) >= ${term} AND lower(substr(s.body, -2)) < ${term + LAST_CHAR})`;
	});
	const rows = v.parse(
		v.array(TailRow),
		await exec.all(
			sql`SELECT s.id AS id, lower(substr(s.path, -2)) AS pathTail FROM sections s
				WHERE (${sql.join(conditions, sql` OR `)})${filterSql(filter)} ORDER BY s.id DESC LIMIT ${limit}`
		)
	);
	const inPath = (tail: string) => short.some((term) => tail.includes(term));
	return { path: rows.filter((r) => inPath(r.pathTail)).map((r) => r.id), body: rows.filter((r) => !inPath(r.pathTail)).map((r) => r.id) };
}
