/** Typed errors of the search capability. */

/**
 * The embedding provider failed (HTTP error after retries, timeout, malformed response). `retryable` and
 * `retryAfterMs` tell the retry policy whether another attempt could help, and when.
 */
export class EmbeddingError extends Error {
	readonly retryable: boolean;
	readonly retryAfterMs: number | undefined;

	constructor(
		message: string,
		readonly status?: number,
		options: { retryable?: boolean; retryAfterMs?: number } = {}
	) {
		super(message);
		this.name = 'EmbeddingError';
		this.retryable = options.retryable ?? false;
		this.retryAfterMs = options.retryAfterMs;
	}
}

/** The embedding configuration cannot work (e.g. unknown dimension for a model). */
export class EmbeddingConfigError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'EmbeddingConfigError';
	}
}
