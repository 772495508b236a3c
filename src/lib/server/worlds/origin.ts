/**
 * Where a session's world came from: the preset id and version it started from, whether its
 * documents are sealed for the player, and the copy of that version itself. Kept in the session's
 * own database (meta), so the session never depends on the preset still existing or being unchanged.
 * GM-side data: nothing here is sent to the player.
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { sessionSchema, type SessionDrizzle, type SessionExec } from '../db';
import type { WorldPreset } from './schema';

const { meta } = sessionSchema;
const ORIGIN_KEY = 'preset_origin';
const COPY_KEY = 'preset_copy';

export interface PresetOrigin {
	readonly presetId: string;
	/** The preset version copied (an official world's content version for official presets). */
	readonly version: number;
}

const OriginSchema = v.object({ presetId: v.string(), version: v.number(), sealed: v.boolean() });
export type StoredOrigin = v.InferOutput<typeof OriginSchema>;

/** The origin's insert, unrun: for the seed's batch. Written once: a session that has one fails the batch. */
export function writeOriginQuery(db: Pick<SessionDrizzle, 'insert'>, origin: PresetOrigin, world: WorldPreset, sealed: boolean) {
	const stored: StoredOrigin = { presetId: origin.presetId, version: origin.version, sealed };
	return db.insert(meta).values([
		{ key: ORIGIN_KEY, value: JSON.stringify(stored) },
		{ key: COPY_KEY, value: JSON.stringify(world) }
	]);
}

/** The session's origin, or undefined for a session not started from a preset. */
export async function readOrigin(exec: SessionExec): Promise<StoredOrigin | undefined> {
	const [row] = await exec.select({ value: meta.value }).from(meta).where(eq(meta.key, ORIGIN_KEY));
	if (!row) return undefined;
	const parsed = v.safeParse(OriginSchema, JSON.parse(row.value));
	return parsed.success ? parsed.output : undefined;
}

/** The copy of the preset version the session started from (JSON as stored). */
export async function readPresetCopy(exec: SessionExec): Promise<string | undefined> {
	const [row] = await exec.select({ value: meta.value }).from(meta).where(eq(meta.key, COPY_KEY));
	return row?.value;
}
