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
import { handleRequestLog } from '$lib/server/ops';

// Build the app when the server starts, not on the first request: a bad setting stops the start with
// its message, and the runner resumes the turns a crashed process left behind without waiting for a visitor.
export const init: ServerInit = async () => {
	await getApp();
};

// The request log sees every answer as it leaves (with its request id); security headers go on every
// answer, API errors are made JSON around everything else, and the size guard runs before any database
// look-up. Background work started below is kept alive past the response.
export const handle = sequence(
	handleRequestLog,
	handleSecurityHeaders,
	handleApiErrors,
	handleBodySize,
	handleBackground,
	handleAuth,
	handleLanguage
);
export const handleError = handleServerError;
