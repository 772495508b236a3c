/**
 * JSON shapes of world presets and the gallery (`/api/v1/presets…`, `/api/v1/gallery`), shared by
 * the routes that write them and the pages that read them. Browser-safe.
 */
import type { PresetForm, PresetLanguage } from '../presets/form';

export type PresetVisibility = 'private' | 'unlisted' | 'public';

/** One problem with a preset's content, on the field (dot path, '' for the whole preset) it concerns. */
export interface ContentIssueDto {
	path: string;
	/** Stable code a page translates (`presetError.<code>`); `message` is the English text. */
	code: ContentIssueCode;
	params: Record<string, string | number>;
	message: string;
}

export type ContentIssueCode =
	| 'empty'
	| 'tooLong'
	| 'singleLine'
	| 'tooFewRows'
	| 'tooManyRows'
	| 'npcNameTag'
	| 'secretKey'
	| 'duplicateNpc'
	| 'duplicateSecret'
	| 'presentUnknown'
	| 'presentTwice'
	| 'onStageTooMany'
	| 'headings'
	| 'leak'
	| 'stateObject'
	| 'tooLarge'
	| 'other';

/** What anyone who may see a preset sees: never document bodies, NPC personalities, GM behaviour or secrets. */
export interface PresetCardDto {
	id: string;
	official: boolean;
	/** null for an official preset, which is played in either language. */
	language: PresetLanguage | null;
	title: string;
	tagline: string;
	author: string | null;
	visibility: PresetVisibility;
	/** Document titles only. */
	documents: string[];
	npcs: { name: string; role: string; appearance: string }[];
	opening: { scene: string };
	/** Distinct players other than the author, all time. */
	plays: number;
	favorites: number;
	/** Whether the asking user has it among their favourites. */
	favorited: boolean;
	/** The cover image (the opening scene's background); null while the placeholder shows. */
	coverUrl: string | null;
	/** The version new sessions start from; null while the preset is only a draft. */
	version: number | null;
	publishedAt: string | null;
	updatedAt: string;
	/** Set when an administrator took it off the shelves (only its author sees it then). */
	moderated: boolean;
}

/** The author's view: the card plus the whole content of the current version and any unsaved draft. */
export interface PresetDetailDto extends PresetCardDto {
	/** The current version as WorldPresetSchema reads it, without `id`; null while only a draft exists. */
	content: Record<string, unknown> | null;
	draft: { form: PresetForm; updatedAt: string } | null;
}

export interface GalleryItemDto {
	id: string;
	title: string;
	tagline: string;
	language: PresetLanguage | null;
	author: string | null;
	plays: number;
	favorites: number;
	official: boolean;
	/** Players in the last 30 days (the Popular shelf's order). */
	recentPlayers: number;
	coverUrl: string | null;
}

export type GalleryShelf = 'new' | 'popular' | 'favorites';

export interface GalleryPageDto {
	items: GalleryItemDto[];
	/** Pass as `?cursor=` for the next page; null at the end. */
	nextCursor: string | null;
}

/** The author's own presets, for "My presets". */
export interface OwnPresetDto {
	id: string;
	title: string;
	tagline: string;
	language: PresetLanguage | null;
	visibility: PresetVisibility;
	version: number | null;
	hasDraft: boolean;
	moderated: boolean;
	plays: number;
	favorites: number;
	updatedAt: string;
}
