/**
 * Reciprocal Rank Fusion (Cormack, Clarke & Büttcher 2009): score(d) = Σ 1 / (RRF_K + rank(d)).
 * It needs no score calibration between BM25 and cosine similarity, only ranks.
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
