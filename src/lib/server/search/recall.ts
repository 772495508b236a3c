/**
 * recall: one call over every section of a session. Keyword lists (trigram substrings, column tails,
 * English words with their neighbours' context) and the meaning list (nearest vectors, cut by a
 * similarity floor and a gap from the top) are fused, routed by the query's script:
 * - English-style (Latin-script) queries: word BM25 leads; substrings and meaning add weighted,
 *   normalised scores (weightedScoreFusion). Substrings of English words are mostly noise (`ing`,
 *   `the`), and a weak meaning side must not pull a good word ranking down.
 * - Japanese and mixed queries: no list leads (the substring side carries the words, which are not
 *   delimited), so the lists vote equally by Reciprocal Rank Fusion.
 * Works on the database or inside an open transaction, and then sees that transaction's uncommitted
 * sections (through the keyword side until they are embedded).
 */
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { SessionExec } from '../db';
import { isZeroVector, type Embedder } from './embeddings';
import { SECTION_KINDS, type SectionFilter, type SectionKind } from './filter';
import { normaliseByTop, normaliseFromFloor, reciprocalRankFusion, weightedScoreFusion, type Fused } from './fuse';
import { answersFollowQuestions } from './dialogue';
import { rankedSearch, substringTerms, tailSearch, wordTerms } from './keyword';
import { analyseQuery, ftsQuote, TRIGRAM_MIN_CHARS } from './query';
import { snippet } from './snippet';
import { readVectorSpace, sameSpace } from './vector-table';
import { cutHits, DEFAULT_SIMILARITY_FLOOR, vectorSearch } from './vector-search';

const DEFAULT_RECALL_K = 8;
const MAX_RECALL_K = 100;
/** Each list contributes this many candidates per wanted result (and at least MIN_CANDIDATES). */
const CANDIDATES_PER_RESULT = 5;
const MIN_CANDIDATES = 40;
/**
 * Weights of English-style fusion, against word BM25 at 1. The substring side only breaks ties and
 * catches what words miss (a misspelt or partial name); measured on LoCoMo and the fixture
 * (docs/performance.md).
 */
const LATIN_SUBSTRING_WEIGHT = 0.02;
/** The meaning side's weight when the embedder does not state one. */
const DEFAULT_MEANING_WEIGHT = 1;

export interface RecallOptions {
	/** How many sections to return (default 8). */
	k?: number;
	/** GM-only sections (story DB, GM-only documents) are left out unless this is true. */
	includeGmOnly?: boolean;
	/** Only these record kinds; all when absent. */
	kinds?: readonly SectionKind[];
	/** Similarity floor and gap cut on the meaning side (default true); off for ranking studies. */
	cutoff?: boolean;
	/** Embeds the query for the meaning side; without it recall is keyword-only. */
	embedder?: Embedder;
	signal?: AbortSignal;
}

export interface RecallHit {
	kind: SectionKind;
	recordId: number;
	sectionId: number;
	/** The caller's own id for the record, when it gave one. */
	ref: string | null;
	/** Heading path, e.g. `Geography › North › North Gate`. */
	path: string;
	snippet: string;
	/** Fusion score: only comparable within one result list. */
	score: number;
}

const SectionRow = v.object({
	id: v.number(),
	kind: v.picklist(SECTION_KINDS),
	recordId: v.number(),
	ref: v.nullable(v.string()),
	path: v.string(),
	body: v.string()
});

/**
 * An embedder that already holds the vector of `query` as recall will embed it. Embed first, outside
 * any transaction, then run recall inside one: a network embedder then never holds the session's
 * write lock (a turn's reads run in a speculative write transaction, see turn/staging.ts).
 */
export async function withQueryEmbedded(embedder: Embedder, query: string, signal?: AbortSignal): Promise<Embedder> {
	const text = analyseQuery(query).text;
	if (!text) return embedder;
	const [vector] = await embedder.embed([text], signal);
	if (!vector) return embedder;
	return {
		id: embedder.id,
		dimensions: embedder.dimensions,
		...(embedder.similarityFloor === undefined ? {} : { similarityFloor: embedder.similarityFloor }),
		...(embedder.fusionWeight === undefined ? {} : { fusionWeight: embedder.fusionWeight }),
		embed: (texts, s) => (texts.length === 1 && texts[0] === text ? Promise.resolve([vector]) : embedder.embed(texts, s))
	};
}

export async function recall(exec: SessionExec, query: string, options: RecallOptions = {}): Promise<RecallHit[]> {
	const k = Math.min(Math.max(1, Math.floor(options.k ?? DEFAULT_RECALL_K)), MAX_RECALL_K);
	if (options.kinds && options.kinds.length === 0) return [];
	const filter: SectionFilter = { includeGmOnly: options.includeGmOnly ?? false, kinds: options.kinds };
	const candidates = Math.max(MIN_CANDIDATES, k * CANDIDATES_PER_RESULT);
	const terms = analyseQuery(query);
	if (terms.text.length === 0) return [];

	const wordList = await wordTerms(exec, terms.words);
	const words = (
		await answersFollowQuestions(exec, await rankedSearch(exec, 'sections_words', wordList, filter, candidates), filter)
	).slice(0, candidates);
	// English-style queries ask the substring index only for the words the word index does not know
	// (a partial or misspelt name): for known words it would only add substrings of them (`ring` in
	// `during`) and cost a second full search.
	const latin = terms.script === 'latin';
	const known = new Set(wordList.map((t) => t.expr));
	const substringsWanted = latin
		? terms.words.filter((w) => !known.has(ftsQuote(w)) && [...w].length >= TRIGRAM_MIN_CHARS)
		: terms.substrings;
	const shortWanted = latin ? [] : terms.short;
	const tails = latin ? { path: [], body: [] } : await tailSearch(exec, shortWanted, filter, candidates);
	const ranked =
		substringsWanted.length + shortWanted.length === 0
			? []
			: await rankedSearch(exec, 'sections_trigram', await substringTerms(exec, substringsWanted, shortWanted), filter, candidates);

	let meaning: Fused[] = [];
	let floor = DEFAULT_SIMILARITY_FLOOR;
	const embedder = options.embedder;
	if (embedder && sameSpace(await readVectorSpace(exec), embedder)) {
		floor = embedder.similarityFloor ?? DEFAULT_SIMILARITY_FLOOR;
		const [vector] = await embedder.embed([terms.text], options.signal);
		if (vector && !isZeroVector(vector)) {
			const hits = await vectorSearch(exec, vector, embedder.id, filter, candidates);
			const kept = options.cutoff === false ? hits : cutHits(hits, floor);
			meaning = kept.map((h) => ({ id: h.id, score: h.similarity }));
		}
	}

	let fused: Fused[];
	if (latin) {
		fused = weightedScoreFusion([
			{ weight: 1, hits: normaliseByTop(words) },
			{ weight: LATIN_SUBSTRING_WEIGHT, hits: normaliseByTop(ranked) },
			{ weight: embedder?.fusionWeight ?? DEFAULT_MEANING_WEIGHT, hits: normaliseFromFloor(meaning, floor) }
		]);
	} else {
		// One substring list: sections titled by a short term lead (BM25 cannot see them: no trigram starts
		// at the end of a heading), then the ranked matches, then sections whose body merely ends in the term.
		const substrings = [...new Set([...tails.path, ...ranked.map((h) => h.id), ...tails.body])].slice(0, candidates);
		fused = reciprocalRankFusion([substrings, words.map((h) => h.id), meaning.map((h) => h.id)]);
	}
	fused = fused.slice(0, k);
	if (fused.length === 0) return [];
	const rows = v.parse(
		v.array(SectionRow),
		await exec.all(
			sql`SELECT id, kind, record_id AS recordId, ref, path, body FROM sections WHERE id IN (${sql.join(
				fused.map((f) => f.id),
				sql`, `
			)})`
		)
	);
	const byId = new Map(rows.map((r) => [r.id, r]));
	const highlight = [...terms.substrings, ...terms.short, ...terms.words];
	return fused.flatMap(({ id, score }) => {
		const row = byId.get(id);
		if (!row) return [];
		return [
			{
				kind: row.kind,
				recordId: row.recordId,
				sectionId: row.id,
				ref: row.ref,
				path: row.path,
				snippet: snippet(row.body, highlight),
				score
			}
		];
	});
}
