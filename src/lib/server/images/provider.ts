/**
 * The one interface every image service is used through. A provider turns a prompt into image bytes
 * and nothing else: it has no retries (the job runner owns those) but does own its timeouts.
 */

type ImageKind = 'sprite' | 'background';

export interface ImageRequest {
	readonly kind: ImageKind;
	/** The order's prompt, built by stage/prompts.ts from visual fields only. */
	readonly prompt: string;
	/**
	 * The character or place name the order is for. It is already part of the prompt; the offline
	 * provider uses it alone to pick a colour and a label, remote providers ignore it.
	 */
	readonly subject: string;
	readonly signal: AbortSignal;
}

export interface GeneratedImage {
	readonly bytes: Uint8Array;
	readonly contentType: ImageContentType;
}

export interface ImageProvider {
	/** Shown in logs and errors: `offline`, `openai`, `openai-compatible`. */
	readonly id: string;
	generate(request: ImageRequest): Promise<GeneratedImage>;
}

/**
 * The formats Kantera stores and serves; the key's extension names the format. The store also keeps a
 * preset's sound files (audio-upload.ts): one content-addressed store, one way to copy and back up.
 */
export const IMAGE_FORMATS = {
	png: 'image/png',
	jpg: 'image/jpeg',
	webp: 'image/webp',
	svg: 'image/svg+xml',
	ogg: 'audio/ogg',
	mp3: 'audio/mpeg',
	m4a: 'audio/mp4'
} as const;
export type ImageExtension = keyof typeof IMAGE_FORMATS;
export type ImageContentType = (typeof IMAGE_FORMATS)[ImageExtension];

const EXTENSIONS: Readonly<Record<ImageContentType, ImageExtension>> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'image/svg+xml': 'svg',
	'audio/ogg': 'ogg',
	'audio/mpeg': 'mp3',
	'audio/mp4': 'm4a'
};

export function extensionOf(contentType: ImageContentType): ImageExtension {
	return EXTENSIONS[contentType];
}

export function isImageExtension(value: string): value is ImageExtension {
	return Object.hasOwn(IMAGE_FORMATS, value);
}

/**
 * The raster format of bytes from a remote service, read from their magic numbers. Anything else
 * (HTML, SVG with scripts, a JSON error) is refused rather than stored and served.
 */
export function sniffRaster(bytes: Uint8Array): ImageContentType | undefined {
	const starts = (sig: readonly number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
	if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
	if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
	if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
	return undefined;
}
