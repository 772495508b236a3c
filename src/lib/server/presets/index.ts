/**
 * World presets written by authors, and the official worlds as read-only presets: stored in the
 * control database as metadata plus immutable versions, shared private / unlisted / public, played
 * spoiler-free by others (the documents sealed, names only), favourited, reported, imported from
 * preset files and Character Cards, exported, and drawn a cover.
 */
export {
	presetView,
	editablePreset,
	createFromInput,
	updateFromInput,
	storeDraft,
	dropDraft,
	deletePreset,
	changeVisibility,
	favorite,
	listMine,
	saveForm,
	previewAsPlayer
} from './service';
export { importPreset, mergeLorebookFile, exportPresetAs } from './transfer';
export { ExportFormatSchema, EXPORT_FORMATS, downloadResponse, type ExportFormat, type ExportedFile } from './card-export';
export { isAuthor, visiblePreset } from './access';
export { matureShownTo } from './rating';
export { remixPreset } from './remix';
export {
	listVersions,
	viewVersion,
	restoreVersion,
	restoredNote,
	MAX_VERSION_NOTE_CHARS,
	type VersionInfo,
	type VersionView
} from './history';
export { checkContent, MAX_PRESET_BYTES } from './content';
export { PresetError, isPresetError, presetErrorText, importError } from './errors';
export { playPreset } from './play';
export { recordPlay, refreshPopularity, POPULAR_WINDOW_MS } from './plays';
export { syncOfficialPresets, orderOfficialCovers } from './official';
export { CoverRunner, coverUrl, type CoverPolicy } from './covers';
export { exportPreset, exportFileName } from './exchange';
export { importToForm, importFile, ImportFileSchema, MAX_IMPORT_BYTES, MAX_IMPORT_MB } from './import';

export { reportPreset, openReports, dismissReports, ReportReasonSchema } from './reports';
export {
	takeDown,
	liftTakedown,
	appealTakedown,
	currentTakedown,
	takedownsInForce,
	worldFingerprint,
	TakedownReasonSchema,
	AppealSchema,
	type TakedownRow,
	type TakedownView
} from './takedowns';
export { setVisibility, type Visibility } from './visibility';
export { getPresetRow, isPresetId, searchTextOf, KEPT_VERSIONS, type PresetRow } from './store';
export { presetLimits } from './limits';
export { runEditor } from './editor';
export { presetPageError } from './http';
export {
	listArt,
	putArt,
	deleteArt,
	artImage,
	artFiles,
	ArtTargetSchema,
	DEFAULT_EXPRESSION,
	type ArtDeps,
	type ArtFile,
	type ArtTarget
} from './art';
export {
	listAudio,
	presetSounds,
	putAudio,
	deleteAudio,
	audioFile,
	audioFiles,
	AudioTargetSchema,
	type AudioFile,
	type AudioTarget
} from './audio';
