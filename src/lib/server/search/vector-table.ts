/**
 * The vector table of a session database. It is created at run time, not by a migration, because
 * its F32_BLOB dimension is fixed by the embedding model in use; meta records which model and size
 * the stored vectors belong to, so a model change is noticed and everything is re-embedded.
 */
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import { meta, type SessionExec, type SessionTx } from '../db';
import type { Embedder } from './embeddings';

export const VECTOR_TABLE = 'section_vectors';
export const VECTOR_INDEX = 'section_vectors_idx';
export const META_EMBEDDING_MODEL = 'embedding.model' satisfies meta.TextKey;
export const META_EMBEDDING_DIMENSIONS = 'embedding.dimensions' satisfies meta.TextKey;
const SPACE_KEYS = [META_EMBEDDING_MODEL, META_EMBEDDING_DIMENSIONS] as const;

/**
 * DiskANN settings, measured with `npm run bench:recall`: with the defaults (float32 neighbours, 3·√D
 * of them, insert_l=70) a 1,024-dimension insert costs ~40 ms; 16 float8-compressed neighbours and a
 * shorter insert search make it ~1.5 ms while queries stay in single-digit milliseconds.
 */
const VECTOR_INDEX_OPTIONS = ['metric=cosine', 'compress_neighbors=float8', 'max_neighbors=16', 'insert_l=32', 'search_l=64'];

export interface VectorSpace {
	model: string;
	dimensions: number;
}

const MetaRow = v.object({ key: v.string(), value: v.string() });
const CountRow = v.object({ n: v.number() });

/** Whether the vector table exists (one row, `n`), then the meta rows of its model and size: read together. */
export const VECTOR_SPACE_QUERIES = [
	{ sql: "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?", args: [VECTOR_TABLE] },
	meta.valuesStatement(SPACE_KEYS)
] as const;

/** The vector space from the rows of VECTOR_SPACE_QUERIES. */
export function vectorSpaceOf(tableRows: readonly unknown[], metaRows: readonly unknown[]): VectorSpace | undefined {
	const tables = v.parse(v.array(CountRow), tableRows);
	if ((tables[0]?.n ?? 0) === 0) return undefined;
	const rows = v.parse(v.array(MetaRow), metaRows);
	const model = rows.find((r) => r.key === META_EMBEDDING_MODEL)?.value;
	const dimensions = Number(rows.find((r) => r.key === META_EMBEDDING_DIMENSIONS)?.value);
	if (model === undefined || !Number.isInteger(dimensions) || dimensions < 1) return undefined;
	return { model, dimensions };
}

/** The model and size the stored vectors belong to, or undefined when there is no vector table yet. */
export async function readVectorSpace(exec: SessionExec): Promise<VectorSpace | undefined> {
	const [tables] = VECTOR_SPACE_QUERIES;
	const tableRows = await exec.all(sql`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ${tables.args[0]}`);
	if (v.parse(v.array(CountRow), tableRows)[0]?.n === 0) return undefined;
	return vectorSpaceOf(tableRows, await meta.valuesQuery(exec, SPACE_KEYS));
}

/**
 * A condition that holds while the stored vectors are `embedder`'s (no other process switched the
 * model since it was read): write statements carry it, so a batch of stale vectors changes nothing.
 */
export function inSpace(embedder: Pick<Embedder, 'id' | 'dimensions'>): { sql: string; args: string[] } {
	const model = meta.valueSubquery(META_EMBEDDING_MODEL);
	const dimensions = meta.valueSubquery(META_EMBEDDING_DIMENSIONS);
	return {
		sql: `${model.sql} = ? AND ${dimensions.sql} = ?`,
		args: [...model.args, embedder.id, ...dimensions.args, String(embedder.dimensions)]
	};
}

export function sameSpace(space: VectorSpace | undefined, embedder: Pick<Embedder, 'id' | 'dimensions'>): boolean {
	return space !== undefined && space.model === embedder.id && space.dimensions === embedder.dimensions;
}

export interface EnsureResult {
	/** True when the table was (re)created for this embedder. */
	recreated: boolean;
	/** Sections queued for embedding because of it. */
	requeued: number;
}

/**
 * Makes the vector table fit `embedder`. When the model or size differs from the one recorded (or
 * there is no table), drops the old vectors, creates the table at the new size and queues every
 * section, so they are re-embedded in the background while keyword search keeps working.
 * Must run inside a write transaction.
 */
export async function ensureVectorTable(tx: SessionTx, embedder: Pick<Embedder, 'id' | 'dimensions'>): Promise<EnsureResult> {
	if (sameSpace(await readVectorSpace(tx), embedder)) return { recreated: false, requeued: 0 };
	const dims = embedder.dimensions;
	if (!Number.isInteger(dims) || dims < 1) throw new RangeError(`invalid embedding dimension ${dims}`);
	await tx.run(sql.raw(`DROP TRIGGER IF EXISTS section_vectors_on_delete`));
	await tx.run(sql.raw(`DROP TRIGGER IF EXISTS section_vectors_on_change`));
	await tx.run(sql.raw(`DROP INDEX IF EXISTS ${VECTOR_INDEX}`));
	await tx.run(sql.raw(`DROP TABLE IF EXISTS ${VECTOR_TABLE}`));
	await tx.run(
		sql.raw(
			`CREATE TABLE ${VECTOR_TABLE} (section_id INTEGER PRIMARY KEY, model TEXT NOT NULL, content_hash TEXT NOT NULL, embedding F32_BLOB(${dims}) NOT NULL)`
		)
	);
	const options = VECTOR_INDEX_OPTIONS.map((o) => `'${o}'`).join(', ');
	await tx.run(sql.raw(`CREATE INDEX ${VECTOR_INDEX} ON ${VECTOR_TABLE} (libsql_vector_idx(embedding, ${options}))`));
	// A deleted section takes its vector with it; a changed one loses its now-stale vector until the
	// queue (filled by the sections triggers of migration 0001) has it embedded again.
	await tx.run(
		sql.raw(
			`CREATE TRIGGER section_vectors_on_delete AFTER DELETE ON sections BEGIN DELETE FROM ${VECTOR_TABLE} WHERE section_id = old.id; END`
		)
	);
	await tx.run(
		sql.raw(
			`CREATE TRIGGER section_vectors_on_change AFTER UPDATE ON sections WHEN \
new.content_hash IS NOT old.content_hash BEGIN DELETE FROM ${VECTOR_TABLE} WHERE \
section_id = old.id; END`
		)
	);
	await meta.putQuery(tx, META_EMBEDDING_MODEL, embedder.id);
	await meta.putQuery(tx, META_EMBEDDING_DIMENSIONS, String(dims));
	const now = Date.now();
	await tx.run(sql`INSERT OR REPLACE INTO embed_queue (section_id, enqueued_at) SELECT id, ${now} FROM sections`);
	const queued = v.parse(v.array(CountRow), await tx.all(sql`SELECT count(*) AS n FROM embed_queue`));
	return { recreated: true, requeued: queued[0]?.n ?? 0 };
}

/** A vector as the blob libSQL stores in F32_BLOB: little-endian float32, which is Float32Array on every platform Node runs on. */
export function vectorBlob(vector: Float32Array): Uint8Array {
	return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
}
