import type { ServerInit } from '@sveltejs/kit';
import { sequence } from '@sveltejs/kit/hooks';
import {
	handleApiErrors,
	handleAuth,
	handleBackground,
	handleBodySize,
	handleLanguage,
	handleSecurityHeaders,
	handleServerError
} from '$lib/server/hooks';
import { getApp } from '$lib/server/app';
import { config } from '$lib/server/config';
import { handleIsolate } from '$lib/server/isolate';
import { handleRequestLog } from '$lib/server/ops';

// A server builds the app when it starts, not on the first request: a bad setting stops the start with
// its message, and the runner resumes the turns a crashed process left behind without waiting for a visitor.
// An isolate host runs this at module load, where no I/O is allowed: the settings are checked, and the
// app is built by the requests (isolate/).
export const init: ServerInit = async () => {
	if (config().scheduler === 'request') return;
	await getApp();
};

// On an isolate host every request first gets the app of where it runs (isolate/). The request log sees
// every answer as it leaves (with its request id); security headers go on every answer, API errors are
// made JSON around everything else, and the size guard runs before any database look-up. Background work started below is kept alive past the response.
export const handle = sequence(
	handleIsolate,
	handleRequestLog,
	handleSecurityHeaders,
	handleApiErrors,
	handleBodySize,
	handleBackground,
	handleAuth,
	handleLanguage
);
export const handleError = handleServerError;
