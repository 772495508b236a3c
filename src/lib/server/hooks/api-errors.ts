/**
 * Every answer under /api/ is JSON, errors as `{message, code}`. Endpoints answer that way
 * themselves; this covers what SvelteKit answers around them — no such route (404), a method the
 * route does not export (405, text), and an error page for a failure (HTML when the client prefers
 * HTML) — keeping the status and headers such as Allow and Retry-After.
 */
import type { Handle } from '@sveltejs/kit';
import { errorResponse } from '../api';
import { answeredError } from './errors';
import { isApiRequest } from './paths';

const FIRST_ERROR_STATUS = 400;
/** Headers of an error answer worth keeping when its body is replaced. */
const KEPT_HEADERS = ['allow', 'retry-after', 'www-authenticate'];

/** Codes for statuses SvelteKit answers on its own. */
const CODES: Record<number, string> = {
	400: 'BAD_REQUEST',
	403: 'FORBIDDEN',
	404: 'NOT_FOUND',
	405: 'METHOD_NOT_ALLOWED',
	413: 'BODY_TOO_LARGE',
	415: 'UNSUPPORTED_MEDIA_TYPE'
};

const NO_ENDPOINT = 'There is no API endpoint at this address; docs/api.md lists them.';

function isJson(response: Response): boolean {
	return /^application\/(?:[\w.+-]+\+)?json\b/i.test(response.headers.get('content-type') ?? '');
}

function fallbackMessage(status: number, method: string, allow: string | null): string {
	if (status === 404) return NO_ENDPOINT;
	if (status === 405) return `${method} is not allowed here${allow ? `; use ${allow}` : ''}.`;
	if (status === 413) return 'The request body is larger than this server accepts. Send less data per request.';
	if (status < 500) return 'The request was refused.';
	return 'Something went wrong on our side. Please try again.';
}

export const handleApiErrors: Handle = async ({ event, resolve }) => {
	if (!isApiRequest(event.url)) return resolve(event);
	if (event.route.id === null) return errorResponse(404, { message: NO_ENDPOINT, code: 'NOT_FOUND' });
	const response = await resolve(event);
	if (response.status < FIRST_ERROR_STATUS || isJson(response)) return response;
	const allow = response.headers.get('allow');
	const body = answeredError(event.locals) ?? { message: fallbackMessage(response.status, event.request.method, allow) };
	const headers: Record<string, string> = {};
	for (const name of KEPT_HEADERS) {
		const value = response.headers.get(name);
		if (value !== null) headers[name] = value;
	}
	return errorResponse(
		response.status,
		{ message: body.message, code: body.code ?? CODES[response.status] ?? (response.status < 500 ? 'BAD_REQUEST' : 'INTERNAL') },
		headers
	);
};
