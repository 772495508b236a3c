/**
 * What a player sees of their own spending in a session: tokens and cost per turn (input split into cached
 * and uncached, output), the prompt-cache hit rate, the budget left in every scope that has a limit, and
 * the turns left today, and what the canon guard did. Read from the session's ledger and the control database's counters.
 */
import { and, asc, eq, like, sql, sum } from 'drizzle-orm';
import { controlSchema, sessionSchema, type ControlDb, type SessionDb } from '../db';
import { utcDay, utcMonth } from '../budget';
import { planOf } from '../tiers';
import { turnKindOf } from '../turn';
import type { Config } from '../config';
import type { AuthUser } from '../auth';
import type { SpendDto } from '../../types/api';

const { ledger } = sessionSchema;
const { usageDaily, usageSession } = controlSchema;

/** The chart shows the most recent turns; older ones still count in the totals. */
const SPEND_TURNS = 60;

export async function sessionSpend(
	app: { config: Pick<Config, 'engine' | 'tiers'>; control: ControlDb },
	s: SessionDb,
	user: AuthUser,
	now = Date.now()
): Promise<SpendDto> {
	const perTurn = await s.db
		.select({
			turnId: ledger.turnId,
			kind: turnKindOf(ledger.turnId),
			at: sql<number>`min(${ledger.createdAt})`,
			calls: sql<number>`count(*)`,
			inputTokens: sql<number>`sum(${ledger.inputTokens})`,
			cachedInputTokens: sql<number>`sum(${ledger.cachedInputTokens})`,
			outputTokens: sql<number>`sum(${ledger.outputTokens})`,
			costMicros: sql<number>`sum(${ledger.costMicros})`
		})
		.from(ledger)
		.groupBy(ledger.turnId)
		.orderBy(asc(sql`min(${ledger.createdAt})`));
	const all = perTurn.map((t, i) => ({
		n: i + 1,
		kind: t.kind ?? 'player',
		at: new Date(Number(t.at)).toISOString(),
		calls: Number(t.calls),
		inputTokens: Number(t.inputTokens),
		cachedInputTokens: Number(t.cachedInputTokens),
		outputTokens: Number(t.outputTokens),
		costMicros: Number(t.costMicros)
	}));
	const input = all.reduce((n, t) => n + t.inputTokens, 0);
	const cached = all.reduce((n, t) => n + t.cachedInputTokens, 0);
	const budget = app.config.engine.budget;
	const budgets: SpendDto['budgets'] = [];
	const [counted] = await app.control.db
		.select({ cost: usageSession.costMicros, rewrites: usageSession.canonRewrites, stopped: usageSession.canonStopped })
		.from(usageSession)
		.where(eq(usageSession.sessionId, s.id));
	if (budget.turn.limit !== undefined) budgets.push({ scope: 'turn', limitMicros: budget.turn.limit, leftMicros: budget.turn.limit });
	if (budget.session.limit !== undefined)
		budgets.push({
			scope: 'session',
			limitMicros: budget.session.limit,
			leftMicros: Math.max(0, budget.session.limit - (counted?.cost ?? 0))
		});
	if (budget.userDay.limit !== undefined) {
		const [row] = await app.control.db
			.select({ cost: usageDaily.costMicros })
			.from(usageDaily)
			.where(and(eq(usageDaily.userId, user.id), eq(usageDaily.day, utcDay(now))));
		budgets.push({
			scope: 'user_day',
			limitMicros: budget.userDay.limit,
			leftMicros: Math.max(0, budget.userDay.limit - (row?.cost ?? 0))
		});
	}
	if (budget.globalMonth.limit !== undefined) {
		const [row] = await app.control.db
			.select({ cost: sum(usageDaily.costMicros) })
			.from(usageDaily)
			.where(like(usageDaily.day, `${utcMonth(now)}-%`));
		budgets.push({
			scope: 'global_month',
			limitMicros: budget.globalMonth.limit,
			leftMicros: Math.max(0, budget.globalMonth.limit - Number(row?.cost ?? 0))
		});
	}
	return {
		turns: all.slice(-SPEND_TURNS),
		totals: {
			turns: all.length,
			inputTokens: input,
			cachedInputTokens: cached,
			outputTokens: all.reduce((n, t) => n + t.outputTokens, 0),
			costMicros: all.reduce((n, t) => n + t.costMicros, 0),
			cacheHitRate: input > 0 ? cached / input : null
		},
		canon: { rewrites: counted?.rewrites ?? 0, stopped: counted?.stopped ?? 0 },
		budgets,
		plan: await planOf(app.control.db, app.config, user, now)
	};
}
