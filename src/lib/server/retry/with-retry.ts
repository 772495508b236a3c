/** The in-process retry loop for one request/response call (embeddings, the Turso Platform API); streams and durable jobs use the policy directly. */
import { decideRetry, failureOf, type RetryableFailure, type RetryPolicy } from './policy';
import { sleep as realSleep } from './sleep';

export interface RetryLoopOptions {
	policy: RetryPolicy;
	/** Ends the loop: a wait is cut short and the signal's reason is thrown. */
	signal?: AbortSignal;
	/** Reads retryable / retryAfterMs off a thrown error (default: the error's own fields, see failureOf). */
	classify?: (error: unknown) => RetryableFailure;
	/** For tests: the wait and the jitter. */
	sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
	random?: () => number;
	/** Told before each wait. */
	onRetry?: (error: unknown, delayMs: number) => void;
}

/**
 * Runs `attempt` until it succeeds or the policy gives up, then throws the last attempt's error unchanged. Once the
 * caller's signal has aborted, its reason is thrown instead: a cancelled call is not a failed one.
 */
export async function withRetry<T>(attempt: (retry: number) => Promise<T>, options: RetryLoopOptions): Promise<T> {
	const classify = options.classify ?? failureOf;
	const wait = options.sleep ?? realSleep;
	for (let retry = 0; ; retry++) {
		try {
			return await attempt(retry);
		} catch (error) {
			if (options.signal?.aborted) throw options.signal.reason;
			const decision = decideRetry(classify(error), retry, options.policy, { random: options.random });
			if (!decision.retry) throw error;
			options.onRetry?.(error, decision.delayMs);
			await wait(decision.delayMs, options.signal);
		}
	}
}
