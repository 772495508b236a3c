/**
 * JSON shapes of world presets and the gallery (`/api/v1/presets…`, `/api/v1/gallery`), one valibot
 * schema each, shared by the routes that write them and the pages that read them. Browser-safe.
 */
import * as v from 'valibot';
import { PresetFormSchema } from '../presets/form';
import { LanguageSchema } from './settings';

import { PresetRatingSchema } from './rating';
export { PRESET_RATINGS, PresetRatingSchema, type PresetRating } from './rating';
export const PRESET_VISIBILITIES = ['private', 'unlisted', 'public'] as const;
export const PresetVisibilitySchema = v.picklist(PRESET_VISIBILITIES, 'visibility must be private, unlisted or public');
export type PresetVisibility = v.InferOutput<typeof PresetVisibilitySchema>;

export { CONTENT_ISSUE_CODES, ContentIssueSchema, type ContentIssueCode, type ContentIssueDto } from './content-issues';

/** Why an imported field has no place in the preset (`import.dropped.<code>` words it for a page). */
export const IMPORT_DROP_CODES = [
	'empty',
	'keptForExport',
	'disabled',
	'picture',
	'assets',
	'decorators',
	'replaced',
	'notPlayed',
	'tooLargeToKeep'
] as const;
export type ImportDropCode = (typeof IMPORT_DROP_CODES)[number];
const reportText = v.pipe(v.string(), v.maxLength(500));
/** Rows a report lists: a lorebook's entries each have one, and a lorebook may have many. */
const MAX_REPORT_ROWS = 2_000;

/**
 * What an import did with every field of the file: where it went (`to` is the preset field's dot
 * path, as the editor names its inputs), and what was dropped and why (`why` in English).
 */
export const ImportReportSchema = v.object({
	mapped: v.pipe(v.array(v.object({ from: reportText, to: reportText })), v.maxLength(MAX_REPORT_ROWS)),
	dropped: v.pipe(
		v.array(v.object({ field: reportText, code: v.picklist(IMPORT_DROP_CODES), why: reportText })),
		v.maxLength(MAX_REPORT_ROWS)
	),
	/** Preset fields the file has no notion of, filled with a neutral default the author can change. */
	defaults: v.optional(v.pipe(v.array(reportText), v.maxLength(MAX_REPORT_ROWS)), [])
});
export type ImportReport = v.InferOutput<typeof ImportReportSchema>;

/** What anyone who may see a preset sees: never document bodies, NPC personalities, GM behaviour or secrets. */
export const PresetCardSchema = v.object({
	id: v.string(),
	official: v.boolean(),
	/** null for an official preset, which is played in either language. */
	language: v.nullable(LanguageSchema),
	title: v.string(),
	tagline: v.string(),
	author: v.nullable(v.string()),
	visibility: PresetVisibilitySchema,
	/** Document titles only. */
	documents: v.array(v.string()),
	npcs: v.array(v.object({ name: v.string(), role: v.string(), appearance: v.string() })),
	opening: v.object({ scene: v.string() }),
	/** Distinct players other than the author, all time. */
	plays: v.number(),
	favorites: v.number(),
	/** Whether the asking user has it among their favourites. */
	favorited: v.boolean(),
	/** The cover image (the opening scene's background); null while the placeholder shows. */
	coverUrl: v.nullable(v.string()),
	/** The version new sessions start from; null while the preset is only a draft. */
	version: v.nullable(v.number()),
	publishedAt: v.nullable(v.string()),
	updatedAt: v.string(),
	/** Set when an administrator took it off the shelves (only its author sees it then). */
	moderated: v.boolean(),
	/** The current version's tags (the draft's while there is none), as the author wrote them. */
	tags: v.array(v.string()),
	rating: PresetRatingSchema,
	/** Others who can see it may remix it into a draft of their own. */
	remixAllowed: v.boolean(),
	/** The world this one was remixed from (its page may be gone since). */
	remixOf: v.nullable(v.object({ id: v.string(), title: v.string(), author: v.string() }))
});
export type PresetCardDto = v.InferOutput<typeof PresetCardSchema>;

/** The author's view: the card plus the whole content of the current version and any unsaved draft. */
export const PresetDetailSchema = v.object({
	...PresetCardSchema.entries,
	/** The current version as WorldPresetSchema reads it, without `id`; null while only a draft exists. */
	content: v.nullable(v.record(v.string(), v.unknown())),
	draft: v.nullable(v.object({ form: PresetFormSchema, updatedAt: v.string() }))
});
export type PresetDetailDto = v.InferOutput<typeof PresetDetailSchema>;

/** One image of an author's art (GET /api/v1/presets/{id}/art). */
export const PresetArtSchema = v.object({
	kind: v.picklist(['npc', 'place', 'cover']),
	/** The NPC's or the place's name (absent for the cover). */
	name: v.optional(v.string()),
	/** The NPC's expression; `default` is the plain sprite. */
	expression: v.optional(v.string()),
	url: v.string(),
	width: v.number(),
	height: v.number(),
	bytes: v.number()
});
export type PresetArtDto = v.InferOutput<typeof PresetArtSchema>;

/** The kinds of a preset's sound: music per scene, an ambience loop per place, effects the GM cues. */
export const PRESET_AUDIO_KINDS = ['music', 'ambience', 'effect'] as const;
export type PresetAudioKind = (typeof PRESET_AUDIO_KINDS)[number];

export const PresetAudioSchema = v.object({
	kind: v.picklist(PRESET_AUDIO_KINDS),
	/** The name the GM's cues and the author's place defaults use. */
	name: v.string(),
	url: v.string(),
	contentType: v.picklist(['audio/ogg', 'audio/mpeg', 'audio/mp4']),
	bytes: v.number()
});
export type PresetAudioDto = v.InferOutput<typeof PresetAudioSchema>;

export const GalleryItemSchema = v.object({
	id: v.string(),
	title: v.string(),
	tagline: v.string(),
	language: v.nullable(LanguageSchema),
	author: v.nullable(v.string()),
	plays: v.number(),
	favorites: v.number(),
	official: v.boolean(),
	/** Players in the last 30 days (the Popular shelf's order). */
	recentPlayers: v.number(),
	coverUrl: v.nullable(v.string()),
	/** Tags as the gallery matches them (normalised, lower-case). */
	tags: v.array(v.string()),
	rating: PresetRatingSchema
});
export type GalleryItemDto = v.InferOutput<typeof GalleryItemSchema>;

export const GALLERY_SHELVES = ['new', 'popular', 'favorites'] as const;
export type GalleryShelf = (typeof GALLERY_SHELVES)[number];

export const GalleryPageSchema = v.object({
	items: v.array(GalleryItemSchema),
	/** Pass as `?cursor=` for the next page; null at the end. */
	nextCursor: v.nullable(v.string())
});
export type GalleryPageDto = v.InferOutput<typeof GalleryPageSchema>;

/** The author's own presets, for "My presets". */
export const OwnPresetSchema = v.object({
	id: v.string(),
	title: v.string(),
	tagline: v.string(),
	language: v.nullable(LanguageSchema),
	visibility: PresetVisibilitySchema,
	version: v.nullable(v.number()),
	hasDraft: v.boolean(),
	moderated: v.boolean(),
	plays: v.number(),
	favorites: v.number(),
	updatedAt: v.string()
});
export type OwnPresetDto = v.InferOutput<typeof OwnPresetSchema>;
