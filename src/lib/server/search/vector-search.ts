/** The meaning side of recall: nearest sections by cosine similarity, cut so unrelated questions find nothing. */
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { SessionExec } from '../db';
import { filterSql, type SectionFilter } from './filter';
import { VECTOR_INDEX, VECTOR_TABLE, vectorBlob } from './vector-table';

/** Used when the embedder does not say where "unrelated" begins for its model. */
export const DEFAULT_SIMILARITY_FLOOR = 0.3;
/**
 * Gap-from-the-top rule: a hit more than this far below the best one is noise around a real match
 * (similarity has no absolute meaning across queries, but the drop from the best hit does).
 */
const SIMILARITY_GAP = 0.15;

export interface VectorHit {
	id: number;
	similarity: number;
}

const Row = v.object({ id: v.number(), distance: v.number() });

export async function vectorSearch(
	exec: SessionExec,
	query: Float32Array,
	model: string,
	filter: SectionFilter,
	candidates: number
): Promise<VectorHit[]> {
	const blob = vectorBlob(query);
	// The ANN index knows nothing of GM-only or kinds: filter after, from a wider candidate list.
	const rows = await exec.all(
		sql`SELECT s.id AS id, vector_distance_cos(vt.embedding, vector32(${blob})) AS distance
			FROM vector_top_k(${VECTOR_INDEX}, vector32(${blob}), ${candidates}) AS k
			JOIN ${sql.raw(VECTOR_TABLE)} vt ON vt.rowid = k.id
			JOIN sections s ON s.id = vt.section_id
			WHERE vt.content_hash = s.content_hash AND vt.model = ${model}${filterSql(filter)}
			ORDER BY distance`
	);
	return v.parse(v.array(Row), rows).map((r) => ({ id: r.id, similarity: 1 - r.distance }));
}

/** Applies the similarity floor and the gap-from-the-top rule to hits sorted best first. */
export function cutHits(hits: readonly VectorHit[], floor: number, gap = SIMILARITY_GAP): VectorHit[] {
	const top = hits[0]?.similarity ?? 0;
	if (top < floor) return [];
	return hits.filter((h) => h.similarity >= floor && h.similarity >= top - gap);
}
