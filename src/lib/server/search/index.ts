/**
 * Search: hybrid recall over the sections of a session database, and the embeddings behind it.
 * Reads sections (written by records); owns the vector table and drains the embedding queue.
 */
export { recall, withQueryEmbedded, type RecallHit } from './recall';
export { type Embedder, createEmbedder, OfflineEmbedder, OpenAICompatibleEmbedder, OFFLINE_EMBEDDER_ID } from './embeddings';
export { embedPending, embedReads } from './embed-pending';
export { readVectorSpace, VECTOR_TABLE, META_EMBEDDING_MODEL, META_EMBEDDING_DIMENSIONS } from './vector-table';

export { type SectionKind, SECTION_KINDS } from './filter';
export { EmbeddingError, EmbeddingConfigError } from './errors';
