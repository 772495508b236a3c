/** The rows of a preset's art (presets/art.ts) and its sound's folders, read apart from the rest so the service can delete their folders with the preset. */
import { eq } from 'drizzle-orm';
import { controlSchema, type ControlDb } from '../db';

const { presetArt, presetAudio } = controlSchema;

export type ArtRow = typeof presetArt.$inferSelect;

/** Every image of a preset's art, in a stable order. */
export async function artRows(control: ControlDb, presetId: string): Promise<ArtRow[]> {
	const rows = await control.db.select().from(presetArt).where(eq(presetArt.presetId, presetId));
	return rows.sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name) || a.expression.localeCompare(b.expression));
}

/** The folders of a preset's art in the image store (deleted with the preset). */
export async function artSlots(control: ControlDb, presetId: string): Promise<string[]> {
	return (await artRows(control, presetId)).map((r) => r.slot);
}

/** The folders of a preset's sound files (presets/audio.ts) in the image store (deleted with the preset). */
export async function audioSlots(control: ControlDb, presetId: string): Promise<string[]> {
	return (await control.db.select({ slot: presetAudio.slot }).from(presetAudio).where(eq(presetAudio.presetId, presetId))).map(
		(r) => r.slot
	);
}
