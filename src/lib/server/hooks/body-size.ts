/**
 * One limit for every request body, KANTERA_MAX_BODY_BYTES, enforced here before any handler reads a
 * byte: a declared Content-Length over it is refused at once, and a body without one (chunked) is
 * read up to the limit and refused past it. `npm start` gives adapter-node the same cap, so its own
 * 413 (raised while the body streams in) lands here too and is answered the same way. The API gets
 * JSON; pages get SvelteKit's error page.
 */
import { error, type Handle } from '@sveltejs/kit';
import { config } from '../config';
import { errorResponse } from '../api';
import { isApiRequest } from './paths';
import { LANGUAGE_COOKIE, pickLanguage, translate } from '../../i18n/all-languages';
import type { Language } from '../../types/settings';

const PAYLOAD_TOO_LARGE = 413;

/** English for the API; a page (SvelteKit's plain error page, drawn before the language hook runs) in the reader's language. */
function tooLargeMessage(limit: number, language: Language): string {
	return translate(language, 'errorPage.tooLargeLimit', { limit });
}

/** adapter-node's "Payload Too Large", raised by the body stream once it passes BODY_SIZE_LIMIT. */
function isPayloadTooLarge(err: unknown): boolean {
	return err instanceof Error && 'status' in err && err.status === PAYLOAD_TOO_LARGE;
}

/**
 * Reads a stream into memory, giving up (null) as soon as it passes `limit` bytes. The rest of the
 * body is left unread: the server discards it after the answer, so the client still gets the 413.
 */
async function readAtMost(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
	const reader = body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			size += value.byteLength;
			if (size > limit) return null;
			chunks.push(value);
		}
	} catch (err) {
		if (isPayloadTooLarge(err)) return null;
		throw err;
	} finally {
		reader.releaseLock();
	}
	const out = new Uint8Array(new ArrayBuffer(size));
	let offset = 0;
	for (const c of chunks) {
		out.set(c, offset);
		offset += c.byteLength;
	}
	return out;
}

export const handleBodySize: Handle = async ({ event, resolve }) => {
	const request = event.request;
	if (!request.body) return resolve(event);
	const limit = config().maxBodyBytes;
	const tooLarge = () => {
		if (isApiRequest(event.url)) return errorResponse(PAYLOAD_TOO_LARGE, { message: tooLargeMessage(limit, 'en'), code: 'BODY_TOO_LARGE' });
		const language = pickLanguage(event.cookies.get(LANGUAGE_COOKIE), request.headers.get('accept-language'));
		error(PAYLOAD_TOO_LARGE, { message: tooLargeMessage(limit, language), code: 'BODY_TOO_LARGE' });
	};
	const declared = request.headers.get('content-length');
	if (declared !== null && !(Number(declared) <= limit)) return tooLarge();
	const bytes = await readAtMost(request.body, limit);
	if (bytes === null) return tooLarge();
	// Handlers read the buffered copy; the original stream has been consumed.
	event.request = new Request(request.url, { method: request.method, headers: request.headers, body: bytes, signal: request.signal });
	return resolve(event);
};
