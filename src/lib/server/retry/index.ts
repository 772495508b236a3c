/**
 * Retrying calls to outside services: one policy (which failures, how many attempts, backoff with jitter, Retry-After
 * up to a cap) for the LLM streams, the embeddings and images clients, and the durable image and cover jobs.
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
