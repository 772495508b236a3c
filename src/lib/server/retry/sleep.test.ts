/** Waiting between attempts, cut short by an abort. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sleep } from './sleep';

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
