/**
 * The body-size guard on its own, with a body sent in chunks and no Content-Length (what a client
 * streaming a body sends): past KANTERA_MAX_BODY_BYTES the API answers JSON 413 without reading the
 * rest or calling the route; within it, the route reads the whole body.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RequestEvent } from '@sveltejs/kit';
import { handleBodySize } from '../../../src/lib/server/hooks';

const LIMIT = 1024;

beforeAll(() => {
	// config() is read once per test file (vitest isolates modules per file), on the first request below.
	process.env.KANTERA_MAX_BODY_BYTES = String(LIMIT);
});

/** A chunked body of `chunks` pieces of `size` bytes; `pulled` counts the pieces the reader asked for. */
function chunkedBody(chunks: number, size: number): { body: ReadableStream<Uint8Array>; pulled: () => number } {
	let sent = 0;
	const body = new ReadableStream<Uint8Array>({
		pull(controller) {
			if (sent === chunks) {
				controller.close();
				return;
			}
			sent++;
			controller.enqueue(new Uint8Array(size).fill(0x61));
		}
	});
	return { body, pulled: () => sent };
}

async function send(path: string, body: ReadableStream<Uint8Array>) {
	const url = new URL(`http://localhost${path}`);
	// Node's fetch needs `duplex: 'half'` for a stream body; the DOM typings do not know it yet.
	const init: RequestInit & { duplex: 'half' } = { method: 'POST', body, headers: { 'content-type': 'application/json' }, duplex: 'half' };
	const request = new Request(url, init);
	expect(request.headers.get('content-length')).toBeNull();
	let routeSaw: string | undefined;
	const event = { request, url } as RequestEvent;
	const response = await handleBodySize({
		event,
		resolve: async (e) => {
			routeSaw = await e.request.text();
			return new Response('ok');
		}
	});
	return { response, routeSaw };
}

describe('the body-size guard', () => {
	it('answers a chunked API body over the limit with JSON 413, without reading the rest or calling the route', async () => {
		const { body, pulled } = chunkedBody(1000, 256);
		const { response, routeSaw } = await send('/api/v1/sessions', body);
		expect(response.status).toBe(413);
		expect(response.headers.get('content-type')).toMatch(/^application\/json/);
		expect(await response.json()).toMatchObject({ code: 'BODY_TOO_LARGE', message: expect.stringContaining(String(LIMIT)) });
		expect(routeSaw).toBeUndefined();
		expect(pulled()).toBeLessThan(10);
	});

	it('hands a chunked body within the limit to the route whole', async () => {
		const { body } = chunkedBody(4, 256);
		const { response, routeSaw } = await send('/api/v1/sessions', body);
		expect(response.status).toBe(200);
		expect(routeSaw).toBe('a'.repeat(LIMIT));
	});
});
