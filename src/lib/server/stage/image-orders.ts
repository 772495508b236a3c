/**
 * Image orders: what the image runner should generate. Tools place them inside the turn's staged
 * writes, so an order exists only if its turn commits; generation starts only after that (seed 004:
 * a failed turn generates nothing).
 *
 * Tools don't know their turn's id, so orders are placed without one and the turn's commit claims
 * them (`claimForTurn`) in the same transaction.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import { sessionSchema } from '../db';
import type { SessionDrizzle, SessionExec, SessionTx } from '../db';
import { parseSpriteVariant, sameCharacter } from '../../adv';

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
