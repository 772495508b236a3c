/**
 * The one funnel for unexpected errors: log enough to debug (error id, route, error chain and stack)
 * but never request data, and answer the player with what happened and what to do.
 */
import type { HandleServerError } from '@sveltejs/kit';
import { randomUUID } from 'node:crypto';
import { translate } from '../../i18n/all-languages';

/** Driver errors (drizzle) append the bound parameters — possibly hashes or user text — after this marker. */
const PARAMS_MARKER = /\bparams:/;
const MAX_CAUSE_DEPTH = 5;

/** Name and message of an error and its causes, with query parameters cut off, plus the stack frames. */
export function describeError(error: unknown): string {
	const lines: string[] = [];
	let e: unknown = error;
	for (let depth = 0; depth < MAX_CAUSE_DEPTH && e !== undefined; depth++) {
		if (!(e instanceof Error)) {
			lines.push(`${depth ? 'caused by ' : ''}non-Error thrown: ${typeof e}`);
			break;
		}
		const message = e.message.split(PARAMS_MARKER)[0]?.trim() ?? '';
		lines.push(`${depth ? 'caused by ' : ''}${e.name}: ${message}`);
		if (depth === 0) lines.push(...(e.stack ?? '').split('\n').filter((l) => l.trimStart().startsWith('at ')));
		e = e.cause;
	}
	return lines.join('\n');
}

/** HTTP 413: also raised by adapter-node itself when a body passes its BODY_SIZE_LIMIT mid-stream. */
const PAYLOAD_TOO_LARGE = 413;
const FIRST_SERVER_ERROR = 500;

/**
 * What the funnel answered for each request, for `answeredError` (the API answers it as JSON). Keyed
 * by the request's `locals`: SvelteKit hands handleError a copy of the event, but the same locals.
 */
const answered = new WeakMap<App.Locals, App.Error>();

/** The body `handleServerError` produced for the request with these locals, if it produced one. */
export function answeredError(locals: App.Locals): App.Error | undefined {
	return answered.get(locals);
}

export const handleServerError: HandleServerError = (input) => {
	const body = errorBody(input);
	answered.set(input.event.locals, body);
	return body;
};

function errorBody({ error, event, status, message }: Parameters<HandleServerError>[0]): App.Error {
	if (status === 404) return { message: 'There is nothing at this address.', code: 'NOT_FOUND' };
	if (status === PAYLOAD_TOO_LARGE) return { message: translate('en', 'errorPage.tooLarge'), code: 'BODY_TOO_LARGE' };
	// Other client errors raised by SvelteKit itself (malformed requests): its message is safe to show.
	if (status < FIRST_SERVER_ERROR) return { message, code: 'BAD_REQUEST' };
	const errorId = randomUUID().slice(0, 8);
	// Pathname only: a query string may carry something private.
	console.error(
		`[kantera] error ${errorId} on ${event.request.method} ${event.route.id ?? event.url.pathname} (status ${status})\n${describeError(error)}`
	);
	// The id goes apart too: the error page words the sentence in the reader's language around it.
	return { message: translate('en', 'errorPage.internal', { id: errorId }), code: 'INTERNAL', errorId };
}
