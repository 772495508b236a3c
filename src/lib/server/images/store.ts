/**
 * Where generated images live. One interface; the default keeps local files under
 * `KANTERA_DATA_DIR/images/<sessionId>/<key>` (`local-store.ts`), and `s3.ts` keeps them in an
 * S3-compatible bucket. Session ids and keys are checked against strict
 * patterns before they come near a path, so no request can name a file outside its session's folder.
 *
 * Keys are content addressed (a hash of the bytes plus the format's extension): a key never changes
 * meaning, which is what lets the images be served as immutable.
 */
import { createHash } from 'node:crypto';
import { isSessionId } from '../db';
import { ImageStoreError } from './errors';
import { IMAGE_FORMATS, extensionOf, isImageExtension, type ImageContentType } from './provider';

export interface StoredImage {
	/** Backed by a plain ArrayBuffer, so it can be a Response body as it is. */
	bytes: Uint8Array<ArrayBuffer>;
	contentType: ImageContentType;
}

export interface ImageStore {
	put(sessionId: string, key: string, bytes: Uint8Array, contentType: ImageContentType): Promise<void>;
	get(sessionId: string, key: string): Promise<StoredImage | undefined>;
	/** Removes every image of a session (the session was deleted). */
	deleteSession(sessionId: string): Promise<void>;
	/** The keys of a session's (or a cover slot's) images, sorted: what a backup copies. */
	keys(sessionId: string): Promise<string[]>;
	/**
	 * Where browsers may fetch the image themselves (a public bucket URL), if the store has one: the
	 * image routes then answer with a redirect there, after their access check, instead of the bytes.
	 */
	publicUrl?(sessionId: string, key: string): string | undefined;
}

/** Lowercase letters, digits and dashes, then one known extension: no dots, slashes or traversal. */
export const IMAGE_KEY_PATTERN = /^[a-z0-9][a-z0-9-]{0,127}\.(png|jpg|webp|svg|ogg|mp3|m4a)$/;
/** Hex digits of the SHA-256 kept in a key: 128 bits, ample against collisions within a session. */
const KEY_HASH_CHARS = 32;

export function isImageKey(key: unknown): key is string {
	return typeof key === 'string' && IMAGE_KEY_PATTERN.test(key);
}

/** The content-addressed key of an image. */
export function imageKey(bytes: Uint8Array, contentType: ImageContentType): string {
	return `${createHash('sha256').update(bytes).digest('hex').slice(0, KEY_HASH_CHARS)}.${extensionOf(contentType)}`;
}

export function contentTypeOfKey(key: string): ImageContentType {
	const ext = key.slice(key.lastIndexOf('.') + 1);
	if (isImageExtension(ext)) return IMAGE_FORMATS[ext];
	throw new ImageStoreError(`image key "${key}" has no known extension`);
}

export function checkSession(sessionId: string): string {
	if (!isSessionId(sessionId)) throw new ImageStoreError('invalid session id for an image');
	return sessionId;
}

export function checkKey(key: string): string {
	if (!isImageKey(key))
		throw new ImageStoreError(
			'invalid image key: lowercase letters, digits and dashes with a .png, .jpg, .webp, .svg, .ogg, .mp3 or .m4a extension'
		);
	return key;
}
