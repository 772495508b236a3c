/**
 * How a stored image is answered over HTTP. Keys are content addressed, so a response never goes
 * stale and may be cached for good — privately, since only the session's owner may see it. SVG can
 * carry script: it is served with a policy that allows none, and nothing is content-sniffed.
 */
import type { StoredImage } from './store';

export const IMAGE_CACHE_CONTROL = 'private, max-age=31536000, immutable';
/** Inline styles are all our placeholders use; scripts, fetches and embedded content are refused. */
export const SVG_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

export function imageHeaders(image: Pick<StoredImage, 'contentType' | 'bytes'>): Record<string, string> {
	return {
		'content-type': image.contentType,
		'content-length': String(image.bytes.byteLength),
		'cache-control': IMAGE_CACHE_CONTROL,
		'x-content-type-options': 'nosniff',
		...(image.contentType === 'image/svg+xml' ? { 'content-security-policy': SVG_CONTENT_SECURITY_POLICY } : {})
	};
}

export function imageResponse(image: StoredImage): Response {
	return new Response(image.bytes, { status: 200, headers: imageHeaders(image) });
}
