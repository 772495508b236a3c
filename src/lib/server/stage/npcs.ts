/**
 * NPCs the GM has put on the stage (register_npc). A row holds the name and the visual appearance
 * that feeds the sprite prompt — never story facts — and, once generated, the sprite's image id.
 */
import { asc, eq } from 'drizzle-orm';
import { sessionSchema } from '../db';
import type { SessionDrizzle, SessionExec, SessionTx } from '../db';
import { checkLook, checkCharacterName } from './limits';

const { npcs } = sessionSchema;

export type Npc = typeof npcs.$inferSelect;

/** What a registration did: a new row, a changed appearance, or nothing new. */
export type RegistrationChange = 'created' | 'updated' | 'unchanged';

export interface NpcInput {
	readonly name: string;
	readonly appearance: string;
}

export async function register(tx: SessionTx, input: NpcInput): Promise<{ npc: Npc; change: RegistrationChange }> {
	const { name, appearance } = checked(input);
	const existing = await get(tx, name);
	const now = Date.now();
	if (!existing) {
		const [row] = await tx.insert(npcs).values({ name, appearance, createdAt: now, updatedAt: now }).returning();
		if (!row) throw new Error('npc insert returned no row');
		return { npc: row, change: 'created' };
	}
	if (existing.appearance === appearance) return { npc: existing, change: 'unchanged' };
	const [row] = await tx.update(npcs).set({ appearance, updatedAt: now }).where(eq(npcs.id, existing.id)).returning();
	if (!row) throw new Error('npc update returned no row');
	return { npc: row, change: 'updated' };
}

/**
 * A new NPC's insert for a batch (a new session's seed), with the name and look it was registered
 * under: nothing read, so a name already there fails the batch where `register` would update it.
 */
/** `image`: an image it has from the start (the author's art), so none is drawn. */
export function registerQuery(db: Pick<SessionDrizzle, 'insert'>, input: NpcInput, now: number, image: string | null = null) {
	const npc = checked(input);
	return { npc, query: db.insert(npcs).values({ ...npc, spriteImage: image, createdAt: now, updatedAt: now }) };
}

function checked(input: NpcInput): NpcInput {
	const name = checkCharacterName(input.name, 'The NPC name');
	return { name, appearance: checkLook(input.appearance, `The appearance of "${name}"`) };
}

export async function get(exec: SessionExec, name: string): Promise<Npc | undefined> {
	const [row] = await exec.select().from(npcs).where(eq(npcs.name, name.trim()));
	return row;
}

export async function list(exec: SessionExec): Promise<Npc[]> {
	return exec.select().from(npcs).orderBy(asc(npcs.name));
}

/** Records the generated sprite (called by the image runner after a job finishes). */
export async function setSprite(tx: SessionTx, name: string, image: string): Promise<void> {
	await tx.update(npcs).set({ spriteImage: image, updatedAt: Date.now() }).where(eq(npcs.name, name));
}
