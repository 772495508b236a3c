/** The in-process retry loop: waits between attempts, gives up as the policy says, stops on an abort. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RetryPolicy } from './policy';
import { withRetry } from './with-retry';

const policy: RetryPolicy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };
const noJitter = () => 0;

/** A thrown error with the policy's fields, as the typed errors of llm, search and images carry them. */
const failure = (retryable: boolean, retryAfterMs?: number) =>
	Object.assign(new Error(retryable ? 'retryable failure' : 'final failure'), { retryable, retryAfterMs });

describe('withRetry', () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	/** An attempt that throws the scripted errors in turn, then answers. */
	const scripted = (errors: Error[]) => {
		const calls: number[] = [];
		const attempt = (retry: number) => {
			calls.push(retry);
			const next = errors.shift();
			return next === undefined ? Promise.resolve('done') : Promise.reject(next);
		};
		return { calls, attempt };
	};

	it('waits the backoff (or the longer Retry-After) between attempts, then answers', async () => {
		const { calls, attempt } = scripted([failure(true), failure(true, 900)]);
		const waits: number[] = [];
		const result = await withRetry(attempt, {
			policy,
			random: noJitter,
			sleep: (ms) => {
				waits.push(ms);
				return Promise.resolve();
			}
		});
		expect(result).toBe('done');
		expect(calls).toEqual([0, 1, 2]);
		expect(waits).toEqual([100, 900]);
	});

	it('throws the last error unchanged when the policy gives up', async () => {
		const final = failure(false);
		const { calls, attempt } = scripted([failure(true), final]);
		await expect(withRetry(attempt, { policy, sleep: () => Promise.resolve() })).rejects.toBe(final);
		expect(calls).toEqual([0, 1]);
		const tooLong = failure(true, 60_000);
		await expect(withRetry(scripted([tooLong]).attempt, { policy, sleep: () => Promise.resolve() })).rejects.toBe(tooLong);
		const last = failure(true);
		const many = scripted([failure(true), failure(true), failure(true), last]);
		await expect(withRetry(many.attempt, { policy, sleep: () => Promise.resolve() })).rejects.toBe(last);
		expect(many.calls).toEqual([0, 1, 2, 3]);
	});

	it('sleeps on real timers, and an abort during the wait ends it at once with the caller reason', async () => {
		vi.useFakeTimers();
		const controller = new AbortController();
		const { calls, attempt } = scripted([failure(true), failure(true)]);
		const pending = withRetry(attempt, { policy, random: noJitter, signal: controller.signal });
		const outcome = pending.then(
			(value) => ({ value }),
			(error: unknown) => ({ error })
		);
		await vi.advanceTimersByTimeAsync(100);
		expect(calls).toEqual([0, 1]);
		await vi.advanceTimersByTimeAsync(50);
		controller.abort(new Error('turn cancelled'));
		expect(await outcome).toEqual({ error: new Error('turn cancelled') });
		// The attempt that would have followed never starts.
		await vi.advanceTimersByTimeAsync(10_000);
		expect(calls).toEqual([0, 1]);
	});

	it('throws the caller reason, not the attempt error, once the caller has aborted', async () => {
		const controller = new AbortController();
		const reason = new Error('stopping');
		const attempt = () => {
			controller.abort(reason);
			return Promise.reject(failure(true));
		};
		await expect(withRetry(attempt, { policy, signal: controller.signal })).rejects.toBe(reason);
	});
});
