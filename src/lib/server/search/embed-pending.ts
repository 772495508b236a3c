/**
 * Draining the embedding queue (and the word index's context queue). Embedding never blocks a write: triggers queue new and changed
 * sections in the writer's transaction; this reads a batch, embeds it outside any transaction
 * (provider calls can take seconds), then stores the vectors in one short write transaction,
 * skipping sections that changed meanwhile (they are still queued with their new content).
 *
 * Each round is one read batch (queued contexts, the vector space, queued sections, the queue's size)
 * and, when there is work, one write batch (contexts re-indexed, vectors stored, the queue's size
 * after): two round trips to a remote database whatever the number of sections, none written one by one.
 */
import type { InStatement, ResultSet } from '@libsql/client';
import * as v from 'valibot';
import type { SessionDb } from '../db';
import { isZeroVector, type Embedder } from './embeddings';
import { CONTEXT_REFRESH_BATCH, contextQueueIds, contextQueueQuery, contextRefreshStatements } from './context-queue';
import { ensureVectorTable, inSpace, sameSpace, vectorBlob, vectorSpaceOf, VECTOR_SPACE_QUERIES, VECTOR_TABLE } from './vector-table';

const DEFAULT_EMBED_BATCH_SIZE = 32;
/** Bounded work per call: the turn runner calls again later for the rest. */
const DEFAULT_EMBED_MAX_BATCHES = 8;
/** Providers cap input length; sections are short, this only guards against pathological ones. */
const MAX_EMBED_INPUT_CHARS = 8_000;

export interface EmbedPendingOptions {
	maxBatches?: number;
	batchSize?: number;
	signal?: AbortSignal;
	/** Called after each stored batch (for progress bars). */
	onBatch?: (progress: { embedded: number; remaining: number }) => void;
	/**
	 * The first round's reads, already run (`embedReads`, with the same batch size) in a batch the caller
	 * sends anyway: that round costs no read of its own.
	 */
	first?: ResultSet[];
}

export interface EmbedPendingResult {
	embedded: number;
	remaining: number;
	/** True when the model or dimension changed and every section was queued again. */
	recreated: boolean;
	/**
	 * The last round found less than a full batch of either queue and left none behind: nothing was
	 * waiting when it ended, so a caller about to look again at once need not.
	 */
	drained: boolean;
}

const QueuedRow = v.object({ id: v.number(), path: v.string(), body: v.string(), contentHash: v.string() });
const CountRow = v.object({ n: v.number() });

/** The text a section is embedded as: the heading path gives a short body its context. */
function embeddingText(path: string, body: string): string {
	return `${path}\n${body}`.slice(0, MAX_EMBED_INPUT_CHARS);
}

export async function embedPending(s: SessionDb, embedder: Embedder, options: EmbedPendingOptions = {}): Promise<EmbedPendingResult> {
	const batchSize = options.batchSize ?? DEFAULT_EMBED_BATCH_SIZE;
	const maxBatches = options.maxBatches ?? DEFAULT_EMBED_MAX_BATCHES;
	let recreated = false;
	let embedded = 0;
	let remaining = 0;
	let drained = false;
	let first = options.first;
	// A round that only re-created the vector table does not count as one of the batches.
	for (let batch = 0; batch < maxBatches;) {
		options.signal?.throwIfAborted();
		const [contextRows, tableRows, metaRows, queuedRows, countRows] = first ?? (await s.batch(embedReads(batchSize), 'read'));
		first = undefined;
		// The word index's neighbour contexts are brought up to date at the same moment: after the
		// writer's commit, off its path (see context-queue.ts). They need no model.
		const contexts = contextQueueIds(contextRows?.rows ?? []);
		remaining = countOf(countRows?.rows ?? []);
		if (!sameSpace(vectorSpaceOf(tableRows?.rows ?? [], metaRows?.rows ?? []), embedder)) {
			// A new model or size (or no table yet): everything is queued again; the next round reads it.
			if (recreated) break;
			recreated = (await s.write((tx) => ensureVectorTable(tx, embedder))).recreated;
			if (!recreated) break;
			continue;
		}
		const queued = v.parse(v.array(QueuedRow), queuedRows?.rows ?? []);
		if (contexts.length === 0 && queued.length === 0) {
			drained = remaining === 0;
			break;
		}
		const vectors =
			queued.length === 0
				? []
				: await embedder.embed(
						queued.map((row) => embeddingText(row.path, row.body)),
						options.signal
					);
		const stores = queued.flatMap((row, i) => {
			const vector = vectors[i];
			return vector ? storeStatements(embedder, row, vector) : [];
		});
		const refresh = contextRefreshStatements(contexts);
		const results = await s.batch([...refresh, ...stores.map((st) => st.statement), COUNT_QUEUED], 'write');
		// A vector counts when its queue row went: the section was unchanged and the model still this one.
		const stored = stores.filter((st, i) => st.dequeues && (results[refresh.length + i]?.rowsAffected ?? 0) > 0).length;
		remaining = countOf(results.at(-1)?.rows ?? []);
		if (queued.length > 0) {
			embedded += stored;
			options.onBatch?.({ embedded, remaining });
		}
		if (queued.length < batchSize && contexts.length < CONTEXT_REFRESH_BATCH) {
			drained = remaining === 0;
			break;
		}
		batch++;
	}
	return { embedded, remaining, recreated, drained };
}

/**
 * One round's reads (queued contexts, the vector space, queued sections, the queue's size), for a batch
 * of the caller's: its results go to `embedPending` as `first`.
 */
export function embedReads(batchSize = DEFAULT_EMBED_BATCH_SIZE): InStatement[] {
	return [
		contextQueueQuery(),
		...VECTOR_SPACE_QUERIES.map((q) => ({ sql: q.sql, args: [...q.args] })),
		{
			sql: `SELECT s.id AS id, s.path AS path, s.body AS body, s.content_hash AS contentHash
				FROM embed_queue q JOIN sections s ON s.id = q.section_id
				ORDER BY q.enqueued_at, q.section_id LIMIT ?`,
			args: [batchSize]
		},
		COUNT_QUEUED
	];
}

const COUNT_QUEUED: InStatement = { sql: 'SELECT count(*) AS n FROM embed_queue', args: [] };

function countOf(rows: readonly unknown[]): number {
	return v.parse(v.array(CountRow), rows)[0]?.n ?? 0;
}

/**
 * One section's vector stored, as statements that each check the section still has the content that
 * was embedded and the vectors are still this model's: a section changed meanwhile stays queued.
 */
function storeStatements(
	embedder: Embedder,
	row: v.InferOutput<typeof QueuedRow>,
	vector: Float32Array
): { statement: InStatement; dequeues: boolean }[] {
	const space = inSpace(embedder);
	const unchanged = `EXISTS (SELECT 1 FROM sections WHERE id = ? AND content_hash = ?) AND ${space.sql}`;
	const guard = [row.id, row.contentHash, ...space.args];
	const statements: { statement: InStatement; dequeues: boolean }[] = [
		{ statement: { sql: `DELETE FROM ${VECTOR_TABLE} WHERE section_id = ? AND ${unchanged}`, args: [row.id, ...guard] }, dequeues: false }
	];
	// A text with no features (only stop words, only punctuation) has no direction: keyword search only.
	if (!isZeroVector(vector))
		statements.push({
			statement: {
				sql: `INSERT INTO ${VECTOR_TABLE} (section_id, model, content_hash, embedding) SELECT ?, ?, ?, ? WHERE ${unchanged}`,
				args: [row.id, embedder.id, row.contentHash, vectorBlob(vector), ...guard]
			},
			dequeues: false
		});
	statements.push({
		statement: { sql: `DELETE FROM embed_queue WHERE section_id = ? AND ${unchanged}`, args: [row.id, ...guard] },
		dequeues: true
	});
	return statements;
}
