/** Builds the configured image provider (the offline placeholders unless `KANTERA_IMAGES` names another) and store. */
import type { ImagesConfig, ImageStoreConfig } from '../config';
import { S3ImageStore } from './s3';
import type { ImageStore } from './store';
import { A1111ImageProvider } from './a1111';
import { ComfyUiImageProvider } from './comfyui';
import { OfflineImageProvider } from './offline';
import { OpenAIImageProvider, OPENAI_IMAGES_BASE_URL } from './openai';
import type { ImageProvider } from './provider';

export function createImageProvider(cfg: ImagesConfig): ImageProvider {
	if (cfg.provider === 'offline') return new OfflineImageProvider();
	if (cfg.provider === 'comfyui')
		return new ComfyUiImageProvider({ ...cfg.comfyui, negativePrompt: cfg.negativePrompt, sizes: cfg.sizes, timeoutMs: cfg.timeoutMs });
	if (cfg.provider === 'a1111') return new A1111ImageProvider(cfg);
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

/**
 * Builds the configured image store. Local files are loaded only when used: an isolate host keeps its
 * images in a bucket and has no disk to write to.
 */
export async function createImageStore(cfg: ImageStoreConfig, dataDir: string): Promise<ImageStore> {
	if (cfg.kind === 's3') return new S3ImageStore(cfg);
	const { LocalImageStore } = await import('./local-store');
	return new LocalImageStore(`${dataDir.replace(/\/+$/, '')}/images`);
}
