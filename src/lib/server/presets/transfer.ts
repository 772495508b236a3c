/**
 * Files in and out of an author's presets, each with its access check: an import as a new draft
 * (with the report of what went where), a lorebook merged into a preset's draft, and an export in
 * each format (Kantera's preset file, a Character Card V3 as JSON, PNG or CHARX). Only the author
 * may merge into or export a preset.
 */
import { formFromContent, type PresetForm } from '../../presets/form';
import type { ImportReport } from '../../types/presets';
import type { Viewer } from './access';
import { exportAs, type ExportedFile, type ExportFormat } from './card-export';
import { boundedForm } from './cards/embedded';
import { mergeLorebook } from './cards/lorebook';
import { PresetError } from './errors';
import { importFile, readLorebookFile } from './import';
import { editablePreset, type PresetDeps } from './service';
import { createDraftPreset, deletePresetRow, saveDraft, type PresetRow } from './store';
import { artFiles, storeArt, type ArtDeps } from './art';
import { artSlots, audioSlots } from './art-slots';
import { audioFiles, storeAudio } from './audio';

/** A file (preset file, card JSON/PNG/CHARX, lorebook) as a new private draft of the viewer's, with the import's report. */
export async function importPreset(
	app: ArtDeps,
	viewer: Viewer,
	bytes: Uint8Array,
	fileName?: string
): Promise<{ row: PresetRow; report: ImportReport }> {
	const { form, report, art, sounds } = importFile(bytes, fileName);
	const row = await createDraftPreset(app.control.db, viewer.id, form);
	// A card's pictures become the draft's art (cleaned already), a preset file's sounds its sound (checked
	// already); a failure leaves no half-made draft.
	try {
		for (const { target, image } of art ?? []) await storeArt(app, row.id, target, image);
		for (const { target, file } of sounds ?? []) await storeAudio(app, row.id, target, file);
	} catch (err) {
		const slots = [...(await artSlots(app.control, row.id)), ...(await audioSlots(app.control, row.id))];
		await deletePresetRow(app.control.db, row);
		for (const slot of slots) await app.images.store.deleteSession(slot);
		throw err;
	}
	return { row, report };
}

/**
 * A lorebook file's entries merged into the author's preset: into its draft when it has one, else
 * into its saved version, and stored as the draft (the author saves it as a version from the editor).
 */
export async function mergeLorebookFile(
	app: PresetDeps,
	viewer: Viewer,
	id: unknown,
	bytes: Uint8Array
): Promise<{ row: PresetRow; report: ImportReport }> {
	const file = readLorebookFile(bytes);
	const { row, content, draft } = await editablePreset(app, id, viewer);
	const form: PresetForm | undefined = draft?.form ?? (content ? formFromContent(content) : undefined);
	if (!form) throw new PresetError('not_found', 'This preset has nothing to merge into.');
	const merged = mergeLorebook(form, file);
	await saveDraft(app.control.db, row, boundedForm(merged.form));
	return { row, report: merged.report };
}

/** The author's saved preset as a file in `format`; a draft alone has nothing to export (409). */
export async function exportPresetAs(
	app: ArtDeps,
	viewer: Viewer,
	id: unknown,
	format: ExportFormat,
	now = Date.now()
): Promise<ExportedFile> {
	const { row, content } = await editablePreset(app, id, viewer);
	if (!content) throw new PresetError('not_playable', 'This preset is only a draft: save it before exporting it.');
	const drawn = format === 'png' || format === 'charx' ? (await app.covers.image(row.id))?.bytes : undefined;
	const art = format === 'kantera' ? [] : await artFiles(app.control, app.images.store, row.id);
	const sounds = format === 'kantera' ? await audioFiles(app.control, app.images.store, row.id) : [];
	return exportAs(content, format, drawn, now, art, sounds);
}
