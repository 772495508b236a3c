/**
 * Search: hybrid recall over the sections of a session database, and the embeddings behind it.
 * Reads sections (written by records); owns the vector table and drains the embedding queue.
 */
export { recall, withQueryEmbedded, DEFAULT_RECALL_K, MAX_RECALL_K, type RecallHit, type RecallOptions } from './recall';
export {
	type Embedder,
	createEmbedder,
	OfflineEmbedder,
	OpenAICompatibleEmbedder,
	OFFLINE_EMBEDDER_ID,
	OFFLINE_SIMILARITY_FLOOR,
	NEURAL_SIMILARITY_FLOOR,
	type OpenAICompatibleOptions
} from './embeddings';
export {
	embedPending,
	DEFAULT_EMBED_BATCH_SIZE,
	DEFAULT_EMBED_MAX_BATCHES,
	type EmbedPendingOptions,
	type EmbedPendingResult
} from './embed-pending';
export {
	ensureVectorTable,
	readVectorSpace,
	VECTOR_TABLE,
	VECTOR_INDEX,
	META_EMBEDDING_MODEL,
	META_EMBEDDING_DIMENSIONS,
	type VectorSpace
} from './vector-table';
export { RRF_K } from './fuse';
export { DEFAULT_SIMILARITY_FLOOR, SIMILARITY_GAP } from './vector-search';
export { type SectionKind, SECTION_KINDS } from './filter';
export { EmbeddingError, EmbeddingConfigError } from './errors';
