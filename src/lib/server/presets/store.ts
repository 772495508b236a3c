/**
 * Presets in the control database: the row (metadata, visibility, counters, the author's draft)
 * and its immutable versions. Saving valid content adds a version (unless nothing changed); the
 * latest version is what new sessions start from, and a session keeps the copy it started with.
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { controlSchema, newId, type ControlDrizzle } from '../db';
import { WorldPresetSchema, type WorldPreset } from '../worlds';
import { PresetFormSchema, type PresetForm } from '../../presets/form';
import { tagKey } from '../../presets/tags';
import { contentOf } from './content';
import { PresetError } from './errors';

const { presets, presetVersions, presetTags, users } = controlSchema;

export type PresetRow = typeof presets.$inferSelect;

/*
 * Multi-statement writes here are `db.batch` calls, never interactive transactions: libSQL runs
 * local statements synchronously, so a transaction left open across an `await` makes any other
 * writer in this process wait out the busy timeout with the event loop blocked.
 */

/** Old versions kept per preset: sessions hold their own copy, so these are only the author's history. */
export const KEPT_VERSIONS = 20;
/** Preset ids as they may appear in a URL: an official world's id or 20 base32 characters. */
const PRESET_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_PRESET_ID_CHARS = 64;

export function isPresetId(id: unknown): id is string {
	return typeof id === 'string' && id.length <= MAX_PRESET_ID_CHARS && PRESET_ID.test(id);
}

/** A new author preset's id: 100 random bits, which is what makes an unlisted link unguessable. */
export function newPresetId(): string {
	return newId(20);
}

/** What the gallery's search matches (lower-cased; FTS5 trigram and instr() both read it). */
export function searchTextOf(...parts: string[]): string {
	return parts.join('\n').toLowerCase();
}

/** The row's copy of what the shelves filter and search by: title, tagline, tags and rating. */
function listingOf(preset: WorldPreset) {
	return {
		language: preset.language,
		title: preset.title,
		tagline: preset.tagline,
		searchText: searchTextOf(preset.title, preset.tagline, ...preset.tags),
		rating: preset.rating
	};
}

/** The statements that make the tag rows those of `preset` (its keys, once each). */
function retag(db: ControlDrizzle, presetId: string, preset: WorldPreset) {
	const keys = [...new Set(preset.tags.map(tagKey))];
	const clear = db.delete(presetTags).where(eq(presetTags.presetId, presetId));
	return keys.length === 0 ? [clear] : ([clear, db.insert(presetTags).values(keys.map((tag) => ({ presetId, tag })))] as const);
}

/** What a save records beside the content: the author's note and who saved it. */
export interface VersionNote {
	note?: string;
	savedBy?: string | null;
}

function hashOf(content: string): string {
	return createHash('sha256').update(content).digest('hex');
}

export async function getPresetRow(db: ControlDrizzle, id: unknown): Promise<PresetRow | undefined> {
	if (!isPresetId(id)) return undefined;
	const [row] = await db.select().from(presets).where(eq(presets.id, id)).limit(1);
	return row;
}

export async function authorNameOf(db: ControlDrizzle, row: Pick<PresetRow, 'authorId'>): Promise<string | null> {
	if (row.authorId === null) return null;
	const [user] = await db.select({ name: users.name }).from(users).where(eq(users.id, row.authorId)).limit(1);
	return user?.name ?? null;
}

/** Creates a private preset whose first version is `preset` (already validated, with its new id). */
export async function createPreset(
	db: ControlDrizzle,
	authorId: string,
	preset: WorldPreset,
	now = Date.now(),
	note: VersionNote = {}
): Promise<PresetRow> {
	const content = JSON.stringify(contentOf(preset));
	const [[row]] = await db.batch([
		db
			.insert(presets)
			.values({ id: preset.id, authorId, ...listingOf(preset), currentVersion: 1, createdAt: now, updatedAt: now })
			.returning(),
		db.insert(presetVersions).values({
			presetId: preset.id,
			version: 1,
			content,
			contentHash: hashOf(content),
			createdAt: now,
			note: note.note ?? '',
			savedBy: note.savedBy ?? authorId
		}),
		...retag(db, preset.id, preset)
	]);
	if (!row) throw new Error('preset insert returned no row');
	return row;
}

/** Creates a private preset that is only a draft so far (an import): not playable until saved valid. */
export async function createDraftPreset(db: ControlDrizzle, authorId: string, form: PresetForm, now = Date.now()): Promise<PresetRow> {
	const title = form.title.trim() || (form.language === 'ja' ? '無題の世界' : 'Untitled world');
	const [row] = await db
		.insert(presets)
		.values({
			id: newPresetId(),
			authorId,
			language: form.language,
			title,
			tagline: form.tagline.trim(),
			searchText: searchTextOf(title, form.tagline),
			draft: JSON.stringify(form),
			draftUpdatedAt: now,
			createdAt: now,
			updatedAt: now
		})
		.returning();
	if (!row) throw new Error('preset insert returned no row');
	return row;
}

/**
 * Makes `preset` the current version: a new version row unless the content is the current one's,
 * and the draft is cleared either way (it has been saved). One batch, so the version, the pruning
 * and the preset row change together; the version number is taken in SQL, so two saves at once get
 * two numbers. Returns the updated row.
 */
export async function saveVersion(
	db: ControlDrizzle,
	row: PresetRow,
	preset: WorldPreset,
	now = Date.now(),
	note: VersionNote = {}
): Promise<PresetRow> {
	const content = JSON.stringify(contentOf(preset));
	const hash = hashOf(content);
	const [current] = await db
		.select({ hash: presetVersions.contentHash })
		.from(presetVersions)
		.where(eq(presetVersions.presetId, row.id))
		.orderBy(desc(presetVersions.version))
		.limit(1);
	const latest = sql`(SELECT max(${presetVersions.version}) FROM ${presetVersions} WHERE ${presetVersions.presetId} = ${row.id})`;
	const update = db
		.update(presets)
		.set({
			...listingOf(preset),
			currentVersion: sql`${latest}`,
			draft: null,
			draftUpdatedAt: null,
			updatedAt: now
		})
		.where(eq(presets.id, row.id))
		.returning();
	let updated: PresetRow | undefined;
	if (current?.hash === hash) [updated] = await update;
	else {
		const savedBy = note.savedBy === undefined ? row.authorId : note.savedBy;
		const [, , rows] = await db.batch([
			db.run(
				sql`INSERT INTO ${presetVersions} (preset_id, version, content, content_hash, created_at, note, saved_by)
					SELECT ${row.id}, coalesce(max(${presetVersions.version}), 0) + 1, ${content}, ${hash}, ${now}, ${note.note ?? ''}, ${savedBy}
					FROM ${presetVersions} WHERE ${presetVersions.presetId} = ${row.id}`
			),
			db
				.delete(presetVersions)
				.where(and(eq(presetVersions.presetId, row.id), sql`${presetVersions.version} <= ${latest} - ${KEPT_VERSIONS}`)),
			update,
			...retag(db, row.id, preset)
		]);
		[updated] = rows;
	}
	if (!updated) throw new PresetError('not_found', 'No such preset.');
	return updated;
}

export async function saveDraft(db: ControlDrizzle, row: PresetRow, form: PresetForm, now = Date.now()): Promise<void> {
	await db
		.update(presets)
		.set({ draft: JSON.stringify(form), draftUpdatedAt: now })
		.where(eq(presets.id, row.id));
}

export async function discardDraft(db: ControlDrizzle, row: PresetRow): Promise<void> {
	await db.update(presets).set({ draft: null, draftUpdatedAt: null }).where(eq(presets.id, row.id));
}

/** The stored draft, checked (a draft written by an older build that no longer fits is dropped, not trusted). */
export function draftOf(row: Pick<PresetRow, 'draft' | 'draftUpdatedAt'>): { form: PresetForm; updatedAt: number } | null {
	if (row.draft === null) return null;
	let data: unknown;
	try {
		data = JSON.parse(row.draft);
	} catch {
		return null;
	}
	const parsed = v.safeParse(PresetFormSchema, data);
	return parsed.success ? { form: parsed.output, updatedAt: row.draftUpdatedAt ?? 0 } : null;
}

/** A stored version as the schema's output (re-checked: the stored JSON is read back as outside data). */
export async function loadVersion(db: ControlDrizzle, presetId: string, version: number): Promise<WorldPreset> {
	const [found] = await db
		.select({ content: presetVersions.content })
		.from(presetVersions)
		.where(and(eq(presetVersions.presetId, presetId), eq(presetVersions.version, version)))
		.limit(1);
	if (!found) throw new PresetError('not_playable', 'This preset has no saved version yet.');
	const stored: unknown = JSON.parse(found.content);
	const parsed = v.safeParse(WorldPresetSchema, typeof stored === 'object' && stored !== null ? { ...stored, id: presetId } : stored);
	if (!parsed.success)
		throw new Error(`stored version ${version} of preset ${presetId} no longer passes the preset schema: ${parsed.issues[0].message}`);
	return parsed.output;
}

/** Deletes the preset, its versions, favourites, plays and reports. Sessions already played keep their copy. */
export async function deletePresetRow(db: ControlDrizzle, row: PresetRow): Promise<void> {
	await db.delete(presets).where(eq(presets.id, row.id));
}

export async function listOwnPresets(db: ControlDrizzle, authorId: string): Promise<PresetRow[]> {
	return db.select().from(presets).where(eq(presets.authorId, authorId)).orderBy(desc(presets.updatedAt), desc(presets.seq));
}
