/** Control database, the world presets and the gallery (re-exported by control-schema.ts: one schema). */
import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, index, primaryKey, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { LANGUAGES } from '../../types/settings';
import { PRESET_VISIBILITIES } from '../../types/presets';
import { PRESET_RATINGS } from '../../types/rating';
import { users } from './control-schema';

export { PRESET_RATINGS, PRESET_VISIBILITIES };

/*
 * World presets and the gallery. A preset is metadata here plus immutable versions (the validated
 * content); sessions copy the version they start from into their own database. Counters
 * (favourites, players) are kept by triggers (see the migration), so cascades keep them true.
 * Full-text search over title + tagline (`preset_search`, FTS5 trigram) is a virtual table
 * created in the migration; drizzle does not model it.
 */
export const presets = sqliteTable(
	'presets',
	{
		/** Stable integer key: the search index's rowid (a text primary key's rowid can change on VACUUM). */
		seq: integer('seq').primaryKey({ autoIncrement: true }),
		/** The public id: an official world's id, or 20 random base32 characters (the unguessable link). */
		id: text('id').notNull().unique(),
		/** Null for official presets. */
		authorId: text('author_id').references(() => users.id, { onDelete: 'cascade' }),
		official: integer('official', { mode: 'boolean' }).notNull().default(false),
		/** The one language a preset is written in; null for official presets, which ship in every language. */
		language: text('language', { enum: LANGUAGES }),
		visibility: text('visibility', { enum: PRESET_VISIBILITIES }).notNull().default('private'),
		/** Of the current version (or of the draft while there is none); shown on shelves and searched. */
		title: text('title').notNull(),
		tagline: text('tagline').notNull(),
		/** What search matches: title and tagline, lower-cased (every language's for an official preset). */
		searchText: text('search_text').notNull(),
		/** Of the current version: `mature` presets are shown only to those who opted in, and to no one when the operator turned mature off. */
		rating: text('rating', { enum: PRESET_RATINGS }).notNull().default('general'),
		/** Null while the preset is only a draft (an import not yet completed): not playable, not publishable. */
		currentVersion: integer('current_version'),
		/** The author's unsaved editor state (raw form JSON), autosaved; null when there is none. */
		draft: text('draft'),
		draftUpdatedAt: integer('draft_updated_at'),
		/** Set when an administrator took the preset off the shelves. */
		moderatedAt: integer('moderated_at'),
		/** First time the preset became public: the New shelf's order. */
		publishedAt: integer('published_at'),
		/** Distinct players other than the author, all time (trigger-kept) and in the last 30 days (refreshed). */
		playersTotal: integer('players_total').notNull().default(0),
		players30d: integer('players_30d').notNull().default(0),
		favorites: integer('favorites').notNull().default(0),
		createdAt: integer('created_at').notNull(),
		updatedAt: integer('updated_at').notNull(),
		/** On the shelves: public, not moderated, playable, not official (those are listed apart, first). */
		listed: integer('listed', { mode: 'boolean' })
			.notNull()
			.generatedAlwaysAs(sql`visibility = 'public' AND moderated_at IS NULL AND current_version IS NOT NULL AND official = 0`, {
				mode: 'virtual'
			})
	},
	(t) => [
		index('presets_author').on(t.authorId, t.updatedAt),
		index('presets_new').on(t.listed, t.publishedAt, t.seq),
		index('presets_new_language').on(t.listed, t.language, t.publishedAt, t.seq),
		index('presets_popular').on(t.listed, t.players30d, t.favorites, t.publishedAt, t.seq),
		index('presets_popular_language').on(t.listed, t.language, t.players30d, t.favorites, t.publishedAt, t.seq)
	]
);

/** Immutable, validated preset content: a new one per save, so a session's copy never changes under it. */
export const presetVersions = sqliteTable(
	'preset_versions',
	{
		presetId: text('preset_id')
			.notNull()
			.references(() => presets.id, { onDelete: 'cascade' }),
		version: integer('version').notNull(),
		/** The preset as WorldPresetSchema takes it, without `id` (JSON). */
		content: text('content').notNull(),
		contentHash: text('content_hash').notNull(),
		createdAt: integer('created_at').notNull(),
		/** What the author said of this save ('' for none); a restore says which version it brought back. */
		note: text('note').notNull().default(''),
		/** Who saved it (null for versions saved before this was kept, or by an account since deleted). */
		savedBy: text('saved_by').references(() => users.id, { onDelete: 'set null' })
	},
	(t) => [primaryKey({ columns: [t.presetId, t.version] })]
);

/**
 * The current version's tags, normalised (NFKC, lower-cased, spaces collapsed), one row each: the
 * gallery's tag filter reads them by tag. Rewritten with every save.
 */
export const presetTags = sqliteTable(
	'preset_tags',
	{
		presetId: text('preset_id')
			.notNull()
			.references(() => presets.id, { onDelete: 'cascade' }),
		tag: text('tag').notNull()
	},
	(t) => [primaryKey({ columns: [t.presetId, t.tag] }), index('preset_tags_tag').on(t.tag, t.presetId)]
);

export const presetFavorites = sqliteTable(
	'preset_favorites',
	{
		userId: text('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		presetId: text('preset_id')
			.notNull()
			.references(() => presets.id, { onDelete: 'cascade' }),
		createdAt: integer('created_at').notNull()
	},
	(t) => [
		primaryKey({ columns: [t.userId, t.presetId] }),
		index('preset_favorites_shelf').on(t.userId, t.createdAt, t.presetId),
		index('preset_favorites_preset').on(t.presetId)
	]
);

/** One row per (preset, player): who started a session from it, first and last time. */
export const presetPlayers = sqliteTable(
	'preset_players',
	{
		presetId: text('preset_id')
			.notNull()
			.references(() => presets.id, { onDelete: 'cascade' }),
		userId: text('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		firstPlayedAt: integer('first_played_at').notNull(),
		lastPlayedAt: integer('last_played_at').notNull()
	},
	(t) => [
		primaryKey({ columns: [t.presetId, t.userId] }),
		index('preset_players_recent').on(t.presetId, t.lastPlayedAt),
		index('preset_players_user').on(t.userId)
	]
);

/** Reports of a preset by signed-in users; an administrator resolves them (unlist or dismiss). */
export const presetReports = sqliteTable(
	'preset_reports',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		presetId: text('preset_id')
			.notNull()
			.references(() => presets.id, { onDelete: 'cascade' }),
		reporterId: text('reporter_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		reason: text('reason').notNull(),
		createdAt: integer('created_at').notNull(),
		resolvedAt: integer('resolved_at'),
		resolution: text('resolution', { enum: ['unlisted', 'dismissed'] })
	},
	(t) => [uniqueIndex('preset_reports_once').on(t.presetId, t.reporterId), index('preset_reports_open').on(t.resolvedAt, t.createdAt)]
);

/** Every time a user makes a preset public: the per-user publishing rate limit counts these. */
export const presetPublications = sqliteTable(
	'preset_publications',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		userId: text('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		presetId: text('preset_id').notNull(),
		at: integer('at').notNull()
	},
	(t) => [index('preset_publications_user').on(t.userId, t.at)]
);

/**
 * A preset's cover: the opening scene's background, generated as a durable job (pending → done or
 * failed, retried with backoff, resumed after a restart). `slot` names the image store's folder.
 */
export const presetCovers = sqliteTable(
	'preset_covers',
	{
		presetId: text('preset_id')
			.primaryKey()
			.references(() => presets.id, { onDelete: 'cascade' }),
		slot: text('slot').notNull().unique(),
		prompt: text('prompt').notNull(),
		subject: text('subject').notNull(),
		status: text('status', { enum: ['pending', 'running', 'done', 'failed'] }).notNull(),
		attempts: integer('attempts').notNull().default(0),
		image: text('image'),
		error: text('error'),
		leaseExpiresAt: integer('lease_expires_at'),
		nextAttemptAt: integer('next_attempt_at'),
		updatedAt: integer('updated_at').notNull()
	},
	(t) => [index('preset_covers_status').on(t.status, t.nextAttemptAt)]
);

/**
 * Takedowns: why and when an administrator took a preset down, the author's appeal, and a fingerprint of the
 * world's normalised text, so the same world cannot be published again under a new id (export → import →
 * publish). No foreign key to presets: deleting the preset must not wash the fingerprint away.
 */
export const presetTakedowns = sqliteTable(
	'preset_takedowns',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		presetId: text('preset_id').notNull(),
		authorId: text('author_id'),
		fingerprint: text('fingerprint').notNull(),
		reason: text('reason').notNull(),
		adminId: text('admin_id').notNull(),
		at: integer('at').notNull(),
		appeal: text('appeal'),
		appealAt: integer('appeal_at'),
		/** Set when an administrator lifted it: the fingerprint no longer blocks. */
		liftedAt: integer('lifted_at')
	},
	(t) => [index('preset_takedowns_preset').on(t.presetId, t.at), index('preset_takedowns_fingerprint').on(t.fingerprint, t.liftedAt)]
);

/**
 * An author's own art for a preset: a sprite per NPC and expression (`default` is the plain sprite), a
 * background per place (by the scene's name), and the cover. Each image sits in its own folder of the
 * image store (`slot`), so replacing or removing one deletes its file without touching the others.
 * Sessions started from the preset copy the images and use them instead of drawing.
 */
export const presetArt = sqliteTable(
	'preset_art',
	{
		presetId: text('preset_id')
			.notNull()
			.references(() => presets.id, { onDelete: 'cascade' }),
		kind: text('kind', { enum: ['npc', 'place', 'cover'] }).notNull(),
		/** The NPC's or place's name; '' for the cover. */
		name: text('name').notNull(),
		/** The NPC's expression; '' for a place or the cover. */
		expression: text('expression').notNull(),
		slot: text('slot').notNull().unique(),
		image: text('image').notNull(),
		width: integer('width').notNull(),
		height: integer('height').notNull(),
		bytes: integer('bytes').notNull(),
		updatedAt: integer('updated_at').notNull()
	},
	(t) => [primaryKey({ columns: [t.presetId, t.kind, t.name, t.expression] })]
);

/**
 * An author's sound for a preset: music tracks, ambience loops and sound effects, each by a name the
 * GM's stage cues and the author's place defaults use. Each file sits in its own folder of the image
 * store (`slot`), like art, so replacing or removing one deletes its file without touching the others.
 */
export const presetAudio = sqliteTable(
	'preset_audio',
	{
		presetId: text('preset_id')
			.notNull()
			.references(() => presets.id, { onDelete: 'cascade' }),
		kind: text('kind', { enum: ['music', 'ambience', 'effect'] }).notNull(),
		name: text('name').notNull(),
		slot: text('slot').notNull().unique(),
		/** The stored file's content-addressed key (its extension names the format). */
		file: text('file').notNull(),
		bytes: integer('bytes').notNull(),
		updatedAt: integer('updated_at').notNull()
	},
	(t) => [primaryKey({ columns: [t.presetId, t.kind, t.name] })]
);

/** Small facts about the gallery (when popularity was last recomputed). */
export const galleryMeta = sqliteTable('gallery_meta', {
	key: text('key').primaryKey(),
	value: integer('value').notNull()
});
