import type { EmbeddingsConfig } from '../../config';
import type { Embedder } from './embedder';
import { OfflineEmbedder } from './offline';
import { OpenAICompatibleEmbedder } from './openai-compatible';

/** The embedder the configuration asks for. */
export function createEmbedder(config: EmbeddingsConfig): Embedder {
	if (config.provider === 'openai')
		return new OpenAICompatibleEmbedder({
			baseUrl: config.baseUrl,
			apiKey: config.apiKey,
			model: config.model,
			dimensions: config.dimensions
		});
	return new OfflineEmbedder(config.dimensions);
}
