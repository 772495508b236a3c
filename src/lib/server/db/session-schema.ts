/**
 * Session database: one per play session, holding that session's records and their search index.
 *
 * Search sections (`sections`) are the unit of recall. Full-text indexes over them and the embedding
 * queue are kept in step by triggers (see the custom migration), so any transaction that writes a
 * section updates the index in the same transaction. Vectors live in `section_vectors`, created at
 * run time because its F32_BLOB dimension is fixed per database by the embedding model in use.
 */
import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';
import { FAILURE_CLASSES } from '../../types/events';
import { TIERS } from '../../types/account';
import type { SaveThumbnail } from '../../types/saves';

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

/**
 * Markdown documents: world setting, premise, PC sheet. `gmOnly` ones never reach the player; a
 * GM-only document with `titleVisible` (another author's world) shows the player its title only.
 */
export const documents = sqliteTable('documents', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	title: text('title').notNull(),
	body: text('body').notNull(),
	gmOnly: integer('gm_only', { mode: 'boolean' }).notNull().default(false),
	titleVisible: integer('title_visible', { mode: 'boolean' }).notNull().default(false),
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
 * Who knows a record (issue 27): the characters on stage when a journal entry, a note, a truth or a
 * play-log line was written, or those the GM named as told (a note's `known_by`). `recall` with
 * `known_by` keeps to what one character witnessed or was told. Names are kept as `characterKey`
 * reads them (NFKC, trimmed, lower case), so they match the stage's way.
 */
export const witnesses = sqliteTable(
	'witnesses',
	{
		kind: text('kind', { enum: ['journal', 'memory', 'story', 'log'] }).notNull(),
		recordId: integer('record_id').notNull(),
		name: text('name').notNull()
	},
	(t) => [primaryKey({ columns: [t.kind, t.recordId, t.name] })]
);

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

/**
 * Turns: one row per player input (or checkpoint). The idempotency key makes a resend return the
 * same turn; the lease (owner + expiry) lets exactly one runner in any process execute it.
 */
export const turns = sqliteTable(
	'turns',
	{
		id: text('id').primaryKey(),
		idempotencyKey: text('idempotency_key').notNull().unique(),
		kind: text('kind', { enum: ['player', 'checkpoint', 'handoff'] }).notNull(),
		userId: text('user_id').notNull(),
		/** The player's tier when accepted (its quota counted under it): the turn plays its model. Null: harness turns, older rows. */
		tier: text('tier', { enum: TIERS }),
		input: text('input').notNull(),
		/** Play together. A whisper: who whispered the line, as which character (only they and the GM read it); null: public. */
		whisperBy: text('whisper_by'),
		whisperAs: text('whisper_as'),
		/** `merged`: a line queued while the GM wrote, answered by turn `mergedInto`; `senderId`: who sent it when not `userId` (who pays). */
		status: text('status', { enum: ['accepted', 'running', 'committed', 'failed', 'interrupted', 'cancelled', 'merged'] }).notNull(),
		senderId: text('sender_id'),
		mergedInto: text('merged_into'),
		reply: text('reply'),
		/** Fixed, player-safe words for an interrupted or cancelled turn; never a provider's message. */
		error: text('error'),
		/** Why a failed turn failed, by class (see FAILURE_CLASSES); the details are in the server log under `errorId`. */
		failureReason: text('failure_reason', { enum: FAILURE_CLASSES }),
		errorId: text('error_id'),
		/** Why a committed turn ended early (budget, round cap); null when it ended normally. */
		stopped: text('stopped'),
		provider: text('provider'),
		model: text('model'),
		cancelRequested: integer('cancel_requested', { mode: 'boolean' }).notNull().default(false),
		/** Commit order within the session (1, 2, 3…); history since a checkpoint is `seq >` its seq. */
		seq: integer('seq'),
		/** Tokens of input + reply, counted once at commit: the checkpoint threshold sums these. */
		tokens: integer('tokens'),
		leaseOwner: text('lease_owner'),
		leaseExpiresAt: integer('lease_expires_at'),
		createdAt: integer('created_at').notNull(),
		startedAt: integer('started_at'),
		finishedAt: integer('finished_at')
	},
	(t) => [
		index('turns_status').on(t.status, t.createdAt),
		// Commit order: the next seq, the last checkpoint and the history since it are read on every
		// turn; without this index each of them scans every turn ever played (and its text).
		index('turns_seq').on(t.seq)
	]
);

/** The session's event log behind SSE: ids are the SSE ids, strictly increasing. */
export const events = sqliteTable(
	'events',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		turnId: text('turn_id'),
		type: text('type').notNull(),
		data: text('data').notNull(),
		createdAt: integer('created_at').notNull()
	},
	(t) => [index('events_turn').on(t.turnId)]
);

/** Cost ledger: one row per LLM call, from the provider's usage numbers and the price table. */
export const ledger = sqliteTable(
	'ledger',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		turnId: text('turn_id').notNull(),
		/** The turn's outcome when the row was written: committed rows come with the turn, others after it ended. */
		outcome: text('outcome', { enum: ['committed', 'failed', 'cancelled'] }).notNull(),
		provider: text('provider').notNull(),
		model: text('model').notNull(),
		inputTokens: integer('input_tokens').notNull(),
		cachedInputTokens: integer('cached_input_tokens').notNull(),
		cacheWriteTokens: integer('cache_write_tokens').notNull(),
		outputTokens: integer('output_tokens').notNull(),
		costMicros: integer('cost_micros').notNull(),
		createdAt: integer('created_at').notNull()
	},
	(t) => [index('ledger_turn').on(t.turnId)]
);

/** NPCs registered by the GM (register_npc): appearance feeds the sprite prompt, nothing secret. */
export const npcs = sqliteTable('npcs', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	name: text('name').notNull().unique(),
	appearance: text('appearance').notNull(),
	/** Image id of the current sprite, once generated. */
	spriteImage: text('sprite_image'),
	createdAt: integer('created_at').notNull(),
	updatedAt: integer('updated_at').notNull()
});

/** Scenes (places) registered by the GM (set_scene): the description feeds the background prompt. */
export const scenes = sqliteTable('scenes', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	name: text('name').notNull().unique(),
	description: text('description').notNull(),
	backgroundImage: text('background_image'),
	createdAt: integer('created_at').notNull(),
	updatedAt: integer('updated_at').notNull()
});

/** ADV stage cues of a committed GM message, tied to paragraphs; played after the reply completes. */
export const stageCues = sqliteTable(
	'stage_cues',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		turnId: text('turn_id').notNull(),
		messageId: integer('message_id').notNull(),
		paragraph: integer('paragraph').notNull(),
		ord: integer('ord').notNull(),
		cue: text('cue', { mode: 'json' }).notNull().$type<Record<string, unknown>>()
	},
	(t) => [index('stage_cues_message').on(t.messageId, t.paragraph, t.ord)]
);

/** Image orders: written with the turn, started only after it commits (by the image job runner). */
export const imageOrders = sqliteTable(
	'image_orders',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		turnId: text('turn_id'),
		target: text('target', { enum: ['npc', 'scene'] }).notNull(),
		targetName: text('target_name').notNull(),
		prompt: text('prompt').notNull(),
		status: text('status', { enum: ['pending', 'running', 'done', 'failed'] }).notNull(),
		attempts: integer('attempts').notNull().default(0),
		image: text('image'),
		error: text('error'),
		/** The job runner holding this order while it is `running`, and until when (renewed while it works). */
		leaseOwner: text('lease_owner'),
		leaseExpiresAt: integer('lease_expires_at'),
		/** A pending order that failed waits until then before its next attempt (backoff); null = now. */
		nextAttemptAt: integer('next_attempt_at'),
		createdAt: integer('created_at').notNull(),
		updatedAt: integer('updated_at').notNull()
	},
	(t) => [index('image_orders_status').on(t.status, t.createdAt)]
);

/**
 * Time travel (undo, reroll, edit): the before-images of every row a turn's commit wrote, kept per
 * turn. Filled by triggers over the live schema (db/undo-log.ts) while `undo_capture` names the
 * committing turn, inside that commit's own transaction: `before` is the row as JSON before the turn
 * first touched it, or null when the turn created it (undo deletes it then).
 */
export const undoLog = sqliteTable(
	'undo_log',
	{
		turnId: text('turn_id').notNull(),
		tbl: text('tbl').notNull(),
		rowId: integer('row_id').notNull(),
		before: text('before')
	},
	(t) => [primaryKey({ columns: [t.turnId, t.tbl, t.rowId] })]
);

/** The turn whose commit is being captured into `undo_log`; a row exists only inside that commit's transaction. */
export const undoCapture = sqliteTable('undo_capture', {
	turnId: text('turn_id').primaryKey()
});

/**
 * Turns taken back by an undo, reroll or edit. Their rows leave `turns` (so the records are exactly
 * as before them); this keeps their idempotency keys, so a resend of an undone turn's request is
 * answered "undone" instead of playing it again.
 */
export const undoneTurns = sqliteTable('undone_turns', {
	id: text('id').primaryKey(),
	idempotencyKey: text('idempotency_key').notNull().unique(),
	kind: text('kind', { enum: ['player', 'checkpoint', 'handoff'] }).notNull(),
	input: text('input').notNull(),
	/** The undo request (its idempotency key) that took the turn back. */
	undoKey: text('undo_key').notNull(),
	undoneAt: integer('undone_at').notNull()
});

/**
 * Swipes (issue 24): the replies to one line of the player's, as alternatives. A member is a turn,
 * named by its idempotency key (known before the turn's row is written, in the same transaction).
 * `group_id` is the turn that answered the line first. The member on screen has its records live and
 * no rows in `alternative_rows`; the others' records wait there until the player chooses one.
 */
export const turnAlternatives = sqliteTable(
	'turn_alternatives',
	{
		turnKey: text('turn_key').primaryKey(),
		groupId: text('group_id').notNull(),
		createdAt: integer('created_at').notNull()
	},
	(t) => [index('turn_alternatives_group').on(t.groupId)]
);

/**
 * The records of an alternative not on screen: per row its turns wrote, the undo log's before-image
 * (`before`, put back into `undo_log` when it is chosen, so it can be undone again) and the row as
 * the alternative left it (`after`, null if it deleted it). `tbl = 'turns'` rows hold the alternative's
 * turn rows themselves.
 */
export const alternativeRows = sqliteTable(
	'alternative_rows',
	{
		turnKey: text('turn_key').notNull(),
		turnId: text('turn_id').notNull(),
		tbl: text('tbl').notNull(),
		rowId: integer('row_id').notNull(),
		before: text('before'),
		after: text('after')
	},
	(t) => [primaryKey({ columns: [t.turnKey, t.turnId, t.tbl, t.rowId] })]
);

/** Undo and reroll requests by idempotency key: a resend answers what the first one did. */
export const timeTravelRequests = sqliteTable('time_travel_requests', {
	key: text('key').primaryKey(),
	action: text('action', { enum: ['undo', 'reroll', 'swipe'] }).notNull(),
	/** The turn the request took back. */
	turnId: text('turn_id').notNull(),
	/** Every turn it took back (the target and the checkpoints and hand-offs after it), as a JSON array. */
	undone: text('undone', { mode: 'json' }).notNull().$type<string[]>(),
	createdAt: integer('created_at').notNull()
});

/**
 * Save slots: a named point in the campaign. The records at that point live in a database of their
 * own (`database`, placed like a session database), so loading one is a copy, exact on any host.
 * `quick` marks the one quick-save slot (replaced by each quick save).
 */
export const saves = sqliteTable(
	'saves',
	{
		id: text('id').primaryKey(),
		name: text('name').notNull(),
		quick: integer('quick', { mode: 'boolean' }).notNull().default(false),
		database: text('database').notNull(),
		/** Commit order of the last turn in the save (0 before the first). */
		turnSeq: integer('turn_seq').notNull(),
		/** Player turns played up to the save. */
		turnNumber: integer('turn_number').notNull(),
		lastLine: text('last_line').notNull(),
		/** The stage at that point, for the slot's thumbnail: the place and the characters on it, with their images. */
		thumbnail: text('thumbnail', { mode: 'json' }).notNull().$type<SaveThumbnail>(),
		/** The line the player was reading when saving, as the screen keys it (`turn:paragraph`): a load opens there. */
		at: text('at'),
		createdAt: integer('created_at').notNull()
	},
	(t) => [index('saves_created').on(t.createdAt)]
);
