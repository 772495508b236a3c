/**
 * World presets written by authors, and the official worlds as read-only presets: stored in the
 * control database as metadata plus immutable versions, shared private / unlisted / public, played
 * spoiler-free by others (the documents sealed, names only), favourited, reported, imported from
 * preset files and Character Cards, exported, and drawn a cover.
 */
export {
	presetView,
	editablePreset,
	checkNew,
	createFromInput,
	updateFromInput,
	saveForm,
	storeDraft,
	dropDraft,
	deletePreset,
	changeVisibility,
	favorite,
	importPreset,
	listMine
} from './service';
export { canView, isAuthor, isSealedFor, visiblePreset, ownPreset, NO_SUCH_PRESET, type Viewer } from './access';
export { checkContent, requireContent, MAX_PRESET_BYTES, type ContentCheck } from './content';
export { PresetError, isPresetError, type PresetErrorCode } from './errors';
export { playPreset, playableContent, type PlayOptions } from './play';
export { recordPlay, refreshPopularity, POPULAR_WINDOW_MS, POPULARITY_REFRESH_MS } from './plays';
export { syncOfficialPresets, orderOfficialCovers, OFFICIAL_VERSION } from './official';
export { CoverRunner, coverUrl, DEFAULT_COVER_POLICY, type CoverPolicy, type CoverRunnerDeps } from './covers';
export { exportPreset, exportFileName, PRESET_FILE_FORMAT, PRESET_FILE_VERSION, type PresetFile } from './exchange';
export { importToForm, ImportFileSchema, MAX_IMPORT_BYTES } from './import';
export { parseCard, cardToForm, CARD_SPECS } from './cards';
export { pngTextChunks, isPng } from './png';
export {
	reportPreset,
	openReports,
	moderatePreset,
	restorePreset,
	dismissReports,
	moderatedPresets,
	ReportReasonSchema,
	MAX_REASON_CHARS,
	type OpenReport
} from './reports';
export { setVisibility, PUBLISH_WINDOW_MS, type Visibility } from './visibility';
export { getPresetRow, isPresetId, searchTextOf, loadVersion, KEPT_VERSIONS, type PresetRow } from './store';
export { presetLimits } from './limits';
export { runEditor, type EditorFailure } from './editor';
export { presetPageError } from './http';
