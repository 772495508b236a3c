/**
 * The scheduler of a session's own object on an isolate host (a Cloudflare Durable Object, one per play
 * session): the object keeps its memory between requests, so work runs on, later work waits on a timer
 * and a lease is renewed on an interval, as in a server process. What the object adds is its alarm, which
 * the host keeps across an eviction or a restart:
 *
 * - work in progress sets the alarm a moment ahead; the alarm's handler (`onAlarm`) then waits for that
 *   work, and the host keeps the object alive while it waits: a turn outlives the request that started it
 *   and the 30 s a request's `waitUntil` may add, for as long as it runs (up to `ALARM_HOLD_MS`, then the
 *   next alarm takes over);
 * - work due later (a lease to sweep, a retry waiting out its backoff) sets the alarm for when it is due,
 *   so an object evicted meanwhile is started again then, and resumes its session (the app does that
 *   when it is built, see isolate/).
 *
 * Only this object's session runs here: another session's work (a save loaded into a new session, its
 * images) is handed to that session's object. Requests to one object are serialised by the host, and
 * everything here lives in the object, never in an isolate's module state.
 */
import type { ResumeCounts, Scheduler } from './scheduler';

/** The object's one alarm (a Durable Object's `storage.getAlarm/setAlarm`), in ms since the epoch. */
export interface ObjectAlarm {
	set(at: number): Promise<void>;
}

export interface ObjectSchedulerOptions {
	/** The session this object owns. */
	sessionId: string;
	alarm: ObjectAlarm;
	/** Has another session's object take up that session's work. */
	handOff: (sessionId: string) => Promise<void>;
	now?: () => number;
	/** How long one alarm waits for the work in progress before the next alarm takes over. */
	holdMs?: number;
}

/** The alarm is set this long after work starts: work that ends sooner (most of it) never needs it. */
export const ALARM_LEAD_MS = 1_000;
/** An alarm's handler may run 15 minutes on Cloudflare; it hands over to the next one well before. */
export const ALARM_HOLD_MS = 10 * 60_000;

interface Timer {
	at: number;
	timer: ReturnType<typeof setTimeout>;
}

export class ObjectScheduler implements Scheduler {
	readonly mode = 'object';
	private readonly work = new Set<Promise<unknown>>();
	private readonly timers = new Map<string, Timer>();
	/** When the alarm this object set is due (undefined: none set, or it has fired). */
	private armedAt: number | undefined;
	private readonly now: () => number;
	private readonly holdMs: number;
	private stopped = false;

	constructor(private readonly opts: ObjectSchedulerOptions) {
		this.now = opts.now ?? Date.now;
		this.holdMs = opts.holdMs ?? ALARM_HOLD_MS;
	}

	runsHere(sessionId: string): boolean {
		return sessionId === this.opts.sessionId;
	}

	keep(work: Promise<unknown>): void {
		if (this.stopped) return;
		const tracked = work.then(
			() => undefined,
			() => undefined
		);
		this.work.add(tracked);
		void tracked.then(() => this.work.delete(tracked));
		this.arm(this.now() + ALARM_LEAD_MS);
	}

	after(key: string, delayMs: number, fn: () => void): void {
		if (this.stopped) return;
		this.cancel(key);
		const at = this.now() + Math.max(0, delayMs);
		const timer = setTimeout(
			() => {
				this.timers.delete(key);
				fn();
			},
			Math.max(0, delayMs)
		);
		this.timers.set(key, { at, timer });
		this.arm(at);
	}

	cancel(key: string): void {
		clearTimeout(this.timers.get(key)?.timer);
		this.timers.delete(key);
	}

	every(ms: number, fn: () => void): () => void {
		const interval = setInterval(fn, ms);
		return () => clearInterval(interval);
	}

	cron(): () => void {
		throw new Error('a session object runs no schedules: backups and the Turso sweeper are not its work');
	}

	repeat(): () => void {
		throw new Error('a session object runs no schedules: backups and the Turso sweeper are not its work');
	}

	onVisit(): void {
		// This object's own session is resumed when its app is built; visits add nothing.
	}

	visit(sessionId: string): void {
		if (this.stopped || this.runsHere(sessionId)) return;
		this.keep(
			this.opts
				.handOff(sessionId)
				.catch((err: unknown) =>
					console.error(`[kantera] could not hand session ${sessionId} to its object:`, err instanceof Error ? err.message : err)
				)
		);
	}

	resumeCounts(): ResumeCounts {
		return { visits: 0, checks: 0, resumed: 0 };
	}

	tick(): void {
		// Timers run by themselves while the object lives; the alarm covers the time it does not.
	}

	/**
	 * The alarm fired: waits for the work in progress (the host keeps the object alive meanwhile) for up to
	 * `holdMs`, then sets the alarm again for what is left: work still running, or the earliest timer.
	 */
	async onAlarm(): Promise<void> {
		this.armedAt = undefined;
		const until = this.now() + this.holdMs;
		while (this.work.size > 0 && this.now() < until) {
			let timeout: ReturnType<typeof setTimeout> | undefined;
			const held = new Promise<void>((resolve) => (timeout = setTimeout(resolve, until - this.now())));
			await Promise.race([Promise.all([...this.work]), held]);
			clearTimeout(timeout);
		}
		if (this.work.size > 0) this.arm(this.now() + ALARM_LEAD_MS);
		const next = Math.min(...[...this.timers.values()].map((t) => t.at));
		if (Number.isFinite(next)) this.arm(next);
	}

	/** Whether work is in progress (tests, and the alarm's handler). */
	get busy(): boolean {
		return this.work.size > 0;
	}

	stop(): void {
		this.stopped = true;
		for (const { timer } of this.timers.values()) clearTimeout(timer);
		this.timers.clear();
	}

	/** Makes sure the alarm fires by `at`: an alarm already due sooner stays. */
	private arm(at: number): void {
		if (this.armedAt !== undefined && this.armedAt <= at) return;
		this.armedAt = at;
		this.opts.alarm.set(at).catch((err: unknown) => {
			if (this.armedAt === at) this.armedAt = undefined;
			console.error('[kantera] could not set the session object’s alarm:', err instanceof Error ? err.message : err);
		});
	}
}
