/**
 * An author's own art for a preset: a sprite per NPC and expression, a background per place, and the
 * cover. Only the author uploads, replaces or removes art; each image is cleaned on the way in (format
 * told from its bytes, size and pixel limits, metadata dropped: images/upload.ts) and kept in the
 * image store in a folder of its own, so replacing one removes exactly its old file.
 *
 * The `default` expression is the NPC's plain sprite (a card's portrait). An author's cover takes the
 * place of the drawn one (its job row points at the author's image and is never drawn over); removing
 * it orders a drawn cover again. Sessions copy the art when they start (`artForSession`), and card
 * exports carry it (`artFiles`).
 */
import * as v from 'valibot';
import { and, eq } from 'drizzle-orm';
import { controlSchema, newId, type ControlDb } from '../db';
import { cleanUploadedImage, imageKey, ImageUploadError, type CleanImage, type ImageStore, type StoredImage } from '../images';
import { MAX_NAME_CHARS } from '../records';
import { hasControlCharacter } from '../validation';
import type { PresetArtDto } from '../../types/presets';
import { ownPreset, visiblePreset, type Viewer } from './access';
import { AUTHOR_COVER_PROMPT } from './covers';
import { PresetError } from './errors';
import { editablePreset, type PresetDeps } from './service';
import type { PresetRow } from './store';
import { artRows, type ArtRow } from './art-slots';
import { DEFAULT_EXPRESSION } from './cards/assets';

const { presetArt, presetCovers } = controlSchema;

/** The plain sprite of an NPC: the one shown when no expression is asked for. */
export { DEFAULT_EXPRESSION };
export const MAX_EXPRESSION_CHARS = 40;
/** Images per preset: ample for a cast with their expressions and a story's places. */
export const MAX_ART_PER_PRESET = 300;

export interface ArtDeps extends PresetDeps {
	images: { store: ImageStore };
}

const name = (what: string, max: number) =>
	v.pipe(
		v.string(),
		v.trim(),
		v.nonEmpty(`${what} is empty.`),
		v.maxLength(max, `${what} is longer than ${max} characters.`),
		v.check((s) => !hasControlCharacter(s) && !/[\r\n]/.test(s), `${what} must be one line without control characters.`),
		// The stage writes an expression's sprite as `Name(expression)`: neither part may hold the brackets.
		v.check((s) => !/[()@:/]/.test(s), `${what} cannot hold ( ) @ : or /.`)
	);

/** Which image: from the route's path, checked before anything is read. */
export const ArtTargetSchema = v.variant('kind', [
	v.object({ kind: v.literal('npc'), name: name('An NPC name', MAX_NAME_CHARS), expression: name('An expression', MAX_EXPRESSION_CHARS) }),
	v.object({ kind: v.literal('place'), name: name('A place name', MAX_NAME_CHARS) }),
	v.object({ kind: v.literal('cover') })
]);
export type ArtTarget = v.InferOutput<typeof ArtTargetSchema>;

function parseTarget(input: unknown): ArtTarget {
	const parsed = v.safeParse(ArtTargetSchema, input);
	if (!parsed.success) throw new PresetError('invalid', parsed.issues[0].message);
	return parsed.output;
}

function keyOf(target: ArtTarget): { kind: ArtTarget['kind']; name: string; expression: string } {
	if (target.kind === 'npc') return { kind: 'npc', name: target.name, expression: target.expression };
	if (target.kind === 'place') return { kind: 'place', name: target.name, expression: '' };
	return { kind: 'cover', name: '', expression: '' };
}

const whereTarget = (presetId: string, key: ReturnType<typeof keyOf>) =>
	and(
		eq(presetArt.presetId, presetId),
		eq(presetArt.kind, key.kind),
		eq(presetArt.name, key.name),
		eq(presetArt.expression, key.expression)
	);

/** Where the browser fetches an art image (the route checks that the viewer may see the preset). */
export function artUrl(presetId: string, row: Pick<ArtRow, 'slot' | 'image'>): string {
	return `/presets/${presetId}/art/${row.slot}/${row.image}`;
}

function dto(presetId: string, row: ArtRow): PresetArtDto {
	return {
		kind: row.kind,
		...(row.kind === 'cover' ? {} : { name: row.name }),
		...(row.kind === 'npc' ? { expression: row.expression } : {}),
		url: artUrl(presetId, row),
		width: row.width,
		height: row.height,
		bytes: row.bytes
	};
}

/** The NPC names an author's preset has, in its saved version or its draft. */
async function npcNames(app: PresetDeps, viewer: Viewer, id: string): Promise<{ row: PresetRow; names: Set<string> }> {
	const { row, content, draft } = await editablePreset(app, id, viewer);
	const names = new Set([...(content?.npcs ?? []), ...(draft?.form.npcs ?? [])].map((n) => n.name.trim()));
	return { row, names };
}

/** The author's art of a preset, for its editor and the API. */
export async function listArt(app: PresetDeps, viewer: Viewer, id: unknown): Promise<PresetArtDto[]> {
	const row = await ownPreset(app.control.db, id, viewer);
	return (await artRows(app.control, row.id)).map((r) => dto(row.id, r));
}

/** Stores `bytes` as the image of `target` (replacing the one there), for the preset's author. */
export async function putArt(app: ArtDeps, viewer: Viewer, id: unknown, targetInput: unknown, bytes: Uint8Array, now = Date.now()) {
	const target = parseTarget(targetInput);
	const row = await ownPreset(app.control.db, id, viewer);
	if (target.kind === 'npc') {
		const { names } = await npcNames(app, viewer, row.id);
		if (!names.has(target.name)) throw new PresetError('invalid', `This preset has no NPC named "${target.name}".`);
	}
	let image: CleanImage;
	try {
		image = cleanUploadedImage(bytes);
	} catch (err) {
		if (err instanceof ImageUploadError) throw new PresetError('bad_image', err.message, { wording: err.wording });
		throw err;
	}
	return dto(row.id, await storeArt(app, row.id, target, image, now));
}

/**
 * Stores a clean image as the art of `target` (a checked upload, or a card's picture on import),
 * replacing the one there and removing its file.
 */
export async function storeArt(app: ArtDeps, presetId: string, target: ArtTarget, image: CleanImage, now = Date.now()): Promise<ArtRow> {
	const key = keyOf(target);
	const db = app.control.db;
	const [old] = await db.select().from(presetArt).where(whereTarget(presetId, key));
	if (!old && (await artRows(app.control, presetId)).length >= MAX_ART_PER_PRESET)
		throw new PresetError('invalid', `A preset holds at most ${MAX_ART_PER_PRESET} images.`);
	const slot = newId();
	const file = imageKey(image.bytes, image.contentType);
	await app.images.store.put(slot, file, image.bytes, image.contentType);
	const values = { slot, image: file, width: image.width, height: image.height, bytes: image.bytes.byteLength, updatedAt: now };
	const [stored] = await db
		.insert(presetArt)
		.values({ presetId, ...key, ...values })
		.onConflictDoUpdate({ target: [presetArt.presetId, presetArt.kind, presetArt.name, presetArt.expression], set: values })
		.returning();
	if (!stored) throw new Error('preset art upsert returned no row');
	if (target.kind === 'cover') await useAuthorCover(app, presetId, stored, now);
	if (old) await app.images.store.deleteSession(old.slot);
	return stored;
}

/** Removes the image of `target`; true when there was one. */
export async function deleteArt(app: ArtDeps, viewer: Viewer, id: unknown, targetInput: unknown): Promise<boolean> {
	const target = parseTarget(targetInput);
	const { row, content } = await editablePreset(app, id, viewer);
	const [old] = await app.control.db
		.delete(presetArt)
		.where(whereTarget(row.id, keyOf(target)))
		.returning();
	if (!old) return false;
	if (target.kind === 'cover') {
		await app.control.db.delete(presetCovers).where(and(eq(presetCovers.presetId, row.id), eq(presetCovers.prompt, AUTHOR_COVER_PROMPT)));
		if (content) await app.covers.order(row.id, content.opening.scene);
	}
	await app.images.store.deleteSession(old.slot);
	return true;
}

/** The cover's job row points at the author's image; the drawn cover's files go. */
async function useAuthorCover(app: ArtDeps, presetId: string, art: ArtRow, now: number): Promise<void> {
	const db = app.control.db;
	const [previous] = await db.select().from(presetCovers).where(eq(presetCovers.presetId, presetId));
	const values = {
		slot: art.slot,
		prompt: AUTHOR_COVER_PROMPT,
		subject: '',
		status: 'done' as const,
		attempts: 0,
		image: art.image,
		error: null,
		leaseExpiresAt: null,
		nextAttemptAt: null,
		updatedAt: now
	};
	await db
		.insert(presetCovers)
		.values({ presetId, ...values })
		.onConflictDoUpdate({ target: presetCovers.presetId, set: values });
	if (previous && previous.prompt !== AUTHOR_COVER_PROMPT) await app.covers.forget(previous.slot);
}

/** One art image's bytes, to whoever may see the preset (the editor's previews, a cover). */
export async function artImage(app: ArtDeps, viewer: Viewer | null, id: unknown, slot: string, image: string): Promise<ArtRow | undefined> {
	const row = await visiblePreset(app.control.db, id, viewer);
	const [art] = await app.control.db
		.select()
		.from(presetArt)
		.where(and(eq(presetArt.presetId, row.id), eq(presetArt.slot, slot), eq(presetArt.image, image)));
	return art;
}

export interface ArtFile extends Pick<ArtRow, 'kind' | 'name' | 'expression' | 'image'> {
	readonly data: StoredImage;
}

/** The art's images with their bytes (what a session copies and an export carries); missing files are skipped. */
export async function artFiles(control: ControlDb, store: Pick<ImageStore, 'get'>, presetId: string): Promise<ArtFile[]> {
	const files: ArtFile[] = [];
	for (const row of await artRows(control, presetId)) {
		const data = await store.get(row.slot, row.image);
		if (data) files.push({ kind: row.kind, name: row.name, expression: row.expression, image: row.image, data });
	}
	return files;
}
