/**
 * Image orders: what the image runner should generate, and the `image_orders` table's one repository
 * (the image jobs of images/jobs.ts, the play log's images, saves and undo read and write it here). Tools
 * place orders inside the turn's staged writes, so an order exists only if its turn commits; generation
 * starts only after that (seed 004: a failed turn generates nothing).
 *
 * Tools don't know their turn's id, so orders are placed without one and the turn's commit claims
 * them (`claimForTurn`) in the same transaction. Functions that end in `Query` return an unrun
 * statement for a batch.
 */
import { and, asc, eq, getTableName, gt, inArray, isNotNull, isNull, lt, lte, min, or, sql, type SQL } from 'drizzle-orm';
import type { InStatement } from '@libsql/client';
import { sessionSchema, undoLog } from '../db';
import type { SessionDrizzle, SessionExec, SessionTx } from '../db';
import { parseSpriteVariant, sameCharacter } from '../../adv';
import { setSprite } from './npcs';
import { setBackground } from './scenes';
import { placeArtFor } from './place-art';

const { imageOrders } = sessionSchema;

export type ImageOrder = typeof imageOrders.$inferSelect;
export type ImageTarget = ImageOrder['target'];

export interface OrderInput {
	readonly target: ImageTarget;
	readonly targetName: string;
	readonly prompt: string;
}

/**
 * Places an order. A pending order for the same target is replaced rather than joined by a second
 * one: registering a character twice (or changing a look before its image started) should generate
 * one image, from the latest prompt.
 */
export async function place(tx: SessionTx, input: OrderInput): Promise<ImageOrder> {
	const now = Date.now();
	// The author's own image is never drawn over: a new look or a regeneration keeps it.
	const art = await authorArt(tx, input);
	if (art?.image) {
		if (input.target === 'scene') await setBackground(tx, input.targetName, art.image);
		else if (!parseSpriteVariant(input.targetName)) await setSprite(tx, input.targetName, art.image);
		return art;
	}
	const [waiting] = await tx
		.select()
		.from(imageOrders)
		.where(and(eq(imageOrders.target, input.target), eq(imageOrders.targetName, input.targetName), eq(imageOrders.status, 'pending')));
	if (waiting) {
		// A replaced order is a new job: a failed attempt or backoff of the old prompt does not carry over.
		const [row] = await tx
			.update(imageOrders)
			.set({ prompt: input.prompt, turnId: null, attempts: 0, error: null, image: null, nextAttemptAt: null, updatedAt: now })
			.where(eq(imageOrders.id, waiting.id))
			.returning();
		if (!row) throw new Error('image order update returned no row');
		return row;
	}
	const [row] = await tx
		.insert(imageOrders)
		.values(newRow(input, null, now))
		.returning();
	if (!row) throw new Error('image order insert returned no row');
	return row;
}

/** The author's image for the target: a character's by its exact name, a place's by `placeArtFor`. */
async function authorArt(tx: SessionTx, input: OrderInput): Promise<ImageOrder | undefined> {
	const arts = await tx
		.select()
		.from(imageOrders)
		.where(
			and(
				eq(imageOrders.target, input.target),
				eq(imageOrders.prompt, AUTHOR_ART_PROMPT),
				input.target === 'scene' ? undefined : eq(imageOrders.targetName, input.targetName)
			)
		);
	return input.target === 'scene' ? placeArtFor(input.targetName, arts) : arts[0];
}

/**
 * The prompt of an order that is the author's art (copied from the preset when the session started):
 * done from the start, and never replaced by a drawn image (`place`).
 */
export const AUTHOR_ART_PROMPT = '(author art)';

export function isAuthorArt(order: Pick<ImageOrder, 'prompt'>): boolean {
	return order.prompt === AUTHOR_ART_PROMPT;
}

/** The author's image of a target, as a done order for a new session's seed (claimed by `turnId`). */
export function placeArtQuery(
	db: Pick<SessionDrizzle, 'insert'>,
	art: { readonly target: ImageTarget; readonly targetName: string; readonly image: string },
	turnId: string,
	now: number
) {
	const order: OrderInput = { target: art.target, targetName: art.targetName, prompt: AUTHOR_ART_PROMPT };
	return db.insert(imageOrders).values({ ...newRow(order, turnId, now), status: 'done', image: art.image });
}

/**
 * A new order for a batch (a new session's seed), claimed by `turnId` at once, as `place` followed by
 * `claimForTurn` leaves it in a database with no other order.
 */
export function placeClaimedQuery(db: Pick<SessionDrizzle, 'insert'>, input: OrderInput, turnId: string, now: number) {
	return db.insert(imageOrders).values(newRow(input, turnId, now));
}

function newRow(input: OrderInput, turnId: string | null, now: number): typeof imageOrders.$inferInsert {
	return {
		turnId,
		target: input.target,
		targetName: input.targetName,
		prompt: input.prompt,
		status: 'pending',
		createdAt: now,
		updatedAt: now
	};
}

/** Marks the orders placed during a turn as that turn's; call in the turn's commit. Returns how many. */
export async function claimForTurn(tx: SessionTx, turnId: string): Promise<number> {
	const rows = await claimForTurnQuery(tx, turnId);
	return rows.length;
}

/** `claimForTurn`'s update, unrun (for a write batch): its result has one row per order claimed. */
export function claimForTurnQuery(exec: Pick<SessionExec, 'update'>, turnId: string) {
	return exec.update(imageOrders).set({ turnId }).where(isNull(imageOrders.turnId)).returning({ id: imageOrders.id });
}

/** Pending orders, oldest first: what the image runner picks up after a commit. */
export async function pending(exec: SessionExec, limit: number): Promise<ImageOrder[]> {
	return exec
		.select()
		.from(imageOrders)
		.where(eq(imageOrders.status, 'pending'))
		.orderBy(asc(imageOrders.createdAt), asc(imageOrders.id))
		.limit(limit);
}

/** Every order for one target, oldest first. */
export async function forTarget(exec: SessionExec, target: ImageTarget, targetName: string): Promise<ImageOrder[]> {
	return exec
		.select()
		.from(imageOrders)
		.where(and(eq(imageOrders.target, target), eq(imageOrders.targetName, targetName)))
		.orderBy(asc(imageOrders.id));
}

/**
 * The expression variants ordered for a character (image names `Name(expression)`, see
 * `spriteVariantName`), each once, in the order first placed.
 */
export async function variantNames(exec: SessionExec, character: string): Promise<string[]> {
	const rows = await exec
		.select({ name: imageOrders.targetName })
		.from(imageOrders)
		.where(eq(imageOrders.target, 'npc'))
		.orderBy(asc(imageOrders.id));
	const names = new Set<string>();
	for (const { name } of rows) {
		const variant = parseSpriteVariant(name);
		if (variant && sameCharacter(variant.character, character)) names.add(name);
	}
	return [...names];
}

/** The committed order of this target still waiting or being generated, if any (a hand-made order joins it). */
export async function waitingFor(exec: SessionExec, order: Pick<OrderInput, 'target' | 'targetName'>): Promise<ImageOrder | undefined> {
	const [row] = await exec
		.select()
		.from(imageOrders)
		.where(
			and(
				eq(imageOrders.target, order.target),
				eq(imageOrders.targetName, order.targetName),
				inArray(imageOrders.status, ['pending', 'running']),
				isNotNull(imageOrders.turnId)
			)
		)
		.limit(1);
	return row;
}

/** Claims order `id` for `turnId` at once (a hand-made order belongs to no turn that would). */
export async function claim(tx: SessionTx, id: number, turnId: string): Promise<ImageOrder> {
	const [row] = await tx.update(imageOrders).set({ turnId }).where(eq(imageOrders.id, id)).returning();
	if (!row) throw new Error('image order update returned no row');
	return row;
}

/** Every order's target, status and image, oldest first: what the play log's images are made of. */
export function statusesQuery(exec: Pick<SessionExec, 'select'>) {
	return exec
		.select({ target: imageOrders.target, name: imageOrders.targetName, status: imageOrders.status, image: imageOrders.image })
		.from(imageOrders)
		.orderBy(asc(imageOrders.id));
}

/** The image key of every order (null for those without one), unrun: what a branch copies with a save. */
export function imageKeysQuery(exec: Pick<SessionExec, 'select'>) {
	return exec.select({ k: imageOrders.image }).from(imageOrders);
}

/** The ids of the orders the commits of `turnIds` placed or changed (each once, `id`), from the undo log. */
export function touchedByTurnsQuery(turnIds: readonly string[]): InStatement {
	return undoLog.rowIdsQuery(getTableName(imageOrders), turnIds);
}

// ---- orders as durable jobs (images/jobs.ts): every change of status is one conditional UPDATE ----

const committed = isNotNull(imageOrders.turnId);
const leaseExpired = (now: number): SQL => or(isNull(imageOrders.leaseExpiresAt), lt(imageOrders.leaseExpiresAt, now)) ?? sql`1`;
const due = (now: number): SQL => or(isNull(imageOrders.nextAttemptAt), lte(imageOrders.nextAttemptAt, now)) ?? sql`1`;
/** A job a runner may take now: committed and either due, or running under a lease that expired. */
const claimable = (now: number): SQL =>
	and(committed, or(and(eq(imageOrders.status, 'pending'), due(now)), and(eq(imageOrders.status, 'running'), leaseExpired(now)))) ?? sql`0`;
const heldBy = (id: number, owner: string) =>
	and(eq(imageOrders.id, id), eq(imageOrders.status, 'running'), eq(imageOrders.leaseOwner, owner));
const NO_LEASE = { leaseOwner: null, leaseExpiresAt: null } as const;

/** Whether the session has a job a runner may take now, as one SQL expression (1 or 0). */
export function jobsWaitingSql(now: number): SQL {
	return sql`exists (select 1 from ${imageOrders} where ${claimable(now)})`;
}

/** The oldest job that may run now. */
export async function nextClaimable(tx: SessionTx, now: number): Promise<ImageOrder | undefined> {
	const [next] = await tx
		.select()
		.from(imageOrders)
		.where(claimable(now))
		.orderBy(asc(imageOrders.createdAt), asc(imageOrders.id))
		.limit(1);
	return next;
}

/** Starts an attempt of job `id` under `owner`'s lease, counting it, if the job may still run now. */
export async function startAttempt(
	tx: SessionTx,
	id: number,
	owner: string,
	now: number,
	leaseMs: number
): Promise<ImageOrder | undefined> {
	const [job] = await tx
		.update(imageOrders)
		.set({
			status: 'running',
			leaseOwner: owner,
			leaseExpiresAt: now + leaseMs,
			attempts: sql`${imageOrders.attempts} + 1`,
			nextAttemptAt: null,
			updatedAt: now
		})
		.where(and(eq(imageOrders.id, id), claimable(now)))
		.returning();
	return job;
}

/** Extends `owner`'s lease of job `id` to `until`; false when the job is no longer `owner`'s. */
export async function renewLease(tx: SessionTx, id: number, owner: string, until: number): Promise<boolean> {
	const rows = await tx.update(imageOrders).set({ leaseExpiresAt: until }).where(heldBy(id, owner)).returning({ id: imageOrders.id });
	return rows.length > 0;
}

/** Notes the stored image on job `id` while `owner` holds it; false when it does not. */
export async function noteImage(tx: SessionTx, id: number, owner: string, key: string, now: number): Promise<boolean> {
	const rows = await tx.update(imageOrders).set({ image: key, updatedAt: now }).where(heldBy(id, owner)).returning({ id: imageOrders.id });
	return rows.length > 0;
}

/** Marks job `id` done with its image while `owner` holds it; false when it does not. */
export async function markDone(tx: SessionTx, id: number, owner: string, key: string, now: number): Promise<boolean> {
	const [row] = await tx
		.update(imageOrders)
		.set({ status: 'done', image: key, error: null, ...NO_LEASE, nextAttemptAt: null, updatedAt: now })
		.where(heldBy(id, owner))
		.returning();
	return row !== undefined;
}

/** Whether an order of the same target placed after `job` is done already (its image is the newer one). */
export async function newerDone(tx: SessionTx, job: Pick<ImageOrder, 'id' | 'target' | 'targetName'>): Promise<boolean> {
	const [newer] = await tx
		.select({ id: imageOrders.id })
		.from(imageOrders)
		.where(
			and(
				eq(imageOrders.target, job.target),
				eq(imageOrders.targetName, job.targetName),
				eq(imageOrders.status, 'done'),
				gt(imageOrders.id, job.id)
			)
		)
		.limit(1);
	return newer !== undefined;
}

/** Job `id` as it stands while `owner` holds it, or undefined when it does not. */
export async function held(tx: SessionTx, id: number, owner: string): Promise<ImageOrder | undefined> {
	const [current] = await tx.select().from(imageOrders).where(heldBy(id, owner));
	return current;
}

/** Puts job `id` back to pending after a failed attempt, to run again at `at`. */
export async function retryAt(tx: SessionTx, id: number, error: string, at: number, now: number): Promise<void> {
	await tx
		.update(imageOrders)
		.set({ status: 'pending', error, nextAttemptAt: at, ...NO_LEASE, updatedAt: now })
		.where(eq(imageOrders.id, id));
}

/** Marks job `id` failed for good. */
export async function markFailed(tx: SessionTx, id: number, error: string, now: number): Promise<void> {
	await tx
		.update(imageOrders)
		.set({ status: 'failed', error, ...NO_LEASE, nextAttemptAt: null, updatedAt: now })
		.where(eq(imageOrders.id, id));
}

/** When a job that can't start yet next can: the earliest backoff ending and the earliest lease running out. */
export async function nextWakeAt(exec: SessionExec, now: number): Promise<number | undefined> {
	const [waiting] = await exec
		.select({ at: min(imageOrders.nextAttemptAt) })
		.from(imageOrders)
		.where(and(committed, eq(imageOrders.status, 'pending'), gt(imageOrders.nextAttemptAt, now)));
	const [leased] = await exec
		.select({ at: min(imageOrders.leaseExpiresAt) })
		.from(imageOrders)
		.where(and(committed, eq(imageOrders.status, 'running'), gt(imageOrders.leaseExpiresAt, now)));
	const times = [waiting?.at, leased?.at].filter((t): t is number => typeof t === 'number');
	return times.length > 0 ? Math.min(...times) : undefined;
}
