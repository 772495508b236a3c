/**
 * Draining the embedding queue (and the word index's context queue). Embedding never blocks a write: triggers queue new and changed
 * sections in the writer's transaction; this reads a batch, embeds it outside any transaction
 * (provider calls can take seconds), then stores the vectors in one short write transaction,
 * skipping sections that changed meanwhile (they are still queued with their new content).
 */
import { sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { SessionDb } from '../db';
import { isZeroVector, type Embedder } from './embeddings';
import { CONTEXT_REFRESH_BATCH, refreshContexts } from './context-queue';
import { ensureVectorTable, readVectorSpace, sameSpace, vectorBlob, VECTOR_TABLE } from './vector-table';

export const DEFAULT_EMBED_BATCH_SIZE = 32;
/** Bounded work per call: the turn runner calls again later for the rest. */
export const DEFAULT_EMBED_MAX_BATCHES = 8;
/** Providers cap input length; sections are short, this only guards against pathological ones. */
export const MAX_EMBED_INPUT_CHARS = 8_000;

export interface EmbedPendingOptions {
	maxBatches?: number;
	batchSize?: number;
	signal?: AbortSignal;
	/** Called after each stored batch (for progress bars). */
	onBatch?: (progress: { embedded: number; remaining: number }) => void;
}

export interface EmbedPendingResult {
	embedded: number;
	remaining: number;
	/** True when the model or dimension changed and every section was queued again. */
	recreated: boolean;
}

const QueuedRow = v.object({ id: v.number(), path: v.string(), body: v.string(), contentHash: v.string() });
const HashRow = v.object({ id: v.number(), contentHash: v.string() });
const CountRow = v.object({ n: v.number() });

/** The text a section is embedded as: the heading path gives a short body its context. */
export function embeddingText(path: string, body: string): string {
	return `${path}\n${body}`.slice(0, MAX_EMBED_INPUT_CHARS);
}

export async function embedPending(s: SessionDb, embedder: Embedder, options: EmbedPendingOptions = {}): Promise<EmbedPendingResult> {
	const batchSize = options.batchSize ?? DEFAULT_EMBED_BATCH_SIZE;
	const maxBatches = options.maxBatches ?? DEFAULT_EMBED_MAX_BATCHES;
	// The word index's neighbour contexts are brought up to date at the same moment: after the
	// writer's commit, off its path (see context-queue.ts). They need no model, so they go first.
	for (let batch = 0; batch < maxBatches; batch++) {
		options.signal?.throwIfAborted();
		if ((await refreshContexts(s)) < CONTEXT_REFRESH_BATCH) break;
	}
	let recreated = false;
	if (!sameSpace(await readVectorSpace(s.db), embedder)) recreated = (await s.write((tx) => ensureVectorTable(tx, embedder))).recreated;

	let embedded = 0;
	for (let batch = 0; batch < maxBatches; batch++) {
		options.signal?.throwIfAborted();
		const queued = v.parse(
			v.array(QueuedRow),
			await s.db.all(sql`SELECT s.id AS id, s.path AS path, s.body AS body, s.content_hash AS contentHash
				FROM embed_queue q JOIN sections s ON s.id = q.section_id
				ORDER BY q.enqueued_at, q.section_id LIMIT ${batchSize}`)
		);
		if (queued.length === 0) break;
		const vectors = await embedder.embed(
			queued.map((row) => embeddingText(row.path, row.body)),
			options.signal
		);
		const stored = await s.write(async (tx) => {
			// Another process may have switched the model while we were embedding: these vectors are then useless.
			if (!sameSpace(await readVectorSpace(tx), embedder)) return undefined;
			const ids = queued.map((row) => row.id);
			const current = new Map(
				v
					.parse(
						v.array(HashRow),
						await tx.all(sql`SELECT id, content_hash AS contentHash FROM sections WHERE id IN (${sql.join(ids, sql`, `)})`)
					)
					.map((row) => [row.id, row.contentHash])
			);
			let count = 0;
			for (const [i, row] of queued.entries()) {
				const vector = vectors[i];
				if (current.get(row.id) !== row.contentHash || !vector) continue;
				await tx.run(sql`DELETE FROM ${sql.raw(VECTOR_TABLE)} WHERE section_id = ${row.id}`);
				// A text with no features (only stop words, only punctuation) has no direction: keyword search only.
				if (!isZeroVector(vector))
					await tx.run(
						sql`INSERT INTO ${sql.raw(VECTOR_TABLE)} (section_id, model, content_hash, embedding) VALUES (${row.id}, ${embedder.id}, ${row.contentHash}, ${vectorBlob(vector)})`
					);
				await tx.run(sql`DELETE FROM embed_queue WHERE section_id = ${row.id}`);
				count++;
			}
			return count;
		});
		if (stored === undefined) break;
		embedded += stored;
		options.onBatch?.({ embedded, remaining: await countQueued(s) });
	}
	return { embedded, remaining: await countQueued(s), recreated };
}

async function countQueued(s: SessionDb): Promise<number> {
	const rows = v.parse(v.array(CountRow), await s.db.all(sql`SELECT count(*) AS n FROM embed_queue`));
	return rows[0]?.n ?? 0;
}
