/**
 * Spending bookkeeping in the control database. Every LLM call is counted right after it returns,
 * outside any turn transaction, so a failed or cancelled turn's spending is counted too; the guard
 * is built from these totals before every turn.
 */
import { and, eq, like, sql, sum } from 'drizzle-orm';
import { controlSchema, type ControlDrizzle } from '../db';
import type { ScopeState, ScopeName } from './guard';

const { usageDaily, usageSession, budgetWarnings } = controlSchema;

export const utcDay = (now: number): string => new Date(now).toISOString().slice(0, 10);
export const utcMonth = (now: number): string => new Date(now).toISOString().slice(0, 7);
/** Start of the next UTC day: when a daily quota resets. */
export const nextUtcDay = (now: number): Date => {
	const d = new Date(now);
	return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
};

export interface MoneyLimits {
	limit: number | undefined;
	warnAt: number | undefined;
}

export interface ScopeLimits {
	turn: MoneyLimits;
	session: MoneyLimits;
	userDay: MoneyLimits;
	globalMonth: MoneyLimits;
	maxToolRounds: number;
}

export interface Who {
	userId: string;
	sessionId: string;
	turnId: string;
}

/** Builds the guard's scopes for one turn from the stored totals. */
export async function loadScopes(db: ControlDrizzle, who: Who, limits: ScopeLimits, now: number): Promise<ScopeState[]> {
	const day = utcDay(now);
	const month = utcMonth(now);
	const [userRow] = await db.select({ cost: usageDaily.costMicros }).from(usageDaily).where(and(eq(usageDaily.userId, who.userId), eq(usageDaily.day, day)));
	const [sessionRow] = await db.select({ cost: usageSession.costMicros }).from(usageSession).where(eq(usageSession.sessionId, who.sessionId));
	const [monthRow] = await db.select({ cost: sum(usageDaily.costMicros) }).from(usageDaily).where(like(usageDaily.day, `${month}-%`));
	const warned = await db.select().from(budgetWarnings).where(sql`(${budgetWarnings.scope}, ${budgetWarnings.scopeKey}, ${budgetWarnings.period}) IN (VALUES ('session', ${who.sessionId}, 'all'), ('user_day', ${who.userId}, ${day}), ('global_month', 'global', ${month}))`);
	const isWarned = (scope: ScopeName) => warned.some((w) => w.scope === scope);
	return [
		{ scope: 'turn', unit: 'calls', period: who.turnId, spent: 0, warned: false, limit: limits.maxToolRounds },
		{ scope: 'turn', unit: 'micros', period: who.turnId, spent: 0, warned: false, ...limits.turn },
		{ scope: 'session', unit: 'micros', period: 'all', spent: sessionRow?.cost ?? 0, warned: isWarned('session'), ...limits.session },
		{ scope: 'user_day', unit: 'micros', period: day, spent: userRow?.cost ?? 0, warned: isWarned('user_day'), ...limits.userDay },
		{ scope: 'global_month', unit: 'micros', period: month, spent: Number(monthRow?.cost ?? 0), warned: isWarned('global_month'), ...limits.globalMonth }
	];
}

/** Counts one finished LLM call against the user's day and the session. */
export async function recordCall(db: ControlDrizzle, who: Pick<Who, 'userId' | 'sessionId'>, costMicros: number, now: number): Promise<void> {
	const day = utcDay(now);
	await db.batch([
		db
			.insert(usageDaily)
			.values({ userId: who.userId, day, calls: 1, costMicros })
			.onConflictDoUpdate({ target: [usageDaily.userId, usageDaily.day], set: { calls: sql`${usageDaily.calls} + 1`, costMicros: sql`${usageDaily.costMicros} + ${costMicros}` } }),
		db
			.insert(usageSession)
			.values({ sessionId: who.sessionId, calls: 1, costMicros })
			.onConflictDoUpdate({ target: usageSession.sessionId, set: { calls: sql`${usageSession.calls} + 1`, costMicros: sql`${usageSession.costMicros} + ${costMicros}` } })
	]);
}

/** Records that a scope warned in a period. True only the first time, across processes. */
export async function markWarned(db: ControlDrizzle, scope: ScopeName, scopeKey: string, period: string, now: number): Promise<boolean> {
	const rows = await db.insert(budgetWarnings).values({ scope, scopeKey, period, warnedAt: now }).onConflictDoNothing().returning({ scope: budgetWarnings.scope });
	return rows.length > 0;
}

export type QuotaResult = { ok: true; used: number } | { ok: false; used: number; resetsAt: Date };

/**
 * Takes one turn from the user's daily free quota, atomically (two requests can't both take the
 * last turn). A quota of 0 means no quota.
 */
export async function takeTurnQuota(db: ControlDrizzle, userId: string, quota: number, now: number): Promise<QuotaResult> {
	const day = utcDay(now);
	if (quota === 0) {
		await db
			.insert(usageDaily)
			.values({ userId, day, turns: 1 })
			.onConflictDoUpdate({ target: [usageDaily.userId, usageDaily.day], set: { turns: sql`${usageDaily.turns} + 1` } });
		return { ok: true, used: 0 };
	}
	const taken = await db
		.insert(usageDaily)
		.values({ userId, day, turns: 1 })
		.onConflictDoUpdate({ target: [usageDaily.userId, usageDaily.day], set: { turns: sql`${usageDaily.turns} + 1` }, setWhere: sql`${usageDaily.turns} < ${quota}` })
		.returning({ turns: usageDaily.turns });
	if (taken[0]) return { ok: true, used: taken[0].turns };
	return { ok: false, used: quota, resetsAt: nextUtcDay(now) };
}

/** Gives a quota turn back (the turn was refused after the quota was taken, e.g. a conflict). */
export async function returnTurnQuota(db: ControlDrizzle, userId: string, now: number): Promise<void> {
	await db
		.update(usageDaily)
		.set({ turns: sql`max(${usageDaily.turns} - 1, 0)` })
		.where(and(eq(usageDaily.userId, userId), eq(usageDaily.day, utcDay(now))));
}
