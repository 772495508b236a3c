/**
 * How background work outlives the request that started it. The turn runner, lease renewal, image
 * jobs, scheduled backups and the Turso sweeper ask one small interface for it, with two implementations:
 *
 * - `process` (Node, Bun and Deno servers): the process stays up, so work simply runs on, delayed
 *   work waits on a timer, repeated work on an interval and backups follow their cron schedule.
 * - `request` (isolate hosts: Cloudflare Workers, Deno Deploy, Vercel Edge): the host may freeze or
 *   drop the instance once a response is sent and nothing is left in `waitUntil`. Work started during a
 *   request is handed to that request's `waitUntil`; delayed work, repeated work and backups set no
 *   timer but are remembered and run by the first request or event-stream poll after they are due;
 *   and a request or poll for a session resumes that session's work (what an instance that was
 *   dropped left behind: an expired lease, a queued turn, an image waiting out its backoff). Visits
 *   are shared per session: all requests and open streams of an instance together start at most one
 *   resume per interval, and none while one is still going; the resume first asks the session
 *   database, in one cheap read, whether anything waits, and only then wakes the runners. The leases
 *   in the session database decide who runs what, so resuming from several requests at once never
 *   runs a turn twice.
 */
import { Cron } from 'croner';
import { currentWaitUntil } from './request-scope';

/** The modes KANTERA_SCHEDULER chooses; a session's own object on an isolate host has its own (object-scheduler.ts). */
export type SchedulerMode = 'process' | 'request';

export interface ResumeCounts {
	/** Visits: requests and event-stream polls for a session. */
	visits: number;
	/** Resumes the visits started (each a look at what waits in the session). */
	checks: number;
	/** Checks that found work waiting and woke the runners. */
	resumed: number;
}

export interface Scheduler {
	readonly mode: SchedulerMode | 'object';
	/**
	 * Whether the session's work runs where this scheduler does. Not on an isolate host that gives each
	 * session an object of its own: there, `visit` hands the session to its object.
	 */
	runsHere(sessionId: string): boolean;
	/** Background work just started: keeps it alive until it settles (request: the request's `waitUntil`). */
	keep(work: Promise<unknown>): void;
	/** Calls `fn` once `delayMs` from now, replacing anything set earlier for `key`. */
	after(key: string, delayMs: number, fn: () => void): void;
	/** Forgets what `after` set for `key`. */
	cancel(key: string): void;
	/** Calls `fn` every `ms` until the returned function is called: lease renewal while a job runs. */
	every(ms: number, fn: () => void): () => void;
	/** Runs `job` on a cron schedule (one run at a time); returns the function that ends the schedule. */
	cron(pattern: string, job: () => Promise<void>): () => void;
	/**
	 * Runs `job` now and then every `everyMs` (one run at a time: a run still going when the next is due
	 * is skipped); returns the function that ends it. Upkeep such as the Turso sweeper.
	 */
	repeat(everyMs: number, job: () => Promise<void>): () => void;
	/**
	 * Who resumes a session's work when `visit` asks for it (the app: a look at what waits, then the turn
	 * and image runners); resolves to whether it found work to resume.
	 */
	onVisit(resume: (sessionId: string) => Promise<boolean>): void;
	/** A request or an event-stream poll for the session arrived. */
	visit(sessionId: string): void;
	/** What visits led to so far (the request mode's; a server's visits do nothing). */
	resumeCounts(): ResumeCounts;
	/** A request arrived: runs what is due (request mode). */
	tick(): void;
	/** Drops everything scheduled; nothing new is taken. */
	stop(): void;
}

/** A server process: timers and intervals run work later, nothing needs to wait for a request. */
export class ProcessScheduler implements Scheduler {
	readonly mode = 'process';
	private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
	private readonly crons = new Set<Cron>();
	private readonly intervals = new Set<ReturnType<typeof setInterval>>();
	private stopped = false;

	runsHere(): boolean {
		return true;
	}

	keep(): void {
		// The process outlives the request by itself.
	}

	after(key: string, delayMs: number, fn: () => void): void {
		if (this.stopped) return;
		clearTimeout(this.timers.get(key));
		const timer = setTimeout(
			() => {
				this.timers.delete(key);
				fn();
			},
			Math.max(0, delayMs)
		);
		// Waiting work must not keep the process (or a test worker) alive.
		timer.unref();
		this.timers.set(key, timer);
	}

	cancel(key: string): void {
		clearTimeout(this.timers.get(key));
		this.timers.delete(key);
	}

	every(ms: number, fn: () => void): () => void {
		const interval = setInterval(fn, ms);
		return () => clearInterval(interval);
	}

	cron(pattern: string, job: () => Promise<void>): () => void {
		if (this.stopped) return () => undefined;
		const c = new Cron(pattern, { protect: true }, job);
		this.crons.add(c);
		return () => {
			c.stop();
			this.crons.delete(c);
		};
	}

	repeat(everyMs: number, job: () => Promise<void>): () => void {
		if (this.stopped) return () => undefined;
		let running = false;
		const run = () => {
			if (running || this.stopped) return;
			running = true;
			void guarded(job).finally(() => (running = false));
		};
		const interval = setInterval(run, everyMs);
		// Upkeep must not keep the process (or a test worker) alive; Deno's timers are numbers, with no unref().
		if (typeof interval === 'object') interval.unref();
		this.intervals.add(interval);
		run();
		return () => {
			clearInterval(interval);
			this.intervals.delete(interval);
		};
	}

	onVisit(): void {
		// Timers resume delayed work here; a visit adds nothing.
	}

	visit(): void {
		// As above.
	}

	resumeCounts(): ResumeCounts {
		return { visits: 0, checks: 0, resumed: 0 };
	}

	tick(): void {
		// As above.
	}

	stop(): void {
		this.stopped = true;
		for (const timer of this.timers.values()) clearTimeout(timer);
		this.timers.clear();
		for (const c of this.crons) c.stop();
		this.crons.clear();
		for (const i of this.intervals) clearInterval(i);
		this.intervals.clear();
	}
}

/** Runs a scheduled job; a failure is logged (a schedule has no caller to report to) and the schedule goes on. */
function guarded(job: () => Promise<void>): Promise<void> {
	return job().catch((err: unknown) => console.error('[kantera] scheduled job failed:', err instanceof Error ? err.message : err));
}

export interface RequestSchedulerOptions {
	/** A session's work is resumed by its visits at most this often (each resume is a few queries). */
	resumeEveryMs?: number;
	now?: () => number;
	/**
	 * Each session has an object of its own that runs its work (Cloudflare's Durable Objects): a visit
	 * hands the session to it instead of resuming it here, and no session's work runs in the request.
	 */
	handOff?: (sessionId: string) => Promise<void>;
}

/** How often visits resume a session's work: a third of a turn lease, so a dead runner's turn ends soon after its lease. */
const RESUME_EVERY_MS = 5_000;
/** Visit times kept before old ones are dropped. */
const MAX_VISITS_KEPT = 1_000;

/** A cron schedule or a repeat, remembered until a request runs it. */
interface Recurring {
	/** When it is next due after `now`; undefined: never again. */
	following: (now: number) => number | undefined;
	job: () => Promise<void>;
	next: number | undefined;
	running: boolean;
	stop?: () => void;
}

/** An isolate host: nothing runs unless a request is there to keep it alive (see the module comment). */
export class RequestScheduler implements Scheduler {
	readonly mode = 'request';
	private readonly due = new Map<string, { at: number; fn: () => void }>();
	private readonly recurring = new Set<Recurring>();
	private readonly visits = new Map<string, number>();
	/** Sessions whose resume is still going: a visit meanwhile starts no other. */
	private readonly resuming = new Set<string>();
	private readonly counts: ResumeCounts = { visits: 0, checks: 0, resumed: 0 };
	private readonly resumeEveryMs: number;
	private readonly now: () => number;
	private resume: ((sessionId: string) => Promise<boolean>) | undefined;
	private readonly handOff: ((sessionId: string) => Promise<void>) | undefined;
	private stopped = false;

	constructor(opts: RequestSchedulerOptions = {}) {
		this.resumeEveryMs = opts.resumeEveryMs ?? RESUME_EVERY_MS;
		this.now = opts.now ?? Date.now;
		this.handOff = opts.handOff;
	}

	runsHere(): boolean {
		return this.handOff === undefined;
	}

	keep(work: Promise<unknown>): void {
		// Outside any request (start-up, the command line) there is nothing to extend: the work just runs.
		currentWaitUntil()?.(work);
	}

	after(key: string, delayMs: number, fn: () => void): void {
		if (this.stopped) return;
		this.due.set(key, { at: this.now() + Math.max(0, delayMs), fn });
	}

	cancel(key: string): void {
		this.due.delete(key);
	}

	every(ms: number, fn: () => void): () => void {
		// Only ever set while a job runs, and the job is kept alive by `keep`: the interval lives as long as it.
		const interval = setInterval(fn, ms);
		return () => clearInterval(interval);
	}

	cron(pattern: string, job: () => Promise<void>): () => void {
		const cron = new Cron(pattern, { paused: true });
		const following = (now: number) => cron.nextRun(new Date(now))?.getTime();
		return this.remember({ following, job, next: following(this.now()), running: false, stop: () => cron.stop() });
	}

	repeat(everyMs: number, job: () => Promise<void>): () => void {
		// Due at once: the first request after start-up runs it, as a server runs it when it starts.
		return this.remember({ following: (now) => now + everyMs, job, next: this.now(), running: false });
	}

	private remember(entry: Recurring): () => void {
		if (this.stopped) {
			entry.stop?.();
			return () => undefined;
		}
		this.recurring.add(entry);
		return () => {
			entry.stop?.();
			this.recurring.delete(entry);
		};
	}

	onVisit(resume: (sessionId: string) => Promise<boolean>): void {
		this.resume = resume;
	}

	visit(sessionId: string): void {
		this.tick();
		if (this.handOff && !this.stopped) {
			this.keep(
				this.handOff(sessionId).catch((err: unknown) =>
					console.error(`[kantera] could not hand session ${sessionId} to its object:`, err instanceof Error ? err.message : err)
				)
			);
			return;
		}
		const resume = this.resume;
		if (this.stopped || !resume) return;
		this.counts.visits++;
		if (this.resuming.has(sessionId)) return;
		const now = this.now();
		const last = this.visits.get(sessionId);
		if (last !== undefined && now - last < this.resumeEveryMs) return;
		if (this.visits.size >= MAX_VISITS_KEPT) for (const [id, at] of this.visits) if (now - at >= this.resumeEveryMs) this.visits.delete(id);
		this.visits.set(sessionId, now);
		this.resuming.add(sessionId);
		this.counts.checks++;
		const work = resume(sessionId)
			.then(
				(found) => {
					if (found) this.counts.resumed++;
				},
				(err: unknown) => console.error(`[kantera] could not resume session ${sessionId}:`, err instanceof Error ? err.message : err)
			)
			.finally(() => this.resuming.delete(sessionId));
		this.keep(work);
	}

	resumeCounts(): ResumeCounts {
		return { ...this.counts };
	}

	tick(): void {
		if (this.stopped) return;
		const now = this.now();
		for (const [key, entry] of this.due) {
			if (entry.at > now) continue;
			this.due.delete(key);
			entry.fn();
		}
		for (const entry of this.recurring) {
			if (entry.running || entry.next === undefined || entry.next > now) continue;
			entry.running = true;
			entry.next = entry.following(now);
			this.keep(guarded(entry.job).finally(() => (entry.running = false)));
		}
	}

	stop(): void {
		this.stopped = true;
		this.due.clear();
		for (const entry of this.recurring) entry.stop?.();
		this.recurring.clear();
	}
}

export function createScheduler(mode: SchedulerMode, opts: RequestSchedulerOptions = {}): Scheduler {
	return mode === 'request' ? new RequestScheduler(opts) : new ProcessScheduler();
}
