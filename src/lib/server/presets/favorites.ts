/** Favourites: a user's bookmark of a preset they can see. The preset's counter follows by trigger. */
import { and, eq } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';

const { presetFavorites } = controlSchema;

/** Idempotent: favouriting twice keeps the first time (the Favourites shelf's order). */
export async function addFavorite(db: ControlDrizzle, presetId: string, userId: string, now = Date.now()): Promise<void> {
	await db.insert(presetFavorites).values({ presetId, userId, createdAt: now }).onConflictDoNothing();
}

export async function removeFavorite(db: ControlDrizzle, presetId: string, userId: string): Promise<void> {
	await db.delete(presetFavorites).where(and(eq(presetFavorites.presetId, presetId), eq(presetFavorites.userId, userId)));
}

export async function isFavorite(db: ControlDrizzle, presetId: string, userId: string | undefined): Promise<boolean> {
	if (userId === undefined) return false;
	const [row] = await db
		.select({ at: presetFavorites.createdAt })
		.from(presetFavorites)
		.where(and(eq(presetFavorites.presetId, presetId), eq(presetFavorites.userId, userId)))
		.limit(1);
	return row !== undefined;
}
