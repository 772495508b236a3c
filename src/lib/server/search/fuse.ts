/**
 * Fusing the ranked lists of recall.
 *
 * - Reciprocal Rank Fusion (Cormack, Clarke & Büttcher 2009): score(d) = Σ 1 / (RRF_K + rank(d)).
 *   It needs no score calibration, only ranks, and treats every list as an equal voter. Used where
 *   no list leads: Japanese and other CJK queries, where the substring side carries the words.
 * - Weighted score fusion (CombSUM over normalised scores): score(d) = Σ weight · normalised(d).
 *   Used where one list is known to lead (English-style queries: word BM25). Ranks throw away how far
 *   apart two hits are; on LoCoMo equal RRF of a good and a weak list ranked below the good list alone.
 */

/** The constant from the paper; larger values flatten the advantage of top ranks. */
export const RRF_K = 60;

export interface Fused {
	id: number;
	score: number;
}

/** Fuses ranked lists of ids (best first, ranks from 1). Ties keep the order of first appearance. */
export function reciprocalRankFusion(lists: readonly (readonly number[])[], k = RRF_K): Fused[] {
	const scores = new Map<number, number>();
	for (const list of lists) list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1)));
	return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

/** One list for score fusion: its hits (any order) with scores already normalised to [0, 1]. */
export interface WeightedList {
	weight: number;
	hits: readonly Fused[];
}

/** Scores divided by the list's best score: the best hit gets 1, a hit half as good 0.5. */
export function normaliseByTop(hits: readonly Fused[]): Fused[] {
	const top = hits.reduce((m, h) => Math.max(m, h.score), 0);
	return top > 0 ? hits.map((h) => ({ id: h.id, score: Math.max(0, h.score) / top })) : [];
}

/**
 * Similarities mapped to [0, 1] between the floor (0: no evidence of relatedness) and the best hit
 * (1). Cosine similarities crowd into a narrow band, so dividing by the top would give every hit
 * nearly the same weight; measuring from the floor keeps their spread. Hits at or below the floor
 * (only there when the cut-offs are off) stay in the list with 0: ranked last, in their order.
 */
export function normaliseFromFloor(hits: readonly Fused[], floor: number): Fused[] {
	const top = hits.reduce((m, h) => Math.max(m, h.score), Number.NEGATIVE_INFINITY);
	return hits.map((h) => ({ id: h.id, score: top > floor && h.score > floor ? (h.score - floor) / (top - floor) : 0 }));
}

/** Weighted sum of normalised scores, best first. Ties keep the order of first appearance. */
export function weightedScoreFusion(lists: readonly WeightedList[]): Fused[] {
	const scores = new Map<number, number>();
	for (const { weight, hits } of lists) for (const h of hits) scores.set(h.id, (scores.get(h.id) ?? 0) + weight * h.score);
	return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}
