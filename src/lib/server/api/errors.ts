/**
 * Errors the API answers with a status and a stable code. Route code throws them; `apiEndpoint`
 * turns them into JSON responses, so no handler builds an error response by hand.
 */
import type { ApiErrorBody } from '../../types/api';

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		/** Extra body fields (hint, resetsAt) and headers (Retry-After). */
		readonly extra: { body?: Omit<ApiErrorBody, 'message' | 'code'>; headers?: Record<string, string> } = {}
	) {
		super(message);
		this.name = 'ApiError';
	}
}

/** 400: the request itself is wrong; the message says what to fix. */
export const badRequest = (message: string, code = 'INVALID_REQUEST') => new ApiError(400, code, message);

/** 404: unknown, malformed, or someone else's: all look the same from outside. */
export const notFound = (message: string) => new ApiError(404, 'NOT_FOUND', message);
