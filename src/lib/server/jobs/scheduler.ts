/**
 * How background work outlives the request that started it. The turn runner, lease renewal, image
 * jobs and scheduled backups ask one small interface for it, with two implementations:
 *
 * - `process` (Node, Bun and Deno servers): the process stays up, so work simply runs on, delayed
 *   work waits on a timer and backups follow their cron schedule.
 * - `request` (isolate hosts: Cloudflare Workers, Deno Deploy, Vercel Edge): the host may freeze or
 *   drop the instance once a response is sent and nothing is left in `waitUntil`. Work started during a
 *   request is handed to that request's `waitUntil`; delayed work and backups set no timer but are
 *   remembered and run by the first request or event-stream poll after they are due; and a request or
 *   poll for a session resumes that session's work (what an instance that was dropped left behind: an
 *   expired lease, a queued turn, an image waiting out its backoff). The leases in the session
 *   database decide who runs what, so resuming from several requests at once never runs a turn twice.
 */
import { Cron } from 'croner';
import { currentWaitUntil } from './request-scope';

export type SchedulerMode = 'process' | 'request';

export interface Scheduler {
	readonly mode: SchedulerMode;
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
	/** Who resumes a session's work when `visit` asks for it (the app: the turn and image runners). */
	onVisit(resume: (sessionId: string) => void): void;
	/** A request or an event-stream poll for the session arrived. */
	visit(sessionId: string): void;
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
	private stopped = false;

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

	onVisit(): void {
		// Timers resume delayed work here; a visit adds nothing.
	}

	visit(): void {
		// As above.
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
	}
}

export interface RequestSchedulerOptions {
	/** A session's work is resumed by its visits at most this often (each resume is a few queries). */
	resumeEveryMs?: number;
	now?: () => number;
}

/** How often visits resume a session's work: a third of a turn lease, so a dead runner's turn ends soon after its lease. */
const RESUME_EVERY_MS = 5_000;
/** Visit times kept before old ones are dropped. */
const MAX_VISITS_KEPT = 1_000;

interface CronEntry {
	cron: Cron;
	job: () => Promise<void>;
	next: number | undefined;
	running: boolean;
}

/** An isolate host: nothing runs unless a request is there to keep it alive (see the module comment). */
export class RequestScheduler implements Scheduler {
	readonly mode = 'request';
	private readonly due = new Map<string, { at: number; fn: () => void }>();
	private readonly crons = new Set<CronEntry>();
	private readonly visits = new Map<string, number>();
	private readonly resumeEveryMs: number;
	private readonly now: () => number;
	private resume: ((sessionId: string) => void) | undefined;
	private stopped = false;

	constructor(opts: RequestSchedulerOptions = {}) {
		this.resumeEveryMs = opts.resumeEveryMs ?? RESUME_EVERY_MS;
		this.now = opts.now ?? Date.now;
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
		if (this.stopped) return () => undefined;
		const cron = new Cron(pattern, { paused: true });
		const entry: CronEntry = { cron, job, next: cron.nextRun(new Date(this.now()))?.getTime(), running: false };
		this.crons.add(entry);
		return () => {
			cron.stop();
			this.crons.delete(entry);
		};
	}

	onVisit(resume: (sessionId: string) => void): void {
		this.resume = resume;
	}

	visit(sessionId: string): void {
		this.tick();
		if (this.stopped || !this.resume) return;
		const now = this.now();
		const last = this.visits.get(sessionId);
		if (last !== undefined && now - last < this.resumeEveryMs) return;
		if (this.visits.size >= MAX_VISITS_KEPT) for (const [id, at] of this.visits) if (now - at >= this.resumeEveryMs) this.visits.delete(id);
		this.visits.set(sessionId, now);
		this.resume(sessionId);
	}

	tick(): void {
		if (this.stopped) return;
		const now = this.now();
		for (const [key, entry] of this.due) {
			if (entry.at > now) continue;
			this.due.delete(key);
			entry.fn();
		}
		for (const entry of this.crons) {
			if (entry.running || entry.next === undefined || entry.next > now) continue;
			entry.running = true;
			entry.next = entry.cron.nextRun(new Date(now))?.getTime();
			const run = entry
				.job()
				.catch((err: unknown) => console.error('[kantera] scheduled job failed:', err instanceof Error ? err.message : err))
				.finally(() => (entry.running = false));
			this.keep(run);
		}
	}

	stop(): void {
		this.stopped = true;
		this.due.clear();
		for (const entry of this.crons) entry.cron.stop();
		this.crons.clear();
	}
}

export function createScheduler(mode: SchedulerMode, opts: RequestSchedulerOptions = {}): Scheduler {
	return mode === 'request' ? new RequestScheduler(opts) : new ProcessScheduler();
}
