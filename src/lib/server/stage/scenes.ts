/**
 * Scenes (places) the GM has set (set_scene). A row holds the name and the visual description that
 * feeds the background prompt and, once generated, the background's image id.
 */
import { asc, eq } from 'drizzle-orm';
import { sessionSchema } from '../db';
import type { SessionDrizzle, SessionExec, SessionTx } from '../db';
import { checkLook, checkStageName } from './limits';
import type { RegistrationChange } from './npcs';

const { scenes } = sessionSchema;

export type Scene = typeof scenes.$inferSelect;

export interface SceneInput {
	readonly name: string;
	readonly description: string;
}

export async function register(tx: SessionTx, input: SceneInput): Promise<{ scene: Scene; change: RegistrationChange }> {
	const { name, description } = checked(input);
	const existing = await get(tx, name);
	const now = Date.now();
	if (!existing) {
		const [row] = await tx.insert(scenes).values({ name, description, createdAt: now, updatedAt: now }).returning();
		if (!row) throw new Error('scene insert returned no row');
		return { scene: row, change: 'created' };
	}
	if (existing.description === description) return { scene: existing, change: 'unchanged' };
	const [row] = await tx.update(scenes).set({ description, updatedAt: now }).where(eq(scenes.id, existing.id)).returning();
	if (!row) throw new Error('scene update returned no row');
	return { scene: row, change: 'updated' };
}

/**
 * A new scene's insert for a batch (a new session's seed), with the name and description it was set
 * under: nothing read, so a name already there fails the batch where `register` would update it.
 */
/** `image`: an image it has from the start (the author's art), so none is drawn. */
export function registerQuery(db: Pick<SessionDrizzle, 'insert'>, input: SceneInput, now: number, image: string | null = null) {
	const scene = checked(input);
	return { scene, query: db.insert(scenes).values({ ...scene, backgroundImage: image, createdAt: now, updatedAt: now }) };
}

function checked(input: SceneInput): SceneInput {
	const name = checkStageName(input.name, 'The scene name');
	return { name, description: checkLook(input.description, `The description of "${name}"`) };
}

export async function get(exec: SessionExec, name: string): Promise<Scene | undefined> {
	const [row] = await exec.select().from(scenes).where(eq(scenes.name, name.trim()));
	return row;
}

export async function list(exec: SessionExec): Promise<Scene[]> {
	return exec.select().from(scenes).orderBy(asc(scenes.name));
}

/** Records the generated background (called by the image runner after a job finishes). */
export async function setBackground(tx: SessionTx, name: string, image: string): Promise<void> {
	await tx.update(scenes).set({ backgroundImage: image, updatedAt: Date.now() }).where(eq(scenes.name, name));
}
