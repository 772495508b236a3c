/**
 * What the error page says, in the reader's language. The server words its errors in English (the
 * API's language) and gives each a `code`; an English reader sees the server's own sentence, anyone
 * else the sentence for its code (or, for a code without one, for its status). Browser-safe.
 */
import { translate, type MessageKey } from './index';
import type { Language } from '../types/settings';

/** The parts of SvelteKit's `App.Error` the page reads. */
export interface ShownError {
	message?: string;
	code?: string;
	/** The id an unexpected error was logged under, for the operator. */
	errorId?: string;
}

const NOT_FOUND = 404;
const FORBIDDEN = 403;
const PAYLOAD_TOO_LARGE = 413;
const TOO_MANY_REQUESTS = 429;
const FIRST_SERVER_ERROR = 500;

/** Codes the server answers pages with (see docs/api.md), by sentence. */
const BY_CODE: Partial<Record<string, MessageKey>> = {
	NOT_FOUND: 'errorPage.nothingHere',
	FORBIDDEN: 'errorPage.forbidden',
	READ_ONLY: 'errorPage.readOnly',
	NOT_PLAYABLE: 'errorPage.notPlayable',
	INVALID: 'errorPage.invalid',
	RATE_LIMITED: 'errorPage.rateLimited',
	BODY_TOO_LARGE: 'errorPage.tooLarge',
	BAD_RANGE: 'errorPage.badRange',
	BAD_REQUEST: 'errorPage.badRequest'
};

function byStatus(status: number): MessageKey {
	if (status === NOT_FOUND) return 'errorPage.nothingHere';
	if (status === FORBIDDEN) return 'errorPage.forbidden';
	if (status === PAYLOAD_TOO_LARGE) return 'errorPage.tooLarge';
	if (status === TOO_MANY_REQUESTS) return 'errorPage.rateLimited';
	if (status >= FIRST_SERVER_ERROR) return 'errorPage.serverError';
	return 'errorPage.badRequest';
}

export function errorPageHeading(language: Language, status: number): string {
	if (status === NOT_FOUND) return translate(language, 'errorPage.notFound');
	if (status === FORBIDDEN) return translate(language, 'errorPage.notAllowed');
	return translate(language, 'errorPage.failed');
}

export function errorPageMessage(language: Language, status: number, error: ShownError | null): string {
	if (language === 'en' && error?.message) return error.message;
	if (error?.errorId) return translate(language, 'errorPage.internal', { id: error.errorId });
	const key = (error?.code === undefined ? undefined : BY_CODE[error.code]) ?? byStatus(status);
	return translate(language, key);
}
