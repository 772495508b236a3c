/**
 * The image job runner: generates the images that committed turns ordered, outside any request.
 * Kicked after a turn commits (and after a hand-made order); it then works through the session's
 * jobs a few at a time, each under a lease in the session database, and sets a timer for retries
 * that are waiting out their backoff. Nothing lives only in memory: after a restart, the next kick
 * finds pending jobs and jobs whose runner died (their lease expired) and carries on.
 */
import { hostname } from 'node:os';
import { eq, type SQL } from 'drizzle-orm';
import { controlSchema, newId, type ControlDb, type SessionDb, type SessionDbPool } from '../db';
import { release, reserveWhenFree, settle, type Payer, type Reservation, type ScopeLimits } from '../budget';
import type { RetryableFailure } from '../retry';
import type { EventBus } from '../events';
import { turnUserId } from '../turn';
import { ImageProviderError } from './errors';
import { cleanGeneratedImage } from './generated';
import type { ImageProvider } from './provider';
import { imageKey, type ImageStore } from './store';
import { IMAGE_REQUEST_TIMEOUT_MS } from './openai';
import type { RunnerLoad } from '../ops';
import {
	claimNextJob,
	completeJob,
	DEFAULT_IMAGE_JOB_POLICY,
	failAttempt,
	jobsWaiting,
	nextWakeAt,
	recordImage,
	renewJobLease,
	type ImageJob,
	type ImageJobPolicy
} from './jobs';
import { ProcessScheduler, SessionLoop, type Scheduler } from '../jobs';

const { playSessions } = controlSchema;

/** Turn ids of hand-made orders start with this (see regenerate.ts); the session's owner pays for them. */
export const MANUAL_ORDER_PREFIX = 'manual:';
/** How long an image's budget reservation may outlive a runner that died while generating it. */
export const IMAGE_RESERVATION_TTL_MS = IMAGE_REQUEST_TIMEOUT_MS + 60_000;
/** Error messages kept on an order and sent in events are cut to this length. */
const MAX_ERROR_CHARS = 500;

export interface ImageBudget {
	control: ControlDb;
	limits: ScopeLimits;
	/** Charged per generated image; 0 for the offline provider. */
	priceMicros: number;
}

export interface ImageRunnerDeps {
	sessions: SessionDbPool;
	bus: EventBus;
	provider: ImageProvider;
	store: ImageStore;
	/** Meters images ordered by turns against the turn's player; without it images are not metered. */
	budget?: ImageBudget;
	policy?: Partial<ImageJobPolicy>;
	/** The clock; tests step it to walk through backoff without waiting. */
	now?: () => number;
	/** What keeps the work alive past the request and runs it later; a server process's by default. */
	scheduler?: Scheduler;
}

export class ImageRunner {
	readonly owner = `${hostname()}:${process.pid}:${newId(8)}`;
	readonly policy: ImageJobPolicy;
	/**
	 * The sessions being worked on; its wake-ups are retries waiting out their backoff. A session being
	 * deleted is held: no new work, no wake-ups (which would re-create its database).
	 */
	private readonly loop: SessionLoop;
	private readonly scheduler: Scheduler;
	/** Running calls, by the session and job they work for (so deleting a session or undoing a turn can stop its calls). */
	private readonly controllers = new Map<AbortController, { sessionId: string; jobId: number }>();
	private readonly now: () => number;

	constructor(private readonly deps: ImageRunnerDeps) {
		this.policy = { ...DEFAULT_IMAGE_JOB_POLICY, ...deps.policy };
		this.now = deps.now ?? Date.now;
		this.scheduler = deps.scheduler ?? new ProcessScheduler();
		this.loop = new SessionLoop({ name: 'image runner', scheduler: this.scheduler, drain: (id) => this.drain(id), now: this.now });
	}

	get provider(): ImageProvider {
		return this.deps.provider;
	}

	get store(): ImageStore {
		return this.deps.store;
	}

	/** Makes sure the session's image jobs are being worked on. Safe to call any number of times. */
	kick(sessionId: string): void {
		this.loop.kick(sessionId);
	}

	/** Whether the session has a job to take now, as an SQL expression on this runner's clock (see `jobsWaiting`). */
	waiting(): SQL {
		return jobsWaiting(this.now());
	}

	/** What this runner has in hand now, for the metrics' queue gauges. */
	load(): RunnerLoad {
		return { ...this.loop.counts(), running: this.controllers.size };
	}

	/** Resolves when no session is being worked on (jobs waiting out a backoff don't count). */
	idle(): Promise<void> {
		return this.loop.idle();
	}

	/** Stops taking jobs and abandons running calls; their leases expire and another runner resumes them. */
	async stop(): Promise<void> {
		this.loop.stop();
		for (const c of this.controllers.keys()) c.abort();
		await this.idle();
	}

	/**
	 * Stops the session's work (timer, running calls) and deletes its images; call when the session
	 * is deleted, before its database goes, so no late job writes a file or re-opens the database.
	 */
	async deleteSession(sessionId: string): Promise<void> {
		const running = this.loop.hold(sessionId);
		try {
			for (const [c, job] of this.controllers) if (job.sessionId === sessionId) c.abort();
			await running;
			await this.deps.store.deleteSession(sessionId);
		} finally {
			this.loop.release(sessionId);
		}
	}

	/**
	 * An undo took these orders back (their rows are gone or pending again): calls running for them
	 * stop now, unpaid, and whatever they would have finished is lost (`completeJob` finds no running
	 * order). Then the session is looked at again, for orders the undo put back to pending.
	 */
	cancelOrders(sessionId: string, orderIds: readonly number[]): void {
		const ids = new Set(orderIds);
		for (const [c, job] of this.controllers) if (job.sessionId === sessionId && ids.has(job.jobId)) c.abort();
		this.kick(sessionId);
	}

	private async drain(sessionId: string): Promise<void> {
		await this.deps.sessions.use(sessionId, async (s) => {
			// allSettled: the loop must not end (and idle() resolve) while a sibling worker still runs.
			const results = await Promise.allSettled(Array.from({ length: this.policy.jobsPerSession }, () => this.work(s)));
			const failed = results.find((r) => r.status === 'rejected');
			if (failed) throw failed.reason;
			if (!this.loop.isOpen(s.id)) return;
			const at = await nextWakeAt(s.db, this.now());
			if (at !== undefined) this.loop.wakeAt(s.id, at);
		});
	}

	private async work(s: SessionDb): Promise<void> {
		for (;;) {
			if (!this.loop.isOpen(s.id)) return;
			const claim = await s.write((tx) => claimNextJob(tx, this.owner, this.now(), this.policy));
			if (claim.wroteEvents) this.deps.bus.notify(s.id);
			if (!claim.job) return;
			await this.runLeased(s, claim.job);
		}
	}

	private async runLeased(s: SessionDb, job: ImageJob): Promise<void> {
		const controller = new AbortController();
		this.controllers.set(controller, { sessionId: s.id, jobId: job.id });
		const stopRenewing = this.scheduler.every(this.policy.leaseRenewMs, () => {
			void s
				.write((tx) => renewJobLease(tx, job.id, this.owner, this.now(), this.policy))
				.then((held) => {
					if (!held) controller.abort();
				})
				.catch(() => undefined);
		});
		try {
			await this.run(s, job, controller.signal);
		} finally {
			stopRenewing();
			this.controllers.delete(controller);
		}
	}

	private async run(s: SessionDb, job: ImageJob, signal: AbortSignal): Promise<void> {
		// Idempotent: an order that already has its stored image is finished, not generated again.
		if (job.image && (await this.deps.store.get(s.id, job.image))) {
			await this.finish(s, job, job.image);
			return;
		}
		const payer = await this.payer(s, job);
		let reservationId: string | undefined;
		if (payer) {
			// The image's price is held against the shared budgets while it is generated (other turns and
			// images can't spend the same money meanwhile) and charged only if an image comes back.
			let reservation: Reservation;
			try {
				reservation = await reserveWhenFree(payer.budget.control.db, payer.who, payer.budget.limits, payer.budget.priceMicros, {
					now: this.now,
					ttlMs: IMAGE_RESERVATION_TTL_MS,
					signal
				});
			} catch (err) {
				if (signal.aborted) return;
				throw err;
			}
			if (!reservation.ok) {
				await this.fail(s, job, `Not generated: ${reservation.exceeded.message}.`, { retryable: false });
				return;
			}
			reservationId = reservation.id;
		}
		let key: string;
		try {
			const kind = job.target === 'npc' ? 'sprite' : 'background';
			const generated = await this.deps.provider.generate({ kind, prompt: job.prompt, subject: job.targetName, signal });
			const image = cleanGeneratedImage(generated, this.deps.provider.id);
			key = imageKey(image.bytes, image.contentType);
			await this.deps.store.put(s.id, key, image.bytes, image.contentType);
		} catch (err) {
			if (payer) await release(payer.budget.control.db, reservationId);
			// Stopping or a lost lease: leave the job to whoever holds it, or to the lease's expiry.
			if (signal.aborted) return;
			const failure: RetryableFailure = err instanceof ImageProviderError ? err : { retryable: true };
			const message = err instanceof Error ? err.message : String(err);
			console.warn(
				`[kantera] image ${job.id} (${job.target} "${job.targetName}") attempt ${job.attempts} via ${this.deps.provider.id} failed: ${message}`
			);
			await this.fail(s, job, message, failure);
			return;
		}
		if (payer) await settle(payer.budget.control.db, reservationId, payer.who, payer.budget.priceMicros, this.now());
		if (!(await s.write((tx) => recordImage(tx, job.id, this.owner, key, this.now())))) return;
		await this.finish(s, job, key);
	}

	private async finish(s: SessionDb, job: ImageJob, key: string): Promise<void> {
		const done = await s.write((tx) => completeJob(tx, s.id, job, this.owner, key, this.now()));
		if (done.status === 'applied') this.deps.bus.notify(s.id);
	}

	private async fail(s: SessionDb, job: ImageJob, error: string, failure: RetryableFailure): Promise<void> {
		const message = error.length > MAX_ERROR_CHARS ? `${error.slice(0, MAX_ERROR_CHARS - 1)}…` : error;
		const outcome = await s.write((tx) => failAttempt(tx, job, this.owner, message, failure, this.now(), this.policy));
		if (outcome.status === 'failed') this.deps.bus.notify(s.id);
	}

	/** Who pays for an image: the player of the turn that ordered it, or the session's owner for a hand-made order. */
	private async payer(s: SessionDb, job: ImageJob): Promise<{ budget: ImageBudget; who: Payer } | undefined> {
		const budget = this.deps.budget;
		if (!budget || budget.priceMicros === 0 || !job.turnId) return undefined;
		let userId: string | undefined;
		if (job.turnId.startsWith(MANUAL_ORDER_PREFIX)) {
			const [owner] = await budget.control.db.select({ id: playSessions.ownerId }).from(playSessions).where(eq(playSessions.id, s.id));
			userId = owner?.id;
		} else {
			userId = await turnUserId(s.db, job.turnId);
		}
		return userId === undefined ? undefined : { budget, who: { userId, sessionId: s.id } };
	}
}
