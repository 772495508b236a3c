/**
 * What any image service sends back is treated like an upload before it is stored: its format told from its bytes,
 * its size in bytes and pixels bounded, its metadata dropped. Generators write a lot there: ComfyUI the whole prompt
 * and workflow, AUTOMATIC1111 its generation parameters, OpenAI its provenance manifest; none of it belongs in a file
 * served to players. The offline provider's SVG is Kantera's own drawing and passes as it is.
 */
import { ImageProviderError } from './errors';
import type { GeneratedImage } from './provider';
import { cleanUploadedImage, ImageUploadError } from './upload';

export function cleanGeneratedImage(image: GeneratedImage, providerId: string): GeneratedImage {
	if (image.contentType === 'image/svg+xml') return image;
	try {
		const clean = cleanUploadedImage(image.bytes);
		return { bytes: clean.bytes, contentType: clean.contentType };
	} catch (err) {
		// The same bytes would come back refused the next time too.
		if (err instanceof ImageUploadError) throw new ImageProviderError(`image from ${providerId} refused: ${err.message}`, false);
		throw err;
	}
}
