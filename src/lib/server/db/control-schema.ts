/** Control database: everything that spans play sessions. One per deployment. */
import { sqliteTable, text, integer, index, primaryKey } from 'drizzle-orm/sqlite-core';
import { LANGUAGES, PROVIDER_NAMES } from '../../types/settings';
import { SIGN_IN_PROVIDERS, TIERS } from '../../types/account';
import { TURN_MODES } from '../../types/members';

// The usage counters live beside this file (a schema of their own concern); drizzle-kit reads them through here.
export * from './control-usage-schema';

export const users = sqliteTable('users', {
	id: text('id').primaryKey(),
	name: text('name').notNull().unique(),
	/** '' for an account without a password (one made by signing in with a provider): it never verifies. */
	passwordHash: text('password_hash').notNull(),
	isAdmin: integer('is_admin', { mode: 'boolean' }).notNull().default(false),
	/** `free` (daily turn quota, fixed model, no hand-made image regeneration) or `plus`. */
	tier: text('tier', { enum: TIERS }).notNull().default('free'),
	createdAt: integer('created_at').notNull(),
	/** Set while an administrator has suspended the account: no sign-in by any way, its data kept. */
	suspendedAt: integer('suspended_at'),
	/** The person chose to see presets rated mature (the gallery hides them otherwise, and always when the operator turned mature off). */
	showMature: integer('show_mature', { mode: 'boolean' }).notNull().default(false)
});

/**
 * Ways in through an OAuth 2.0 / OpenID Connect provider: the provider's stable subject id for the person
 * (OIDC `sub`, GitHub's numeric user id), linked to one account. An account may have several.
 */
export const userIdentities = sqliteTable(
	'user_identities',
	{
		provider: text('provider', { enum: SIGN_IN_PROVIDERS }).notNull(),
		subject: text('subject').notNull(),
		userId: text('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		/** What the provider called the person when linked (shown on the account page only). */
		label: text('label').notNull(),
		createdAt: integer('created_at').notNull(),
		lastUsedAt: integer('last_used_at').notNull()
	},
	(t) => [primaryKey({ columns: [t.provider, t.subject] }), index('user_identities_user').on(t.userId)]
);

/**
 * One row per LLM call: metadata only (who, which provider and model, token counts, cost, latency, outcome,
 * retries), never the prompt or the reply. The operator's usage page reads this.
 */
export const llmCalls = sqliteTable(
	'llm_calls',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		at: integer('at').notNull(),
		/** UTC day of `at`, for grouping. */
		day: text('day').notNull(),
		userId: text('user_id').notNull(),
		sessionId: text('session_id').notNull(),
		provider: text('provider', { enum: PROVIDER_NAMES }).notNull(),
		model: text('model').notNull(),
		inputTokens: integer('input_tokens').notNull(),
		cachedInputTokens: integer('cached_input_tokens').notNull(),
		cacheWriteTokens: integer('cache_write_tokens').notNull(),
		outputTokens: integer('output_tokens').notNull(),
		costMicros: integer('cost_micros').notNull(),
		/** From sending the request to the end of the stream (or the failure), every retry included. */
		latencyMs: integer('latency_ms').notNull(),
		/** Attempts after the first one. */
		retries: integer('retries').notNull(),
		/** Null when the call succeeded; else the LlmError kind (rate_limit, timeout, …). */
		failure: text('failure')
	},
	(t) => [index('llm_calls_day').on(t.day), index('llm_calls_user_day').on(t.userId, t.day)]
);

/** Cookie sessions. The id is the SHA-256 of the cookie token: a leaked table grants nothing. */
export const authSessions = sqliteTable(
	'auth_sessions',
	{
		id: text('id').primaryKey(),
		userId: text('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		createdAt: integer('created_at').notNull(),
		expiresAt: integer('expires_at').notNull()
	},
	(t) => [index('auth_sessions_user').on(t.userId)]
);

/**
 * One-time password-reset links an administrator makes for an account (there is no mail: the admin passes the
 * link on). Only the SHA-256 of the link's token is stored; a used or expired row never works again.
 */
export const passwordResets = sqliteTable(
	'password_resets',
	{
		tokenHash: text('token_hash').primaryKey(),
		userId: text('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		createdAt: integer('created_at').notNull(),
		expiresAt: integer('expires_at').notNull(),
		usedAt: integer('used_at')
	},
	(t) => [index('password_resets_user').on(t.userId)]
);

/**
 * What administrators did (suspend, delete, reset, revoke, take down, lift, tier), for other admins to read and
 * export. No foreign keys: the log outlives the accounts and presets it names, so names are copied in.
 */
export const adminAudit = sqliteTable(
	'admin_audit',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		at: integer('at').notNull(),
		adminId: text('admin_id').notNull(),
		adminName: text('admin_name').notNull(),
		action: text('action').notNull(),
		targetKind: text('target_kind', { enum: ['user', 'preset'] }).notNull(),
		targetId: text('target_id').notNull(),
		targetName: text('target_name').notNull(),
		detail: text('detail').notNull().default('')
	},
	(t) => [index('admin_audit_at').on(t.at)]
);

/** Personal API tokens for `Authorization: Bearer`. Only the SHA-256 of the token is stored. */
export const apiTokens = sqliteTable(
	'api_tokens',
	{
		id: text('id').primaryKey(),
		userId: text('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		name: text('name').notNull(),
		tokenHash: text('token_hash').notNull().unique(),
		createdAt: integer('created_at').notNull(),
		expiresAt: integer('expires_at'),
		lastUsedAt: integer('last_used_at')
	},
	(t) => [index('api_tokens_user').on(t.userId)]
);

/** The index of play sessions; each one's records live in its own database. */
export const playSessions = sqliteTable(
	'play_sessions',
	{
		id: text('id').primaryKey(),
		ownerId: text('owner_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		title: text('title').notNull(),
		language: text('language', { enum: LANGUAGES }).notNull().default('en'),
		/** Play together: `free` (whoever sends first) or `round` (only `currentSeat` may send; it moves on as seats send or pass). */
		turnMode: text('turn_mode', { enum: TURN_MODES }).notNull().default('free'),
		/** The seat whose turn it is in `round` mode (the owner's is 1); a seat nobody holds any more stands for the next one held. */
		currentSeat: integer('current_seat').notNull().default(1),
		/** When the seat whose turn it is got it (round order): the owner may skip it `skipAfterSeconds` later. Null: before this was kept. */
		seatSince: integer('seat_since'),
		/** Round order: how long a seat may keep the table waiting before the owner may skip it (issue 25: default five minutes). */
		skipAfterSeconds: integer('skip_after_seconds').notNull().default(300),
		createdAt: integer('created_at').notNull(),
		updatedAt: integer('updated_at').notNull()
	},
	(t) => [index('play_sessions_owner').on(t.ownerId, t.updatedAt)]
);

/** A budget warning fires once per (scope, key, period); this row is the "once". */
export const budgetWarnings = sqliteTable(
	'budget_warnings',
	{
		scope: text('scope').notNull(),
		scopeKey: text('scope_key').notNull(),
		period: text('period').notNull(),
		warnedAt: integer('warned_at').notNull()
	},
	(t) => [primaryKey({ columns: [t.scope, t.scopeKey, t.period] })]
);

/**
 * Failed sign-ins, per account name (`account:<name, lower case>`, whether or not the account
 * exists) and per client address (`address:<ip>`). Kept here, not in memory, so the throttle holds
 * across server processes. A row is forgotten once it has been quiet for a while and its lock is over.
 */
export const signInFailures = sqliteTable(
	'sign_in_failures',
	{
		key: text('key').primaryKey(),
		failures: integer('failures').notNull(),
		lastFailureAt: integer('last_failure_at').notNull(),
		/** Epoch ms before which no sign-in is tried for this key; 0 when not locked. */
		lockedUntil: integer('locked_until').notNull().default(0)
	},
	(t) => [index('sign_in_failures_last_failure').on(t.lastFailureAt)]
);

/**
 * Money set aside for calls in flight (an LLM call's worst case, an image's price), taken in the same
 * write transaction that checks the limits, so concurrent turns in any session or process can't all
 * pass the check before any of them is counted. Settled (deleted, the real cost counted) when the call
 * ends; a reservation whose process died is dropped once it expires.
 */
export const budgetReservations = sqliteTable(
	'budget_reservations',
	{
		id: text('id').primaryKey(),
		userId: text('user_id').notNull(),
		sessionId: text('session_id').notNull(),
		day: text('day').notNull(),
		micros: integer('micros').notNull(),
		expiresAt: integer('expires_at').notNull()
	},
	(t) => [
		index('budget_reservations_user_day').on(t.userId, t.day),
		index('budget_reservations_day').on(t.day),
		index('budget_reservations_session').on(t.sessionId)
	]
);

/**
 * Play sessions that may have unfinished turns (accepted, or running under a lease). A starting
 * server resumes these: accepted turns run, turns whose runner died are marked interrupted. Rows are
 * added when a turn is queued and removed by the runner once the session has none left.
 */
export const sessionWork = sqliteTable('session_work', {
	sessionId: text('session_id').primaryKey(),
	since: integer('since').notNull()
});

/**
 * Session databases created through a platform API (Turso): one row per database from before it is
 * requested until it is confirmed deleted, so a crash or a failed call never leaves an untracked
 * database behind. `creating` → `ready` → `deleting` → (row removed). Rows in `deleting`, and `ready`
 * rows whose play session is gone, are retried by the sweeper and listed by `kantera doctor`.
 */
export const sessionDatabases = sqliteTable(
	'session_databases',
	{
		sessionId: text('session_id').primaryKey(),
		/** The database's name on the platform. */
		name: text('name').notNull().unique(),
		/** Its hostname, once created. */
		hostname: text('hostname'),
		status: text('status', { enum: ['creating', 'ready', 'deleting'] }).notNull(),
		attempts: integer('attempts').notNull().default(0),
		lastError: text('last_error'),
		createdAt: integer('created_at').notNull(),
		updatedAt: integer('updated_at').notNull()
	},
	(t) => [index('session_databases_status').on(t.status, t.updatedAt)]
);

// The world presets' and the gallery's tables, kept in a file of their own; one schema all the same.
export * from './control-presets-schema';
export * from './control-sessions-schema';
