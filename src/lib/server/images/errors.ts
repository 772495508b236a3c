/** Typed errors of the image layer: provider failures (retryable or not), bad storage keys, and job requests. */

/**
 * An image service failed. `retryable` says whether the job runner should try again later, `retryAfterMs` how
 * long the service asked it to wait (the retry policy honours it up to its cap).
 */
export class ImageProviderError extends Error {
	constructor(
		message: string,
		readonly retryable: boolean,
		readonly status?: number,
		readonly retryAfterMs?: number
	) {
		super(message);
		this.name = 'ImageProviderError';
	}
}

/** A key or session id that may not become a path: refused before any file system call. */
export class ImageStoreError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ImageStoreError';
	}
}

/** The user has ordered all the hand-made regenerations their day allows. */
export class RegenerationLimitError extends Error {
	constructor(
		readonly limit: number,
		readonly resetsAt: Date
	) {
		super(`You have regenerated ${limit} images today, all your day allows. More can be ordered after ${resetsAt.toISOString()}.`);
		this.name = 'RegenerationLimitError';
	}
}

export type ImageJobErrorCode = 'not_found' | 'invalid_input';

/** A hand-made image request that can't be placed (unknown character or scene). */
export class ImageJobError extends Error {
	constructor(
		readonly code: ImageJobErrorCode,
		message: string
	) {
		super(message);
		this.name = 'ImageJobError';
	}
}
