export { type Embedder, isZeroVector } from './embedder';
export { OfflineEmbedder, OFFLINE_EMBEDDER_ID, OFFLINE_SIMILARITY_FLOOR } from './offline';
export {
	OpenAICompatibleEmbedder,
	NEURAL_SIMILARITY_FLOOR,
	EMBEDDING_TIMEOUT_MS,
	EMBEDDING_MAX_RETRIES,
	type OpenAICompatibleOptions
} from './openai-compatible';
export { createEmbedder } from './create';
