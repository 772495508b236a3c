/**
 * Control database, continued: the usage counters that quotas, budgets and the spend panel read (per user and
 * day, per session), apart from the rest of the control schema. `control-schema.ts` re-exports them, so they
 * are part of `controlSchema` and of the control database's migrations.
 */
import { sqliteTable, text, integer, index, primaryKey } from 'drizzle-orm/sqlite-core';

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
		/** Hand-made image regenerations ordered (the per-day allowance). */
		regenerations: integer('regenerations').notNull().default(0),
		calls: integer('calls').notNull().default(0),
		costMicros: integer('cost_micros').notNull().default(0)
	},
	(t) => [primaryKey({ columns: [t.userId, t.day] }), index('usage_daily_day').on(t.day)]
);

/** Spending per play session (all time), for the per-session scope across processes; and what the canon guard did in it. */
export const usageSession = sqliteTable('usage_session', {
	sessionId: text('session_id').primaryKey(),
	calls: integer('calls').notNull().default(0),
	costMicros: integer('cost_micros').notNull().default(0),
	/** Replies and tool calls the canon guard withdrew and had written again (issue 27). */
	canonRewrites: integer('canon_rewrites').notNull().default(0),
	/** Turns the canon guard stopped (the GM gave a term away again after its rewrite). */
	canonStopped: integer('canon_stopped').notNull().default(0)
});
