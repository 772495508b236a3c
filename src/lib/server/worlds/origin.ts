/**
 * Where a session's world came from: the preset id and version it started from, whether its
 * documents are sealed for the player, and the copy of that version itself. Kept in the session's
 * own database (meta), so the session never depends on the preset still existing or being unchanged.
 * GM-side data: nothing here is sent to the player.
 */
import * as v from 'valibot';
import { meta, type SessionDrizzle, type SessionExec } from '../db';
import type { WorldPreset } from './schema';

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
	return meta.insertJsonQuery(db, [
		{ key: 'preset_origin', data: stored },
		{ key: 'preset_copy', data: world }
	]);
}

/** The session's origin, or undefined for a session not started from a preset (or a row that does not read as one). */
export async function readOrigin(exec: SessionExec): Promise<StoredOrigin | undefined> {
	return (await meta.readJson(exec, 'preset_origin', OriginSchema)) ?? undefined;
}

/** The copy of the preset version the session started from (JSON as stored). */
export async function readPresetCopy(exec: SessionExec): Promise<string | undefined> {
	return meta.readText(exec, 'preset_copy');
}
