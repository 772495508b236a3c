/**
 * One worker loop per session, shared by the turn runner and the image runner: a kick starts the
 * session's drain unless one runs (then it runs once more when that one ends), a wake-up kicks it again
 * later (a lease to sweep, a retry waiting out its backoff), and the loop's promise is handed to the
 * scheduler so it outlives the request that kicked it. What a drain does is the runner's business.
 *
 * A drain that fails (the database out of reach for a moment, a lock it could not get) is kicked again
 * after a backoff (retry/'s policy, DRAIN_RETRY): otherwise a turn accepted just before would wait until
 * someone happened to kick its session again, which may be never.
 */
import { decideRetry, type RetryPolicy } from '../retry';
import type { Scheduler } from './scheduler';

/** Kicks after failed drains of one session: from 1 s doubling to a minute, ten in a row at most (~7 minutes). */
export const DRAIN_RETRY: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 10, baseDelayMs: 1_000, maxDelayMs: 60_000 });

export interface SessionLoopOptions {
	/** Names the loop in logs and in the scheduler's keys, e.g. "turn runner". */
	name: string;
	scheduler: Scheduler;
	/** Works through the session until nothing is left to do now. */
	drain(sessionId: string): Promise<void>;
	/** The clock `wakeAt` times are read on (tests step the image runner's). */
	now?: () => number;
	/** Kicks after failed drains; DRAIN_RETRY by default. */
	retry?: RetryPolicy;
	/** What a key is called in logs; "session <id>" by default. */
	describe?: (key: string) => string;
	/**
	 * Whether the keys are play sessions (the default), whose work runs where the scheduler says: a
	 * session that has an object of its own elsewhere is handed to it, not drained here.
	 */
	perSession?: boolean;
}

export class SessionLoop {
	private readonly loops = new Map<string, Promise<void>>();
	private readonly again = new Set<string>();
	/** When each session is to be kicked again; the earliest asked for wins. */
	private readonly wakes = new Map<string, number>();
	/** Sessions held (being deleted): no loop starts, no wake-up is set. */
	private readonly held = new Set<string>();
	/** Drains that failed in a row, by session (none once one succeeds). */
	private readonly failures = new Map<string, number>();
	private readonly now: () => number;
	private halted = false;

	constructor(private readonly opts: SessionLoopOptions) {
		this.now = opts.now ?? Date.now;
	}

	get stopped(): boolean {
		return this.halted;
	}

	/** Sessions being worked on, and sessions waiting for a wake-up (the metrics' queue gauges). */
	counts(): { working: number; waiting: number } {
		return { working: this.loops.size, waiting: this.wakes.size };
	}

	/** Whether work for the session may go on (not stopped, not held). */
	isOpen(sessionId: string): boolean {
		return !this.halted && !this.held.has(sessionId);
	}

	/** Makes sure the session is being worked on. Safe to call any number of times. */
	kick(sessionId: string): void {
		if (!this.isOpen(sessionId)) return;
		if (this.opts.perSession !== false && !this.opts.scheduler.runsHere(sessionId)) {
			this.opts.scheduler.visit(sessionId);
			return;
		}
		if (this.loops.has(sessionId)) this.again.add(sessionId);
		else this.start(sessionId);
		this.opts.scheduler.keep(this.settled(sessionId));
	}

	/**
	 * Kicks the session again at `at` (on the loop's clock), unless an earlier wake-up is already set;
	 * with `replace`, instead of the one set (the caller knows that one is for nothing now).
	 */
	wakeAt(sessionId: string, at: number, options: { replace?: boolean } = {}): void {
		if (!this.isOpen(sessionId)) return;
		if (options.replace) this.dropWake(sessionId);
		const set = this.wakes.get(sessionId);
		if (set !== undefined && set <= at) return;
		this.wakes.set(sessionId, at);
		this.opts.scheduler.after(this.key(sessionId), at - this.now(), () => {
			this.wakes.delete(sessionId);
			this.kick(sessionId);
		});
	}

	/**
	 * Holds the session (it is being deleted): its wake-up is dropped and nothing new starts until
	 * `release`. Resolves when the loop that may be running has ended.
	 */
	hold(sessionId: string): Promise<void> {
		this.held.add(sessionId);
		this.dropWake(sessionId);
		this.again.delete(sessionId);
		return this.settled(sessionId);
	}

	release(sessionId: string): void {
		this.held.delete(sessionId);
	}

	/** Resolves when no session is being worked on (wake-ups still waiting don't count). */
	async idle(): Promise<void> {
		while (this.loops.size > 0) await Promise.all([...this.loops.values()]);
	}

	/** Takes no more work and drops the wake-ups; `idle()` then says when the running loops have ended. */
	stop(): void {
		this.halted = true;
		for (const sessionId of [...this.wakes.keys()]) this.dropWake(sessionId);
	}

	private start(sessionId: string): void {
		const loop = this.opts
			.drain(sessionId)
			.then(
				() => {
					this.failures.delete(sessionId);
				},
				(err: unknown) => {
					this.failed(sessionId, err);
				}
			)
			.finally(() => {
				this.loops.delete(sessionId);
				if (this.again.delete(sessionId) && this.isOpen(sessionId)) this.start(sessionId);
			});
		this.loops.set(sessionId, loop);
	}

	/** Logs a failed drain and kicks the session again after the backoff, unless it has failed too often in a row. */
	private failed(sessionId: string, err: unknown): void {
		const retries = this.failures.get(sessionId) ?? 0;
		const decision = decideRetry({ retryable: true }, retries, this.opts.retry ?? DRAIN_RETRY);
		const what = `[kantera] ${this.opts.name} for ${this.opts.describe?.(sessionId) ?? `session ${sessionId}`} failed`;
		const message = err instanceof Error ? err.message : err;
		if (!decision.retry) {
			this.failures.delete(sessionId);
			console.error(`${what} ${retries + 1} times in a row; it waits for the next kick:`, message);
			return;
		}
		this.failures.set(sessionId, retries + 1);
		console.error(`${what} (trying again in ${Math.round(decision.delayMs)} ms):`, message);
		this.wakeAt(sessionId, this.now() + decision.delayMs);
	}

	/** Resolves once the session's loop, and any run it queued behind itself, has ended. */
	private async settled(sessionId: string): Promise<void> {
		for (let loop = this.loops.get(sessionId); loop; loop = this.loops.get(sessionId)) await loop;
	}

	private dropWake(sessionId: string): void {
		if (!this.wakes.delete(sessionId)) return;
		this.opts.scheduler.cancel(this.key(sessionId));
	}

	private key(sessionId: string): string {
		return `${this.opts.name}:${sessionId}`;
	}
}
