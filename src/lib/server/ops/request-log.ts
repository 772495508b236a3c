/**
 * One log line per HTTP request (and its duration in the metrics, by route), and its request id. The route is SvelteKit's route id
 * (`/api/v1/sessions/[id]/turns`), never the raw path or query, which may carry ids of other people's
 * sessions or secrets (an OAuth callback's code and state). The id comes from a proxy's `X-Request-Id`
 * when it is a plain token, else it is made here; it goes back in the answer's `X-Request-Id`.
 */
import type { Handle } from '@sveltejs/kit';
import { randomUUID } from 'node:crypto';
import { logLine } from './log';
import { observeHttpRequest } from './metrics';

const REQUEST_ID_HEADER = 'x-request-id';
const PLAIN_ID = /^[\w.:-]{1,128}$/;

/** A proxy's request id if it is a plain token (it goes into logs and a header), else a new one. */
function requestIdOf(request: Request): string {
	const given = request.headers.get(REQUEST_ID_HEADER);
	return given !== null && PLAIN_ID.test(given) ? given : randomUUID();
}

export const handleRequestLog: Handle = async ({ event, resolve }) => {
	const started = performance.now();
	const requestId = requestIdOf(event.request);
	event.locals.requestId = requestId;
	const line = (status: number) => {
		// Until the answer's head: an event stream stays open long after.
		const durationMs = performance.now() - started;
		observeHttpRequest(event.request.method, event.route.id, status, durationMs);
		logLine('request', {
			requestId,
			method: event.request.method,
			// null: no route matched (a 404, a static file).
			route: event.route.id,
			status,
			durationMs: Math.round(durationMs),
			userId: event.locals.user?.id
		});
	};
	let response: Response;
	try {
		response = await resolve(event);
	} catch (err) {
		line(500);
		throw err;
	}
	line(response.status);
	try {
		response.headers.set(REQUEST_ID_HEADER, requestId);
	} catch {
		// A response with immutable headers (a fetch passed through): it goes out without the id.
	}
	return response;
};
