/**
 * The sound a session plays from its preset: the author's music tracks, ambience loops and effects,
 * copied into the session's store when it starts (so it never depends on the preset staying as it was)
 * and listed here by kind, name and stored file. The GM's `music` cue names a track; the screen plays
 * the files. Kept in the session's meta as one JSON row; a row that does not read as the list reads as none.
 */
import * as v from 'valibot';
import { meta, type SessionDrizzle, type SessionExec } from '../db';
import { PRESET_AUDIO_KINDS } from '../../types/presets';

export const SessionSoundSchema = v.object({ kind: v.picklist(PRESET_AUDIO_KINDS), name: v.string(), file: v.string() });
export type SessionSound = v.InferOutput<typeof SessionSoundSchema>;
const SessionSoundsSchema = v.array(SessionSoundSchema);

/** The list's insert, unrun: for the seed's batch. */
export function writeSoundsQuery(db: Pick<SessionDrizzle, 'insert'>, sounds: readonly SessionSound[]) {
	return meta.putJsonQuery(db, 'sounds', sounds);
}

/** The session's sound (none for a session without). */
export async function listSounds(exec: SessionExec): Promise<SessionSound[]> {
	return (await meta.readJson(exec, 'sounds', SessionSoundsSchema)) ?? [];
}

/** The music tracks' names for the GM's pinned mission: short, and only when there are some. */
export function musicLine(sounds: readonly Pick<SessionSound, 'kind' | 'name'>[]): string | undefined {
	const tracks = sounds.filter((s) => s.kind === 'music').map((s) => s.name);
	if (tracks.length === 0) return undefined;
	return `Music tracks (adv_stage "music" cue at a change of mood or scene; "none" stops, "keep" holds): ${tracks.join(', ')}.`;
}
