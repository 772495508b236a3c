/**
 * What an account chose for itself beyond its name: for now, whether it wants to see worlds rated
 * mature. Whether they are shown at all is also the operator's (presets' rating rule reads both).
 */
import { eq } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';

const { users } = controlSchema;

export async function showsMature(db: ControlDrizzle, userId: string | null | undefined): Promise<boolean> {
	if (userId === null || userId === undefined) return false;
	const [row] = await db.select({ on: users.showMature }).from(users).where(eq(users.id, userId)).limit(1);
	return row?.on ?? false;
}

export async function setShowMature(db: ControlDrizzle, userId: string, on: boolean): Promise<void> {
	await db.update(users).set({ showMature: on }).where(eq(users.id, userId));
}
