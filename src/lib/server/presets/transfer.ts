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
import { createDraftPreset, saveDraft, type PresetRow } from './store';

/** A file (preset file, card JSON/PNG/CHARX, lorebook) as a new private draft of the viewer's, with the import's report. */
export async function importPreset(
	app: PresetDeps,
	viewer: Viewer,
	bytes: Uint8Array,
	fileName?: string
): Promise<{ row: PresetRow; report: ImportReport }> {
	const { form, report } = importFile(bytes, fileName);
	return { row: await createDraftPreset(app.control.db, viewer.id, form), report };
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
	app: PresetDeps,
	viewer: Viewer,
	id: unknown,
	format: ExportFormat,
	now = Date.now()
): Promise<ExportedFile> {
	const { row, content } = await editablePreset(app, id, viewer);
	if (!content) throw new PresetError('not_playable', 'This preset is only a draft: save it before exporting it.');
	const picture = format === 'png' || format === 'charx' ? (await app.covers.image(row.id))?.bytes : undefined;
	return exportAs(content, format, picture, now);
}
