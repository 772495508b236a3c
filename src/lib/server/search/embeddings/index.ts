export { type Embedder, isZeroVector } from './embedder';
export { OfflineEmbedder, OFFLINE_EMBEDDER_ID } from './offline';
export { OpenAICompatibleEmbedder } from './openai-compatible';
export { createEmbedder } from './create';
