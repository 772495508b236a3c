/**
 * How a stored image is answered over HTTP. Keys are content addressed, so a response never goes
 * stale and may be cached for good — privately, since only the session's owner may see it. SVG can
 * carry script: it is served with a policy that allows none, and nothing is content-sniffed.
 */
import type { ImageStore, StoredImage } from './store';

const IMAGE_CACHE_CONTROL = 'private, max-age=31536000, immutable';
/** Inline styles are all our placeholders use; scripts, fetches and embedded content are refused. */
export const SVG_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

function imageHeaders(image: Pick<StoredImage, 'contentType' | 'bytes'>): Record<string, string> {
	return {
		'content-type': image.contentType,
		'content-length': String(image.bytes.byteLength),
		'cache-control': IMAGE_CACHE_CONTROL,
		'x-content-type-options': 'nosniff',
		...(image.contentType === 'image/svg+xml' ? { 'content-security-policy': SVG_CONTENT_SECURITY_POLICY } : {})
	};
}

function imageResponse(image: StoredImage): Response {
	return new Response(image.bytes, { status: 200, headers: imageHeaders(image) });
}

/**
 * The answer for a stored image, once the route has checked who may see it: a redirect to the store's
 * public URL when it has one (browsers then fetch it from the bucket), else the bytes. Undefined when
 * there is no such image.
 */
export async function storedImageResponse(store: ImageStore, folder: string, key: string): Promise<Response | undefined> {
	const url = store.publicUrl?.(folder, key);
	if (url !== undefined) return new Response(null, { status: 302, headers: { location: url, 'cache-control': IMAGE_CACHE_CONTROL } });
	const image = await store.get(folder, key);
	return image && imageResponse(image);
}
