/**
 * The scheduler's two implementations and the per-session worker loop, on their own: what runs now,
 * what waits, and what a request's `waitUntil` is handed.
 */
import { describe, expect, it, vi } from 'vitest';
import { inRequest, ProcessScheduler, RequestScheduler, SessionLoop, waitUntilOf, type WaitUntil } from '../../../src/lib/server/jobs';

/** Stands in for the host: collects what a request hands to `waitUntil`. */
function host(): { held: Promise<unknown>[]; waitUntil: WaitUntil } {
	const held: Promise<unknown>[] = [];
	return { held, waitUntil: (p) => void held.push(p) };
}

/** A Cloudflare-like ExecutionContext: its method refuses to be called unbound, as workerd does. */
class ExecutionContext {
	readonly held: Promise<unknown>[] = [];
	waitUntil(p: Promise<unknown>): void {
		if (!(this instanceof ExecutionContext)) throw new TypeError('Illegal invocation');
		this.held.push(p);
	}
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('waitUntilOf', () => {
	it('finds waitUntil where adapters put it, bound to its owner', () => {
		for (const place of ['ctx', 'context'] as const) {
			const ctx = new ExecutionContext();
			const keep = waitUntilOf({ env: {}, [place]: ctx });
			expect(keep, place).toBeDefined();
			keep?.(Promise.resolve());
			expect(ctx.held, place).toHaveLength(1);
		}
		const direct = host();
		waitUntilOf({ waitUntil: direct.waitUntil })?.(Promise.resolve());
		expect(direct.held).toHaveLength(1);
	});

	it('is undefined for a server platform (none, or no waitUntil in it)', () => {
		expect(waitUntilOf(undefined)).toBeUndefined();
		expect(waitUntilOf({ req: {} })).toBeUndefined();
		expect(waitUntilOf({ ctx: { waitUntil: 'not a function' } })).toBeUndefined();
		expect(waitUntilOf('platform')).toBeUndefined();
	});
});

describe('the request-scoped scheduler', () => {
	it('hands work started in a request to that request’s waitUntil, and nothing outside one', async () => {
		const s = new RequestScheduler();
		const a = host();
		const b = host();
		const work = Promise.resolve('done');
		s.keep(work);
		inRequest(a.waitUntil, () => s.keep(work));
		// Through awaits and timers set inside the request, the request is still the one that keeps it.
		await inRequest(b.waitUntil, async () => {
			await tick();
			await new Promise<void>((resolve) =>
				setTimeout(() => {
					s.keep(work);
					resolve();
				}, 1)
			);
		});
		expect(a.held).toEqual([work]);
		expect(b.held).toEqual([work]);
	});

	it('sets no timer for delayed work: the first tick after it is due runs it, once', async () => {
		const clock = { now: 1_000_000 };
		const s = new RequestScheduler({ now: () => clock.now });
		const runs: string[] = [];
		s.after('a', 5_000, () => runs.push('a'));
		s.after('b', 1_000, () => runs.push('b'));
		s.after('b', 2_000, () => runs.push('b2'));
		s.after('c', 1_000, () => runs.push('c'));
		s.cancel('c');
		await new Promise((r) => setTimeout(r, 20));
		s.tick();
		expect(runs).toEqual([]);
		clock.now += 2_000;
		s.tick();
		s.tick();
		expect(runs).toEqual(['b2']);
		clock.now += 3_000;
		s.tick();
		expect(runs).toEqual(['b2', 'a']);
	});

	it('resumes a visited session at most every resumeEveryMs, and runs what is due on each visit', async () => {
		const clock = { now: 0 };
		const s = new RequestScheduler({ now: () => clock.now, resumeEveryMs: 5_000 });
		const resumed: string[] = [];
		s.visit('s1');
		s.onVisit((id) => {
			resumed.push(id);
			return Promise.resolve(id === 's2');
		});
		const due: string[] = [];
		s.after('x', 500, () => due.push('x'));
		s.visit('s1');
		s.visit('s2');
		clock.now = 1_000;
		s.visit('s1');
		expect(resumed).toEqual(['s1', 's2']);
		expect(due).toEqual(['x']);
		await tick();
		clock.now = 5_000;
		s.visit('s1');
		expect(resumed).toEqual(['s1', 's2', 's1']);
		await tick();
		expect(s.resumeCounts()).toEqual({ visits: 4, checks: 3, resumed: 1 });
	});

	it('starts no second resume of a session while one is still going, however long it takes', async () => {
		const clock = { now: 0 };
		const s = new RequestScheduler({ now: () => clock.now, resumeEveryMs: 1_000 });
		let finish: (found: boolean) => void = () => undefined;
		s.onVisit(() => new Promise<boolean>((resolve) => (finish = resolve)));
		const h = host();
		inRequest(h.waitUntil, () => s.visit('s1'));
		for (let i = 1; i <= 5; i++) {
			clock.now = i * 1_000;
			s.visit('s1');
		}
		expect(s.resumeCounts()).toEqual({ visits: 6, checks: 1, resumed: 0 });
		// The request that started it keeps it alive until it ends.
		expect(h.held).toHaveLength(1);
		finish(true);
		await Promise.all(h.held);
		s.visit('s1');
		expect(s.resumeCounts()).toEqual({ visits: 7, checks: 2, resumed: 1 });
	});

	it('runs a cron job at the first request after it is due, one run at a time, kept by that request', async () => {
		const clock = { now: new Date(2030, 0, 1, 2, 59).getTime() };
		const s = new RequestScheduler({ now: () => clock.now });
		let runs = 0;
		let finish: () => void = () => undefined;
		s.cron('0 3 * * *', () => {
			runs++;
			return new Promise<void>((resolve) => (finish = resolve));
		});
		const h = host();
		inRequest(h.waitUntil, () => s.tick());
		expect(runs).toBe(0);
		clock.now = new Date(2030, 0, 1, 3, 0, 30).getTime();
		inRequest(h.waitUntil, () => s.tick());
		inRequest(h.waitUntil, () => s.tick());
		expect(runs).toBe(1);
		expect(h.held).toHaveLength(1);
		// Still running when the next one is due: skipped, as croner's `protect` does on a server.
		clock.now = new Date(2030, 0, 2, 3, 0, 30).getTime();
		s.tick();
		expect(runs).toBe(1);
		finish();
		await Promise.all(h.held);
		clock.now = new Date(2030, 0, 3, 3, 0, 30).getTime();
		s.tick();
		expect(runs).toBe(2);
		s.stop();
		finish();
	});
});

describe('the process scheduler', () => {
	it('runs delayed work on a timer, the latest for a key, unless cancelled or stopped', async () => {
		const s = new ProcessScheduler();
		const runs: string[] = [];
		s.after('a', 5, () => runs.push('a1'));
		s.after('a', 10, () => runs.push('a2'));
		s.after('b', 5, () => runs.push('b'));
		s.cancel('b');
		s.after('c', 60_000, () => runs.push('c'));
		await new Promise((r) => setTimeout(r, 50));
		expect(runs).toEqual(['a2']);
		s.stop();
		s.after('d', 1, () => runs.push('d'));
		await new Promise((r) => setTimeout(r, 20));
		expect(runs).toEqual(['a2']);
	});
});

describe('repeated work (the Turso sweeper)', () => {
	it('runs at once and every interval on a server, never twice at a time, and not after stop', async () => {
		const s = new ProcessScheduler();
		let runs = 0;
		let finish: () => void = () => undefined;
		s.repeat(10, () => {
			runs++;
			return new Promise<void>((resolve) => (finish = resolve));
		});
		expect(runs).toBe(1);
		// Still running through several intervals: skipped.
		await new Promise((r) => setTimeout(r, 50));
		expect(runs).toBe(1);
		finish();
		await new Promise((r) => setTimeout(r, 50));
		expect(runs).toBe(2);
		s.stop();
		finish();
		await new Promise((r) => setTimeout(r, 50));
		expect(runs).toBe(2);
	});

	it('in request mode runs at the first tick, then an interval later on the clock, kept by the request', async () => {
		const clock = { now: 0 };
		const s = new RequestScheduler({ now: () => clock.now });
		let runs = 0;
		const stopRepeat = s.repeat(1_000, () => {
			runs++;
			return Promise.resolve();
		});
		await new Promise((r) => setTimeout(r, 20));
		expect(runs).toBe(0);
		const h = host();
		inRequest(h.waitUntil, () => s.tick());
		expect(runs).toBe(1);
		expect(h.held).toHaveLength(1);
		await Promise.all(h.held);
		clock.now = 999;
		s.tick();
		expect(runs).toBe(1);
		clock.now = 1_000;
		s.tick();
		expect(runs).toBe(2);
		await tick();
		stopRepeat();
		clock.now = 5_000;
		s.tick();
		expect(runs).toBe(2);
	});
});

describe('the per-session worker loop', () => {
	function gatedLoop(scheduler = new RequestScheduler()) {
		const drains: string[] = [];
		const gates: (() => void)[] = [];
		const loop = new SessionLoop({
			name: 'test loop',
			scheduler,
			drain: (id) => {
				drains.push(id);
				return new Promise<void>((resolve) => gates.push(resolve));
			}
		});
		const open = async () => {
			await tick();
			for (const g of gates.splice(0)) g();
			await tick();
		};
		return { loop, drains, open };
	}

	it('drains a session once at a time, once more for kicks that came meanwhile, and the request keeps it all', async () => {
		const { loop, drains, open } = gatedLoop();
		const h = host();
		inRequest(h.waitUntil, () => {
			loop.kick('s1');
			loop.kick('s1');
			loop.kick('s1');
			loop.kick('s2');
		});
		expect(drains).toEqual(['s1', 's2']);
		let settled = false;
		void Promise.all(h.held).then(() => (settled = true));
		await open();
		expect(drains).toEqual(['s1', 's2', 's1']);
		// What the request holds covers the run the kicks queued, not just the one running at the time.
		expect(settled).toBe(false);
		await open();
		await loop.idle();
		await Promise.all(h.held);
		expect(settled).toBe(true);
		expect(drains).toEqual(['s1', 's2', 's1']);
	});

	it('wakes a session at the earliest time asked for; a held session neither drains nor wakes', async () => {
		const clock = { now: 0 };
		const scheduler = new RequestScheduler({ now: () => clock.now });
		const { loop, drains, open } = gatedLoop(scheduler);
		loop.wakeAt('s1', 3_000);
		loop.wakeAt('s1', 1_000);
		loop.wakeAt('s1', 2_000);
		clock.now = 1_000;
		scheduler.tick();
		expect(drains).toEqual(['s1']);
		await open();
		clock.now = 10_000;
		scheduler.tick();
		expect(drains).toEqual(['s1']);

		loop.wakeAt('s2', 11_000);
		const held = loop.hold('s2');
		loop.kick('s2');
		loop.wakeAt('s2', 11_000);
		clock.now = 20_000;
		scheduler.tick();
		await held;
		expect(drains).toEqual(['s1']);
		loop.release('s2');
		loop.kick('s2');
		expect(drains).toEqual(['s1', 's2']);
		await open();
		loop.stop();
		loop.kick('s3');
		expect(drains).toEqual(['s1', 's2']);
	});

	it('kicks a session again after a failed drain, backing off, and gives up after too many failures in a row', async () => {
		const clock = { now: 0 };
		const scheduler = new RequestScheduler({ now: () => clock.now });
		const outcomes = ['fail', 'fail', 'ok', 'fail', 'fail', 'fail', 'fail'];
		let drains = 0;
		const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		const loop = new SessionLoop({
			name: 'test loop',
			scheduler,
			now: () => clock.now,
			retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1_000, jitter: 0 },
			drain: async () => {
				const outcome = outcomes[drains++];
				if (outcome !== 'ok') throw new Error('database unreachable');
			}
		});
		const at = async (ms: number) => {
			clock.now = ms;
			scheduler.tick();
			await loop.idle();
		};
		try {
			loop.kick('s1');
			await loop.idle();
			expect(drains).toBe(1);
			await at(99);
			expect(drains).toBe(1);
			// 100 ms after the first failure, 200 ms after the second: the third drain succeeds.
			await at(100);
			await at(300);
			expect(drains).toBe(3);
			await at(10_000);
			expect(drains).toBe(3);
			// A success starts the count again: three more failures, two retries, then it waits for a kick.
			loop.kick('s1');
			await loop.idle();
			await at(10_100);
			await at(10_300);
			expect(drains).toBe(6);
			await at(100_000);
			expect(drains).toBe(6);
			expect(logged.mock.calls.at(-1)?.[0]).toMatch(/failed 3 times in a row/);
			loop.kick('s1');
			await loop.idle();
			expect(drains).toBe(7);
		} finally {
			logged.mockRestore();
		}
	});
});
