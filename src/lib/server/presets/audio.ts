/**
 * An author's sound for a preset: music tracks, ambience loops and sound effects, each under a name
 * (what the GM's `music` cue and the author's place defaults name). Only the author uploads, replaces or
 * removes them; each file is checked on the way in (format told from its bytes, size bounded:
 * images/audio-upload.ts) and kept in the image store in a folder of its own, so replacing one removes
 * exactly its old file. Whoever may see the preset may fetch the files (sessions play them).
 */
import * as v from 'valibot';
import { and, eq } from 'drizzle-orm';
import { controlSchema, newId, type ControlDb } from '../db';
import { AudioUploadError, checkUploadedAudio, imageKey, type ImageStore, type StoredImage } from '../images';
import { hasControlCharacter } from '../validation';
import { PRESET_AUDIO_KINDS, type PresetAudioDto } from '../../types/presets';
import { ownPreset, visiblePreset, type Viewer } from './access';
import { PresetError } from './errors';
import type { ArtDeps } from './art';

const { presetAudio } = controlSchema;

export type AudioRow = typeof presetAudio.$inferSelect;
export const MAX_AUDIO_NAME_CHARS = 60;
/** Sound files per preset: a score for every scene and a place's loops, bounded. */
export const MAX_AUDIO_PER_PRESET = 60;
/** Cue words the GM uses beside a track's name ("none" stops the music, "keep" leaves it playing). */
const RESERVED_NAMES = new Set(['none', 'keep']);

/** Which sound: from the route's path, checked before anything is read. */
export const AudioTargetSchema = v.object({
	kind: v.picklist(PRESET_AUDIO_KINDS, `A sound's kind is one of ${PRESET_AUDIO_KINDS.join(', ')}.`),
	name: v.pipe(
		v.string(),
		v.trim(),
		v.nonEmpty('A sound name is empty.'),
		v.maxLength(MAX_AUDIO_NAME_CHARS, `A sound name is longer than ${MAX_AUDIO_NAME_CHARS} characters.`),
		v.check((s) => !hasControlCharacter(s) && !/[\r\n/]/.test(s), 'A sound name must be one line without control characters or /.'),
		v.check((s) => !RESERVED_NAMES.has(s.toLowerCase()), 'A sound cannot be named "none" or "keep" (the cues use those words).')
	)
});
export type AudioTarget = v.InferOutput<typeof AudioTargetSchema>;

function parseTarget(input: unknown): AudioTarget {
	const parsed = v.safeParse(AudioTargetSchema, input);
	if (!parsed.success) throw new PresetError('invalid', parsed.issues[0].message);
	return parsed.output;
}

const whereTarget = (presetId: string, target: AudioTarget) =>
	and(eq(presetAudio.presetId, presetId), eq(presetAudio.kind, target.kind), eq(presetAudio.name, target.name));

/** Every sound of a preset, in a stable order. */
export async function audioRows(control: ControlDb, presetId: string): Promise<AudioRow[]> {
	const rows = await control.db.select().from(presetAudio).where(eq(presetAudio.presetId, presetId));
	return rows.sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
}

/** Where the browser fetches a sound (the route checks that the viewer may see the preset). */
export function audioUrl(presetId: string, row: Pick<AudioRow, 'slot' | 'file'>): string {
	return `/presets/${presetId}/audio/${row.slot}/${row.file}`;
}

const CONTENT_TYPES = { ogg: 'audio/ogg', mp3: 'audio/mpeg', m4a: 'audio/mp4' } as const;
const contentTypeOf = (file: string) => CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1) as keyof typeof CONTENT_TYPES];

function dto(presetId: string, row: AudioRow): PresetAudioDto {
	return { kind: row.kind, name: row.name, url: audioUrl(presetId, row), contentType: contentTypeOf(row.file), bytes: row.bytes };
}

/** The preset's sounds, for its author (the editor and the API). */
export async function listAudio(app: Pick<ArtDeps, 'control'>, viewer: Viewer, id: unknown): Promise<PresetAudioDto[]> {
	const row = await ownPreset(app.control.db, id, viewer);
	return (await audioRows(app.control, row.id)).map((r) => dto(row.id, r));
}

/** The preset's sounds for whoever may see it (a session plays them). */
export async function presetSounds(app: Pick<ArtDeps, 'control'>, viewer: Viewer | null, id: unknown): Promise<PresetAudioDto[]> {
	const row = await visiblePreset(app.control.db, id, viewer);
	return (await audioRows(app.control, row.id)).map((r) => dto(row.id, r));
}

/** Stores `bytes` as the sound of `target` (replacing the one there), for the preset's author. */
export async function putAudio(app: ArtDeps, viewer: Viewer, id: unknown, targetInput: unknown, bytes: Uint8Array, now = Date.now()) {
	const target = parseTarget(targetInput);
	const row = await ownPreset(app.control.db, id, viewer);
	let contentType;
	try {
		contentType = checkUploadedAudio(bytes);
	} catch (err) {
		if (err instanceof AudioUploadError) throw new PresetError('bad_audio', err.message);
		throw err;
	}
	return dto(row.id, await storeAudio(app, row.id, target, { bytes: new Uint8Array(bytes), contentType }, now));
}

/** Stores a checked sound as `target` (an upload, or a preset file's on import), replacing the one there and removing its file. */
export async function storeAudio(
	app: ArtDeps,
	presetId: string,
	target: AudioTarget,
	file: StoredImage,
	now = Date.now()
): Promise<AudioRow> {
	const db = app.control.db;
	const [old] = await db.select().from(presetAudio).where(whereTarget(presetId, target));
	if (!old && (await audioRows(app.control, presetId)).length >= MAX_AUDIO_PER_PRESET)
		throw new PresetError('invalid', `A preset holds at most ${MAX_AUDIO_PER_PRESET} sound files.`);
	const slot = newId();
	const key = imageKey(file.bytes, file.contentType);
	await app.images.store.put(slot, key, file.bytes, file.contentType);
	const values = { slot, file: key, bytes: file.bytes.byteLength, updatedAt: now };
	const [stored] = await db
		.insert(presetAudio)
		.values({ presetId, ...target, ...values })
		.onConflictDoUpdate({ target: [presetAudio.presetId, presetAudio.kind, presetAudio.name], set: values })
		.returning();
	if (!stored) throw new Error('preset audio upsert returned no row');
	if (old) await app.images.store.deleteSession(old.slot);
	return stored;
}

/** Removes the sound of `target`; true when there was one. */
export async function deleteAudio(app: ArtDeps, viewer: Viewer, id: unknown, targetInput: unknown): Promise<boolean> {
	const target = parseTarget(targetInput);
	const row = await ownPreset(app.control.db, id, viewer);
	const [old] = await app.control.db.delete(presetAudio).where(whereTarget(row.id, target)).returning();
	if (!old) return false;
	await app.images.store.deleteSession(old.slot);
	return true;
}

/** One sound's row, to whoever may see the preset. */
export async function audioFile(
	app: Pick<ArtDeps, 'control'>,
	viewer: Viewer | null,
	id: unknown,
	slot: string,
	file: string
): Promise<AudioRow | undefined> {
	const row = await visiblePreset(app.control.db, id, viewer);
	const [audio] = await app.control.db
		.select()
		.from(presetAudio)
		.where(and(eq(presetAudio.presetId, row.id), eq(presetAudio.slot, slot), eq(presetAudio.file, file)));
	return audio;
}

export interface AudioFile extends Pick<AudioRow, 'kind' | 'name' | 'file'> {
	readonly data: StoredImage;
}

/** The sounds with their bytes (what an export carries and a session copies); missing files are skipped. */
export async function audioFiles(control: ControlDb, store: Pick<ImageStore, 'get'>, presetId: string): Promise<AudioFile[]> {
	const files: AudioFile[] = [];
	for (const row of await audioRows(control, presetId)) {
		const data = await store.get(row.slot, row.file);
		if (data) files.push({ kind: row.kind, name: row.name, file: row.file, data });
	}
	return files;
}
