/**
 * Session database: one per play session, holding that session's records and their search index.
 *
 * Search sections (`sections`) are the unit of recall. Full-text indexes over them and the embedding
 * queue are kept in step by triggers (see the custom migration), so any transaction that writes a
 * section updates the index in the same transaction. Vectors live in `section_vectors`, created at
 * run time because its F32_BLOB dimension is fixed per database by the embedding model in use.
 */
import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** Small key/value facts about this database (embedding model and dimension, etc.). */
export const meta = sqliteTable('meta', {
	key: text('key').primaryKey(),
	value: text('value').notNull()
});

/** The single state document (location, time, HP, inventory, flags). Row id is always 1. */
export const state = sqliteTable('state', {
	id: integer('id').primaryKey(),
	doc: text('doc', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
	version: integer('version').notNull(),
	updatedAt: integer('updated_at').notNull()
});

/** Chronological events. Append-only. */
export const journal = sqliteTable('journal', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	body: text('body').notNull(),
	ref: text('ref'),
	createdAt: integer('created_at').notNull()
});

/** The GM's named free-form notes (NPCs, foreshadowing, player preferences). */
export const memoryNotes = sqliteTable('memory_notes', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	name: text('name').notNull().unique(),
	body: text('body').notNull(),
	ref: text('ref'),
	createdAt: integer('created_at').notNull(),
	updatedAt: integer('updated_at').notNull()
});

/** Markdown documents: world setting, premise, PC sheet. `gmOnly` ones never reach the player. */
export const documents = sqliteTable('documents', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	title: text('title').notNull(),
	body: text('body').notNull(),
	gmOnly: integer('gm_only', { mode: 'boolean' }).notNull().default(false),
	ref: text('ref'),
	createdAt: integer('created_at').notNull(),
	updatedAt: integer('updated_at').notNull()
});

/** Checkpoint hand-off summaries. Append-only. */
export const summaries = sqliteTable('summaries', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	body: text('body').notNull(),
	ref: text('ref'),
	createdAt: integer('created_at').notNull()
});

/**
 * Story DB (GM-only). One table for the four entry types keeps recall simple:
 * - plot: the skeleton; revisable (story_revise).
 * - truth: a confirmed truth; append-only, its key can never be written twice.
 * - quest: open → resolved|failed|abandoned; resolution saves result and next plan together.
 * - clue: hidden until revealed.
 */
export const storyEntries = sqliteTable(
	'story_entries',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		type: text('type', { enum: ['plot', 'truth', 'quest', 'clue'] }).notNull(),
		key: text('key').notNull(),
		title: text('title').notNull(),
		body: text('body').notNull(),
		status: text('status'),
		result: text('result'),
		nextPlan: text('next_plan'),
		revealed: integer('revealed', { mode: 'boolean' }),
		ref: text('ref'),
		createdAt: integer('created_at').notNull(),
		updatedAt: integer('updated_at').notNull()
	},
	(t) => [uniqueIndex('story_entries_type_key').on(t.type, t.key)]
);

/** The play log: past conversation. Append-only. */
export const logMessages = sqliteTable('log_messages', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	role: text('role', { enum: ['player', 'gm', 'operator', 'system'] }).notNull(),
	speaker: text('speaker'),
	body: text('body').notNull(),
	turnId: text('turn_id'),
	ref: text('ref'),
	createdAt: integer('created_at').notNull()
});

/**
 * Searchable sections. Every record is cut into one or more sections; documents by headings.
 * `kind` + `recordId` point back at the record; `path` is the heading path (`A › B › C`).
 */
export const sections = sqliteTable(
	'sections',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		kind: text('kind', { enum: ['state', 'journal', 'memory', 'document', 'summary', 'story', 'log'] }).notNull(),
		recordId: integer('record_id').notNull(),
		ord: integer('ord').notNull(),
		path: text('path').notNull(),
		body: text('body').notNull(),
		gmOnly: integer('gm_only', { mode: 'boolean' }).notNull(),
		ref: text('ref'),
		/** Hash of path + body: the embedder skips sections whose vector is already for this content. */
		contentHash: text('content_hash').notNull()
	},
	(t) => [index('sections_record').on(t.kind, t.recordId, t.ord)]
);

/** Sections waiting for an embedding. Filled by triggers on `sections`, drained by the embedder. */
export const embedQueue = sqliteTable('embed_queue', {
	sectionId: integer('section_id').primaryKey(),
	enqueuedAt: integer('enqueued_at').notNull()
});
