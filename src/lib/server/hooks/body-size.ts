/**
 * Refuses oversize bodies on the JSON API (`/api/`) with 413 before any handler reads them.
 * Declared lengths are checked up front; bodies without a length (chunked) are read up to the limit.
 */
import { json, type Handle } from '@sveltejs/kit';
import { config } from '../config';

const API_PREFIX = '/api/';

function tooLarge(limit: number): Response {
	return json(
		{ message: `The request body is larger than this server accepts (${limit} bytes). Send less data per request.`, code: 'BODY_TOO_LARGE' },
		{ status: 413 }
	);
}

/** Reads a stream into memory, giving up (null) as soon as it passes `limit` bytes. */
async function readAtMost(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
	const reader = body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > limit) {
			await reader.cancel();
			return null;
		}
		chunks.push(value);
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
	if (!event.url.pathname.startsWith(API_PREFIX)) return resolve(event);
	const limit = config().maxBodyBytes;
	const declared = event.request.headers.get('content-length');
	if (declared !== null) {
		const length = Number(declared);
		if (!Number.isFinite(length) || length > limit) return tooLarge(limit);
	} else if (event.request.body) {
		const bytes = await readAtMost(event.request.body, limit);
		if (bytes === null) return tooLarge(limit);
		event.request = new Request(event.request.url, {
			method: event.request.method,
			headers: event.request.headers,
			body: bytes
		});
	}
	return resolve(event);
};
