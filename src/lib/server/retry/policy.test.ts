/** The one retry policy: backoff with jitter, Retry-After up to a cap, deadlines, what is not retried. */
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, checkRetryPolicy, decideRetry, failureOf, isRetryableStatus, type RetryPolicy } from './policy';

const policy: RetryPolicy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };
const noJitter = () => 0;

/** A typed failure as the llm, search and images errors carry it. */
class Failure extends Error {
	constructor(
		readonly retryable: boolean,
		readonly retryAfterMs?: number
	) {
		super(retryable ? 'retryable failure' : 'final failure');
	}
}

describe('backoff', () => {
	it('doubles per retry, is jittered by at most half by default, and is capped', () => {
		expect([0, 1, 2, 3].map((n) => backoffDelayMs(n, policy, noJitter))).toEqual([100, 200, 400, 800]);
		expect(backoffDelayMs(2, policy, () => 1)).toBe(200);
		expect(backoffDelayMs(10, policy, noJitter)).toBe(1_000);
	});

	it('waits exactly the backoff with no jitter (durable jobs pin their times)', () => {
		expect(backoffDelayMs(2, { ...policy, jitter: 0 }, () => 1)).toBe(400);
		expect(backoffDelayMs(1, { ...policy, jitter: 0.25 }, () => 1)).toBe(150);
	});
});

describe('decideRetry', () => {
	it('retries a retryable failure until the attempts run out', () => {
		const failure = new Failure(true);
		expect([0, 1, 2].map((n) => decideRetry(failure, n, policy, { random: noJitter }))).toEqual([
			{ retry: true, delayMs: 100 },
			{ retry: true, delayMs: 200 },
			{ retry: true, delayMs: 400 }
		]);
		expect(decideRetry(failure, 3, policy)).toEqual({ retry: false, reason: 'out_of_attempts' });
		expect(decideRetry(failure, 0, { ...policy, maxRetries: 0 })).toEqual({ retry: false, reason: 'out_of_attempts' });
	});

	it('never retries a failure that says another try cannot help', () => {
		expect(decideRetry(new Failure(false), 0, policy)).toEqual({ retry: false, reason: 'not_retryable' });
		expect(decideRetry(new Failure(false, 10), 0, policy)).toEqual({ retry: false, reason: 'not_retryable' });
	});

	it("waits at least as long as the server's Retry-After, and gives up at once when it asks for more than the cap", () => {
		expect(decideRetry(new Failure(true, 700), 0, policy, { random: noJitter })).toEqual({ retry: true, delayMs: 700 });
		// A shorter Retry-After never shortens the backoff.
		expect(decideRetry(new Failure(true, 0), 2, policy, { random: noJitter })).toEqual({ retry: true, delayMs: 400 });
		expect(decideRetry(new Failure(true, 1_000), 0, policy, { random: noJitter })).toEqual({ retry: true, delayMs: 1_000 });
		expect(decideRetry(new Failure(true, 1_001), 0, policy)).toEqual({ retry: false, reason: 'retry_after_too_long' });
		// The cap on Retry-After is its own setting when given.
		expect(decideRetry(new Failure(true, 5_000), 0, { ...policy, maxRetryAfterMs: 5_000 }, { random: noJitter })).toEqual({
			retry: true,
			delayMs: 5_000
		});
	});

	it("gives up when the wait would outlast the caller's deadline", () => {
		expect(decideRetry(new Failure(true), 1, policy, { random: noJitter, remainingMs: 200 })).toEqual({
			retry: false,
			reason: 'past_deadline'
		});
		expect(decideRetry(new Failure(true), 1, policy, { random: noJitter, remainingMs: 201 })).toEqual({ retry: true, delayMs: 200 });
	});

	it('reads the fields off typed errors and retries nothing else', () => {
		expect(failureOf(new Failure(true, 5))).toEqual({ retryable: true, retryAfterMs: 5 });
		expect(failureOf(new Error('plain'))).toEqual({ retryable: false });
		expect(failureOf('a string')).toEqual({ retryable: false });
		expect(failureOf({ retryable: 'yes' })).toEqual({ retryable: false });
	});

	it('retries the statuses that can pass, not the ones that cannot', () => {
		expect([408, 409, 425, 429, 500, 502, 503, 529].every(isRetryableStatus)).toBe(true);
		expect([400, 401, 403, 404, 413, 422].some(isRetryableStatus)).toBe(false);
	});

	it('refuses numbers that cannot work', () => {
		expect(checkRetryPolicy(policy)).toBeUndefined();
		expect(checkRetryPolicy({ ...policy, maxRetries: 1.5 })).toMatch(/maxRetries/);
		expect(checkRetryPolicy({ ...policy, baseDelayMs: -1 })).toMatch(/baseDelayMs/);
		expect(checkRetryPolicy({ ...policy, maxRetryAfterMs: Number.NaN })).toMatch(/maxRetryAfterMs/);
		expect(checkRetryPolicy({ ...policy, jitter: 2 })).toMatch(/jitter/);
	});
});
