/** The one retry policy: backoff, Retry-After (seconds, milliseconds, a date) up to a cap, abort, what is not retried. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	backoffDelayMs,
	checkRetryPolicy,
	decideRetry,
	failureOf,
	isRetryableStatus,
	retryAfterMs,
	sleep,
	withRetry,
	type RetryPolicy
} from '../../../src/lib/server/retry';

const policy: RetryPolicy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };
const noJitter = () => 0;
const headers = (entries: Record<string, string>) => new Headers(entries);

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

describe('Retry-After header', () => {
	const now = Date.UTC(2030, 0, 1, 12, 0, 0);

	it('reads seconds', () => {
		expect(retryAfterMs(headers({ 'retry-after': '3' }), now)).toBe(3_000);
		expect(retryAfterMs(headers({ 'retry-after': '0' }), now)).toBe(0);
		expect(retryAfterMs(headers({ 'retry-after': '1.5' }), now)).toBe(1_500);
	});

	it('reads an HTTP date, a past one as now', () => {
		expect(retryAfterMs(headers({ 'retry-after': new Date(now + 42_000).toUTCString() }), now)).toBe(42_000);
		expect(retryAfterMs(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }), now)).toBe(0);
	});

	it('prefers retry-after-ms, and ignores what it cannot read', () => {
		expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
		expect(retryAfterMs(headers({ 'retry-after-ms': 'soon', 'retry-after': '9' }), now)).toBe(9_000);
		expect(retryAfterMs(headers({ 'retry-after': 'later' }), now)).toBeUndefined();
		expect(retryAfterMs(headers({ 'retry-after': '-5' }), now)).toBeUndefined();
		expect(retryAfterMs(headers({ 'retry-after': '' }), now)).toBeUndefined();
		expect(retryAfterMs(headers({}), now)).toBeUndefined();
		expect(retryAfterMs(undefined, now)).toBeUndefined();
	});
});

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
		const { calls, attempt } = scripted([new Failure(true), new Failure(true, 900)]);
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
		const final = new Failure(false);
		const { calls, attempt } = scripted([new Failure(true), final]);
		await expect(withRetry(attempt, { policy, sleep: () => Promise.resolve() })).rejects.toBe(final);
		expect(calls).toEqual([0, 1]);
		const tooLong = new Failure(true, 60_000);
		await expect(withRetry(scripted([tooLong]).attempt, { policy, sleep: () => Promise.resolve() })).rejects.toBe(tooLong);
		const last = new Failure(true);
		const many = scripted([new Failure(true), new Failure(true), new Failure(true), last]);
		await expect(withRetry(many.attempt, { policy, sleep: () => Promise.resolve() })).rejects.toBe(last);
		expect(many.calls).toEqual([0, 1, 2, 3]);
	});

	it('sleeps on real timers, and an abort during the wait ends it at once with the caller reason', async () => {
		vi.useFakeTimers();
		const controller = new AbortController();
		const { calls, attempt } = scripted([new Failure(true), new Failure(true)]);
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
			return Promise.reject(new Failure(true));
		};
		await expect(withRetry(attempt, { policy, signal: controller.signal })).rejects.toBe(reason);
	});
});

describe('sleep', () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	it('resolves after the wait and rejects at once on an abort, before or during it', async () => {
		vi.useFakeTimers();
		let done = false;
		const waiting = sleep(1_000).then(() => (done = true));
		await vi.advanceTimersByTimeAsync(999);
		expect(done).toBe(false);
		await vi.advanceTimersByTimeAsync(1);
		await waiting;
		expect(done).toBe(true);
		await expect(sleep(10, AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
		const controller = new AbortController();
		const cut = sleep(60_000, controller.signal);
		controller.abort(new Error('now'));
		await expect(cut).rejects.toThrow('now');
		expect(vi.getTimerCount()).toBe(0);
	});
});
