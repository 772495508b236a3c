/**
 * Retrying calls to outside services: one policy (which failures, how many attempts, backoff with jitter, Retry-After
 * up to a cap) for the LLM streams, the embeddings and images clients, the durable image and cover jobs, and the Turso
 * Platform API calls of db/. Imports nothing of the server's (it sits in the bottom layer with config, db and validation).
 */
export {
	backoffDelayMs,
	checkRetryPolicy,
	decideRetry,
	failureOf,
	isRetryableStatus,
	type RetryableFailure,
	type RetryPolicy
} from './policy';
export { retryAfterMs } from './retry-after';
export { sleep } from './sleep';
export { withRetry } from './with-retry';
