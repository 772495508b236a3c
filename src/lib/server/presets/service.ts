/**
 * What pages, form actions and API routes do with presets, each operation with its access check:
 * the routes stay thin and every entry point applies the same rules (access.ts).
 */
import { getWorld, type WorldPreset } from '../worlds';
import { LANGUAGES, type Language } from '../../types/settings';
import type { ControlDb } from '../db';
import type { Config } from '../config';
import { formToInput, type PresetForm } from '../../presets/form';
import { parseTags } from '../../presets/authoring-form';
import type { OwnPresetDto, PresetCardDto, PresetDetailDto } from '../../types/presets';
import { isAuthor, ownPreset, visiblePreset, type Viewer } from './access';
import { checkContent, contentOf, invalidContent, requireContent, type ContentCheck } from './content';
import { coverSlotOf, coverUrl, type CoverRunner } from './covers';
import { artSlots, audioSlots } from './art-slots';
import { addFavorite, isFavorite, removeFavorite } from './favorites';
import { OFFICIAL_VERSION } from './official';
import { setVisibility, type Visibility } from './visibility';
import { checkSharedVersion } from './takedowns';
import { PresetError } from './errors';
import { checkRating } from './rating';
import { MAX_VERSION_NOTE_CHARS } from './history';
import {
	authorNameOf,
	createPreset,
	deletePresetRow,
	discardDraft,
	draftOf,
	listOwnPresets,
	loadVersion,
	newPresetId,
	saveDraft,
	saveVersion,
	type PresetRow
} from './store';

/** What the operations need (an `App` fits): the control database, the cover runner and the preset limits. */
export interface PresetDeps {
	control: ControlDb;
	covers: Pick<CoverRunner, 'get' | 'resume' | 'order' | 'forget' | 'image'>;
	config: Pick<Config, 'presets'>;
}

const iso = (ms: number) => new Date(ms).toISOString();

function pickLanguage(language: string | undefined): Language {
	return LANGUAGES.find((l) => l === language) ?? 'en';
}

/** The content behind a card: the official world in `language`, the current version, or nothing yet. */
async function currentContent(app: PresetDeps, row: PresetRow, language: Language): Promise<WorldPreset | null> {
	if (row.official) return getWorld(row.id, language);
	if (row.currentVersion === null) return null;
	return loadVersion(app.control.db, row.id, row.currentVersion);
}

async function card(app: PresetDeps, row: PresetRow, viewer: Viewer | null, content: WorldPreset | null): Promise<PresetCardDto> {
	const draft = content === null && isAuthor(row, viewer) ? draftOf(row)?.form : undefined;
	const cover = await app.covers.get(row.id);
	return {
		id: row.id,
		official: row.official,
		language: row.official ? null : row.language,
		title: content?.title ?? row.title,
		tagline: content?.tagline ?? row.tagline,
		author: await authorNameOf(app.control.db, row),
		visibility: row.visibility,
		documents: content
			? [content.documents.premise.title, content.documents.setting.title, content.documents.pc.title]
			: draft
				? [draft.documents.premise.title, draft.documents.setting.title, draft.documents.pc.title]
				: [],
		npcs: (content?.npcs ?? draft?.npcs ?? []).map((n) => ({ name: n.name, role: n.role, appearance: n.appearance })),
		opening: { scene: content?.opening.scene.name ?? draft?.opening.scene.name ?? '' },
		plays: row.playersTotal,
		favorites: row.favorites,
		favorited: await isFavorite(app.control.db, row.id, viewer?.id),
		coverUrl: coverUrl(row.id, cover?.image ?? null),
		version: row.official ? OFFICIAL_VERSION : row.currentVersion,
		publishedAt: row.publishedAt === null ? null : iso(row.publishedAt),
		updatedAt: iso(row.updatedAt),
		moderated: row.moderatedAt !== null,
		tags: content?.tags ?? (draft ? parseTags(draft.tags) : []),
		rating: content?.rating ?? draft?.rating ?? row.rating,
		remixAllowed: content?.remixAllowed ?? false,
		remixOf: content?.remixOf ?? null
	};
}

/** What this viewer may know of a preset: the card, or for its author the whole of it. */
export async function presetView(
	app: PresetDeps,
	id: unknown,
	viewer: Viewer | null,
	language?: string
): Promise<PresetCardDto | PresetDetailDto> {
	app.covers.resume();
	const row = await visiblePreset(app.control.db, id, viewer);
	await checkRating(app.control.db, app.config, row, viewer);
	const content = await currentContent(app, row, pickLanguage(language));
	const base = await card(app, row, viewer, content);
	if (!isAuthor(row, viewer)) return base;
	const draft = draftOf(row);
	return {
		...base,
		content: content ? contentOf(content) : null,
		draft: draft ? { form: draft.form, updatedAt: iso(draft.updatedAt) } : null
	};
}

/**
 * The author's preset exactly as a stranger sees it (what `presetView` gives anyone who is not its
 * author: the same card, built by the same code): "preview as a player". A draft has no such view yet.
 */
export async function previewAsPlayer(app: PresetDeps, viewer: Viewer, id: unknown, language?: string): Promise<PresetCardDto> {
	app.covers.resume();
	const row = await ownPreset(app.control.db, id, viewer);
	const content = await currentContent(app, row, pickLanguage(language));
	if (content === null) throw new PresetError('not_playable', 'A draft has no player view yet: save it as a complete world first.');
	return card(app, row, null, content);
}

/** The viewer's own preset with its current content and draft, for the editor. */
export async function editablePreset(
	app: PresetDeps,
	id: unknown,
	viewer: Viewer
): Promise<{ row: PresetRow; content: WorldPreset | null; draft: ReturnType<typeof draftOf> }> {
	const row = await ownPreset(app.control.db, id, viewer);
	return { row, content: await currentContent(app, row, 'en'), draft: draftOf(row) };
}

function orderCover(app: PresetDeps, preset: WorldPreset, row: PresetRow): Promise<void> {
	return app.covers.order(row.id, preset.opening.scene);
}

/** Checks content for a new preset (the id it would get is part of the check). */
function checkNew(input: unknown): { id: string; check: ContentCheck } {
	const id = newPresetId();
	return { id, check: checkContent(input, id) };
}

/** Creates a private preset from valid content (its first version); PresetError('invalid') names every problem. */
export async function createFromInput(app: PresetDeps, viewer: Viewer, input: unknown): Promise<PresetRow> {
	const { id, check } = checkNew(input);
	if (!check.ok) throw invalidContent(check.issues);
	const row = await createPreset(app.control.db, viewer.id, { ...check.preset, id });
	await orderCover(app, check.preset, row);
	return row;
}

/** A save's note as kept in the history: one line, no control characters, cut to its limit (the input says the limit). */
export function versionNote(raw: unknown): string {
	if (typeof raw !== 'string') return '';
	return raw
		.replace(/\p{Cc}+/gu, ' ')
		.replace(/\s+/g, ' ')
		.trim()
		.slice(0, MAX_VERSION_NOTE_CHARS);
}

/** Saves valid content as the viewer's preset's new version (sessions already started keep theirs), with the author's note. */
export async function updateFromInput(
	app: PresetDeps,
	viewer: Viewer,
	id: unknown,
	input: unknown,
	note: unknown = ''
): Promise<PresetRow> {
	const row = await ownPreset(app.control.db, id, viewer);
	const preset = requireContent(input, row.id);
	await checkSharedVersion(app.control.db, row, preset);
	const updated = await saveVersion(app.control.db, row, preset, Date.now(), { note: versionNote(note), savedBy: viewer.id });
	await orderCover(app, preset, updated);
	return updated;
}

/** The editor's form, checked and saved: a new preset when `id` is undefined. */
export async function saveForm(
	app: PresetDeps,
	viewer: Viewer,
	id: string | undefined,
	form: PresetForm,
	note: unknown = ''
): Promise<PresetRow> {
	const input = formToInput(form);
	return id === undefined ? createFromInput(app, viewer, input) : updateFromInput(app, viewer, id, input, note);
}

export async function storeDraft(app: PresetDeps, viewer: Viewer, id: unknown, form: PresetForm): Promise<void> {
	const row = await ownPreset(app.control.db, id, viewer);
	await saveDraft(app.control.db, row, form);
}

export async function dropDraft(app: PresetDeps, viewer: Viewer, id: unknown): Promise<void> {
	const row = await ownPreset(app.control.db, id, viewer);
	await discardDraft(app.control.db, row);
}

/** Deletes the viewer's preset, its cover and its art's images; sessions already played from it are untouched. */
export async function deletePreset(app: PresetDeps, viewer: Viewer, id: unknown): Promise<void> {
	const row = await ownPreset(app.control.db, id, viewer);
	const slot = await coverSlotOf(app.control, row);
	const art = [...(await artSlots(app.control, row.id)), ...(await audioSlots(app.control, row.id))];
	await deletePresetRow(app.control.db, row);
	if (slot) await app.covers.forget(slot);
	for (const folder of art) if (folder !== slot) await app.covers.forget(folder);
}

export async function changeVisibility(app: PresetDeps, viewer: Viewer, id: unknown, visibility: Visibility): Promise<PresetRow> {
	const row = await ownPreset(app.control.db, id, viewer);
	return setVisibility(app.control.db, row, visibility, { publishPerDay: app.config.presets.publishPerDay });
}

export async function favorite(app: PresetDeps, viewer: Viewer, id: unknown, on: boolean): Promise<PresetRow> {
	const row = await visiblePreset(app.control.db, id, viewer);
	await checkRating(app.control.db, app.config, row, viewer);
	if (on) await addFavorite(app.control.db, row.id, viewer.id);
	else await removeFavorite(app.control.db, row.id, viewer.id);
	return row;
}

export async function listMine(app: PresetDeps, viewer: Viewer): Promise<OwnPresetDto[]> {
	const rows = await listOwnPresets(app.control.db, viewer.id);
	return rows.map((r) => ({
		id: r.id,
		title: r.title,
		tagline: r.tagline,
		language: r.language,
		visibility: r.visibility,
		version: r.currentVersion,
		hasDraft: r.draft !== null,
		moderated: r.moderatedAt !== null,
		plays: r.playersTotal,
		favorites: r.favorites,
		updatedAt: iso(r.updatedAt)
	}));
}
