/**
 * The one retry policy of every call to an outside service (LLM streams, embeddings, images, image and cover
 * jobs, the Turso Platform API): which failures are worth another attempt, how many attempts, how long to wait before each, and how far a
 * server's Retry-After is honoured. Pure arithmetic: the callers own their clocks (an in-process sleep, or a
 * `next_attempt_at` column for durable jobs).
 */

export interface RetryPolicy {
	/** Further attempts after the first one; 0 disables retries. */
	maxRetries: number;
	/** Backoff before retry n (0-based) is baseDelayMs · 2ⁿ, at most maxDelayMs, then jittered. */
	baseDelayMs: number;
	maxDelayMs: number;
	/**
	 * Up to this fraction of each backoff is taken off at random, so that many clients that failed together don't
	 * all retry in the same millisecond. 0 waits exactly the backoff. Default DEFAULT_JITTER.
	 */
	jitter?: number;
	/**
	 * Longest Retry-After honoured (default maxDelayMs). A server asking for a longer pause than we are willing to
	 * wait gets its failure now, not later.
	 */
	maxRetryAfterMs?: number;
}

const DEFAULT_JITTER = 0.5;

/** What the policy needs to know of a failure; the typed errors of llm, search and images all carry it. */
export interface RetryableFailure {
	readonly retryable: boolean;
	/** Milliseconds the server asked us to wait (Retry-After), when it said. */
	readonly retryAfterMs?: number | undefined;
}

type GiveUpReason = 'not_retryable' | 'out_of_attempts' | 'retry_after_too_long' | 'past_deadline';
export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: GiveUpReason };

export interface DecideOptions {
	/** The source of jitter (tests pin it). */
	random?: () => number;
	/** Time left before the caller's own deadline: a retry that can't start before it is not worth waiting for. */
	remainingMs?: number;
}

/**
 * HTTP statuses worth another attempt: request timeout, conflict (a lock both OpenAI and Anthropic document as safe
 * to retry), too early, rate limits, and server trouble (5xx, Anthropic's 529 included).
 */
export function isRetryableStatus(status: number): boolean {
	return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
}

export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
	const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry));
	return exponential * (1 - (policy.jitter ?? DEFAULT_JITTER) * random());
}

/** Whether to try again after the failure of retry number `retriesSoFar` (0 after the first attempt), and when. */
export function decideRetry(
	failure: RetryableFailure,
	retriesSoFar: number,
	policy: RetryPolicy,
	options: DecideOptions = {}
): RetryDecision {
	if (!failure.retryable) return { retry: false, reason: 'not_retryable' };
	if (retriesSoFar >= policy.maxRetries) return { retry: false, reason: 'out_of_attempts' };
	let delayMs = backoffDelayMs(retriesSoFar, policy, options.random);
	if (failure.retryAfterMs !== undefined) {
		if (failure.retryAfterMs > (policy.maxRetryAfterMs ?? policy.maxDelayMs)) return { retry: false, reason: 'retry_after_too_long' };
		delayMs = Math.max(delayMs, failure.retryAfterMs);
	}
	if (options.remainingMs !== undefined && delayMs >= options.remainingMs) return { retry: false, reason: 'past_deadline' };
	return { retry: true, delayMs };
}

/** The policy's own fields, read off any thrown value: typed errors say; anything else is not retried. */
export function failureOf(error: unknown): RetryableFailure {
	if (typeof error !== 'object' || error === null || !('retryable' in error) || typeof error.retryable !== 'boolean')
		return { retryable: false };
	const retryAfterMs = 'retryAfterMs' in error && typeof error.retryAfterMs === 'number' ? error.retryAfterMs : undefined;
	return { retryable: error.retryable, retryAfterMs };
}

/** A human-readable problem with the numbers, or undefined when the policy can work. */
export function checkRetryPolicy(policy: RetryPolicy): string | undefined {
	const fields: [string, number | undefined][] = [
		['maxRetries', policy.maxRetries],
		['baseDelayMs', policy.baseDelayMs],
		['maxDelayMs', policy.maxDelayMs],
		['maxRetryAfterMs', policy.maxRetryAfterMs]
	];
	for (const [name, value] of fields) {
		if (value !== undefined && (!Number.isFinite(value) || value < 0)) return `retry.${name} must be zero or more, got ${value}.`;
	}
	if (!Number.isInteger(policy.maxRetries)) return `retry.maxRetries must be a whole number, got ${policy.maxRetries}.`;
	const jitter = policy.jitter;
	if (jitter !== undefined && (!Number.isFinite(jitter) || jitter < 0 || jitter > 1))
		return `retry.jitter must be between 0 and 1, got ${jitter}.`;
	return undefined;
}
