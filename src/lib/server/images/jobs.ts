/**
 * Image jobs in the session database: the image orders seen as durable work (their rows are read and
 * written through `stage.imageOrders`). Every change of a job's status is one conditional UPDATE, so
 * whichever runner (in any process) wins it is the only one that works on the job; a runner that died
 * leaves a lease that expires, and the job is taken again.
 *
 * Only committed orders are jobs: an order without a turn id belongs to a turn that has not committed
 * (seed 004: a failed turn generates nothing).
 */
import type { SQL } from 'drizzle-orm';
import type { SessionExec, SessionTx } from '../db';
import { decideRetry, type RetryableFailure, type RetryPolicy } from '../retry';
import * as stage from '../stage';
import { appendEvent } from '../events';

export type ImageJob = stage.ImageOrder;

export interface ImageJobPolicy {
	/** Attempts per job, the first included; then it fails visibly. */
	maxAttempts: number;
	/** Wait before the second attempt; doubled for each further one, up to `retryMaxMs` (see jobRetryPolicy). */
	retryBaseMs: number;
	retryMaxMs: number;
	/** How long a lease lasts without renewal, and how often a working runner renews it. */
	leaseMs: number;
	leaseRenewMs: number;
	/** Jobs of one session generated at the same time. */
	jobsPerSession: number;
}

const MAX_IMAGE_ATTEMPTS = 4;
const IMAGE_RETRY_BASE_MS = 5_000;
export const IMAGE_RETRY_MAX_MS = 5 * 60_000;
/** Longer than one renewal gap with room to spare; a provider call itself can take minutes. */
const IMAGE_LEASE_MS = 60_000;
const IMAGE_LEASE_RENEW_MS = 20_000;
/** A scene change plus a couple of new characters finish together without flooding the service. */
const IMAGE_JOBS_PER_SESSION = 2;

export const DEFAULT_IMAGE_JOB_POLICY: Readonly<ImageJobPolicy> = Object.freeze({
	maxAttempts: MAX_IMAGE_ATTEMPTS,
	retryBaseMs: IMAGE_RETRY_BASE_MS,
	retryMaxMs: IMAGE_RETRY_MAX_MS,
	leaseMs: IMAGE_LEASE_MS,
	leaseRenewMs: IMAGE_LEASE_RENEW_MS,
	jobsPerSession: IMAGE_JOBS_PER_SESSION
});

/**
 * The job policy as the server's retry policy. No jitter: a job's next attempt is a time in the database that
 * operators and tests can predict, and jobs are spread by when their turns committed. A service's Retry-After
 * is honoured up to `retryMaxMs`; asking for longer fails the job.
 */
export function jobRetryPolicy(policy: Pick<ImageJobPolicy, 'maxAttempts' | 'retryBaseMs' | 'retryMaxMs'>): RetryPolicy {
	return { maxRetries: Math.max(0, policy.maxAttempts - 1), baseDelayMs: policy.retryBaseMs, maxDelayMs: policy.retryMaxMs, jitter: 0 };
}

/** The URL the browser loads an image from; the route checks that the user may see the session. */
export function imageUrl(sessionId: string, key: string): string {
	return `/api/v1/sessions/${sessionId}/images/${key}`;
}

/**
 * Whether the session has an image job a runner may take now (committed and due, or running under a lease
 * that expired), as one SQL expression (1 or 0): for a cheap look before waking the runner.
 */
export function jobsWaiting(now: number): SQL {
	return stage.imageOrders.jobsWaitingSql(now);
}

export interface Claim {
	job: ImageJob | undefined;
	/** Events were written (a job gave up); the caller wakes the session's listeners. */
	wroteEvents: boolean;
}

/**
 * Takes the oldest job that may run now for `owner`, counting the attempt as it starts (a runner
 * that dies mid-call has used an attempt too, so a job that crashes its runner can't loop forever).
 * A job whose last allowed attempt was cut off by a dead runner fails here instead.
 */
export async function claimNextJob(tx: SessionTx, owner: string, now: number, policy: ImageJobPolicy): Promise<Claim> {
	let wroteEvents = false;
	for (;;) {
		const next = await stage.imageOrders.nextClaimable(tx, now);
		if (!next) return { job: undefined, wroteEvents };
		if (next.status === 'running' && next.attempts >= policy.maxAttempts) {
			await giveUp(tx, next, 'The image service did not answer before the server stopped, on the last attempt.', now);
			wroteEvents = true;
			continue;
		}
		const job = await stage.imageOrders.startAttempt(tx, next.id, owner, now, policy.leaseMs);
		return { job, wroteEvents };
	}
}

/** Extends the lease; false when the job is no longer ours (another runner took it after expiry). */
export async function renewJobLease(
	tx: SessionTx,
	jobId: number,
	owner: string,
	now: number,
	policy: Pick<ImageJobPolicy, 'leaseMs'>
): Promise<boolean> {
	return stage.imageOrders.renewLease(tx, jobId, owner, now + policy.leaseMs);
}

/**
 * Notes the stored image on the job before it is applied, so a runner that dies in between leaves a
 * job the next runner finishes without generating (and paying for) the image again.
 */
export async function recordImage(tx: SessionTx, jobId: number, owner: string, key: string, now: number): Promise<boolean> {
	return stage.imageOrders.noteImage(tx, jobId, owner, key, now);
}

export type Completion = { status: 'lost' } | { status: 'applied'; url: string } | { status: 'superseded' };

/**
 * Finishes a job with its stored image: the order is done and the character's sprite (or the place's
 * background) is the new image, with an `image.ready` event, in one transaction. Only the lease
 * holder may finish. A job whose target already shows a newer order's image keeps that one.
 */
export async function completeJob(
	tx: SessionTx,
	sessionId: string,
	job: ImageJob,
	owner: string,
	key: string,
	now: number
): Promise<Completion> {
	if (!(await stage.imageOrders.markDone(tx, job.id, owner, key, now))) return { status: 'lost' };
	if (await stage.imageOrders.newerDone(tx, job)) return { status: 'superseded' };
	if (job.target === 'npc') await stage.npcs.setSprite(tx, job.targetName, key);
	else await stage.scenes.setBackground(tx, job.targetName, key);
	const url = imageUrl(sessionId, key);
	await appendEvent(tx, { type: 'image.ready', orderId: job.id, target: job.target, name: job.targetName, url });
	return { status: 'applied', url };
}

export type FailureOutcome = { status: 'lost' } | { status: 'retry'; at: number } | { status: 'failed' };

/**
 * Records a failed attempt: the job waits for its backoff (or the service's Retry-After) and runs again,
 * or — out of attempts, or when another try can't help — fails visibly with an `image.failed` event.
 * The target keeps its placeholder (or its previous image): nothing else changes.
 */
export async function failAttempt(
	tx: SessionTx,
	job: ImageJob,
	owner: string,
	error: string,
	failure: RetryableFailure,
	now: number,
	policy: ImageJobPolicy
): Promise<FailureOutcome> {
	const current = await stage.imageOrders.held(tx, job.id, owner);
	if (!current) return { status: 'lost' };
	const decision = decideRetry(failure, current.attempts - 1, jobRetryPolicy(policy));
	if (!decision.retry) {
		await giveUp(tx, current, error, now);
		return { status: 'failed' };
	}
	const at = now + decision.delayMs;
	await stage.imageOrders.retryAt(tx, job.id, error, at, now);
	return { status: 'retry', at };
}

/**
 * What the player's event says: fixed words. The service's own message stays in the order row and the
 * server log (each attempt is logged): like an LLM provider, an image service may quote the request back.
 */
export const IMAGE_FAILED_TEXT = 'The image service could not draw it; the placeholder stays. The server log has the details.';

async function giveUp(tx: SessionTx, job: ImageJob, error: string, now: number): Promise<void> {
	await stage.imageOrders.markFailed(tx, job.id, error, now);
	await appendEvent(tx, { type: 'image.failed', orderId: job.id, target: job.target, name: job.targetName, error: IMAGE_FAILED_TEXT });
}

/**
 * When the session next has work that can't start yet: a backoff ending or another runner's lease
 * expiring. The runner sets a timer for it, so retries happen without waiting for the next turn.
 */
export async function nextWakeAt(exec: SessionExec, now: number): Promise<number | undefined> {
	return stage.imageOrders.nextWakeAt(exec, now);
}
