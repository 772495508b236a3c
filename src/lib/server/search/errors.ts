/** Typed errors of the search capability. */

/** The embedding provider failed (HTTP error after retries, timeout, malformed response). */
export class EmbeddingError extends Error {
	constructor(
		message: string,
		readonly status?: number
	) {
		super(message);
		this.name = 'EmbeddingError';
	}
}

/** The embedding configuration cannot work (e.g. unknown dimension for a model). */
export class EmbeddingConfigError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'EmbeddingConfigError';
	}
}
