/** Control database: everything that spans play sessions. One per deployment. */
import { sqliteTable, text, integer, index, primaryKey } from 'drizzle-orm/sqlite-core';

export const users = sqliteTable('users', {
	id: text('id').primaryKey(),
	name: text('name').notNull().unique(),
	passwordHash: text('password_hash').notNull(),
	isAdmin: integer('is_admin', { mode: 'boolean' }).notNull().default(false),
	createdAt: integer('created_at').notNull()
});

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
		language: text('language', { enum: ['ja', 'en'] })
			.notNull()
			.default('en'),
		createdAt: integer('created_at').notNull(),
		updatedAt: integer('updated_at').notNull()
	},
	(t) => [index('play_sessions_owner').on(t.ownerId, t.updatedAt)]
);

/**
 * Spending and turn counts per user per UTC day, updated right after every LLM call (outside any
 * turn transaction) so that even a failed turn's cost is counted. Feeds the per-user daily scope
 * and the free-turn quota.
 */
export const usageDaily = sqliteTable(
	'usage_daily',
	{
		userId: text('user_id').notNull(),
		day: text('day').notNull(),
		turns: integer('turns').notNull().default(0),
		calls: integer('calls').notNull().default(0),
		costMicros: integer('cost_micros').notNull().default(0)
	},
	(t) => [primaryKey({ columns: [t.userId, t.day] }), index('usage_daily_day').on(t.day)]
);

/** Spending per play session (all time), for the per-session scope across processes. */
export const usageSession = sqliteTable('usage_session', {
	sessionId: text('session_id').primaryKey(),
	calls: integer('calls').notNull().default(0),
	costMicros: integer('cost_micros').notNull().default(0)
});

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
