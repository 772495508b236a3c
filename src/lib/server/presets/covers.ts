/**
 * Preset covers: the opening scene's background, drawn by the same image provider as the stage and
 * kept in the same image store, as a durable job in the control database. Ordering a cover (when a
 * version is saved with a new opening scene) marks the job pending; the runner takes it under a
 * lease, generates, stores and marks it done, retrying with backoff and giving up visibly after a few
 * attempts. Nothing lives only in memory: after a restart the next kick finds pending jobs and jobs
 * whose lease expired. The previous cover stays until the new one is ready; pages show a placeholder
 * while there is none.
 *
 * A cover is metered like any image: its price is reserved against the author's day and the server's
 * month while it is drawn (so covers, turns and stage images racing for the same budget can't overshoot
 * it), charged when it is stored, and refused when their day or the server's month is over budget.
 */
import { and, asc, eq, isNull, lt, lte, min, or, sql } from 'drizzle-orm';
import { controlSchema, newId, type ControlDb } from '../db';
import { release, reserveWhenFree, settle, type Payer, type Reservation, type ScopeLimits } from '../budget';
import { sceneBackgroundPrompt } from '../stage';
import { decideRetry, type RetryableFailure } from '../retry';
import type { ImageProvider, ImageStore, StoredImage } from '../images';
import { cleanGeneratedImage, IMAGE_RESERVATION_TTL_MS, IMAGE_RETRY_MAX_MS, ImageProviderError, imageKey, jobRetryPolicy } from '../images';
import type { PresetRow } from './store';
import { ProcessScheduler, SessionLoop, type Scheduler } from '../jobs';

const { presetCovers, presets } = controlSchema;

export type CoverJob = typeof presetCovers.$inferSelect;

export interface CoverPolicy {
	maxAttempts: number;
	retryBaseMs: number;
	leaseMs: number;
}

const DEFAULT_COVER_POLICY: Readonly<CoverPolicy> = Object.freeze({ maxAttempts: 3, retryBaseMs: 30_000, leaseMs: 120_000 });
/** Usage rows of covers are keyed apart from play sessions. */
const USAGE_PREFIX = 'cover:';
/** The payer of official presets' covers: no user, only the server's monthly scope. */
const OPERATOR = '';
const MAX_ERROR_CHARS = 500;
/**
 * The prompt of a cover the author uploaded (presets/art.ts): a marker no scene prompt can be, so the
 * job row is never ordered or drawn over while it stands.
 */
export const AUTHOR_COVER_PROMPT = '(author art)';
/** The covers' key in the worker loop. */
const COVERS = 'covers';

export interface CoverRunnerDeps {
	control: ControlDb;
	/** Read at each job: the image provider and store are the stage's own. */
	images: () => { provider: ImageProvider; store: ImageStore };
	budget: { limits: ScopeLimits; priceMicros: number };
	policy?: Partial<CoverPolicy>;
	now?: () => number;
	/** What keeps the drawing alive past the request and retries it later; a server process's by default. */
	scheduler?: Scheduler;
}

/** The URL of a preset's cover image (the route checks that the viewer may see the preset). */
export function coverUrl(presetId: string, image: string | null): string | null {
	return image === null ? null : `/presets/${presetId}/cover/${image}`;
}

export class CoverRunner {
	private readonly policy: CoverPolicy;
	private readonly now: () => number;
	/** One loop for all covers (they live in the control database, not in a session's). */
	private readonly loop: SessionLoop;
	private resumed = false;
	private readonly controller = new AbortController();
	/** The cover being drawn, by its image slot: deleting a preset waits for it before removing the files. */
	private readonly working = new Map<string, Promise<void>>();
	/** Slots of deleted presets: a drawing that finishes late is not stored. */
	private readonly forgotten = new Set<string>();

	constructor(private readonly deps: CoverRunnerDeps) {
		this.policy = { ...DEFAULT_COVER_POLICY, ...deps.policy };
		this.now = deps.now ?? Date.now;
		this.loop = new SessionLoop({
			name: 'cover runner',
			scheduler: deps.scheduler ?? new ProcessScheduler(),
			drain: () => this.drain(),
			now: this.now,
			describe: () => 'the preset covers',
			perSession: false
		});
	}

	/**
	 * Orders the cover of a preset's opening scene; nothing happens when it is already this scene's.
	 * `kick: false` only records the order (start-up), for `resume` to start.
	 */
	async order(presetId: string, scene: { name: string; description: string }, opts: { kick?: boolean } = {}): Promise<void> {
		const prompt = sceneBackgroundPrompt(scene);
		const now = this.now();
		await this.deps.control.db
			.insert(presetCovers)
			.values({ presetId, slot: newId(), prompt, subject: scene.name, status: 'pending', updatedAt: now })
			.onConflictDoUpdate({
				target: presetCovers.presetId,
				set: {
					prompt,
					subject: scene.name,
					status: 'pending',
					attempts: 0,
					error: null,
					nextAttemptAt: null,
					leaseExpiresAt: null,
					updatedAt: now
				},
				setWhere: sql`(${presetCovers.prompt} IS NOT ${prompt} OR ${presetCovers.status} = 'failed') AND ${presetCovers.prompt} IS NOT ${AUTHOR_COVER_PROMPT}`
			});
		if (opts.kick !== false) this.kick();
	}

	/**
	 * Starts the work left from before this process (orders made at start-up, jobs of a runner that
	 * died) the first time a page that shows covers is served; later calls do nothing.
	 */
	resume(): void {
		if (this.resumed) return;
		this.resumed = true;
		this.kick();
	}

	async get(presetId: string): Promise<CoverJob | undefined> {
		const [row] = await this.deps.control.db.select().from(presetCovers).where(eq(presetCovers.presetId, presetId)).limit(1);
		return row;
	}

	/** The bytes of a preset's cover, if one has been drawn (a card export's picture). */
	async image(presetId: string): Promise<StoredImage | undefined> {
		const job = await this.get(presetId);
		return job?.image ? this.deps.images().store.get(job.slot, job.image) : undefined;
	}

	/** Removes a deleted preset's images (its job row went with the preset), after any drawing of it in progress. */
	async forget(slot: string): Promise<void> {
		this.forgotten.add(slot);
		await this.working.get(slot)?.catch(() => undefined);
		await this.deps.images().store.deleteSession(slot);
	}

	/** Makes sure pending covers are being drawn. Safe to call any number of times. */
	kick(): void {
		this.loop.kick(COVERS);
	}

	/** Resolves when no cover is being drawn (covers waiting out a backoff don't count). */
	idle(): Promise<void> {
		return this.loop.idle();
	}

	async stop(): Promise<void> {
		this.loop.stop();
		this.controller.abort();
		await this.idle();
	}

	private async drain(): Promise<void> {
		for (;;) {
			if (this.loop.stopped) return;
			const job = await this.claim();
			if (!job) break;
			const work = this.run(job);
			this.working.set(job.slot, work);
			try {
				await work;
			} finally {
				this.working.delete(job.slot);
			}
		}
		const [next] = await this.deps.control.db
			.select({ at: min(presetCovers.nextAttemptAt) })
			.from(presetCovers)
			.where(eq(presetCovers.status, 'pending'));
		if (next?.at != null) this.loop.wakeAt(COVERS, next.at);
	}

	private async claim(): Promise<CoverJob | undefined> {
		const now = this.now();
		const due = or(
			and(eq(presetCovers.status, 'pending'), or(isNull(presetCovers.nextAttemptAt), lte(presetCovers.nextAttemptAt, now))),
			and(eq(presetCovers.status, 'running'), lt(presetCovers.leaseExpiresAt, now))
		);
		const [candidate] = await this.deps.control.db
			.select({ id: presetCovers.presetId })
			.from(presetCovers)
			.where(due)
			.orderBy(asc(presetCovers.updatedAt))
			.limit(1);
		if (!candidate) return undefined;
		// The conditional update is the claim: of two runners, only one sees a row come back.
		const [job] = await this.deps.control.db
			.update(presetCovers)
			.set({ status: 'running', attempts: sql`${presetCovers.attempts} + 1`, leaseExpiresAt: now + this.policy.leaseMs })
			.where(and(eq(presetCovers.presetId, candidate.id), due))
			.returning();
		return job;
	}

	private async run(job: CoverJob): Promise<void> {
		const db = this.deps.control.db;
		const [preset] = await db.select({ authorId: presets.authorId }).from(presets).where(eq(presets.id, job.presetId)).limit(1);
		if (!preset) return;
		const payer: Payer = { userId: preset.authorId ?? OPERATOR, sessionId: `${USAGE_PREFIX}${job.slot}` };
		const { limits, priceMicros } = this.deps.budget;
		let reservationId: string | undefined;
		if (priceMicros > 0) {
			let reservation: Reservation;
			try {
				reservation = await reserveWhenFree(db, payer, limits, priceMicros, {
					now: this.now,
					ttlMs: IMAGE_RESERVATION_TTL_MS,
					signal: this.controller.signal
				});
			} catch (err) {
				if (this.controller.signal.aborted) return;
				throw err;
			}
			if (!reservation.ok) {
				await this.fail(job, `Not drawn: ${reservation.exceeded.message}.`, { retryable: false });
				return;
			}
			reservationId = reservation.id;
		}
		const { provider, store } = this.deps.images();
		let key: string;
		try {
			const generated = await provider.generate({
				kind: 'background',
				prompt: job.prompt,
				subject: job.subject,
				signal: this.controller.signal
			});
			// Stored and served like a stage image: cleaned like an upload first.
			const image = cleanGeneratedImage(generated, provider.id);
			key = imageKey(image.bytes, image.contentType);
			if (this.forgotten.has(job.slot)) {
				// Drawn for a preset deleted meanwhile: nothing is stored, so nothing is charged either.
				if (priceMicros > 0) await release(db, reservationId);
				return;
			}
			await store.put(job.slot, key, image.bytes, image.contentType);
		} catch (err) {
			if (priceMicros > 0) await release(db, reservationId);
			if (this.controller.signal.aborted) return;
			const message = err instanceof Error ? err.message : String(err);
			console.warn(`[kantera] cover of preset ${job.presetId} (attempt ${job.attempts}) failed: ${message}`);
			await this.fail(job, message, err instanceof ImageProviderError ? err : { retryable: true });
			return;
		}
		if (priceMicros > 0) await settle(db, reservationId, payer, priceMicros, this.now());
		// Only if the order is still this prompt: a newer order meanwhile stays pending for its own image.
		await db
			.update(presetCovers)
			.set({ status: 'done', image: key, error: null, leaseExpiresAt: null, updatedAt: this.now() })
			.where(and(eq(presetCovers.presetId, job.presetId), eq(presetCovers.prompt, job.prompt), eq(presetCovers.status, 'running')));
	}

	private async fail(job: CoverJob, error: string, failure: RetryableFailure): Promise<void> {
		const now = this.now();
		// The stage images' job policy: the same backoff, cap and Retry-After rule.
		const decision = decideRetry(failure, job.attempts - 1, jobRetryPolicy({ ...this.policy, retryMaxMs: IMAGE_RETRY_MAX_MS }));
		const last = !decision.retry;
		await this.deps.control.db
			.update(presetCovers)
			.set({
				status: last ? 'failed' : 'pending',
				error: error.slice(0, MAX_ERROR_CHARS),
				leaseExpiresAt: null,
				nextAttemptAt: decision.retry ? now + decision.delayMs : null,
				updatedAt: now
			})
			.where(and(eq(presetCovers.presetId, job.presetId), eq(presetCovers.prompt, job.prompt), eq(presetCovers.status, 'running')));
	}
}

/** The cover slot of a preset, if it has had a cover ordered (for deleting its images with it). */
export async function coverSlotOf(control: ControlDb, row: Pick<PresetRow, 'id'>): Promise<string | undefined> {
	const [job] = await control.db.select({ slot: presetCovers.slot }).from(presetCovers).where(eq(presetCovers.presetId, row.id)).limit(1);
	return job?.slot;
}
