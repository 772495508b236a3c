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
	DEFAULT_JITTER,
	type DecideOptions,
	type GiveUpReason,
	type RetryableFailure,
	type RetryDecision,
	type RetryPolicy
} from './policy';
export { retryAfterMs, type HeaderSource } from './retry-after';
export { sleep } from './sleep';
export { withRetry, type RetryLoopOptions } from './with-retry';
