/** Builds the configured image provider: the offline placeholders unless `KANTERA_IMAGES=openai`. */
import type { ImagesConfig } from '../config';
import { OfflineImageProvider } from './offline';
import { OpenAIImageProvider, OPENAI_IMAGES_BASE_URL } from './openai';
import type { ImageProvider } from './provider';

export function createImageProvider(cfg: ImagesConfig): ImageProvider {
	if (cfg.provider === 'offline') return new OfflineImageProvider();
	return new OpenAIImageProvider({
		id: cfg.baseUrl === undefined ? 'openai' : 'openai-compatible',
		baseUrl: cfg.baseUrl ?? OPENAI_IMAGES_BASE_URL,
		apiKey: cfg.apiKey,
		model: cfg.model,
		transparentSprites: cfg.transparentSprites,
		quality: cfg.quality,
		sizes: { sprite: cfg.spriteSize, background: cfg.backgroundSize }
	});
}
